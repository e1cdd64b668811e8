"""RP-22 at the table: a player in turn bets with an item of no value (a bounty chip, a
clock token). The house policy rules it a call or all-in, or the floor does (TDA 1); the
action log keeps the ruled action with the item as its note, and the item is never chips.

Table 1 has players in seats 1, 2 and 3 with 20,000 each, blinds 100/200, the button on
seat 1: seat 2 posts the small blind, seat 3 the big blind, seat 1 acts first."""

import pytest

from clock.tests.factories import with_structure
from floorman.errors import Conflict, Invalid
from floorman.models import AuditEntry
from hands import services
from hands.models import Hand, HandAction
from hands.selectors import actions_public, betting_state, table_state_public
from hands.tests.factories import button_at, deal, seat_players
from tournaments.tests.factories import api, staff, tournament

pytestmark = pytest.mark.django_db


def event_with(policy: str):
    event = tournament()
    with_structure(event)  # level 1: 100/200
    event.non_betting_items = policy
    event.save(update_fields=["non_betting_items"])
    seat_players(event, {1: [1, 2, 3]})
    button_at(event, 1, 1)
    return event


@pytest.fixture
def house_call():
    event = event_with("call")
    return event, deal(event, 1)


@pytest.fixture
def floor_rules():
    event = event_with("floor")
    return event, deal(event, 1)


def item(event, hand, what="bounty_chip", seat=None):
    return services.hand_item(
        actor=None,
        tournament_id=event.pk,
        number=1,
        hand_number=hand.number,
        item=what,
        seat=seat,
    )


def rule(event, hand, ruling, actor=None):
    return services.hand_item_rule(
        actor=actor, tournament_id=event.pk, number=1, hand_number=hand.number, ruling=ruling
    )


def act(event, hand, kind, amount=None):
    return services.hand_action(
        actor=None,
        tournament_id=event.pk,
        number=1,
        hand_number=hand.number,
        kind=kind,
        amount=amount,
    )


def log() -> list[tuple]:
    return list(HandAction.objects.order_by("sequence").values_list("seat", "kind", "item"))


def stored() -> dict:
    return {
        "actions": list(HandAction.objects.values()),
        "hands": list(Hand.objects.values()),
        "audit": AuditEntry.objects.count(),
    }


def history(hand) -> list[str | None]:
    return [row["note"] for row in actions_public(hand)]


# --- The house policy rules -------------------------------------------------------------------


def test_house_policy_call_the_bounty_chip_is_a_call_and_moves_only_the_call(house_call):
    event, hand = house_call

    _hand, logged = item(event, hand)

    assert (logged.seat, logged.kind, logged.item) == (1, "call", "bounty_chip")
    state = betting_state(hand)
    assert state.stacks[1] == 20000 - 200  # the call: the chip itself is worth nothing
    assert state.pot == 300 + 200
    assert history(hand) == ["Seat 1 bet a bounty chip: ruled a call (RP-22)."]


def test_house_policy_all_in_the_clock_token_puts_the_whole_stack_in():
    event = event_with("all_in")
    hand = deal(event, 1)

    _hand, logged = item(event, hand, "clock_token")

    assert (logged.kind, logged.item) == ("all-in", "clock_token")
    state = betting_state(hand)
    assert state.stacks[1] == 0 and state.current_bet == 20000
    assert history(hand) == ["Seat 1 bet a clock token: ruled all-in (RP-22)."]


def test_a_call_with_nothing_to_call_is_a_check_tda_55_a(house_call):
    event, hand = house_call
    act(event, hand, "call")
    act(event, hand, "call")  # the big blind, seat 3, has the option

    item(event, hand, "other")

    assert log()[-1] == (3, "check", "other")
    assert betting_state(hand).street == "flop"
    assert history(hand)[-1] == (
        "Seat 3 bet an item of no value: ruled a check, there was nothing to call (RP-22)."
    )


def test_the_audit_entry_names_the_item_the_ruling_and_rp_22(house_call):
    event, hand = house_call

    item(event, hand)

    entry = AuditEntry.objects.get(action="hand.item")
    assert entry.after["rule"] == "RP-22"
    assert (entry.after["seat"], entry.after["item"], entry.after["ruling"]) == (
        1,
        "bounty_chip",
        "call",
    )
    assert entry.after["action"] == "call"


def test_the_log_replays_and_the_hand_goes_on_after_the_item(house_call):
    event, hand = house_call
    item(event, hand)

    _hand, state = act(event, hand, "fold")

    assert log() == [(1, "call", "bounty_chip"), (2, "fold", "")]
    assert state.to_act == 3


# --- The floor rules --------------------------------------------------------------------------


def test_left_to_the_floor_the_hand_waits_for_the_ruling(floor_rules):
    event, hand = floor_rules

    _hand, logged = item(event, hand)

    assert logged is None and log() == []
    hand.refresh_from_db()
    assert hand.item_pending == "bounty_chip"
    assert table_state_public(hand.table)["hand"]["item_pending"] == "bounty_chip"
    entry = AuditEntry.objects.get(action="hand.item")
    assert (entry.after["rule"], entry.after["ruling"]) == ("RP-22", None)


def test_while_the_floor_is_to_rule_no_other_action_is_logged(floor_rules):
    event, hand = floor_rules
    item(event, hand)

    with pytest.raises(Conflict) as refused:
        act(event, hand, "fold")
    with pytest.raises(Conflict) as again:
        item(event, hand, "clock_token")

    assert refused.value.code == again.value.code == "item_pending"
    assert "RP-22" in refused.value.message
    assert log() == []


@pytest.mark.parametrize(
    ("ruling", "kind", "stack"), [("call", "call", 19800), ("all_in", "all-in", 0)]
)
def test_the_floor_rules_the_item_a_call_or_all_in(floor_rules, ruling, kind, stack):
    event, hand = floor_rules
    floor = staff("floor")
    item(event, hand)

    _hand, logged = rule(event, hand, ruling, actor=floor)

    assert (logged.seat, logged.kind, logged.item) == (1, kind, "bounty_chip")
    hand.refresh_from_db()
    assert hand.item_pending == ""
    assert betting_state(hand).stacks[1] == stack
    entry = AuditEntry.objects.get(action="hand.item_ruling")
    assert entry.actor == floor
    assert (entry.after["rule"], entry.after["ruling"], entry.after["item"]) == (
        "RP-22",
        ruling,
        "bounty_chip",
    )


def test_a_ruling_with_no_item_waiting_is_refused(floor_rules):
    event, hand = floor_rules
    before = stored()

    with pytest.raises(Conflict) as refused:
        rule(event, hand, "call")

    assert refused.value.code == "no_item_pending"
    assert stored() == before


# --- Refused: nothing written -----------------------------------------------------------------


def test_an_item_out_of_turn_is_refused_tda_53_a(house_call):
    event, hand = house_call
    before = stored()

    with pytest.raises(Conflict) as refused:
        item(event, hand, seat=3)

    assert refused.value.http_status == 409
    assert refused.value.data["rule"] == "TDA 53-A"
    assert stored() == before


def test_an_item_with_no_hand_in_play_is_refused():
    event = event_with("call")
    before = stored()

    with pytest.raises(Conflict) as refused:
        services.hand_item(
            actor=None, tournament_id=event.pk, number=1, hand_number=1, item="bounty_chip"
        )

    assert refused.value.code == "no_hand_in_play"
    assert stored() == before


def test_an_item_once_the_betting_is_over_is_refused(house_call):
    event, hand = house_call
    act(event, hand, "fold")
    act(event, hand, "fold")
    before = stored()

    with pytest.raises(Conflict) as refused:
        item(event, hand)

    assert refused.value.http_status == 409
    assert stored() == before


@pytest.mark.parametrize("what", ["", "gold", "chips"])
def test_an_unknown_item_is_400_and_writes_nothing(house_call, what):
    event, hand = house_call
    before = stored()

    with pytest.raises(Invalid) as refused:
        item(event, hand, what)

    assert "item" in refused.value.fields
    assert stored() == before


def test_an_unknown_ruling_is_400_and_writes_nothing(floor_rules):
    event, hand = floor_rules
    item(event, hand)
    before = stored()

    with pytest.raises(Invalid) as refused:
        rule(event, hand, "fold")

    assert "ruling" in refused.value.fields
    assert stored() == before


# --- The API ----------------------------------------------------------------------------------


def url(event, path: str) -> str:
    return f"/api/v1/tournaments/{event.pk}/tables/1/hands/1/{path}"


def test_api_a_dealer_records_the_item_and_the_floor_rules(floor_rules):
    event, _hand = floor_rules
    dealer, floor = api(staff("dealer")), api(staff("floor"))

    waiting = dealer.post(url(event, "item/"), {"item": "clock_token"}, format="json")
    refused = dealer.post(url(event, "item/ruling/"), {"ruling": "call"}, format="json")
    ruled = floor.post(url(event, "item/ruling/"), {"ruling": "call"}, format="json")

    assert waiting.status_code == 201 and waiting.json()["item_pending"] == "clock_token"
    assert refused.status_code == 403
    assert ruled.status_code == 201
    body = ruled.json()
    assert body["item_pending"] is None
    assert body["actions"] == [
        {
            "sequence": 1,
            "street": "preflop",
            "seat": 1,
            "kind": "call",
            "amount": None,
            "item": "clock_token",
            "out_of_turn": None,  # in turn (TDA 53)
            "outcome": None,
            "note": "Seat 1 bet a clock token: ruled a call (RP-22).",
        }
    ]


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("item/", {}, "item"),
        ("item/", {"item": "gold"}, "item"),
        ("item/", {"item": "bounty_chip", "seat": 11}, "seat"),
        ("item/ruling/", {"ruling": "fold"}, "ruling"),
    ],
)
def test_api_bad_input_is_400_with_the_field(floor_rules, path, body, field):
    event, _hand = floor_rules
    before = stored()

    response = api(staff("floor")).post(url(event, path), body, format="json")

    assert response.status_code == 400 and field in response.json()
    assert stored() == before


def test_api_out_of_turn_is_409_and_writes_nothing(house_call):
    event, _hand = house_call
    before = stored()

    response = api(staff("dealer")).post(
        url(event, "item/"), {"item": "bounty_chip", "seat": 2}, format="json"
    )

    assert response.status_code == 409 and response.json()["rule"] == "TDA 53-A"
    assert stored() == before

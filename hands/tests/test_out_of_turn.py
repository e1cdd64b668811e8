"""TDA 53 through the hands API, as a dealer's tablet drives it: an action out of turn is
logged and held, and stands or is let go when the action reaches the seat (53-A, the
Illustration Addendum's examples); a fold out of turn stands (TDA 58); substantial action
out of turn after a skipped player holds the hand until the floor rules on the skipped
hand (53-B). A refused request writes nothing.

Event "A" plays THE 50-100 at its table 1, seats 1-6, button on seat 2: seat 3 posts the
small blind and acts first after the flop, seat 4 the big blind. Event "B" plays NLHE
100-200 at its table 2, seats 1-8, button on seat 8: seat 1 small blind, seat 2 big blind,
seat 3 under the gun. Every player starts with 20,000.
"""

import pytest

from clock.engine import LEVEL, Step
from clock.tests.factories import with_structure
from floorman.models import AuditEntry
from floorman.tests.worlds import world_fixtures
from hands import services
from hands.models import Hand, HandAction
from hands.tests.factories import button_at, seat_players
from tournaments.tests.factories import api, staff, tournament

pytestmark = pytest.mark.django_db


def event_at(table: int, small: int, big: int, seats: list[int], button: int):
    event = tournament()
    with_structure(event, [Step(LEVEL, 20, small, big)])
    seat_players(event, {table: seats})
    button_at(event, table, button)
    services.hand_start(actor=None, tournament_id=event.pk, number=table)
    return event


def url(event, path: str = "") -> str:
    table = event.tables.get().number
    return f"/api/v1/tournaments/{event.pk}/tables/{table}/hands/1/{path}"


class Table:
    """One table's tablet talking to the API: actions in turn, out of turn, the floor."""

    def __init__(self, event):
        self.event = event
        self.dealer = api(staff("dealer"))
        self.floor = api(staff("floor"))

    def act(self, seat: int, kind: str, amount: int | None = None, *, expect: int = 201):
        body = {"kind": kind, "seat": seat, **({"amount": amount} if amount else {})}
        response = self.dealer.post(url(self.event, "actions/"), body, format="json")
        assert response.status_code == expect, response.json()
        return response.json()

    def out_of_turn(self, seat: int, kind: str, amount: int | None = None, *, expect=201):
        body = {"kind": kind, "seat": seat, **({"amount": amount} if amount else {})}
        response = self.dealer.post(url(self.event, "out-of-turn/"), body, format="json")
        assert response.status_code == expect, response.json()
        return response.json()

    def rule(self, seat: int, ruling: str, *, expect: int = 201):
        body = {"seat": seat, "ruling": ruling}
        response = self.floor.post(url(self.event, "out-of-turn/ruling/"), body, format="json")
        assert response.status_code == expect, response.json()
        return response.json()

    def hand(self) -> dict:
        return api().get(url(self.event)).json()


def build_world() -> dict:
    """Events A and B with their first hands dealt (their tables differ: both fit)."""
    return {
        "a": event_at(1, 50, 100, [1, 2, 3, 4, 5, 6], button=2),
        "b": event_at(2, 100, 200, [1, 2, 3, 4, 5, 6, 7, 8], button=8),
    }


# Made once for the module, each test in a savepoint rolled back after it.
world_made, world = world_fixtures(build_world)


@pytest.fixture
def a(world):
    return Table(world["a"])


@pytest.fixture
def b(world):
    return Table(world["b"])


def to_flop(table: Table) -> None:
    """Everyone calls pre-flop, the big blind checks."""
    for seat in (5, 6, 1, 2, 3):
        table.act(seat, "call")
    table.act(4, "check")


def flop_seat_3_opens_300(table: Table) -> None:
    """Example 1: post flop seat 3 opens for 300, seat 4 folds; action is on seat 5."""
    to_flop(table)
    table.act(3, "bet", 300)
    table.act(4, "fold")


def oot_line(hand: dict, seat: int) -> dict:
    return next(a for a in hand["actions"] if a["out_of_turn"] == "action" and a["seat"] == seat)


def stored() -> dict:
    return {
        "actions": list(HandAction.objects.order_by("pk").values()),
        "hands": list(Hand.objects.order_by("pk").values()),
        "audit": AuditEntry.objects.count(),
    }


# --- TDA 53-A, Example 1: "raise to eight hundred" out of turn ------------------------------


def test_53a_example_1_the_oot_raise_is_held_and_action_backs_up_to_seat_5(a):
    flop_seat_3_opens_300(a)

    hand = a.out_of_turn(6, "raise", 800)

    betting = hand["betting"]
    assert betting["to_act"] == 5 and betting["legal"]["call"] == 300
    assert betting["stacks"]["6"] == 19900  # the 800 is held, not in the pot
    assert betting["out_of_turn"]["pending"] == [
        {"seat": 6, "kind": "raise", "amount": 800, "facing": 300}
    ]
    line = oot_line(hand, 6)
    assert (line["kind"], line["amount"], line["outcome"]) == ("raise", 800, None)
    assert "held until the action reaches the seat" in line["note"]
    audit = AuditEntry.objects.get(action="hand.out_of_turn")
    assert (audit.after["seat"], audit.after["to_act"], audit.after["rule"]) == (6, 5, "TDA 53-A")


@pytest.mark.parametrize(("kind", "left"), [("call", 19600), ("fold", 19900)])
def test_53a_example_1_seat_5_calls_or_folds_the_oot_raise_to_800_binds(a, kind, left):
    flop_seat_3_opens_300(a)
    a.out_of_turn(6, "raise", 800)

    hand = a.act(5, kind)

    betting = hand["betting"]
    assert betting["stacks"]["5"] == left
    assert betting["stacks"]["6"] == 19100  # the raise to 800 stood
    assert betting["to_act"] == 1 and betting["legal"]["call"] == 800
    assert betting["out_of_turn"]["pending"] == []
    line = oot_line(hand, 6)
    assert line["outcome"] == "binding"
    assert "it stands, the action to the seat did not change (TDA 53-A)" in line["note"]


def test_53a_example_1_seat_5_raises_to_600_seat_6_gets_the_800_back_and_all_options(a):
    flop_seat_3_opens_300(a)
    a.out_of_turn(6, "raise", 800)

    hand = a.act(5, "raise", 600)

    betting = hand["betting"]
    assert betting["to_act"] == 6
    assert betting["stacks"]["6"] == 19900  # nothing of the 800 went in
    legal = betting["legal"]
    assert (legal["call"], legal["wager"], legal["min_to"]) == (600, "raise", 900)  # or fold
    line = oot_line(hand, 6)
    assert line["outcome"] == "freed"
    assert "not binding, the action to the seat changed" in line["note"]
    assert a.act(6, "raise", 900)["betting"]["stacks"]["6"] == 19000  # the player's choice


# --- TDA 53-A, Example 2: a check out of turn -----------------------------------------------


def flop_seats_3_and_4_check(table: Table) -> None:
    to_flop(table)
    table.act(3, "check")
    table.act(4, "check")


def test_53a_example_2_seat_5_checks_the_oot_check_binds(a):
    flop_seats_3_and_4_check(a)
    a.out_of_turn(6, "check")

    hand = a.act(5, "check")

    assert hand["betting"]["to_act"] == 1  # seat 6 checked in its turn
    assert [(x["seat"], x["kind"]) for x in hand["actions"][-2:]] == [(6, "check"), (5, "check")]
    assert oot_line(hand, 6)["outcome"] == "binding"


def test_53a_example_2_seat_5_bets_300_seat_6_may_call_raise_to_600_or_fold(a):
    flop_seats_3_and_4_check(a)
    a.out_of_turn(6, "check")

    hand = a.act(5, "bet", 300)

    legal = hand["betting"]["legal"]
    assert hand["betting"]["to_act"] == 6
    assert (legal["call"], legal["wager"], legal["min_to"]) == (300, "raise", 600)
    assert oot_line(hand, 6)["outcome"] == "freed"


# --- A fold out of turn stands (TDA 53-A, TDA 58) --------------------------------------------


def test_an_oot_fold_is_binding_even_after_a_raise_in_between(a):
    flop_seat_3_opens_300(a)
    a.out_of_turn(6, "fold")

    hand = a.act(5, "raise", 900)

    assert hand["betting"]["to_act"] == 1 and hand["betting"]["legal"]["call"] == 900
    assert a.act(1, "fold", expect=201)["betting"]["to_act"] == 2  # seat 6 is out
    line = oot_line(hand, 6)
    assert line["outcome"] == "binding"
    assert line["note"] == "Seat 6 folded out of turn: the fold stands (TDA 53-A, TDA 58)."


# --- TDA 53-B, Example 1: substantial action out of turn -------------------------------------


def utg_makes_it_600_seat_4_skipped(table: Table) -> dict:
    """UTG (seat 3) makes it 600; seat 4 is skipped when seat 5 calls 600 out of turn;
    seat 6 thinks for a moment, then folds."""
    table.act(3, "raise", 600)
    table.out_of_turn(5, "call")
    return table.out_of_turn(6, "fold")


def test_53b_example_1_the_hand_holds_for_the_floor(b):
    hand = utg_makes_it_600_seat_4_skipped(b)
    before = stored()

    refused = b.dealer.post(url(b.event, "actions/"), {"kind": "call"}, format="json")
    item = b.dealer.post(url(b.event, "item/"), {"item": "bounty_chip"}, format="json")  # RP-22
    by_dealer = b.dealer.post(
        url(b.event, "out-of-turn/ruling/"), {"seat": 4, "ruling": "dead"}, format="json"
    )

    assert hand["betting"]["out_of_turn"]["awaiting_floor"] == [4]
    assert hand["betting"]["to_act"] == 4
    audits = AuditEntry.objects.filter(action="hand.out_of_turn").order_by("pk")
    assert [entry.after["rule"] for entry in audits] == ["TDA 53-A", "TDA 53-B"]
    assert refused.status_code == 409 and refused.json()["code"] == "oot_floor"
    assert "Floor: TDA 53-B" in refused.json()["detail"]
    assert item.status_code == 409 and item.json()["code"] == "oot_floor"
    assert by_dealer.status_code == 403  # the floor rules, not the dealer
    assert stored() == before


def test_53b_example_1_the_floor_limits_seat_4_then_both_oot_actions_stand(b):
    utg_makes_it_600_seat_4_skipped(b)

    ruled = b.rule(4, "limited")
    raised = b.act(4, "raise", 1800, expect=409)
    hand = b.act(4, "call")

    assert ruled["betting"]["legal"]["wager"] is None  # check, call or fold only
    assert ruled["betting"]["out_of_turn"]["limited"] == [4]
    assert raised["legal"]["wager"] is None and raised["rule"] == "TDA 53-B"
    betting = hand["betting"]
    assert (betting["stacks"]["4"], betting["stacks"]["5"], betting["stacks"]["6"]) == (
        19400,
        19400,
        20000,
    )
    assert betting["to_act"] == 7
    assert [oot_line(hand, seat)["outcome"] for seat in (5, 6)] == ["binding", "binding"]
    assert "after substantial action out of turn (TDA 53-B)" in oot_line(hand, 5)["note"]
    ruling = next(x for x in hand["actions"] if x["out_of_turn"] == "ruling")
    assert ruling["note"] == (
        "The floor limited skipped seat 4 to check, call or fold this betting round (TDA 53-B)."
    )
    audit = AuditEntry.objects.get(action="hand.skipped_ruling")
    assert (audit.after["seat"], audit.after["ruling"], audit.after["rule"]) == (
        4,
        "limited",
        "TDA 53-B",
    )


def test_53b_example_1_the_floor_rules_seat_4_dead(b):
    utg_makes_it_600_seat_4_skipped(b)

    hand = b.rule(4, "dead")

    betting = hand["betting"]
    assert betting["out_of_turn"]["awaiting_floor"] == [] and betting["to_act"] == 7
    assert betting["stacks"]["5"] == 19400 and betting["out_of_turn"]["dead"] == [4]
    assert "The floor ruled skipped seat 4's hand dead (TDA 53-B)." in [
        x["note"] for x in hand["actions"]
    ]


def test_the_log_replays_alike(b):
    utg_makes_it_600_seat_4_skipped(b)
    last = b.rule(4, "limited")
    last = b.act(4, "call")

    again = b.hand()

    assert again["betting"] == last["betting"]
    assert again["actions"] == last["actions"]
    assert [x["sequence"] for x in again["actions"]] == [1, 2, 3, 4, 5]


# --- Refused: 400 or 409, nothing written ---------------------------------------------------


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"seat": 4, "kind": "call"}, 409, "oot_not_in_hand"),  # seat 4 folded
        ({"seat": 7, "kind": "call"}, 409, "oot_not_in_hand"),  # nobody sits there
        ({"seat": 6, "kind": "call"}, 409, "oot_pending"),  # a second one for seat 6
        ({"seat": 5, "kind": "call"}, 409, "oot_in_turn"),
        ({"seat": 1, "kind": "raise", "amount": 500}, 409, "illegal_action"),  # TDA 43
        ({"seat": 1, "kind": "check"}, 409, "illegal_action"),  # TDA 55: facing a bet
        ({"seat": 1, "kind": "raise"}, 400, "invalid"),
        ({"seat": 1, "kind": "shove"}, 400, "invalid"),
        ({"seat": 11, "kind": "call"}, 400, "invalid"),
        ({"kind": "call"}, 400, "invalid"),
    ],
)
def test_a_bad_action_out_of_turn_is_refused_and_writes_nothing(a, body, status, code):
    flop_seat_3_opens_300(a)
    a.out_of_turn(6, "call")
    before = stored()

    response = a.dealer.post(url(a.event, "out-of-turn/"), body, format="json")

    assert response.status_code == status, response.json()
    assert response.json().get("code", "invalid") in (code, "validation_error")
    assert stored() == before


def test_nothing_out_of_turn_once_the_hand_is_over(a):
    services.hand_finish(actor=None, tournament_id=a.event.pk, number=1, hand_number=1)
    before = stored()

    response = a.dealer.post(
        url(a.event, "out-of-turn/"), {"seat": 6, "kind": "fold"}, format="json"
    )

    assert response.status_code == 409 and response.json()["code"] == "hand_finished"
    assert stored() == before


def test_nothing_out_of_turn_while_the_floor_rules_on_a_skipped_hand(b):
    utg_makes_it_600_seat_4_skipped(b)
    before = stored()

    response = b.dealer.post(
        url(b.event, "out-of-turn/"), {"seat": 8, "kind": "fold"}, format="json"
    )

    assert response.status_code == 409 and response.json()["code"] == "oot_floor"
    assert stored() == before


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"seat": 5, "ruling": "dead"}, 409),  # seat 5 was not skipped
        ({"seat": 4, "ruling": "fold"}, 400),
        ({"seat": 4}, 400),
    ],
)
def test_a_bad_ruling_is_refused_and_writes_nothing(b, body, status):
    utg_makes_it_600_seat_4_skipped(b)
    before = stored()

    response = b.floor.post(url(b.event, "out-of-turn/ruling/"), body, format="json")

    assert response.status_code == status
    assert stored() == before


def test_no_ruling_without_a_skipped_hand(a):
    before = stored()

    response = a.floor.post(
        url(a.event, "out-of-turn/ruling/"), {"seat": 4, "ruling": "dead"}, format="json"
    )

    assert response.status_code == 409 and response.json()["code"] == "oot_no_ruling"
    assert stored() == before

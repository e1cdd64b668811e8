"""A player on penalty at the dealer's tablet (TDA 71-C, 68, 30; casino §49), played as
the dealer and the floor play it: the floor gives the penalty (the penalties API), the
dealer deals and finishes on the tablet page and logs the betting through the hands API.

A player on penalty is dealt in and posts blinds and antes, which stay in the pot; the
hand is dead from the deal: never in the order of action, never a contender for a pot.
A penalty given during a hand begins when that hand is over (TDA 68): the player's hand
in play stays live and the hands missed count from the next hand.

Table 2 has players in seats 1-4 with 20,000 each, the button on seat 1: seat 2 posts
the small blind (100), seat 3 the big blind (200), seat 4 acts first pre-flop.
"""

import pytest

from clock.engine import ANTE_BIG_BLIND, LEVEL, Step
from clock.tests.factories import with_structure
from floorman.models import AuditEntry
from hands.models import Elimination, Hand, HandAction, HandPlayer
from hands.tests.factories import button_at, seat_players
from rulings.models import Penalty, PenaltyStatus
from tournaments.models import Entry, EntryStatus
from tournaments.tests.factories import api, staff, tournament

pytestmark = pytest.mark.django_db

API = "/api/v1"


@pytest.fixture
def world():
    event = tournament()
    with_structure(event)  # level 1: 100/200, no ante
    seated = seat_players(event, {2: [1, 2, 3, 4]})
    button_at(event, 2, 1)
    return event, seated


@pytest.fixture
def dealer(client):
    client.force_login(staff("dealer"))
    return client


def page(event) -> str:
    return f"/tournaments/{event.pk}/tables/2/tablet/"


def hand_url(event, hand: int, suffix: str = "") -> str:
    return f"{API}/tournaments/{event.pk}/tables/2/hands/{hand}/{suffix}"


def penalise(event, entry, hands: int) -> Penalty:
    """The floor gives a missed-hands penalty (TDA 71-A) through the API."""
    response = api(staff("floor")).post(
        f"{API}/tournaments/{event.pk}/penalties/",
        {"entry": entry.pk, "kind": "missed_hands", "hands": hands, "rules": ["71-C"]},
        format="json",
    )
    assert response.status_code == 201, response.content
    return Penalty.objects.get(pk=response.json()["id"])


def start(dealer, event):
    response = dealer.post(page(event), {"action": "start"})
    assert response.status_code == 302, response.content
    return Hand.objects.filter(table__number=2).order_by("-number").first()


def act(event, hand: int, kind: str, amount: int | None = None, *, seat: int | None = None):
    body = {"kind": kind}
    if amount is not None:
        body["amount"] = amount
    if seat is not None:
        body["seat"] = seat
    return api(staff("dealer")).post(hand_url(event, hand, "actions/"), body, format="json")


def betting(event, hand: int) -> dict:
    return api().get(hand_url(event, hand)).json()["betting"]


def settle(event, hand: int, cards: dict, board: str = ""):
    return api(staff("dealer")).post(
        hand_url(event, hand, "settle/"), {"cards": cards, "board": board}, format="json"
    )


def end_stacks(hand: Hand) -> dict[int, int | None]:
    return dict(HandPlayer.objects.filter(hand=hand).values_list("seat", "end_stack"))


def html(response) -> str:
    return response.content.decode()


# --- Dead from the deal: blinds posted, never in the order of action ---------------------------


def test_tda_71c_a_penalised_seat_is_dealt_in_posts_and_is_skipped(world, dealer):
    event, seated = world
    penalise(event, seated[(2, 4)], hands=1)

    hand = start(dealer, event)
    shown = html(dealer.get(page(event)))
    before = betting(event, hand.number)

    assert hand.players.get(seat=4).dead and not hand.players.get(seat=3).dead
    assert "dead hand" in shown and "penalty: 1 hand to miss" in shown
    assert "may return after this hand" in shown
    assert before["dead"] == [4] and before["to_act"] == 1  # seat 4 is passed over
    refused = act(event, hand.number, "call", seat=4)
    assert refused.status_code == 409 and refused.json()["rule"] == "TDA 53-A"
    for kind in ("call", "call", "check"):  # seats 1, 2, then the big blind's option
        assert act(event, hand.number, kind).status_code == 201
    assert betting(event, hand.number)["street"] == "flop"
    assert list(HandAction.objects.values_list("seat", flat=True)) == [1, 2, 3]


def test_tda_71c_everyone_folds_to_a_penalised_big_blind_the_last_live_hand_wins(world, dealer):
    event, seated = world
    penalise(event, seated[(2, 3)], hands=1)  # seat 3 posts the big blind
    hand = start(dealer, event)

    act(event, hand.number, "fold")  # seat 4
    act(event, hand.number, "fold")  # seat 1, the button
    over = betting(event, hand.number)
    settled = settle(event, hand.number, {})

    # The small blind is the one live hand left: it wins, the dead big blind cannot.
    assert over["finished"] and over["to_act"] is None and over["legal"] is None
    assert settled.status_code == 200, settled.content
    assert end_stacks(hand) == {1: 20000, 2: 20200, 3: 19800, 4: 20000}
    assert Entry.objects.get(pk=seated[(2, 3)].pk).chips == 19800


def test_tda_71c_a_penalised_big_blind_all_in_from_posting_is_dead_not_live(world, dealer):
    event, seated = world
    short = seated[(2, 3)]
    Entry.objects.filter(pk=short.pk).update(chips=150)  # less than the big blind
    penalise(event, short, hands=2)
    hand = start(dealer, event)

    act(event, hand.number, "call")  # seat 4: the full big blind, 200
    act(event, hand.number, "fold")  # seat 1
    act(event, hand.number, "call")  # seat 2 completes
    for _street in ("flop", "turn", "river"):
        act(event, hand.number, "check")
        act(event, hand.number, "check")
    shown_dead = settle(event, hand.number, {"3": "As Ah", "2": "Kd Kc", "4": "7c 2d"}, "")
    settled = settle(event, hand.number, {"2": "Kd Kc", "4": "7c 2d"}, board="Qh Js 9c 5d 3h")

    # Its cards never play (400, nothing written); the 150 it posted go to seat 2's kings.
    assert shown_dead.status_code == 400
    assert "dead from the deal (TDA 71-C)" in str(shown_dead.json()["cards"])
    assert settled.status_code == 200, settled.content
    assert end_stacks(hand) == {1: 20000, 2: 20350, 3: None, 4: 19800}
    # Blinded out while away (TDA 71-A): seat 3 is out in this hand.
    assert Elimination.objects.get().entry_id == short.pk
    assert Entry.objects.get(pk=short.pk).status == EntryStatus.BUSTED


def test_tda_71c_the_dead_seats_blinds_and_big_blind_ante_stay_in_the_pot(dealer):
    event = tournament()
    with_structure(event, steps=[Step(LEVEL, 20, 100, 200, ante=200, ante_type=ANTE_BIG_BLIND)])
    seated = seat_players(event, {2: [1, 2, 3, 4]})
    button_at(event, 2, 1)
    penalise(event, seated[(2, 3)], hands=1)
    hand = start(dealer, event)

    dealt = betting(event, hand.number)
    act(event, hand.number, "raise", 600)  # seat 4
    act(event, hand.number, "fold")  # seat 1
    act(event, hand.number, "fold")  # seat 2
    settle(event, hand.number, {})

    assert dealt["pot"] == 500 and dealt["stacks"]["3"] == 19600  # blind 200, ante 200
    # Seat 4 wins the blinds and the ante; only the 400 nobody matched come back to it.
    assert end_stacks(hand) == {1: 20000, 2: 19900, 3: 19600, 4: 20500}


# --- TDA 68: a penalty given during a hand starts with the next ---------------------------------


def test_tda_68_a_penalty_given_during_the_hand_leaves_that_hand_live(world, dealer):
    event, seated = world
    offender = seated[(2, 4)]
    first = start(dealer, event)
    act(event, first.number, "call")  # seat 4
    penalty = penalise(event, offender, hands=1)  # during hand 1

    shown = html(dealer.get(page(event)))
    assert "plays this hand; penalty from the next" in shown
    assert "dead hand" not in shown and "may return after this hand" not in shown
    for kind in ("fold", "fold"):  # seats 1 and 2
        act(event, first.number, kind)
    act(event, first.number, "check")  # the big blind
    act(event, first.number, "check")  # flop: seat 3
    flop = betting(event, first.number)
    assert flop["to_act"] == 4 and flop["dead"] == []  # the action reaches seat 4, live
    assert act(event, first.number, "bet", 400).status_code == 201
    act(event, first.number, "fold")  # seat 3
    assert settle(event, first.number, {}).status_code == 200
    assert end_stacks(first)[4] == 20300  # it won hand 1
    penalty.refresh_from_db()
    assert penalty.hands_served == 0  # hand 1 is not one of the hands missed

    second = start(dealer, event)
    assert list(second.players.filter(dead=True).values_list("seat", flat=True)) == [4]
    assert betting(event, second.number)["dead"] == [4]
    dealer.post(page(event), {"action": "finish", "hand": str(second.number)})
    penalty.refresh_from_db()
    assert (penalty.hands_served, penalty.status) == (1, PenaltyStatus.SERVED)

    third = start(dealer, event)
    assert not third.players.filter(dead=True).exists()  # served: back in play


def test_a_penalty_ended_after_the_deal_leaves_the_hand_dead_and_its_log_replays(world, dealer):
    """The dead seats are kept with the hand: the floor letting the player back during
    the hand changes nothing in it, and its action log replays the same."""
    event, seated = world
    penalty = penalise(event, seated[(2, 4)], hands=3)
    hand = start(dealer, event)
    act(event, hand.number, "call")  # seat 1

    ended = api(staff("floor")).post(
        f"{API}/tournaments/{event.pk}/penalties/{penalty.pk}/end/", format="json"
    )

    assert ended.status_code == 200, ended.content
    after = betting(event, hand.number)
    assert after["dead"] == [4] and after["to_act"] == 2


# --- The result typed on the tablet: a dead hand wins nothing --------------------------------


@pytest.mark.parametrize(
    "data, message",
    [
        ({"stack_4": "20100"}, "it won nothing"),
        ({"busts": ["1"], "eliminator": "4"}, "eliminated nobody"),
        ({"busts": ["1", "2", "3"]}, "not every player can bust"),
    ],
)
def test_tda_71c_the_tablet_refuses_a_result_where_a_dead_hand_wins(world, dealer, data, message):
    event, seated = world
    if "eliminator" in data:
        event.bounty_format = "knockout"
        event.bounty = 5000
        event.save(update_fields=["bounty_format", "bounty"])
    penalise(event, seated[(2, 4)], hands=1)
    hand = start(dealer, event)
    audit = AuditEntry.objects.count()

    response = dealer.post(page(event), {"action": "finish", "hand": str(hand.number), **data})

    assert response.status_code == 400
    assert message in html(response)
    hand.refresh_from_db()
    assert hand.status == "playing" and not Elimination.objects.exists()
    assert AuditEntry.objects.count() == audit


def test_every_player_dealt_in_on_penalty_is_refused_with_the_rule(world, dealer):
    event, seated = world
    for seat in (1, 2, 3, 4):
        penalise(event, seated[(2, seat)], hands=1)
    audit = AuditEntry.objects.count()

    response = dealer.post(page(event), {"action": "start"})

    assert response.status_code == 409
    assert "TDA 71-C" in html(response)
    assert not Hand.objects.exists() and AuditEntry.objects.count() == audit

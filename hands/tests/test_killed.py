"""TDA 65 and 66 through the hands API, as the dealer's tablet or the floor drive it: a
hand killed during play is dead at once, whoever's turn it is; the chips it called stay
in the pot, an uncalled bet or raise goes back (65-A); a fouled hand that can be
identified stays in play (65-B); in stud, upcards picked up facing action kill the hand
(66). The kill is a line of the hand's log and replays alike. A refused request writes
nothing.

NLHE 50-100 at table 1, seats 1-4, the button on seat 4: seat 1 posts the small blind,
seat 2 the big blind, seat 3 is first to act pre-flop, seat 2 first after the flop.
"""

import pytest

from clock.engine import LEVEL, Step
from clock.tests.factories import with_structure
from floorman.models import AuditEntry
from hands import services
from hands.models import Hand, HandAction, HandPlayer
from hands.tests.factories import button_at, seat_players
from tournaments.tests.factories import api, staff, tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    event = tournament()
    with_structure(event, [Step(LEVEL, 20, 50, 100)])
    seat_players(event, {1: [1, 2, 3, 4]})
    button_at(event, 1, 4)
    services.hand_start(actor=None, tournament_id=event.pk, number=1)
    return event


def url(event, path: str = "") -> str:
    return f"/api/v1/tournaments/{event.pk}/tables/1/hands/1/{path}"


@pytest.fixture
def dealer():
    return api(staff("dealer"))


def act(event, seat: int, kind: str, amount: int | None = None) -> None:
    services.hand_action(
        actor=None,
        tournament_id=event.pk,
        number=1,
        hand_number=1,
        kind=kind,
        seat=seat,
        amount=amount,
    )


def kill(client, event, seat, reason, *, expect=201) -> dict:
    response = client.post(url(event, "kill/"), {"seat": seat, "reason": reason}, format="json")
    assert response.status_code == expect, response.json()
    return response.json()


def to_flop(event) -> None:
    """Seat 3 raises to 300, seat 4 calls, the small blind folds, the big blind calls:
    950 in the pot, seats 2, 3 and 4 on the flop."""
    act(event, 3, "raise", 300)
    act(event, 4, "call")
    act(event, 1, "fold")
    act(event, 2, "call")


def stored() -> dict:
    return {
        "actions": list(HandAction.objects.order_by("pk").values()),
        "hands": list(Hand.objects.order_by("pk").values()),
        "players": list(HandPlayer.objects.order_by("pk").values()),
        "audit": AuditEntry.objects.count(),
    }


def last_line(hand: dict) -> dict:
    return hand["actions"][-1]


# --- TDA 65-A ------------------------------------------------------------------------------


def test_65a_a_hand_the_dealer_killed_by_mistake_keeps_its_called_bets_in_the_pot(event, dealer):
    to_flop(event)
    act(event, 2, "check")

    hand = kill(dealer, event, 4, "mistake")  # seat 3 is in turn, not seat 4

    betting = hand["betting"]
    assert betting["pot"] == 950  # seat 4's 300 stays in
    assert betting["stacks"]["4"] == 20000 - 300  # no refund of the call
    assert betting["to_act"] == 3  # the action stays on the seat in turn
    assert betting["killed"] == [
        {"seat": 4, "reason": "mistake", "rule": "TDA 65-A", "returned": 0}
    ]
    line = last_line(hand)
    assert (line["seat"], line["kind"], line["out_of_turn"]) == (4, "mistake", "killed")
    assert line["note"] == (
        "Seat 4's hand was killed by the dealer by mistake (TDA 65-A). No refund of calls: "
        "the chips called stay in the pot (TDA 65-A)."
    )
    entry = AuditEntry.objects.get(action="hand.kill")
    assert (entry.after["seat"], entry.after["rule"], entry.after["returned"]) == (
        4,
        "TDA 65-A",
        0,
    )


def test_65a_an_uncalled_raise_goes_back_to_the_killed_hand(event, dealer):
    to_flop(event)
    act(event, 2, "check")
    act(event, 3, "bet", 500)
    act(event, 4, "raise", 1500)

    hand = kill(dealer, event, 4, "fouled")  # fouled, and the floor cannot identify it

    betting = hand["betting"]
    assert betting["killed"][0]["returned"] == 1000  # the raise nobody called
    assert betting["stacks"]["4"] == 20000 - 300 - 500  # the 500 matching seat 3's bet stays
    assert betting["pot"] == 950 + 500 + 500
    assert betting["to_act"] == 2 and betting["legal"]["call"] == 500
    assert "1000, goes back to the player (TDA 65-A)" in last_line(hand)["note"]


def test_ifp_4_8_where_the_house_gives_back_only_a_raise_an_opening_bet_stays(dealer):
    event = tournament(house_settings={"killed_hand_refund": "raise"})
    with_structure(event, [Step(LEVEL, 20, 50, 100)])
    seat_players(event, {1: [1, 2, 3, 4]})
    button_at(event, 1, 4)
    services.hand_start(actor=None, tournament_id=event.pk, number=1)
    to_flop(event)
    act(event, 2, "check")
    act(event, 3, "bet", 500)

    hand = kill(dealer, event, 3, "mistake")

    assert hand["betting"]["killed"][0]["returned"] == 0
    assert hand["betting"]["stacks"]["3"] == 20000 - 300 - 500
    assert hand["betting"]["pot"] == 950 + 500


def test_a_hand_killed_before_its_turn_is_passed_over_when_the_action_comes_round(event, dealer):
    act(event, 3, "raise", 300)

    hand = kill(dealer, event, 1, "mistake")  # the small blind, seat 4 in turn
    assert hand["betting"]["to_act"] == 4
    act(event, 4, "call")

    betting = dealer.get(url(event)).json()["betting"]
    assert betting["to_act"] == 2  # seat 1 never acts again
    assert betting["stacks"]["1"] == 20000 - 50  # its small blind stays in the pot


def test_65a_the_last_live_hand_wins_the_pot_as_when_everyone_folds(event, dealer):
    to_flop(event)
    act(event, 2, "bet", 400)
    act(event, 3, "fold")

    hand = kill(dealer, event, 4, "mistake")  # seat 4 faces the bet; its cards are mucked

    assert hand["betting"]["finished"] is True
    assert hand["betting"]["stacks"]["2"] == 20000 - 300  # its uncalled 400 back
    services.hand_settle(actor=None, tournament_id=event.pk, number=1, hand_number=1, cards={})
    ends = dict(HandPlayer.objects.values_list("seat", "end_stack"))
    assert ends[2] == 20000 - 300 + 950
    assert ends[4] == 20000 - 300


def test_the_log_replays_alike(event, dealer):
    to_flop(event)
    act(event, 2, "check")
    act(event, 3, "bet", 500)
    last = kill(dealer, event, 3, "mistake")
    act(event, 4, "check")

    again = dealer.get(url(event)).json()

    assert again["actions"][:7] == last["actions"]
    assert again["betting"]["street"] == "turn"
    assert again["betting"]["stacks"]["3"] == 20000 - 300  # the bet nobody called came back
    assert [line["sequence"] for line in again["actions"]] == [1, 2, 3, 4, 5, 6, 7, 8]


# --- TDA 65-B: fouled, but identifiable -----------------------------------------------------


def test_65b_a_fouled_hand_that_can_be_identified_stays_in_play_and_nothing_is_written(
    event, dealer
):
    to_flop(event)
    before = stored()

    response = dealer.post(
        url(event, "kill/"), {"seat": 4, "reason": "identifiable"}, format="json"
    )

    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "kill_identifiable"
    assert "TDA 65-B" in body["detail"] and "stays in play" in body["detail"]
    assert stored() == before


# --- TDA 66: stud ---------------------------------------------------------------------------

STUD_STEPS = [Step(LEVEL, 20, 100, 200, ante=50, ante_type="ante", small_bet=200, big_bet=400)]


@pytest.fixture
def stud():
    """Stud 200/400, a 50 ante, a 100 bring-in; seats 1-4, the button on seat 4. The
    deuce of clubs in seat 3 brings it in; seat 4 is next."""
    event = tournament(game="stud")
    with_structure(event, STUD_STEPS)
    seat_players(event, {1: [1, 2, 3, 4]})
    button_at(event, 1, 4)
    services.hand_start(actor=None, tournament_id=event.pk, number=1)
    services.hand_upcards(
        actor=None,
        tournament_id=event.pk,
        number=1,
        hand_number=1,
        cards={1: "Kh", 2: "7d", 3: "2c", 4: "9s"},
    )
    act(event, 3, "bet", 100)
    return event


def test_66_stud_upcards_picked_up_facing_action_kill_the_hand(stud, dealer):
    hand = kill(dealer, stud, 1, "upcards")  # seat 1 faces the bring-in, seat 4 in turn

    betting = hand["betting"]
    assert betting["killed"] == [{"seat": 1, "reason": "upcards", "rule": "TDA 66", "returned": 0}]
    assert betting["to_act"] == 4
    assert betting["stacks"]["1"] == 20000 - 50  # the ante stays in the pot
    assert (
        "picked up the upcards facing action: the hand is dead (TDA 66)"
        in (last_line(hand)["note"])
    )


def test_66_without_action_to_face_the_upcards_rule_does_not_apply(stud, dealer):
    act(stud, 4, "call")  # seat 4 has acted: no action is on it until someone raises
    before = stored()

    response = dealer.post(url(stud, "kill/"), {"seat": 4, "reason": "upcards"}, format="json")

    assert response.status_code == 409 and response.json()["code"] == "kill_not_facing"
    assert stored() == before


# --- Refused: 400 or 409, nothing written ---------------------------------------------------


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"seat": 1, "reason": "mistake"}, 409, "kill_not_in_hand"),  # seat 1 folded
        ({"seat": 7, "reason": "mistake"}, 409, "kill_not_in_hand"),  # nobody sits there
        ({"seat": 3, "reason": "mistake"}, 409, "kill_not_in_hand"),  # already killed
        ({"seat": 2, "reason": "upcards"}, 409, "kill_not_stud"),  # TDA 66 is for stud
        ({"seat": 2, "reason": "bored"}, 400, "validation_error"),
        ({"seat": 11, "reason": "mistake"}, 400, "validation_error"),
        ({"reason": "mistake"}, 400, "validation_error"),
        ({"seat": 2}, 400, "validation_error"),
    ],
)
def test_a_bad_kill_is_refused_and_writes_nothing(event, dealer, body, status, code):
    to_flop(event)
    kill(dealer, event, 3, "mistake")
    before = stored()

    response = dealer.post(url(event, "kill/"), body, format="json")

    assert response.status_code == status, response.json()
    assert response.json().get("code", "validation_error") in (code, "invalid")
    assert stored() == before


def test_the_last_live_hand_cannot_be_killed(event, dealer):
    to_flop(event)
    kill(dealer, event, 3, "mistake")
    kill(dealer, event, 4, "mistake")
    before = stored()

    response = dealer.post(url(event, "kill/"), {"seat": 2, "reason": "mistake"}, format="json")

    assert response.status_code == 409 and response.json()["code"] == "kill_last_hand"
    assert stored() == before


def test_no_kill_without_a_hand_in_play(event, dealer):
    services.hand_finish(actor=None, tournament_id=event.pk, number=1, hand_number=1)
    before = stored()

    response = dealer.post(url(event, "kill/"), {"seat": 2, "reason": "mistake"}, format="json")

    assert response.status_code == 409 and response.json()["code"] == "hand_finished"
    assert stored() == before


@pytest.mark.parametrize("who", [None, "cashier"])
def test_only_a_dealer_or_the_floor_kills_a_hand(event, who):
    client = api(staff(who)) if who else api()
    before = stored()

    response = client.post(url(event, "kill/"), {"seat": 3, "reason": "mistake"}, format="json")

    assert response.status_code in (401, 403)
    assert stored() == before
    floor = api(staff("floor"))
    assert kill(floor, event, 3, "mistake")["betting"]["to_act"] == 4


def test_a_killed_hand_is_no_action_toward_substantial_action(event, dealer):
    act(event, 3, "call")
    kill(dealer, event, 4, "mistake")

    # One action in turn so far (TDA 36): a misdeal may still be called (TDA 35-D), and
    # the re-deal wipes the log, the kill with it (TDA 35-C).
    response = dealer.post(url(event, "misdeal/"), {}, format="json")

    assert response.status_code == 200, response.json()
    assert HandAction.objects.count() == 0
    assert dealer.get(url(event)).json()["betting"]["killed"] == []

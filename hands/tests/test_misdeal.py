"""A misdeal (TDA 35) through the tablet API and the tablet page: the hand is dealt again
exactly (35-C) until substantial action (35-D, 36), or until two bets or raises where the
house follows casino §34 (the house setting "misdeal_until")."""

import pytest

from clock.tests.factories import with_structure
from floorman.models import AuditEntry
from hands.engine.misdeal import misdeal_refusal, substantial_action
from hands.models import Hand, HandAction
from hands.services.away import away_start
from hands.tests.factories import button_at, seat_players
from seating.models import Seat, Table, TableState
from tournaments.tests.factories import api, staff, tournament

pytestmark = pytest.mark.django_db


# --- The rule, without a database ---------------------------------------------------------


@pytest.mark.parametrize(
    ("kinds", "reached"),
    [
        ([], False),
        (["fold"], False),
        (["fold", "fold"], False),  # two folds: no chips in (TDA 36 A)
        (["check", "check"], False),
        (["fold", "call"], True),  # two actions, one with chips (36 A)
        (["raise"], False),
        (["fold", "fold", "fold"], True),  # any three actions (36 B)
    ],
)
def test_substantial_action_tda_36(kinds, reached):
    assert substantial_action(kinds) is reached


def test_the_readings_differ_after_calls_and_after_checks():
    assert misdeal_refusal(["fold", "call", "call"], "tda") == "TDA 35-D"
    assert misdeal_refusal(["fold", "call", "call"], "casino") is None  # no bet or raise
    assert misdeal_refusal(["raise", "raise"], "casino") == "casino §34"
    assert misdeal_refusal(["raise", "fold"], "casino") is None


# --- Through the API ----------------------------------------------------------------------


@pytest.fixture
def event():
    """Table 2, four players, the button on seat 1: seat 2 small blind, seat 3 big blind,
    seat 4 first to act pre-flop. Level 1: 100/200."""
    event = tournament()
    with_structure(event)
    seat_players(event, {2: [1, 2, 3, 4]})
    button_at(event, 2, 1)
    return event


def url(event, path: str) -> str:
    return f"/api/v1/tournaments/{event.pk}/tables/2/{path}"


def dealt(event, dealer) -> dict:
    response = dealer.post(url(event, "hands/"))
    assert response.status_code == 201
    return response.json()


def act(event, dealer, kind, amount=None):
    body = {"kind": kind} if amount is None else {"kind": kind, "amount": amount}
    response = dealer.post(url(event, "hands/1/actions/"), body, format="json")
    assert response.status_code == 201, response.json()


def misdeal(event, dealer):
    return dealer.post(url(event, "hands/1/misdeal/"))


def test_a_misdeal_before_substantial_action_deals_the_same_hand_again_tda_35_c(event):
    dealer = api(staff("dealer"))
    first = dealt(event, dealer)
    act(event, dealer, "raise", 600)  # one action: no substantial action yet
    state_before = TableState.objects.values().get()

    response = misdeal(event, dealer)

    assert response.status_code == 200
    again = response.json()
    assert again["number"] == first["number"] == 1
    assert (again["button"], again["small_blind"], again["big_blind"]) == (1, 2, 3)
    assert again["level"] == first["level"]
    assert [p["seat"] for p in again["players"]] == [p["seat"] for p in first["players"]]
    assert again["actions"] == []
    assert again["betting"]["to_act"] == 4  # the first to act again
    assert Hand.objects.count() == 1 and not HandAction.objects.exists()
    # The button does not move and no hand is counted twice (TDA 35-C).
    assert TableState.objects.values().get() == state_before
    entry = AuditEntry.objects.filter(action="hand.misdeal").get()
    assert entry.before == {"actions": [[4, "raise", 600]]}
    assert entry.after["rule"] == "TDA 35-C"


def test_no_misdeal_after_substantial_action_tda_35_d(event):
    dealer = api(staff("dealer"))
    dealt(event, dealer)
    act(event, dealer, "fold")
    act(event, dealer, "call")  # seat 4 folds, the button calls: SA (TDA 36 A)

    response = misdeal(event, dealer)

    assert response.status_code == 409
    assert "TDA 35-D" in response.json()["detail"]
    assert HandAction.objects.count() == 2
    assert not AuditEntry.objects.filter(action="hand.misdeal").exists()


def test_casino_reading_lets_calls_pass_but_not_two_raises_casino_34(event):
    event.house_settings = {"misdeal_until": "casino"}
    event.save(update_fields=["house_settings"])
    dealer = api(staff("dealer"))
    dealt(event, dealer)
    act(event, dealer, "fold")
    act(event, dealer, "call")
    act(event, dealer, "call")  # three actions: SA under TDA 36, but no bet or raise

    assert misdeal(event, dealer).status_code == 200

    act(event, dealer, "raise", 600)
    act(event, dealer, "raise", 1800)
    refused = misdeal(event, dealer)
    assert refused.status_code == 409
    assert "casino §34" in refused.json()["detail"]
    assert HandAction.objects.count() == 2


def test_a_player_on_penalty_is_dealt_in_again_and_killed_one_hand_served_tda_35_c(event):
    dealer = api(staff("dealer"))
    table = Table.objects.get(tournament=event, number=2)
    on_penalty = Seat.objects.get(table=table, number=4).entry
    record = away_start(tournament=event, entry=on_penalty, table=table, hands=2)
    hand = dealt(event, dealer)
    dead = {p["seat"]: p["dead"] for p in hand["players"]}
    assert dead[4] is True  # dealt in dead (TDA 71-C)
    act(event, dealer, "raise", 600)  # the button: seat 4 is skipped

    again = misdeal(event, dealer).json()

    assert again["actions"] == []
    assert {p["seat"]: p["dead"] for p in again["players"]} == dead  # dealt in dead again
    finished = dealer.post(url(event, "hands/1/finish/"), {"busts": []}, format="json")
    assert finished.status_code == 200
    record.refresh_from_db()
    assert record.hands_missed == 1  # the deal and the re-deal are one hand


def test_misdeal_of_a_finished_or_other_hand_is_refused(event):
    dealer = api(staff("dealer"))
    assert misdeal(event, dealer).status_code == 409  # no hand in play
    dealt(event, dealer)
    assert dealer.post(url(event, "hands/7/misdeal/")).status_code == 409


def test_misdeal_needs_a_dealer_or_the_floor(event):
    dealt(event, api(staff("dealer")))
    assert api(staff("cashier")).post(url(event, "hands/1/misdeal/")).status_code == 403
    assert api().post(url(event, "hands/1/misdeal/")).status_code in (401, 403)


# --- Through the tablet page --------------------------------------------------------------


def test_the_tablet_offers_the_misdeal_and_deals_again(event, client):
    client.force_login(staff("dealer"))
    page = f"/tournaments/{event.pk}/tables/2/tablet/"
    client.post(page, {"action": "start"})

    shown = client.get(page).content.decode()
    response = client.post(page, {"action": "misdeal", "hand": "1"}, follow=True)

    assert "Misdeal (TDA 35)" in shown
    assert response.status_code == 200
    assert "deal hand 1 again" in response.content.decode()
    assert AuditEntry.objects.filter(action="hand.misdeal").count() == 1


def test_the_tablet_refuses_a_late_misdeal_and_says_why(event, client):
    client.force_login(staff("dealer"))
    dealer = api(staff("dealer"))
    page = f"/tournaments/{event.pk}/tables/2/tablet/"
    client.post(page, {"action": "start"})
    act(event, dealer, "fold")
    act(event, dealer, "raise", 600)

    response = client.post(page, {"action": "misdeal", "hand": "1"})

    assert response.status_code == 409
    assert "TDA 35-D" in response.content.decode()
    assert HandAction.objects.count() == 2

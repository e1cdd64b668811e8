"""The floor calculators read the house settings where the rule books disagree (issue 19):
an undercall (TDA 51-B or casino §37) and more than one odd chip (TDA 20-A / IFP 3.6 or
casino §20). Left out of the question, the default venue's reading applies."""

import pytest

from tournaments.models import Venue
from tournaments.tests.factories import api

pytestmark = pytest.mark.django_db

API = "/api/v1"

# Multi-way on the flop: A bets 1,000, B raises to 3,000, C puts out 1,000 silently with
# chips left: an undercall facing a raise, not the opening bet (TDA 51-B, Addendum).
UNDERCALL = {
    "game": "nlhe",
    "blinds": [50, 100],
    "street": "flop",
    "actions": [
        {"player": "A", "action": "bet", "to": 1000},
        {"player": "B", "action": "raise", "to": 3000},
    ],
    "player": "C",
    "stack": 10000,
    "in_front": 0,
    "declaration": None,
    "declared_amount": None,
    "chips": [1000],
    "pot": 300,
}


def ask_bet(**overrides):
    response = api().post(f"{API}/rulings/bet/", {**UNDERCALL, **overrides}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def test_tda_51_b_leaves_a_multiway_undercall_against_a_raise_to_the_td():
    body = ask_bet()
    assert (body["action"], body["to"]) == ("call", 3000)
    assert "51-B" in body["rules"]
    assert "TD's discretion" in body["explanation"]


def test_casino_37_completes_the_call_or_forfeits_and_no_raise():
    body = ask_bet(undercall="casino")
    assert (body["action"], body["to"]) == ("call", 3000)
    assert "casino §37" in body["rules"] and "51-B" not in body["rules"]
    assert "a raise is no longer allowed" in body["explanation"]


def test_the_default_venues_undercall_reading_applies_when_the_question_leaves_it_out():
    Venue.objects.create(name="Casino", is_default=True, house_settings={"undercall": "casino"})
    assert "casino §37" in ask_bet()["rules"]
    assert "51-B" in ask_bet(undercall="tda")["rules"]  # the question may say otherwise


def test_a_bad_undercall_reading_is_a_400_naming_the_field():
    response = api().post(f"{API}/rulings/bet/", {**UNDERCALL, "undercall": "x"}, format="json")
    assert response.status_code == 400
    assert "undercall" in response.json()


# Four put in 275 each; seat 4 folded; seats 1-3 tie for 1,100: 366 each and two odd
# chips, the button on seat 4, so seat 1 is the first winner left of it.
SPLIT = {
    "contributions": [
        {"seat": 1, "total": 275},
        {"seat": 2, "total": 275},
        {"seat": 3, "total": 275},
        {"seat": 4, "total": 275, "folded": True},
    ],
    "winners": [[1, 2, 3]],
    "button": 4,
}


def ask_pots(**overrides):
    response = api().post(f"{API}/rulings/pots/", {**SPLIT, **overrides}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def test_tda_20_a_gives_the_odd_chips_one_each_from_the_button():
    body = ask_pots()
    assert body["totals"] == {"1": 367, "2": 367, "3": 366}
    assert "20-A" in body["rules"]


def test_casino_20_gives_every_odd_chip_to_the_worst_position():
    body = ask_pots(odd_chips="worst_position")
    assert body["totals"] == {"1": 368, "2": 366, "3": 366}
    assert body["rules"] == ["casino §20"]


def test_the_default_venues_odd_chip_reading_applies():
    Venue.objects.create(
        name="Casino", is_default=True, house_settings={"odd_chips": "worst_position"}
    )
    assert ask_pots()["totals"]["1"] == 368

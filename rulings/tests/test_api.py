"""The rulings API: the rule book, the floor calculators (public, stateless), incidents
and penalties (floor and director only)."""

import pytest

from hands.tests.factories import seat_players
from rulings.models import Incident, Penalty, Venue
from tournaments.tests.factories import api, staff, tournament

pytestmark = pytest.mark.django_db

API = "/api/v1"


# --- Rule book ------------------------------------------------------------------------------


def test_rule_book_search_in_english_and_german():
    found = api().get(f"{API}/rulings/rules/", {"q": "overchip"}).json()["rules"]
    assert found[0]["number"] == "44"
    german = api().get(f"{API}/rulings/rules/", {"q": "Überchip"}, HTTP_ACCEPT_LANGUAGE="de")
    assert german.json()["rules"][0]["number"] == "44"


def test_rule_shows_the_house_rules_on_it():
    venue = Venue.objects.create(name="Casino", is_default=True)
    venue.rules.create(kind="override", tda="29", title="Clock", text="One minute.")
    body = api().get(f"{API}/rulings/rules/29/").json()
    assert body["number"] == "29"
    assert body["house_rules"] == [
        {"kind": "override", "number": "", "title": "Clock", "text": "One minute."}
    ]
    assert api().get(f"{API}/rulings/rules/72/").status_code == 404


# --- Calculators ----------------------------------------------------------------------------


def bet_body(**overrides):
    body = {
        "game": "nlhe",
        "blinds": [50, 100],
        "street": "flop",
        "actions": [{"player": "A", "action": "bet", "to": 1000}],
        "player": "B",
        "stack": 10000,
        "in_front": 0,
        "declaration": None,
        "declared_amount": None,
        "chips": [1000],
        "pot": 300,
    }
    return {**body, **overrides}


def test_lone_overchip_is_a_call_tda_44():
    response = api().post(f"{API}/rulings/bet/", bet_body(chips=[5000]), format="json")
    assert response.status_code == 200
    body = response.json()
    assert (body["action"], body["to"]) == ("call", 1000)
    assert "44" in body["rules"]
    assert body["explanation"]


def test_fourteen_hundred_over_a_thousand_is_a_call_tda_43():
    """TDA 43: 1,400 facing 1,000 is less than half a raise more: a call."""
    body = (
        api()
        .post(f"{API}/rulings/bet/", bet_body(chips=[], declared_amount=1400), format="json")
        .json()
    )
    assert (body["action"], body["to"], body["min_raise_to"]) == ("call", 1000, 2000)


def test_multiple_chips_half_a_raise_more_make_a_raise_tda_45():
    body = api().post(f"{API}/rulings/bet/", bet_body(chips=[1000, 500]), format="json").json()
    assert (body["action"], body["to"], body["reopened"]) == ("raise", 2000, True)
    assert body["rules"] == ["45-B", "43-A"]


def test_unclear_amount_follows_the_house_setting():
    body = bet_body(chips=[], declaration="raise", declared_readings=[250, 2050], pot=5000)
    body["actions"] = [{"player": "A", "action": "bet", "to": 200}]
    tda = api().post(f"{API}/rulings/bet/", body, format="json").json()
    Venue.objects.create(name="Casino", is_default=True, house_settings={"unclear_amount": "ifp"})
    ifp = api().post(f"{API}/rulings/bet/", body, format="json").json()
    assert tda["to"] > ifp["to"]
    assert "IFP 4.17" in ifp["rules"]


@pytest.mark.parametrize(
    "overrides, field",
    [
        ({"game": "bingo"}, "game"),
        ({"chips": [20000]}, "chips"),
        (
            {
                "actions": [
                    {"player": "A", "action": "bet", "to": 1000},
                    {"player": "C", "action": "raise", "to": 500},
                ]
            },
            "actions",
        ),
        ({"street": "fifth"}, "street"),
        ({"blinds": [100]}, "blinds"),
        ({"stack": -1}, "stack"),
        ({"chips": "many"}, "chips"),
    ],
)
def test_inconsistent_bet_question_is_400_naming_the_problem(overrides, field):
    response = api().post(f"{API}/rulings/bet/", bet_body(**overrides), format="json")
    assert response.status_code == 400
    assert field in response.json()


def test_pot_limit_before_the_flop_assumes_full_blinds_tda_54b():
    response = api().post(
        f"{API}/rulings/pot-limit/",
        {"blinds": [100, 200], "posted": [0, 200], "bets": [200]},
        format="json",
    )
    body = response.json()
    assert (body["max_to"], body["to_call"]) == (700, 200)
    assert body["rules"] == ["54-B"]


def test_pots_split_with_the_odd_chip_left_of_the_button_tda_20():
    response = api().post(
        f"{API}/rulings/pots/",
        {
            "contributions": [
                {"seat": 1, "total": 525},
                {"seat": 4, "total": 525},
                {"seat": 6, "total": 525, "folded": True},
            ],
            "winners": [[1, 4]],
            "button": 2,
            "smallest_chip": 25,
            "seats": 9,
        },
        format="json",
    )
    body = response.json()
    assert body["totals"] == {"1": 775, "4": 800}  # seat 4 is first left of the button


def test_pots_winner_not_eligible_is_400():
    response = api().post(
        f"{API}/rulings/pots/",
        {
            "contributions": [{"seat": 1, "total": 100}, {"seat": 2, "total": 100, "folded": True}],
            "winners": [[2]],
        },
        format="json",
    )
    assert response.status_code == 400
    assert "winners" in response.json()


def test_chip_race_one_chip_each_and_nobody_raced_out_tda_24():
    response = api().post(
        f"{API}/rulings/chip-race/",
        {
            "removed": 25,
            "next_chip": 100,
            "seats": [
                {"seat": 1, "chips": 3, "cards": ["As", "Kd", "2c"], "stack_other": 5000},
                {"seat": 2, "chips": 1, "cards": ["Ah"]},
            ],
        },
        format="json",
    )
    body = response.json()
    assert body["new_chips_raced"] == 1
    results = {r["seat"]: r for r in body["results"]}
    assert results[1]["won"] == 1
    assert results[2]["protected"] is True


def test_chip_race_cards_must_match_the_chips():
    response = api().post(
        f"{API}/rulings/chip-race/",
        {"removed": 25, "next_chip": 100, "seats": [{"seat": 1, "chips": 3, "cards": ["As"]}]},
        format="json",
    )
    assert response.status_code == 400


@pytest.mark.parametrize("path", ["bet", "pot-limit", "pots", "chip-race"])
@pytest.mark.parametrize("body", [None, [], "x", {"blinds": [10**30, 1]}])
def test_calculators_never_fail_on_garbage(path, body):
    response = api().post(f"{API}/rulings/{path}/", body, format="json")
    assert response.status_code == 400


# --- Incidents and penalties ------------------------------------------------------------------


@pytest.fixture
def event():
    event = tournament()
    seated = seat_players(event, {1: [1, 2, 3, 4, 5]})
    return event, seated


def test_floor_logs_an_incident(event):
    event, seated = event
    response = api(staff("floor")).post(
        f"{API}/tournaments/{event.pk}/incidents/",
        {
            "table": 1,
            "hand": 12,
            "category": "betting",
            "description": "A single 1,000 chip facing a 400 bet, nothing said.",
            "rules": ["44"],
            "decision": "Call.",
            "entries": [seated[(1, 2)].pk],
        },
        format="json",
    )
    assert response.status_code == 201
    body = response.json()
    assert body["rules"] == ["44"] and body["entries"][0]["id"] == seated[(1, 2)].pk
    listed = api(staff("director")).get(f"{API}/tournaments/{event.pk}/incidents/").json()
    assert len(listed["incidents"]) == 1


def test_incident_search_filters_as_the_floor_page_and_ignores_garbled_filters(event):
    event, seated = event
    floor = api(staff("floor"))
    url = f"{API}/tournaments/{event.pk}/incidents/"
    logged = floor.post(
        url,
        {
            "table": 1,
            "hand": 12,
            "category": "betting",
            "description": "Oversized chip, nothing said.",
            "rules": ["44"],
            "decision": "Call.",
            "entries": [seated[(1, 2)].pk],
        },
        format="json",
    )
    assert logged.status_code == 201

    assert len(floor.get(url, {"q": "oversized", "table": "1"}).json()["incidents"]) == 1
    assert floor.get(url, {"category": "dealing"}).json()["incidents"] == []
    # A NUL byte (PostgreSQL refuses it), an unknown category, a table that is no number.
    garbled = floor.get(url, {"q": "over\x00sized", "category": "x\x00", "table": "abc"})
    assert garbled.status_code == 200
    assert len(garbled.json()["incidents"]) == 1


@pytest.mark.parametrize("role", [None, "cashier", "dealer"])
def test_incidents_and_penalties_are_for_the_floor_only(event, role):
    event, seated = event
    client = api(staff(role) if role else None)
    for path in ("incidents", "penalties"):
        assert client.get(f"{API}/tournaments/{event.pk}/{path}/").status_code in (401, 403)
    response = client.post(
        f"{API}/tournaments/{event.pk}/penalties/",
        {"entry": seated[(1, 1)].pk, "kind": "warning"},
        format="json",
    )
    assert response.status_code in (401, 403)
    assert not Penalty.objects.exists() and not Incident.objects.exists()


def test_missed_rounds_penalty_counts_the_players_at_the_table(event):
    event, seated = event
    response = api(staff("floor")).post(
        f"{API}/tournaments/{event.pk}/penalties/",
        {"entry": seated[(1, 3)].pk, "kind": "missed_rounds", "rounds": 1, "rules": ["71-A"]},
        format="json",
    )
    assert response.status_code == 201
    assert (response.json()["hands"], response.json()["players_at_table"]) == (5, 5)


@pytest.mark.parametrize(
    "body, field",
    [
        ({"kind": "missed_rounds"}, "rounds"),
        ({"kind": "missed_hands", "hands": 0}, "hands"),
        ({"kind": "slap"}, "kind"),
        ({"kind": "warning", "rules": ["99"]}, "rules"),
        ({"kind": "warning", "incident": 10**9}, "incident"),
    ],
)
def test_bad_penalty_is_400(event, body, field):
    event, seated = event
    response = api(staff("floor")).post(
        f"{API}/tournaments/{event.pk}/penalties/",
        {"entry": seated[(1, 1)].pk, **body},
        format="json",
    )
    assert response.status_code == 400
    assert field in response.json()
    assert not Penalty.objects.exists()


def test_penalty_of_an_unknown_entry_is_404(event):
    event, _seated = event
    response = api(staff("floor")).post(
        f"{API}/tournaments/{event.pk}/penalties/",
        {"entry": 10**9, "kind": "warning"},
        format="json",
    )
    assert response.status_code == 404


def test_player_record_across_tournaments(event):
    event, seated = event
    entry = seated[(1, 4)]
    api(staff("floor")).post(
        f"{API}/tournaments/{event.pk}/penalties/",
        {"entry": entry.pk, "kind": "warning", "reason": "Chatter"},
        format="json",
    )
    body = api(staff("floor")).get(f"{API}/players/{entry.player_id}/rulings/").json()
    assert [p["kind"] for p in body["penalties"]] == ["warning"]
    assert api(staff("floor")).get(f"{API}/players/987654/rulings/").status_code == 404


def test_explanation_in_german_with_german_amounts():
    body = (
        api()
        .post(
            f"{API}/rulings/bet/",
            bet_body(chips=[1000, 500]),
            format="json",
            HTTP_ACCEPT_LANGUAGE="de",
        )
        .json()
    )
    assert "Raise" in body["explanation"] and "1.000" in body["explanation"]
    assert "1,000" not in body["explanation"]

"""The floor's situation calculators through the API, with the rules' own examples (the
Illustration Addendum where it has one): showdown rights (TDA 16, 17-B, 18), chips found
(TDA 24-C, 62 with the IFP 4.20 reading, 63, 64, 8-B), errors found late (TDA 52-A,
52-B). Bad input is a 400 naming the field; nothing is recorded."""

import re

import pytest

from floorman.models import AuditEntry
from hands.tests.factories import seat_players
from tournaments.tests.factories import api, staff, tournament

pytestmark = pytest.mark.django_db

API = "/api/v1/rulings"


def ask(path: str, body: dict):
    return api().post(f"{API}/{path}/", body, format="json")


def answered(path: str, body: dict) -> dict:
    response = ask(path, body)
    assert response.status_code == 200, response.json()
    return response.json()


# --- Showdown rights: TDA 16, 17-B, 18 ------------------------------------------------------


def players(**cards) -> list[dict]:
    return [{"name": name, "cards": state} for name, state in cards.items()]


def river(*pairs) -> list[dict]:
    return [{"player": player, "action": action} for player, action in pairs]


ADDENDUM_18_1 = {
    # NLHE, three players, no bet on the river, nobody all-in. A discards and the dealer
    # kills the cards; B tables trips; C pushes his cards forward face down.
    "players": players(A="mucked", B="tabled", C="pushed"),
    "river": river(("A", "check"), ("B", "check"), ("C", "check")),
}
ADDENDUM_18_2 = {
    # NLHE, four players. River: A bets 1000, B calls, C raises to 5000, D, A and B call.
    # B tables trips, D discards and is killed, C pushes his cards forward face down, A
    # keeps his cards.
    "players": players(A="held", B="tabled", C="pushed", D="mucked"),
    "river": river(
        ("A", "bet"), ("B", "call"), ("C", "raise"), ("D", "call"), ("A", "call"), ("B", "call")
    ),
}


def test_addendum_18_example_1_no_river_bet_is_the_tds_discretion():
    body = answered("showdown-rights", {**ADDENDUM_18_1, "asker": "B", "target": "C"})
    assert (body["answer"], body["must_table"], body["rules"]) == ("discretion", False, ["18-B"])
    assert body["last_aggressor"] is None
    assert "TD decides" in body["explanation"]


@pytest.mark.parametrize(("asker", "target"), [("A", "C"), ("C", "B")])
def test_addendum_18_example_1_players_who_mucked_cannot_ask(asker, target):
    body = answered("showdown-rights", {**ADDENDUM_18_1, "asker": asker, "target": target})
    assert body["answer"] == "no"
    assert "18-A" in body["rules"]


@pytest.mark.parametrize("asker", ["A", "B"])
def test_addendum_18_example_2_callers_who_kept_cards_see_the_last_aggressor(asker):
    body = answered("showdown-rights", {**ADDENDUM_18_2, "asker": asker, "target": "C"})
    assert (body["answer"], body["must_table"], body["last_aggressor"]) == ("yes", True, "C")
    assert body["rules"] == ["18-B"]
    assert "paid to see" in body["explanation"]


def test_addendum_18_example_2_d_gave_up_the_right_by_discarding():
    body = answered("showdown-rights", {**ADDENDUM_18_2, "asker": "D", "target": "C"})
    assert (body["answer"], body["rules"]) == ("no", ["18-A"])


def test_addendum_18_example_2_another_callers_hand_is_discretion():
    body = answered("showdown-rights", {**ADDENDUM_18_2, "asker": "B", "target": "A"})
    assert (body["answer"], body["rules"]) == ("discretion", ["18-B"])


def test_uncontested_showdown_the_last_live_hand_is_not_tabled_tda_17_b():
    body = answered(
        "showdown-rights",
        {
            "players": players(A="pushed", B="mucked", C="held"),
            "river": river(("A", "check"), ("B", "check"), ("C", "check")),
            "asker": "A",
            "target": "C",
        },
    )
    assert (body["answer"], body["must_table"]) == ("no", False)
    assert body["rules"] == ["17-B", "18-A"]


def test_addendum_16_example_1_all_in_and_called_both_hands_turned_up():
    body = answered(
        "showdown-rights",
        {
            # Heads-up: on the turn A (the shorter stack) moves all-in and B calls.
            "players": [
                {"name": "A", "cards": "held", "all_in": True},
                {"name": "B", "cards": "held"},
            ],
            "asker": "A",
            "target": "B",
        },
    )
    assert (body["answer"], body["must_table"], body["rules"]) == ("yes", True, ["16"])


def test_a_hand_killed_into_the_muck_cannot_be_shown():
    body = answered("showdown-rights", {**ADDENDUM_18_2, "asker": "B", "target": "D"})
    assert (body["answer"], body["rules"]) == ("no", ["14"])


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"asker": "Z"}, "asker"),
        ({"target": "B", "asker": "B"}, "target"),
        ({"players": players(A="held")}, "players"),
        ({"players": [{"name": "A", "cards": "burnt"}, {"name": "B", "cards": "held"}]}, "players"),
        ({"river": river(("Z", "bet"))}, "river"),
        ({"river": river(("A", "shove"))}, "river"),
        ({"players": players(A="held", B="held") * 1 + players(A="tabled")}, "players"),
    ],
)
def test_showdown_rights_bad_input_names_the_field(change, field):
    body = {**ADDENDUM_18_2, "asker": "A", "target": "C", **change}
    response = ask("showdown-rights", body)
    assert response.status_code == 400
    assert field in response.json()


# --- Chips found: TDA 24-C, 62, 63, 64, 8-B -------------------------------------------------


def test_chips_of_a_removed_colour_after_the_race_change_at_equal_value_tda_24_c():
    body = answered(
        "chips-found", {"situation": "after_race", "chips": 5, "removed": 25, "smallest": 100}
    )
    assert (body["outcome"], body["exchanged_chips"]) == ("exchanged", 1)
    assert (body["kept_value"], body["removed_value"]) == (100, 25)
    assert body["rules"] == ["24-C"]


def test_removed_chips_short_of_a_whole_chip_go_without_compensation_tda_24_c():
    body = answered(
        "chips-found", {"situation": "after_race", "chips": 3, "removed": 25, "smallest": 100}
    )
    assert (body["outcome"], body["kept_value"], body["removed_value"]) == ("removed", 0, 75)
    assert "without compensation" in body["explanation"]


BEHIND = {"situation": "behind_all_in", "value": 5000}


def test_chips_behind_an_all_in_that_won_are_not_paid_off_tda_62():
    body = answered("chips-found", {**BEHIND, "all_in_won": True})
    assert (body["outcome"], body["rules"]) == ("kept", ["62"])
    assert "not paid off" in body["explanation"]


def test_chips_behind_an_all_in_that_lost_do_not_save_the_player_tda_62():
    body = answered("chips-found", {**BEHIND, "all_in_won": False})
    assert (body["outcome"], body["rules"]) == ("to_the_winner", ["62"])


def test_chips_behind_ruled_part_of_the_accepted_action_are_owed_tda_62_49():
    body = answered("chips-found", {**BEHIND, "accepted_action": True})
    assert (body["outcome"], body["rules"]) == ("in_the_pot", ["62", "49"])


def test_chips_behind_an_all_in_by_the_events_ifp_reading_go_in_the_pot():
    event = tournament()
    event.house_settings = {"chips_behind_all_in": "ifp"}
    event.save(update_fields=["house_settings"])
    ifp = answered("chips-found", {**BEHIND, "all_in_won": True, "tournament": event.pk})
    tda = answered("chips-found", {**BEHIND, "all_in_won": True, "tournament": tournament().pk})
    said = answered("chips-found", {**BEHIND, "all_in_won": True, "reading": "ifp"})
    assert (ifp["outcome"], ifp["rules"]) == ("in_the_pot", ["IFP 4.20"])
    assert said == ifp
    assert tda["outcome"] == "kept"


def test_chips_out_of_view_are_forfeited_and_may_disqualify_tda_63():
    body = answered("chips-found", {"situation": "out_of_view", "value": 2500})
    assert (body["outcome"], body["removed_value"]) == ("removed", 2500)
    assert body["disqualification_possible"] is True
    assert body["rules"] == ["63"]


def test_lost_and_found_chips_without_an_owner_leave_play_tda_64():
    body = answered("chips-found", {"situation": "lost_and_found", "value": 1000})
    assert (body["outcome"], body["removed_value"], body["rules"]) == ("removed", 1000, ["64"])
    known = answered(
        "chips-found", {"situation": "lost_and_found", "value": 1000, "owner_known": True}
    )
    assert (known["outcome"], known["removed_value"]) == ("td_decides", 0)


def test_chips_given_up_for_a_new_stack_are_removed_tda_8_b():
    body = answered("chips-found", {"situation": "reentry_forfeit", "value": 3200})
    assert (body["outcome"], body["removed_value"], body["rules"]) == ("removed", 3200, ["8-B"])


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"situation": "under_the_table", "value": 5}, "situation"),
        ({"situation": "after_race", "chips": 3, "removed": 100, "smallest": 25}, "smallest"),
        ({"situation": "after_race", "removed": 25, "smallest": 100}, "chips"),
        ({"situation": "out_of_view"}, "value"),
        ({"situation": "behind_all_in", "value": 500}, "all_in_won"),
        ({"situation": "behind_all_in", "value": 500, "tournament": 10**9}, "tournament"),
        ({"situation": "behind_all_in", "value": 500, "reading": "casino"}, "reading"),
        ({"situation": "out_of_view", "value": -1}, "value"),
    ],
)
def test_chips_found_bad_input_names_the_field(body, field):
    response = ask("chips-found", body)
    assert response.status_code == 400
    assert field in response.json()
    assert not AuditEntry.objects.exists()


# --- Errors found late: TDA 52-A, 52-B ---------------------------------------------------------


def test_52_a_underraise_found_on_the_street_is_raised_for_all_bettors():
    # NLHE 100-200, post-flop A opens for 600, B raises to 1000 (a 200 underraise), C and D
    # call, E folds; then the error is noticed: 1200 for every bettor.
    body = answered(
        "late-error", {"error": "underraise", "made": 1000, "correct": 1200, "found": "this_street"}
    )
    assert (body["corrected"], body["to"], body["rules"]) == (True, 1200, ["52-A"])


def test_52_a_after_the_turn_the_underraise_stands():
    body = answered(
        "late-error", {"error": "underraise", "made": 1000, "correct": 1200, "found": "later"}
    )
    assert (body["corrected"], body["to"]) == (False, 1000)
    assert "stands" in body["explanation"]


def test_addendum_52_b_example_1_low_count_after_substantial_action_stands():
    # PLO 500-1000, the pot is 10,500, the dealer says 9,500; A bets 9,500, B folds, C calls.
    body = answered(
        "late-error",
        {
            "error": "pot_low",
            "made": 9500,
            "correct": 10500,
            "found": "this_street",
            "substantial_action": True,
        },
    )
    assert (body["corrected"], body["to"], body["rules"]) == (False, 9500, ["52-B", "36"])


def test_addendum_52_b_example_2_low_count_before_substantial_action_is_raised():
    body = answered(
        "late-error", {"error": "pot_low", "made": 9500, "correct": 10500, "found": "this_street"}
    )
    assert (body["corrected"], body["to"]) == (True, 10500)


def test_addendum_52_b_example_3_overbet_comes_down_despite_substantial_action():
    # The dealer says 11,500; A bets it, B folds, C and D call; before the next card.
    body = answered(
        "late-error",
        {
            "error": "pot_high",
            "made": 11500,
            "correct": 10500,
            "found": "this_street",
            "substantial_action": True,
        },
    )
    assert (body["corrected"], body["to"], body["rules"]) == (True, 10500, ["52-B"])
    later = answered(
        "late-error", {"error": "pot_high", "made": 11500, "correct": 10500, "found": "later"}
    )
    assert (later["corrected"], later["to"]) == (False, 11500)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"error": "underraise", "made": 1200, "correct": 1200, "found": "later"}, "correct"),
        ({"error": "pot_high", "made": 9500, "correct": 10500, "found": "later"}, "correct"),
        ({"error": "typo", "made": 1, "correct": 2, "found": "later"}, "error"),
        ({"error": "pot_low", "made": 1, "correct": 2, "found": "tomorrow"}, "found"),
        ({"error": "pot_low", "made": 0, "correct": 2, "found": "later"}, "made"),
        ({"error": "pot_low", "correct": 2, "found": "later"}, "made"),
    ],
)
def test_late_error_bad_input_names_the_field(body, field):
    response = ask("late-error", body)
    assert response.status_code == 400
    assert field in response.json()


# --- The floor calculators page -------------------------------------------------------------

PAGE = "/rules/calculators/"


@pytest.fixture
def floor_client(client):
    client.force_login(staff("floor"))
    return client


def text(response) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


def test_page_addendum_18_example_2_a_caller_sees_the_last_aggressor(floor_client):
    response = floor_client.post(
        PAGE,
        {
            "calculator": "showdown",
            "players": "A held\nB tabled\nC pushed\nD mucked",
            "river": "A bet\nB call\nC raise\nD call\nA call\nB call",
            "asker": "B",
            "target": "C",
        },
    )
    assert response.status_code == 200
    shown = text(response)
    assert "Yes: the hand is tabled" in shown
    assert "TDA 18-B" in shown


def test_page_showdown_garbage_is_refused_on_its_field(floor_client):
    response = floor_client.post(
        PAGE,
        {"calculator": "showdown", "players": "A smiles", "asker": "A", "target": "B"},
    )
    assert response.status_code == 400
    assert "Line 1" in text(response)


def test_page_unknown_name_comes_back_on_the_field(floor_client):
    response = floor_client.post(
        PAGE,
        {"calculator": "showdown", "players": "A held\nB held", "asker": "Z", "target": "B"},
    )
    assert response.status_code == 400
    assert "Z is not among the players." in text(response)


def test_page_chips_found_after_the_race(floor_client):
    response = floor_client.post(
        PAGE,
        {
            "calculator": "chips_found",
            "situation": "after_race",
            "chips": "5",
            "removed": "25",
            "smallest": "100",
        },
    )
    assert response.status_code == 200
    shown = text(response)
    assert "Changed at equal value" in shown and "TDA 24-C" in shown


def test_page_chips_behind_an_all_in_needs_the_result(floor_client):
    response = floor_client.post(
        PAGE, {"calculator": "chips_found", "situation": "behind_all_in", "value": "500"}
    )
    assert response.status_code == 400
    assert "Say whether the all-in player won the hand (TDA 62)." in text(response)


def test_page_late_underraise_stands_after_the_turn(floor_client):
    response = floor_client.post(
        PAGE,
        {
            "calculator": "late_error",
            "error": "underraise",
            "made": "1000",
            "correct": "1200",
            "found": "later",
        },
    )
    assert response.status_code == 200
    shown = text(response)
    assert "It stands" in shown and "TDA 52-A" in shown


# --- Prior-bet chips not pulled in: TDA 46 (through the bet calculator) ---------------------


def facing_600(**overrides) -> dict:
    """Addendum, Rule 46: THE 25-50, the big blind posted two 25s, the button raised to
    600 total (550 more to the big blind)."""
    body = {
        "game": "nlhe",
        "blinds": [25, 50],
        "street": "preflop",
        "actions": [
            {"player": "SB", "action": "post", "to": 25},
            {"player": "BB", "action": "post", "to": 50},
            {"player": "BTN", "action": "raise", "to": 600},
        ],
        "player": "BB",
        "stack": 20000,
        "in_front": 50,
        "prior_chips": [25, 25],
    }
    return {**body, **overrides}


def ruled(body: dict) -> tuple[str, int, list[str]]:
    answer = answered("bet", body)
    return answer["action"], answer["to"], answer["rules"]


@pytest.mark.parametrize(
    ("chips", "action"),
    [
        ([1000], "call"),  # 1: an overchip onto the two 25s
        ([500, 500], "call"),  # 2 a: every new chip needed
        ([100, 500], "call"),  # 2 b
        ([1000, 500], "raise"),  # 3: a 1,550 multiple-chip bet past the 50% line
    ],
)
def test_addendum_46_situation_1_prior_chips_left_alone(chips, action):
    taken, _to, rules = ruled(facing_600(chips=chips))
    assert taken == action
    assert "46-C" in rules


def test_addendum_46_situation_2_prior_chips_pulled_back_in_full():
    assert ruled(facing_600(prior_chips=[], pulled_back="all", chips=[1000]))[:2] == ("call", 600)
    # New multiple chips are a Rule 45 bet: two 500s are each needed (a call), a 1k and a
    # 500 pass the 50% line (a raise).
    assert ruled(facing_600(prior_chips=[], pulled_back="all", chips=[500, 500]))[0] == "call"
    action, _to, rules = ruled(facing_600(prior_chips=[], pulled_back="all", chips=[1000, 500]))
    assert action == "raise" and "45-B" in rules


def test_addendum_46_situation_3_partial_pull_back_makes_an_overchip_a_multi_chip_bet():
    # One 25 pulled back, the other left, a 1k chip added: 1,025 read as one bet (45).
    action, to, rules = ruled(facing_600(prior_chips=[25], pulled_back="part", chips=[1000]))
    assert action == "raise" and "46-C" in rules
    left_alone = ruled(facing_600(chips=[1000]))
    assert left_alone[:2] == ("call", 600)  # the same chip on both 25s only calls (44)


def test_addendum_46_situation_4_a_prior_chip_that_covers_the_call():
    # THE 50-100, the big blind posted one 1k chip; a raise to 700 (600 more).
    body = {
        **facing_600(),
        "blinds": [50, 100],
        "actions": [
            {"player": "SB", "action": "post", "to": 50},
            {"player": "BB", "action": "post", "to": 100},
            {"player": "UTG", "action": "raise", "to": 700},
        ],
        "in_front": 100,
        "prior_chips": [1000],
        "chips": [100],
    }
    action, _to, rules = ruled(body)
    assert action == "raise" and "46-C" in rules and "45-B" in rules


def test_46_b_a_pulled_back_chip_binds_to_call_or_raise():
    action, to, rules = ruled(
        facing_600(prior_chips=[], pulled_back="all", declaration="fold", chips=[])
    )
    assert (action, to, rules) == ("call", 600, ["46-B"])


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"pulled_back": "some"}, "pulled_back"),
        ({"pulled_back": "all", "chips": [1000]}, "prior_chips"),  # prior chips still listed
        ({"pulled_back": "part", "prior_chips": [25, 25], "chips": [1000]}, "prior_chips"),
        ({"prior_chips": [25], "chips": [1000]}, "prior_chips"),  # less than in front
        ({"pulled_back": "all", "prior_chips": [], "in_front": 0, "chips": [1000]}, "pulled_back"),
        ({"prior_chips": [0, 50], "chips": [1000]}, "prior_chips"),
    ],
)
def test_46_bad_input_names_the_field(change, field):
    response = ask("bet", facing_600(**change))
    assert response.status_code == 400
    assert field in response.json()


# --- A player found in the wrong seat: TDA 7 ----------------------------------------------------


def test_wrong_seat_moves_with_the_stack_they_have_now_tda_7():
    body = answered("wrong-seat", {})
    assert (body["outcome"], body["after_hand"], body["rules"]) == ("move", False, ["7"])
    assert "hands played there stand" in body["explanation"]


def test_wrong_seat_found_in_a_hand_moves_after_it_tda_31():
    body = answered("wrong-seat", {"in_hand": True})
    assert (body["outcome"], body["after_hand"], body["rules"]) == ("move", True, ["7", "31"])


def test_wrong_seat_with_a_wrong_stack_is_for_the_td_tda_1():
    body = answered("wrong-seat", {"stack_correct": False})
    assert (body["outcome"], body["rules"]) == ("td_decides", ["7", "1"])


def test_wrong_seat_bad_input_names_the_field():
    response = ask("wrong-seat", {"in_hand": "perhaps"})
    assert response.status_code == 400 and "in_hand" in response.json()


def test_the_seating_move_keeps_the_players_chips_tda_7():
    """The move the floor makes for TDA 7: the player's whole stack goes along."""
    event = tournament()
    seated = seat_players(event, {1: [1, 2, 3]})
    entry = seated[(1, 2)]
    entry.chips = 23_450
    entry.save(update_fields=["chips"])
    floor = api(staff("floor"))

    moved = floor.post(
        f"/api/v1/tournaments/{event.pk}/moves/",
        {"entry": entry.pk, "to_table": 1, "to_seat": 5, "reason": "TDA 7"},
        format="json",
    )

    assert moved.status_code == 201
    entry.refresh_from_db()
    assert (entry.seat.number, entry.chips) == (5, 23_450)


def test_page_wrong_seat(floor_client):
    response = floor_client.post(PAGE, {"calculator": "wrong_seat", "in_hand": "on"})
    assert response.status_code == 200
    shown = text(response)
    assert "To the drawn seat, with the stack" in shown and "TDA 31" in shown

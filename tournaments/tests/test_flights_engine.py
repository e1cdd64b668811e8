"""The rules of a multi-flight event's first days (issue 17), without a database."""

import pytest

from tournaments import engine as status_engine
from tournaments.engine import flights


def test_a_flight_belongs_to_an_event_that_is_neither_a_flight_nor_a_satellite():
    ok = {"parent_is_flight": False, "parent_is_satellite": False, "name_taken": False}
    assert flights.flight_add_refusal(**ok) is None
    assert flights.flight_add_refusal(**{**ok, "parent_is_flight": True}) == "flight_of_flight"
    assert (
        flights.flight_add_refusal(**{**ok, "parent_is_satellite": True}) == "flight_of_satellite"
    )
    assert flights.flight_add_refusal(**{**ok, "name_taken": True}) == "flight_name_taken"


def test_the_flight_carries_the_events_name():
    assert flights.flight_title("Main Event", "Day 1A") == "Main Event – Day 1A"


def test_a_player_in_another_flight_enters_a_later_one_only_where_the_house_allows_it():
    assert flights.later_flight_refusal(reentry_allowed=True, entered_in=["Day 1A"]) is None
    assert flights.later_flight_refusal(reentry_allowed=False, entered_in=[]) is None
    assert (
        flights.later_flight_refusal(reentry_allowed=False, entered_in=["Day 1A"])
        == "flight_entered"
    )


@pytest.mark.parametrize(
    ("level", "end_level", "ends"),
    [(5, 5, False), (6, 5, True), (7, 5, True), (12, None, False)],
)
def test_the_flight_stops_when_the_level_after_its_last_would_begin(level, end_level, ends):
    assert flights.level_ends_flight(level, end_level=end_level) is ends


@pytest.mark.parametrize(
    ("active", "entries", "percent", "ends"),
    [
        (4, 20, 20, True),  # 20 % left: the share is reached
        (5, 20, 20, False),
        (3, 20, 20, True),
        (1, 20, None, False),  # no share set: only the level or the director stop it
        (0, 20, 20, False),  # nobody left to bag
    ],
)
def test_the_flight_stops_at_the_share_of_its_entries_left(active, entries, percent, ends):
    assert flights.share_ends_flight(active=active, entries=entries, percent=percent) is ends


def test_only_a_running_flight_stops_and_only_once():
    assert flights.flight_stop_refusal(is_flight=True, status="running", stopped=False) is None
    assert (
        flights.flight_stop_refusal(is_flight=False, status="running", stopped=False)
        == "not_a_flight"
    )
    assert (
        flights.flight_stop_refusal(is_flight=True, status="finished", stopped=True)
        == "flight_stopped"
    )
    assert (
        flights.flight_stop_refusal(is_flight=True, status="registering", stopped=False)
        == "flight_not_running"
    )


def test_a_stopped_flight_takes_no_more_play_but_a_finished_event_is_not_concerned():
    assert flights.play_refusal(is_flight=True, status="finished") == "flight_stopped"
    assert flights.play_refusal(is_flight=True, status="running") is None
    assert flights.play_refusal(is_flight=False, status="finished") is None


def test_a_flight_may_finish_with_players_left_and_an_event_may_not():
    assert status_engine.transition_refusal("running", "finished", active_entries=5) == (
        "players_remaining"
    )
    assert (
        status_engine.transition_refusal("running", "finished", active_entries=5, flight_stop=True)
        is None
    )


def test_the_chips_sold_are_a_stack_per_buy_in_and_the_rebuys_and_add_ons():
    sold = flights.chips_sold(
        starting_stack=20000, buy_ins=7, rebuy_chips=10000, rebuys=2, addon_chips=5000, addons=3
    )
    assert sold == 7 * 20000 + 2 * 10000 + 3 * 5000


def test_a_bag_is_counted_for_a_survivor_of_a_stopped_flight_until_confirmed():
    ok = {"stopped": True, "confirmed": False, "survivor": True, "chips": 41000}
    assert flights.bag_refusal(**ok) is None
    assert flights.bag_refusal(**{**ok, "stopped": False}) == "flight_not_stopped"
    assert flights.bag_refusal(**{**ok, "confirmed": True}) == "bags_confirmed"
    assert flights.bag_refusal(**{**ok, "survivor": False}) == "not_a_survivor"
    assert flights.bag_refusal(**{**ok, "chips": 0}) == "bag_empty"


def test_bag_numbers_run_on_from_the_highest():
    assert flights.bag_number_next([]) == 1
    assert flights.bag_number_next([1, 2, 5]) == 6


def test_the_difference_is_what_the_bags_hold_more_or_less_than_the_chips_in_play():
    assert flights.BagCheck(expected=120000, bagged=119500, missing=0).difference == -500
    assert flights.BagCheck(expected=120000, bagged=120000, missing=0).difference == 0


@pytest.mark.parametrize(
    ("bagged", "missing", "accept", "note", "refusal"),
    [
        (120000, 0, False, "", None),  # every chip accounted for
        (120000, 1, False, "", "bags_missing"),
        (119000, 0, False, "", "bags_differ"),
        (119000, 0, True, "  ", "bags_note_needed"),
        (119000, 0, True, "A 1,000 chip under the table 4 rail", None),
    ],
)
def test_the_director_confirms_the_bags_once_all_are_in_and_a_difference_knowingly(
    bagged, missing, accept, note, refusal
):
    check = flights.BagCheck(expected=120000, bagged=bagged, missing=missing)
    assert (
        flights.bags_confirm_refusal(
            check, stopped=True, confirmed=False, accept_difference=accept, note=note
        )
        == refusal
    )


def test_bags_are_confirmed_once_and_only_after_the_stop():
    check = flights.BagCheck(expected=1, bagged=1, missing=0)
    refuse = flights.bags_confirm_refusal
    kw = {"accept_difference": False, "note": ""}
    assert refuse(check, stopped=False, confirmed=False, **kw) == "flight_not_stopped"
    assert refuse(check, stopped=True, confirmed=True, **kw) == "bags_confirmed"

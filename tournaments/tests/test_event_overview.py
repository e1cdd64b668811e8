"""An event with flights as a whole (issue 17, item 6): entries per flight and in all,
survivors per flight, Day 2's chip leaders from the bags, once Day 2 has begun its field."""

import pytest

from tournaments.models import BagStatus
from tournaments.selectors import event_overview
from tournaments.tests.factories import tournament
from tournaments.tests.festival_view_factories import (
    bag,
    day2_seat,
    entry,
    flight,
    flight_stopped,
    main_event,
    players,
)

pytestmark = pytest.mark.django_db


def day1a_bagged(event):
    """Day 1A: five entries, two out, play stopped and the three bags confirmed."""
    day1a = flight(event, "1A", status="finished")
    anna, ben, clara, _, _ = players(day1a, "Anna", "Ben", "Clara", "Dora", "Emil", busted=2)
    flight_stopped(day1a, confirmed=True)
    bags = [bag(anna, 61000), bag(ben, 24000), bag(clara, 15000)]
    return day1a, bags


def day1b_playing(event):
    """Day 1B the next day: four entries (Anna again), one out, still playing."""
    day1b = flight(event, "1B", day=1, status="running")
    entries = players(day1b, "Franz", "Greta", "Anna", "Hans", busted=1)
    return day1b, entries


def test_an_event_without_flights_has_no_overview():
    assert event_overview(tournament()) is None


def test_each_flight_counts_its_entries_and_its_survivors_and_the_event_adds_them_up():
    event = main_event()
    day1a, _ = day1a_bagged(event)
    day1b, _ = day1b_playing(event)

    overview = event_overview(event)

    rows = overview["flights"]
    assert [(f["name"], f["status"], f["entries"], f["survivors"]) for f in rows] == [
        ("1A", "finished", 5, 3),
        ("1B", "running", 4, 3),
    ]
    assert [f["bags_confirmed"] for f in overview["flights"]] == [True, False]
    assert overview["flights"][0]["start_at"] == day1a.start_at
    assert overview["entries"] == overview["flight_entries"] == 9
    assert overview["day2_late_entries"] == 0
    assert overview["survivors"] == 6
    assert overview["day2"] is None


def test_a_flight_stopped_but_not_confirmed_counts_its_players_still_in_not_its_bags():
    event = main_event()
    day1b, (franz, greta, anna, _) = day1b_playing(event)
    flight_stopped(day1b)
    bag(franz, 30000)  # the other two are still being counted

    row = event_overview(event)["flights"][0]

    assert (row["stopped"], row["bags"], row["bags_confirmed"], row["survivors"]) == (
        True,
        1,
        False,
        3,
    )


def test_a_cancelled_entry_is_no_entry():
    event = main_event()
    day1a = flight(event, "1A")
    players(day1a, "Anna", "Ben")
    entry(day1a, "Clara", status="cancelled")

    assert event_overview(event)["flights"][0]["entries"] == 2


def test_chip_leaders_come_from_the_bags_biggest_first():
    event = main_event()
    day1a_bagged(event)
    day1b_playing(event)

    leaders = event_overview(event)["chip_leaders"]

    assert [(r["player"]["name"], r["flight"], r["bag"], r["chips"]) for r in leaders] == [
        ("Anna", "1A", 1, 61000),
        ("Ben", "1A", 2, 24000),
        ("Clara", "1A", 3, 15000),
    ]
    assert set(leaders[0]["player"]) == {"id", "name", "nickname", "country"}  # no contact data


def test_a_forfeited_bag_is_no_chip_leader_and_no_survivor():
    """A player who survived two flights plays Day 2 with one bag: the other is forfeited."""
    event = main_event()
    day1a_bagged(event)
    day1b, (franz, greta, anna, _) = day1b_playing(event)
    flight_stopped(day1b, confirmed=True)
    bag(franz, 40000)
    bag(greta, 30000)
    bag(anna, 20000, status=BagStatus.FORFEITED)

    overview = event_overview(event)

    assert [row["survivors"] for row in overview["flights"]] == [3, 3]
    assert overview["survivors"] == 5  # Anna once
    assert [(row["player"]["name"], row["chips"]) for row in overview["chip_leaders"]] == [
        ("Anna", 61000),
        ("Franz", 40000),
        ("Greta", 30000),
        ("Ben", 24000),
        ("Clara", 15000),
    ]


def test_equal_bags_lead_in_the_order_of_the_flights_then_of_the_bag_numbers():
    event = main_event()
    day1b = flight(event, "1B", day=1)
    day1a = flight(event, "1A")
    late, early = players(day1b, "Zoe", "Yann")
    first, second = players(day1a, "Xaver", "Wanda")
    for entry_ in (late, early, second, first):
        bag(entry_, 30000)

    leaders = event_overview(event, leaders=3)["chip_leaders"]

    assert [(row["flight"], row["player"]["name"]) for row in leaders] == [
        ("1A", "Wanda"),  # bag 1 of Day 1A
        ("1A", "Xaver"),
        ("1B", "Zoe"),
    ]


def test_once_day2_has_begun_it_counts_its_players_and_its_late_entries():
    event = main_event(day2_late_entry=True, day2_late_stack=40000)
    _, bags = day1a_bagged(event)
    day1b_playing(event)
    for bag_ in bags:
        day2_seat(event, bag_)
    entry(event, "Ivo", chips=40000)  # a late entry straight into Day 2

    overview = event_overview(event)

    assert overview["day2"] == {"started": True, "players": 4}
    assert overview["day2_late_entries"] == 1
    assert overview["entries"] == 9 + 1
    # Carried bags are still Day 2's chip counts.
    assert [row["status"] for row in overview["chip_leaders"]] == ["carried"] * 3


def test_the_overview_takes_three_queries_however_many_flights(django_assert_num_queries):
    event = main_event()
    day1a_bagged(event)
    day1b_playing(event)
    with django_assert_num_queries(3):  # the flights with their counts, Day 2, the leaders
        event_overview(event)

    for name, day in (("1C", 2), ("1D", 3)):
        day = flight(event, name, day=day, status="finished")
        flight_stopped(day, confirmed=True)
        bag(players(day, f"Spieler {name}")[0], 50000)
    with django_assert_num_queries(3):
        overview = event_overview(event)
    assert len(overview["flights"]) == 4


def test_an_event_without_flights_costs_one_query(django_assert_num_queries):
    event = tournament()
    with django_assert_num_queries(1):
        event_overview(event)

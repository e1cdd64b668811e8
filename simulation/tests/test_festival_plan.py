"""The simulated festival's plan (issue 17), without a database: how the entries are
spread over the flights, who comes back for a later flight, and which settings make no
festival."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from simulation.config import Config
from simulation.dealer import play_hand
from simulation.festival_plan import (
    FestivalConfig,
    flight_names,
    flight_shares,
    flight_stop_target,
    returning_pick,
    survivors_pick,
)


@given(entries=st.integers(0, 100_000), flights=st.integers(1, 26))
def test_the_flights_share_every_entry_and_differ_by_one_at_most(entries, flights):
    shares = flight_shares(entries, flights)

    assert sum(shares) == entries
    assert len(shares) == flights
    assert max(shares) - min(shares) <= 1
    assert shares == sorted(shares)  # the later days take the odd entries


def test_three_hundred_entries_over_three_flights_are_a_hundred_each():
    assert flight_shares(300, 3) == [100, 100, 100]
    assert flight_shares(301, 3) == [100, 100, 101]


def test_the_flights_are_named_as_the_schedule_prints_them():
    assert flight_names(3) == ["Day 1A", "Day 1B", "Day 1C"]


@pytest.mark.parametrize(
    ("entries", "percent", "left"),
    [(100, 30, 30), (101, 30, 30), (25, 30, 7), (10, 10, 2)],
)
def test_a_flight_stops_with_its_share_of_the_entries_rounded_down(entries, percent, left):
    # tournaments.engine.flights: play stops once left * 100 <= entries * percent.
    assert flight_stop_target(entries, percent) == left


def test_returning_players_come_once_each_in_the_order_they_busted_and_at_most_so_many():
    busted = [5, 3, 5, 8, 1, 9, 3]

    picked = returning_pick(busted, random.Random(1), chance=1.0, most=3)

    assert picked == [5, 3, 8]


def test_nobody_returns_where_nobody_wants_to():
    assert returning_pick([1, 2, 3], random.Random(1), chance=0.0, most=10) == []


def test_the_first_to_bust_come_back_where_chance_brought_too_few():
    picked = returning_pick([4, 2, 4, 6], random.Random(1), chance=0.0, most=10, least=2)

    assert picked == [4, 2]
    assert returning_pick([4, 2], random.Random(1), chance=0.0, most=1, least=2) == [4]


def test_the_same_seed_brings_back_the_same_players():
    busted = list(range(200))

    first = returning_pick(busted, random.Random(7), chance=0.3, most=40)
    second = returning_pick(busted, random.Random(7), chance=0.3, most=40)

    assert first == second and 0 < len(first) <= 40


def test_the_first_survivors_by_entry_play_the_second_flight_too():
    assert survivors_pick([11, 4, 11, 9], 2) == [11, 4]


def test_a_festival_spreads_its_settings_over_its_flights():
    config = FestivalConfig(entries=90, flights=3, seed=4, event=Config(entries=90, seed=4))

    flights = [config.flight_config(number) for number in range(3)]

    assert [flight.entries for flight in flights] == [30, 30, 30]
    assert len({flight.seed for flight in flights}) == 3
    assert all(flight.buy_in == config.event.buy_in for flight in flights)
    # 30 satellite entries at 10 € buy 2 seats worth 110 € (the event's buy-in and fee).
    assert config.satellite_field == 30
    assert config.satellite_seats == 2
    assert config.satellite_config().buy_in == 1_000
    # One ticket enters the last flight, the other Day 2 late (the house allows it).
    assert (config.flight_tickets, config.day2_tickets, config.day2_late_entry) == (1, 1, True)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"flights": 1}, "2 to 26 flights"),
        ({"flights": 27, "entries": 1000}, "2 to 26 flights"),
        ({"entries": 29}, "at least 30 entries"),
        ({"flight_end_percent": 0}, "1 to 99 %"),
        ({"flight_end_percent": 100}, "1 to 99 %"),
        ({"satellite_entries": 10}, "buys no seat"),
        ({"satellite_entries": 200}, "more seats than the last flight has room for"),
        ({"day2_late_entries": -1}, "fewer than none"),
    ],
)
def test_settings_that_make_no_festival_are_refused(changes, message):
    with pytest.raises(ValueError, match=message):
        FestivalConfig(**{"entries": 60, **changes})


@given(
    stacks=st.dictionaries(st.integers(1, 10), st.integers(1, 10**6), min_size=2, max_size=10),
    seed=st.integers(0, 2**32),
    spare=st.sets(st.integers(1, 10)),
)
def test_a_spared_seat_never_busts(stacks, seed, spare):
    outcome = play_hand(stacks, random.Random(seed), bust_chance=1.0, max_busts=9, spare=spare)

    assert not set(outcome.busts) & spare
    assert sum(outcome.stacks.values()) == sum(stacks.values())

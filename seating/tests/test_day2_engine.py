"""The Day 2 redraw (TDA 7, issue 17) without a database: seeded and replayable, tables
at most one player apart, and, where the house says so, the big stacks spread."""

import random

import pytest

from seating.engine import TableView
from seating.engine.day2 import day2_redraw, day2_spread_big_stacks


def tables(count: int, seats: int = 9, accessible=frozenset()) -> list[TableView]:
    return [
        TableView(number=n, seats=tuple(range(1, seats + 1)), accessible=accessible)
        for n in range(1, count + 1)
    ]


def stacks(count: int) -> dict[int, int]:
    """Entries 1.. with stacks 1,000 × their number: entry `count` is the chip leader."""
    return {e: 1000 * e for e in range(1, count + 1)}


def seats_of(assignments) -> dict[int, tuple[int, int]]:
    return {a.entry: (a.table, a.seat) for a in assignments}


@pytest.mark.parametrize("spread", [True, False])
def test_the_same_seed_draws_the_same_seats_and_every_player_one_seat(spread):
    first = day2_redraw(tables(4), stacks(31), random.Random("day-2"), spread=spread)
    again = day2_redraw(tables(4), stacks(31), random.Random("day-2"), spread=spread)
    other = day2_redraw(tables(4), stacks(31), random.Random("another"), spread=spread)
    assert seats_of(first) == seats_of(again)
    assert seats_of(first) != seats_of(other)
    assert sorted(seats_of(first)) == list(range(1, 32))
    assert len(set(seats_of(first).values())) == 31  # no chair twice


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("spread", [True, False])
def test_every_table_is_within_one_player(seed, spread):
    drawn = day2_redraw(tables(5, seats=9), stacks(38), random.Random(seed), spread=spread)
    counts = [sum(1 for a in drawn if a.table == n) for n in range(1, 6)]
    assert max(counts) - min(counts) <= 1
    assert sum(counts) == 38


@pytest.mark.parametrize("seed", range(20))
def test_the_biggest_stacks_are_spread_one_to_a_table(seed):
    """Four tables: the four biggest stacks sit at four different tables, the next
    four too, and so on round the tables."""
    drawn = seats_of(day2_spread_big_stacks(tables(4), stacks(30), random.Random(seed)))
    by_size = sorted(drawn, key=lambda e: -1000 * e)
    for start in range(0, 28, 4):
        group = by_size[start : start + 4]
        assert len({drawn[e][0] for e in group}) == 4, group


def test_without_the_spread_the_big_stacks_may_share_a_table():
    """The plain draw ignores the stacks: over some seeds the four chip leaders meet."""
    met = False
    for seed in range(50):
        drawn = seats_of(day2_redraw(tables(4), stacks(30), random.Random(seed), spread=False))
        leaders = {drawn[e][0] for e in (27, 28, 29, 30)}
        met = met or len(leaders) < 4
    assert met


def test_a_player_needing_an_accessible_seat_gets_one_in_the_spread_draw():
    drawn = seats_of(
        day2_spread_big_stacks(
            tables(2, accessible=frozenset({1})),
            stacks(10),
            random.Random(3),
            needs_access=frozenset({10}),
        )
    )
    assert drawn[10][1] == 1

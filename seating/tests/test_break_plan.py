"""TDA 10-B: a break's plan, known before the table breaks (issue 16), without a
database: which tables take its players and how many each, and which empty table opens
for them. The seats themselves are drawn only when it breaks."""

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from seating import engine
from seating.engine.breaking import BreakShare, break_plan
from seating.tests.test_engine import table


def test_a_break_that_does_not_fit_in_play_says_it_opens_the_spare_table():
    """Issue 16: nine players at table 5, two open seats at the tables in play, table 6
    stands empty. The plan opens table 6, and the nine move there."""
    room = [
        table(1, range(1, 10), seats=10, break_order=4),
        table(2, range(1, 10), seats=10, break_order=3),
        table(5, range(1, 10), break_order=2),
        table(6, (), break_order=1),
    ]

    plan = break_plan(room, 5)

    assert (plan.players, plan.free, plan.opens, plan.room) == (9, 2, (6,), True)
    assert plan.shares == (BreakShare(6, 9, 9, opens=True),)
    assert plan.key == "5:9>6+:9-9"


def test_a_break_that_fits_in_play_opens_nothing_and_names_each_tables_share():
    room = [table(1, range(1, 8)), table(2, range(1, 6)), table(3, range(1, 5)), table(4)]

    plan = break_plan(room, 3)

    assert plan.opens == () and plan.draws_at == (1, 2)  # the spare table 4 stays empty
    assert plan.shares == (BreakShare(1, 1, 1, False), BreakShare(2, 3, 3, False))
    assert plan.key == "3:4>1:1-1,2:3-3"


def test_a_share_drawn_at_random_is_named_as_a_range():
    """Three players for two tables of seven: one takes two, which one is drawn."""
    room = [table(1, range(1, 8)), table(2, range(1, 8)), table(3, range(1, 4))]

    plan = break_plan(room, 3)

    assert plan.shares == (BreakShare(1, 1, 2, False), BreakShare(2, 1, 2, False))


def test_only_as_many_empty_tables_open_as_needed_the_one_breaking_last_first():
    """Casino §8: the table added last breaks first, so the spare added first opens."""
    room = [
        table(1, range(1, 9), break_order=4),
        table(2, range(1, 10), break_order=3),
        table(6, (), break_order=1),
        table(7, (), break_order=2),
    ]

    plan = break_plan(room, 2)

    assert plan.opens == (7,)
    assert plan.draws_at == (1, 7)


def test_a_break_without_room_even_at_the_empty_tables_is_no_plan():
    room = [table(1, range(1, 9)), table(2, range(1, 10)), table(3, (), seats=5)]

    plan = break_plan(room, 2)

    assert plan.room is False and plan.shares == () and plan.free == 1


def test_the_last_table_has_no_plan():
    assert break_plan([table(1, range(1, 5))], 1) is None


@st.composite
def breaks(draw):
    """A room of tables in play and empty ones, one of them to break, and a seed."""
    count = draw(st.integers(2, 6))
    tables = []
    for number in range(1, count + 1):
        size = draw(st.integers(2, 10))
        players = draw(st.integers(0, size))
        tables.append(table(number, range(1, players + 1), seats=size, break_order=number))
    breaking = draw(st.sampled_from([t.number for t in tables if t.players] or [1]))
    return tables, breaking, draw(st.integers(0, 2**32))


@settings(max_examples=200, deadline=None)
@given(breaks())
def test_the_break_does_exactly_what_its_plan_says(room):
    """Whatever the draw, each table takes a number of players within its share, and
    only the plan's tables take any: the confirmation never promised something else."""
    tables, number, seed = room
    plan = break_plan(tables, number)
    if plan is None or not plan.room:
        return
    by_number = {t.number: t for t in tables}

    moves = engine.break_table(
        by_number[number], [by_number[n] for n in plan.draws_at], random.Random(seed)
    )

    taken = Counter(move.table for move in moves)
    shares = {share.table: share for share in plan.shares}
    assert set(taken) <= set(shares)
    for share in plan.shares:
        assert share.fewest <= taken[share.table] <= share.most
    assert sum(taken.values()) == plan.players
    in_play = {t.number for t in tables if t.players and t.number != number}
    assert set(plan.opens) == set(shares) - in_play
    if plan.opens:  # an empty table opens only when the tables in play lack the seats
        assert plan.free < plan.players

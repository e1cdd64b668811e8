"""The Day 2 redraw of a multi-flight event (issue 17) as pure functions: TDA 7, every
seat drawn at random, with the house's option to spread the big stacks over the tables.

No Django here. Every random choice comes from the `random.Random` the caller passes
in, seeded and stored with the seating action, so the redraw can be replayed.
"""

import random
from collections.abc import Mapping

from seating.engine import Assignment, TableView, _fill_counts, _table_seats, draw_seats


def day2_spread_big_stacks(
    tables: list[TableView],
    stacks: Mapping[int, int],
    rng: random.Random,
    *,
    needs_access: frozenset[int] = frozenset(),
) -> list[Assignment]:
    """TDA 7 with the big stacks spread: the tables are filled evenly (at most one
    player apart), and the stacks are dealt biggest first round the tables, in an order
    drawn at random, so each table gets its share of the biggest. Seats at a table are
    drawn at random; a player who needs an accessible seat gets one where the table has
    it (TDA 9). Equal stacks are put in a random order first.

    `stacks` maps each entry to its chips."""
    counts = _fill_counts(tables, len(stacks), rng)
    order = [t.number for t in tables]
    rng.shuffle(order)
    entries = list(stacks)
    rng.shuffle(entries)
    entries.sort(key=lambda e: -stacks[e])  # stable: equal stacks keep the random order
    dealt: dict[int, list[int]] = {number: [] for number in order}
    queue = iter(entries)
    remaining = dict(counts)
    while any(remaining.values()):
        for number in order:
            if remaining[number]:
                dealt[number].append(next(queue))
                remaining[number] -= 1
    by_number = {t.number: t for t in tables}
    result: list[Assignment] = []
    for number in order:
        players = dealt[number]
        needing = [e for e in players if e in needs_access]
        seats, _left = _table_seats(by_number[number], len(players), len(needing), rng)
        # _table_seats puts the accessible seats it reserved first.
        ordered = needing + [e for e in players if e not in needs_access]
        result.extend(Assignment(e, number, seat) for e, seat in zip(ordered, seats, strict=True))
    return result


def day2_redraw(
    tables: list[TableView],
    stacks: Mapping[int, int],
    rng: random.Random,
    *,
    spread: bool,
    needs_access: frozenset[int] = frozenset(),
) -> list[Assignment]:
    """TDA 7: the Day 2 field drawn at random over `tables`; with `spread` (house
    setting) the big stacks are dealt round the tables first."""
    if spread:
        return day2_spread_big_stacks(tables, stacks, rng, needs_access=needs_access)
    return draw_seats(tables, list(stacks), rng, needs_access=needs_access)

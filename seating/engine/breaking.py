"""Breaking a table (TDA 10-B) as a plan known before it is done: how many players move,
the tables whose open seats they draw and how many each of those takes, and which empty
table opens for them. The seats themselves are drawn only when the table breaks
(`seating.engine.break_table`, 2-step random): a plan shown first must not let anyone
pick a draw they like.

No Django here.
"""

from dataclasses import dataclass

from seating.engine import TableView, fill_range


@dataclass(frozen=True)
class BreakShare:
    """One table that takes players of the broken table: between `fewest` and `most` of
    them (the last few go to tables drawn at random)."""

    table: int
    fewest: int
    most: int
    opens: bool  # an empty table, not in play until now


@dataclass(frozen=True)
class BreakPlan:
    table: int
    players: int
    free: int  # open seats at the tables in play
    draws_at: tuple[int, ...]  # tables whose open seats are drawn, in the draw's order
    shares: tuple[BreakShare, ...]  # the tables that take players, by number
    room: bool  # False: the players do not fit even with every empty table opened

    @property
    def opens(self) -> tuple[int, ...]:
        """The empty tables that open for the players: the break needs a new table."""
        return tuple(share.table for share in self.shares if share.opens)

    @property
    def key(self) -> str:
        """The whole plan in a few characters, for a confirmation to echo back, e.g.
        "5:9>1:0-1,2:0-1,6+:8-9" (table 5's nine players; table 6 opens)."""
        shares = ",".join(
            f"{s.table}{'+' if s.opens else ''}:{s.fewest}-{s.most}" for s in self.shares
        )
        return f"{self.table}:{self.players}>{shares}"


def break_plan(tables: list[TableView], number: int) -> BreakPlan | None:
    """TDA 10-B: what breaking table `number` does. Its players draw the open seats of
    the tables in play; only when those are too few does an empty table open, the one
    that breaks last first (casino §8) and no more of them than needed. None when there
    is no other table at all."""
    breaking = next(t for t in tables if t.number == number)
    others = [t for t in tables if t.number != number]
    if not others:
        return None
    in_play = [t for t in others if t.players]
    free = sum(len(t.open_seats) for t in in_play)
    spare = sorted((t for t in others if not t.players), key=lambda t: (-t.break_order, t.number))
    draws_at, seats, opened = list(in_play), free, set()
    while spare and seats < breaking.players:
        table = spare.pop(0)
        draws_at.append(table)
        seats += len(table.open_seats)
        opened.add(table.number)
    if seats < breaking.players:
        return BreakPlan(number, breaking.players, free, (), (), room=False)
    ranges = fill_range(draws_at, breaking.players)
    shares = tuple(
        BreakShare(n, fewest, most, n in opened)
        for n, (fewest, most) in sorted(ranges.items())
        if most
    )
    return BreakPlan(
        number, breaking.players, free, tuple(t.number for t in draws_at), shares, room=True
    )

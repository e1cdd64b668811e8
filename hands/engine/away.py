"""When a player on penalty sits a hand out (TDA 71-C, 68), as pure rules.

A missed-hands penalty begins once the hand in play is over (TDA 68): a penalty given
during a hand leaves that hand alone, the player plays it out with a live hand. From
the next hand the player is dealt in, posts blinds and antes (and the stud bring-in if
dealt it), and the hand is dead from the deal (TDA 71-C): `betting.start_hand` takes
these seats as `dead`. Casino §49: the player leaves the tournament area meanwhile.

A hand is known by its table and its number at that table: numbers restart at each
table, so a penalty given at one table counts at another table from any hand dealt
after the player moved there.
"""

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Serving:
    """A penalty being served by the player in `seat`: given at table `table`, during
    (or after) hand `after_hand` there; None when the table had dealt no hand yet."""

    seat: int
    table: int
    after_hand: int | None


def begun(*, given_at: int, after_hand: int | None, table: int, hand: int) -> bool:
    """Does a penalty given at table `given_at` after its hand `after_hand` apply to hand
    `hand` dealt at table `table`? TDA 68: not to the hand in play when it was given,
    from the next one on; at another table (after a move), to any hand."""
    if given_at != table or after_hand is None:
        return True
    return hand > after_hand


def dead_seats(serving: Iterable[Serving], *, table: int, hand: int) -> frozenset[int]:
    """The seats dealt a dead hand in hand `hand` at table `table` (TDA 71-C): those
    whose penalty has begun by then (TDA 68). The caller passes the seats dealt in only."""
    return frozenset(
        s.seat
        for s in serving
        if begun(given_at=s.table, after_hand=s.after_hand, table=table, hand=hand)
    )

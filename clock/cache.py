"""The public clock's row, kept in the cache for GET .../clock/ (issue 20).

Every screen resyncs from that read, all at once after each change. What the API answers
depends on the moment (`server_time`, the time left, the level a running clock has rolled
into), so what is kept is what it is derived from: the row of `clock.selectors.clock_row`
(the state with its anchor, the version, the structure's version). The answer is derived
from it at each read, as before; the structure's steps are kept per process, by version
(`clock.selectors._steps_at`). A read found in the cache costs no database query.

The row is kept as every public screen's values are (`floorman.versions`), under a version
of its own, the kind "clock": the clock changes far more often than the rest of the
tournament (every pause, every level), and its structure's edits take no tournament lock.
Never stale after a change: every change of the clock renews that version within its
transaction and again as it commits (`clock_cache_forget`), before the live event goes out,
so a screen told of a pause reads the pause.
"""

from clock.selectors import ClockRow, clock_row
from floorman.versions import screen_cached, screens_changed

KIND = "clock"
# The longest a row is kept: only a cache that failed at a change's commit makes it matter.
ROW_SECONDS = 60
# Part of every key: a row kept in another shape by an older release is never read.
ROW_FORMAT = 1


def row_key(tournament_id: int) -> str:
    return f"clock:{ROW_FORMAT}:{tournament_id}"


def clock_row_cached(tournament_id: int) -> ClockRow | None:
    """`clock_row(tournament_id)`, from the cache when kept at the clock's current version;
    a cache that cannot be reached is read past (the database answers)."""
    return screen_cached(
        row_key(tournament_id),
        tournament_id,
        lambda: clock_row(tournament_id),
        kinds=(KIND,),
        seconds=ROW_SECONDS,
    )


def clock_cache_forget(tournament_id: int) -> None:
    """The clock's public state changes in this transaction: rows kept before are not used,
    now (for the transaction's own reads) and again after the commit. Called by the clock's
    services before they publish the change."""
    screens_changed([tournament_id], kind=KIND)

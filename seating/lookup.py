"""The public seat lookup's in-memory index of one tournament's field, kept per process.

When a draw is announced hundreds of players search at once. A trigram search in the
database costs about a millisecond per search, most of it planning; the index
(seating.engine.lookup) answers in microseconds. It is a cache, not state: each search
first reads the tournament's `lookup_version` (at most every SEAT_LOOKUP_MAX_AGE seconds:
see IndexCache), which every change to entries, names and seats bumps in its own
transaction (tournaments.services.lookup_changed), and brings the index up to date when
it differs. Reading the version before the rows means an index is never labelled newer
than its rows.

Bringing it up to date: each version's entry in the change log (LookupChange) names the
entries whose rows changed; a process at version v reads the entries of v+1 to now and
their rows as they are now, and puts those rows in its index (FieldIndex.apply): a bust
costs two small queries and well under a millisecond, where rebuilding the index of
10,000 entries costs a hundred milliseconds or more in every web process, several times
a second while players bust. It rebuilds when the log cannot say: a change of any row
(a draw, a rename), a process too far behind (the log keeps LOOKUP_CHANGES_KEPT
versions), or too many rows changed. Reading a row newer than the version is harmless:
the next update reads it again.
"""

import logging
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

from seating.engine.lookup import FieldIndex

logger = logging.getLogger(__name__)

MAX_TOURNAMENTS = 16  # indexes kept per process; a festival runs a few events at once


@dataclass
class _Cached:
    version: tuple
    checked: float  # time.monotonic() when the version was last read
    index: FieldIndex


class IndexCache:
    """A few tournaments' indexes per process, each labelled with the version it was built at.

    Reading the version is a database round trip, as costly as the search once the index
    is built; under a rush of searches it is read at most once per `max_age` seconds, so a
    search may miss a change made in the last `max_age` seconds (the player's own page hears
    of a move at once, by websocket).
    """

    def __init__(self, size: int = MAX_TOURNAMENTS, clock=time.monotonic):
        self.size = size
        self.clock = clock
        self._indexes: OrderedDict[int, _Cached] = OrderedDict()
        self._lock = threading.Lock()  # ASGI runs views in threads

    def get(
        self,
        tournament_id: int,
        *,
        version: tuple | None,
        read_version,
        build,
        max_age: float,
        update=None,
    ) -> FieldIndex | None:
        """The index; `version` if the caller has read it, else `read_version()` when due.

        A newer version updates the index it has: `update(its version, version)` gives
        the changed rows (entry -> row, or None: gone) to apply, or None when it cannot
        say (then `build()`). None when `read_version` finds no such tournament."""
        with self._lock:
            cached = self._indexes.get(tournament_id)
        now = self.clock()
        if version is None:
            if cached and now - cached.checked < max_age:
                return cached.index
            version = read_version()
            if version is None:
                return None
        if cached and cached.version[1:] == version[1:] and cached.version[0] >= version[0]:
            # As new or newer (another request updated it since this one read its version).
            cached.checked = now
            return cached.index
        changes = None
        if cached and update is not None:
            changes = update(cached.version, version)
        if changes is not None:
            with self._lock:
                # Two threads may both update: rows read for an older version never
                # overwrite those of a newer one (the label would lie).
                try:
                    if cached.version[0] < version[0]:
                        cached.index.apply(changes)
                        cached.version = version
                    cached.checked = now
                    return cached.index
                except Exception:  # half applied: the index can no longer be trusted
                    logger.exception("seat lookup index of %s not updated", tournament_id)
                    self._indexes.pop(tournament_id, None)
        index = build()
        with self._lock:
            self._indexes[tournament_id] = _Cached(version, now, index)
            self._indexes.move_to_end(tournament_id)
            while len(self._indexes) > self.size:
                self._indexes.popitem(last=False)
        return index

    def clear(self) -> None:
        with self._lock:
            self._indexes.clear()

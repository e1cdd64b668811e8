"""The public seat lookup's in-memory index of one tournament's field.

When a draw is announced hundreds of players search at once. A trigram search in the
database costs about a millisecond per search, most of it planning; this index answers
in microseconds (see _Texts). It is a cache, not state: each search first reads the tournament's
`lookup_version` (at most every SEAT_LOOKUP_MAX_AGE seconds: see IndexCache), which every
change to entries, names and seats bumps in its own transaction
(tournaments.services.lookup_changed), and rebuilds the index when it differs. Reading
the version before the rows means an index is never labelled newer than its rows.
"""

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

MAX_TOURNAMENTS = 16  # indexes kept per process; a festival runs a few events at once


@dataclass(frozen=True)
class Row:
    entry: int
    number: int
    name: str
    status: str
    table: int | None
    seat: int | None
    name_key: str
    name_plain: str

    def public(self) -> dict:
        return {
            "entry": self.entry,
            "number": self.number,
            "name": self.name,
            "status": self.status,
            "table": self.table,
            "seat": self.seat,
        }


class _Texts:
    """One name text per row with an index of its trigrams (three-letter pieces).

    A search looks only at the rows that hold the rarest trigram of the query, in row
    order, and stops once it has enough: microseconds, where scanning every name costs a
    tenth of a millisecond. Queries shorter than a trigram scan the names.
    """

    def __init__(self, texts: list[str]):
        self.texts = texts
        self.grams: dict[str, list[int]] = {}
        for row, text in enumerate(texts):
            for gram in {text[i : i + 3] for i in range(len(text) - 2)}:
                self.grams.setdefault(gram, []).append(row)

    def rows_containing(self, part: str, limit: int) -> list[int]:
        """The first `limit` rows whose text contains `part`, in row order."""
        if len(part) < 3:
            candidates = range(len(self.texts))
        else:
            grams = {part[i : i + 3] for i in range(len(part) - 2)}
            candidates = min((self.grams.get(gram, ()) for gram in grams), key=len)
        found = []
        for row in candidates:
            if part in self.texts[row]:
                found.append(row)
                if len(found) == limit:
                    break
        return found


class FieldIndex:
    """Rows in the order players see them (still playing first, then by name)."""

    def __init__(self, rows: list[Row]):
        self.rows = rows
        self.keys = _Texts([row.name_key for row in rows])
        self.plain = _Texts([row.name_plain for row in rows])
        self.by_number: dict[int, list[int]] = {}
        for position, row in enumerate(rows):
            self.by_number.setdefault(row.number, []).append(position)

    def by_name(self, key: str, plain: str, limit: int) -> list[Row]:
        if not key or not plain:  # as LIKE '%%' in the database: every name matches
            return self.rows[:limit]
        # The first `limit` of either kind of match include the first `limit` of both.
        found = set(self.keys.rows_containing(key, limit))
        found.update(self.plain.rows_containing(plain, limit))
        return [self.rows[position] for position in sorted(found)[:limit]]

    def by_entry_number(self, number: int, limit: int) -> list[Row]:
        return [self.rows[position] for position in self.by_number.get(number, [])[:limit]]


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
        self, tournament_id: int, *, version: tuple | None, read_version, build, max_age: float
    ) -> FieldIndex | None:
        """The index; `version` if the caller has read it, else `read_version()` when due.

        None when `read_version` finds no such tournament."""
        with self._lock:
            cached = self._indexes.get(tournament_id)
        now = self.clock()
        if version is None:
            if cached and now - cached.checked < max_age:
                return cached.index
            version = read_version()
            if version is None:
                return None
        if cached and cached.version == version:
            cached.checked = now
            return cached.index
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

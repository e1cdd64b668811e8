"""The public seat lookup's index of one tournament's field, as plain Python.

When a draw is announced hundreds of players search at once. A trigram search in the
database costs about a millisecond per search, most of it planning; this index answers
in microseconds (see _Texts). seating.lookup keeps one per tournament and process and
brings it up to date when the field changes: `FieldIndex.apply` with the few entries
that changed (a bust, a seat), a full rebuild only after a large change.
"""

import threading
from bisect import bisect_left, insort
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import islice


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


def order_key(row: Row) -> tuple:
    """The order players see rows in: still playing first ('active' sorts before
    'busted' and 'disqualified'), then alphabetically as people read names (accents and
    case aside), then by entry number. Decided here, not by the database's collation,
    so that a row put in its place by an update lands where a full rebuild puts it."""
    return (row.status, row.name_plain, row.name, row.number, row.entry)


def _grams(text: str) -> set[str]:
    return {text[i : i + 3] for i in range(len(text) - 2)}


class _Texts:
    """One name text per row with an index of its trigrams (three-letter pieces).

    Rows are named by their order keys, each trigram's list kept in that order. A search
    looks only at the rows that hold the rarest trigram of the query, in order, and stops
    once it has enough: microseconds, where scanning every name costs a tenth of a
    millisecond. Queries shorter than a trigram scan the names.
    """

    def __init__(self, texts: dict[tuple, str], grams: dict[str, list[tuple]]):
        self.texts = texts  # order key -> text
        self.grams = grams  # trigram -> order keys of the rows that hold it, in order

    @classmethod
    def build(cls, keyed: list[tuple[tuple, str]]) -> "_Texts":
        """From (order key, text) pairs already in order."""
        grams: dict[str, list[tuple]] = {}
        for key, text in keyed:
            for gram in _grams(text):
                grams.setdefault(gram, []).append(key)
        return cls(dict(keyed), grams)

    def apply(self, removed: list[tuple], added: list[tuple[tuple, str]]) -> None:
        """Take out the rows `removed`, put in `added`, each trigram list kept in order."""
        texts, grams = self.texts, self.grams
        for key in removed:
            for gram in _grams(texts.pop(key)):
                keys = grams[gram]
                del keys[bisect_left(keys, key)]
                if not keys:
                    del grams[gram]
        for key, text in added:
            texts[key] = text
            for gram in _grams(text):
                insort(grams.setdefault(gram, []), key)

    def rows_containing(self, part: str, order: list[tuple], limit: int) -> list[tuple]:
        """The first `limit` rows whose text contains `part`, in order."""
        if len(part) < 3:
            candidates = order
        else:
            candidates = min((self.grams.get(gram, ()) for gram in _grams(part)), key=len)
        found = []
        for key in candidates:
            if part in self.texts[key]:
                found.append(key)
                if len(found) == limit:
                    break
        return found


class FieldIndex:
    """Rows in the order players see them (`order_key`), searchable by name and number."""

    by_key: dict[tuple, Row]  # order key -> row
    key_of: dict[int, tuple]  # entry -> its row's order key
    order: list[tuple]  # the order keys, in order
    keys: _Texts  # the names as name_key spells them
    plain: _Texts  # the names as name_plain spells them
    by_number: dict[int, list[tuple]]  # entry number -> order keys, in order

    def __init__(self, rows: Iterable[Row] = ()):
        self.lock = threading.Lock()  # ASGI runs views in threads: see `apply`
        keyed = sorted(((order_key(row), row) for row in rows), key=lambda pair: pair[0])
        self.by_key = dict(keyed)
        self.key_of = {row.entry: key for key, row in keyed}
        self.order = [key for key, _row in keyed]
        self.keys = _Texts.build([(key, row.name_key) for key, row in keyed])
        self.plain = _Texts.build([(key, row.name_plain) for key, row in keyed])
        self.by_number = {}
        for key, row in keyed:
            self.by_number.setdefault(row.number, []).append(key)

    @property
    def rows(self) -> list[Row]:
        return [self.by_key[key] for key in self.order]

    def __len__(self) -> int:
        return len(self.order)

    def apply(self, changes: Mapping[int, Row | None]) -> None:
        """Put each changed entry's row as it is now in its place (None: no longer in the
        field): the index becomes FieldIndex(rows) with those rows replaced, at the cost
        of the changed rows, not of the field. In place, under the index's lock, so that
        no search reads it half changed; copying the index instead would cost
        milliseconds at 10,000 entries (the copies, and the garbage collector
        traversing them)."""
        with self.lock:
            removed = sorted(self.key_of[entry] for entry in changes if entry in self.key_of)
            added = sorted(
                ((order_key(row), row) for row in changes.values() if row is not None),
                key=lambda pair: pair[0],
            )
            by_key, key_of, order, by_number = self.by_key, self.key_of, self.order, self.by_number
            for key in removed:
                row = by_key.pop(key)
                del key_of[row.entry]
                del order[bisect_left(order, key)]
                numbered = by_number[row.number]
                numbered.remove(key)
                if not numbered:
                    del by_number[row.number]
            for key, row in added:
                by_key[key] = row
                key_of[row.entry] = key
                order.insert(bisect_left(order, key), key)
                insort(by_number.setdefault(row.number, []), key)
            self.keys.apply(removed, [(key, row.name_key) for key, row in added])
            self.plain.apply(removed, [(key, row.name_plain) for key, row in added])

    def by_name(self, key: str, plain: str, limit: int) -> list[Row]:
        with self.lock:
            if not key or not plain:  # as LIKE '%%' in the database: every name matches
                return [self.by_key[k] for k in islice(self.order, limit)]
            # The first `limit` of either kind of match include the first `limit` of both.
            found = set(self.keys.rows_containing(key, self.order, limit))
            found.update(self.plain.rows_containing(plain, self.order, limit))
            return [self.by_key[k] for k in sorted(found)[:limit]]

    def by_entry_number(self, number: int, limit: int) -> list[Row]:
        with self.lock:
            return [self.by_key[key] for key in self.by_number.get(number, [])[:limit]]

"""The public seat lookup's index of one tournament's field, as plain Python.

When a draw is announced hundreds of players search at once. A trigram search in the
database costs about a millisecond per search, most of it planning; this index answers
in microseconds (see _Texts). seating.lookup keeps one per tournament and process and
rebuilds it when the field changes.
"""

from dataclasses import dataclass


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

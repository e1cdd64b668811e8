"""The audit log's hash chain, as pure functions.

Each entry carries the hash of the entry before it (`prev_hash`) and its own `hash`: the
SHA-256 of a canonical serialisation of its fields and `prev_hash`. Changing an entry
changes its hash; removing one breaks the link of the next. Entries are numbered without
gaps (`seq`), so a missing entry is named by its number.

The canonical form is JSON with sorted keys and no spaces, ASCII only, times in ISO 8601
UTC with microseconds, tournament and actor by id. Floats with no fraction are written as
integers: PostgreSQL's jsonb hands 1e20 back as 100000000000000000000, and the hash must
be the same before and after the database stores the value.
"""

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

GENESIS = "0" * 64  # the "previous hash" of the first entry

# The fields an entry's hash covers, besides prev_hash.
FIELDS = (
    "seq",
    "at",
    "tournament",
    "actor",
    "action",
    "object_type",
    "object_id",
    "object_repr",
    "before",
    "after",
)

CHANGED = "changed"  # the entry's fields no longer give its hash
MISSING = "missing"  # entries are missing before this one (a gap in the numbers)
UNLINKED = "unlinked"  # the entry does not follow the one before it (replaced or reordered)
REWRITTEN = "rewritten"  # the entry a walk ended at is no longer there as it was then


def _plain(value):
    # Concrete types, not the abstract ones: this runs for every value of every entry.
    if isinstance(value, dict):
        # As json writes keys: 1 as "1", True as "true", None as "null".
        return {
            key if isinstance(key, str) else json.dumps(key): _plain(item)
            for key, item in value.items()
        }
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _time(value: datetime) -> str:
    return value.astimezone(UTC).isoformat(timespec="microseconds")


def entry_canonical(fields: Mapping, prev_hash: str) -> bytes:
    """The bytes an entry's hash is taken of: `fields` holds FIELDS (tournament and actor
    as ids or None, `at` an aware datetime)."""
    data = {name: _plain(fields[name]) for name in FIELDS}
    data["at"] = _time(fields["at"])
    data["prev_hash"] = prev_hash
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return text.encode("ascii")


def entry_hash(fields: Mapping, prev_hash: str) -> str:
    return hashlib.sha256(entry_canonical(fields, prev_hash)).hexdigest()


@dataclass(frozen=True)
class ChainBreak:
    """The first place the chain does not hold: the entry's number and id, and what is wrong."""

    seq: int
    entry_id: int
    kind: str  # CHANGED, MISSING, UNLINKED or REWRITTEN
    expected_seq: int  # for MISSING: the first number not found


@dataclass(frozen=True)
class ChainReport:
    entries: int  # how many were checked
    head_seq: int  # the number of the last entry that holds (0: none)
    head_hash: str  # its hash (GENESIS: none)
    broken: ChainBreak | None

    @property
    def holds(self) -> bool:
        return self.broken is None


def chain_check(rows: Iterable[Mapping], *, seq: int = 0, prev: str = GENESIS) -> ChainReport:
    """Walk the entries in `seq` order (each row: FIELDS, "id", "prev_hash", "hash") and
    stop at the first that is missing, does not link to the one before, or was changed.
    `seq` and `prev`: the number and hash of the entry before the first row, when the
    walk goes on from an earlier one.

    What the chain cannot show alone: entries removed from the end. Compare the head
    (number and hash) with one noted down earlier for that."""
    count = 0
    for row in rows:
        count += 1
        if row["seq"] != seq + 1:
            broken = ChainBreak(row["seq"], row["id"], MISSING, seq + 1)
            return ChainReport(count, seq, prev, broken)
        if row["prev_hash"] != prev:
            return ChainReport(count, seq, prev, ChainBreak(row["seq"], row["id"], UNLINKED, 0))
        if entry_hash(row, prev) != row["hash"]:
            return ChainReport(count, seq, prev, ChainBreak(row["seq"], row["id"], CHANGED, 0))
        seq, prev = row["seq"], row["hash"]
    return ChainReport(count, seq, prev, None)

"""The audit log's hash chain as pure functions (floorman.engine.audit_chain)."""

import hashlib
import json
from datetime import UTC, datetime, timedelta, timezone

from floorman.engine.audit_chain import (
    CHANGED,
    GENESIS,
    MISSING,
    UNLINKED,
    ChainBreak,
    chain_check,
    entry_canonical,
    entry_hash,
)

AT = datetime(2026, 11, 25, 19, 30, 0, tzinfo=UTC)


def fields(number: int, **changes) -> dict:
    return {
        "seq": number,
        "at": AT + timedelta(seconds=number),
        "tournament": 7,
        "actor": 3,
        "action": "entry.bust",
        "object_type": "entry",
        "object_id": str(number),
        "object_repr": f"#{number} Anna Berger",
        "before": {"status": "active", "chips": 12500},
        "after": {"status": "busted", "chips": 0},
        **changes,
    }


def chain(count: int) -> list[dict]:
    rows, prev = [], GENESIS
    for seq in range(1, count + 1):
        row = {**fields(seq), "id": 100 + seq, "prev_hash": prev}
        row["hash"] = prev = entry_hash(row, row["prev_hash"])
        rows.append(row)
    return rows


def test_canonical_form_is_sorted_compact_ascii_json_in_utc():
    at = datetime(2026, 11, 25, 20, 30, 0, tzinfo=timezone(timedelta(hours=1)))
    text = entry_canonical(fields(1, at=at, object_repr="Jürgen"), GENESIS).decode()

    data = json.loads(text)
    assert list(data) == sorted(data)
    assert data["at"] == "2026-11-25T19:30:00.000000+00:00"
    assert data["prev_hash"] == GENESIS
    assert '"object_repr":"J\\u00fcrgen"' in text
    assert ": " not in text and ", " not in text


def test_hash_is_the_sha256_of_the_canonical_form():
    digest = hashlib.sha256(entry_canonical(fields(1), GENESIS)).hexdigest()
    assert entry_hash(fields(1), GENESIS) == digest


def test_hash_covers_every_field_and_the_previous_hash():
    base = entry_hash(fields(1), GENESIS)
    changes = {
        "seq": 2,
        "at": AT,
        "tournament": 8,
        "actor": None,
        "action": "entry.bust_undo",
        "object_type": "seat",
        "object_id": "2",
        "object_repr": "#1 Anna Bergér",
        "before": {"status": "active", "chips": 12501},
        "after": None,
    }
    for name, value in changes.items():
        assert entry_hash(fields(1, **{name: value}), GENESIS) != base, name
    assert entry_hash(fields(1), "1" * 64) != base


def test_hash_is_the_same_for_what_the_database_hands_back():
    """jsonb gives 1e20 back as 100000000000000000000 and key order of its own; keys
    that were numbers come back as strings."""
    written = fields(1, before={"b": 1e20, "a": [1.0, 0.1, (2, 3)], 5: True})
    read = fields(1, before={"5": True, "a": [1, 0.1, [2, 3]], "b": 100000000000000000000})

    assert entry_hash(written, GENESIS) == entry_hash(read, GENESIS)


def test_an_unbroken_chain_holds():
    report = chain_check(chain(5))

    assert report.holds
    assert (report.entries, report.head_seq) == (5, 5)
    assert report.head_hash == chain(5)[-1]["hash"]


def test_an_empty_log_holds():
    report = chain_check([])
    assert report.holds and (report.entries, report.head_seq, report.head_hash) == (0, 0, GENESIS)


def test_a_changed_entry_is_found():
    rows = chain(5)
    rows[2]["after"] = {"status": "active", "chips": 0}

    report = chain_check(rows)

    assert report.broken == ChainBreak(seq=3, entry_id=103, kind=CHANGED, expected_seq=0)
    assert report.head_seq == 2


def test_a_changed_entry_with_its_hash_made_again_breaks_the_next_link():
    rows = chain(5)
    rows[2]["after"] = {"status": "active", "chips": 0}
    rows[2]["hash"] = entry_hash(rows[2], rows[2]["prev_hash"])

    assert chain_check(rows).broken == ChainBreak(4, 104, UNLINKED, 0)


def test_a_missing_entry_is_found_by_its_number():
    rows = chain(5)
    del rows[1]

    assert chain_check(rows).broken == ChainBreak(3, 103, MISSING, expected_seq=2)


def test_a_missing_first_entry_is_found():
    assert chain_check(chain(3)[1:]).broken == ChainBreak(2, 102, MISSING, 1)


def test_a_walk_goes_on_from_an_earlier_one():
    rows = chain(6)

    report = chain_check(rows[4:], seq=4, prev=rows[3]["hash"])

    assert report.holds and (report.entries, report.head_seq) == (2, 6)
    assert chain_check(rows[4:], seq=4, prev=rows[2]["hash"]).broken.kind == UNLINKED

"""The audit log is append-only and hash-chained (issue 15, item 12).

The database refuses to change or delete an entry; each entry is numbered and carries the
hash of the one before; `manage.py audit_verify` and the director's audit page walk the
chain. Tampering is simulated with the guard lifted inside the test's own transaction
(floorman.database.guard.lifted), which the test's rollback puts back.
"""

import importlib

import pytest
from django.apps import apps as django_apps
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clock.tests.factories import with_structure
from floorman.audit import (
    CHAIN_CHECKED_KEY,
    audit_chain_checked,
    audit_chain_verify,
    audit_record,
)
from floorman.database import chain, guard
from floorman.database.hooks import opened_by_test_case_only
from floorman.engine.audit_chain import (
    CHANGED,
    GENESIS,
    MISSING,
    REWRITTEN,
    UNLINKED,
    entry_hash,
)
from floorman.models import AuditEntry
from floorman.tests.concurrency import at_once
from hands.services import busts
from hands.tests.factories import button_at, seat_players
from tournaments.tests.factories import register, staff, tournament

pytestmark = pytest.mark.django_db

on_postgres = pytest.mark.postgres


@pytest.fixture(autouse=True)
def no_earlier_check():
    """The audit page remembers in the cache where its last walk ended."""
    cache.delete(CHAIN_CHECKED_KEY)
    yield
    cache.delete(CHAIN_CHECKED_KEY)


def logged(event, count: int) -> list[AuditEntry]:
    """`count` entries about `event`, each in a transaction of its own."""
    for number in range(count):
        with transaction.atomic():
            audit_record(
                actor=None, action="test.step", obj=event, tournament=event, after={"step": number}
            )
    return list(AuditEntry.objects.order_by("seq"))


def tamper(sql: str, params=()) -> None:
    with guard.lifted(connection), connection.cursor() as cursor:
        cursor.execute(sql, params)


# --- Appending ------------------------------------------------------------------------------


def test_services_append_entries_numbered_and_linked_in_order():
    event = tournament()
    cashier = staff("cashier")
    for name in ("Ada", "Bo", "Cara"):
        register(event, name, actor=cashier)

    entries = list(AuditEntry.objects.order_by("seq"))

    assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
    assert [e.pk for e in entries] == sorted(e.pk for e in entries)
    assert entries[0].prev_hash == GENESIS
    assert all(b.prev_hash == a.hash for a, b in zip(entries, entries[1:], strict=False))
    assert [e.action for e in entries].count("entry.register") == 3
    report = audit_chain_verify()
    assert report.holds and (report.entries, report.head_seq) == (len(entries), len(entries))
    assert report.head_hash == entries[-1].hash


def test_an_entry_is_appended_when_its_transaction_ends():
    event = tournament()
    with transaction.atomic():
        entry = audit_record(actor=None, action="test.step", obj=event, tournament=event)
        assert not AuditEntry.objects.exists()  # the chain lock is the last lock taken

    stored = AuditEntry.objects.get()
    assert (entry.pk, stored.seq, stored.hash) == (stored.pk, 1, entry.hash)
    assert stored.hash == entry_hash(
        {
            "seq": 1,
            "at": stored.at,
            "tournament": event.pk,
            "actor": None,
            "action": "test.step",
            "object_type": "tournament",
            "object_id": str(event.pk),
            "object_repr": str(event),
            "before": None,
            "after": None,
        },
        GENESIS,
    )


def test_a_rolled_back_transaction_leaves_no_entry_and_no_gap():
    event = tournament()
    logged(event, 1)
    with pytest.raises(RuntimeError), transaction.atomic():
        audit_record(actor=None, action="test.lost", obj=event)
        raise RuntimeError("the service fails after logging")
    logged(event, 1)

    assert list(AuditEntry.objects.order_by("seq").values_list("seq", "action")) == [
        (1, "test.step"),
        (2, "test.step"),
    ]
    assert audit_chain_verify().holds


def test_a_rolled_back_savepoint_drops_its_own_entries_only():
    event = tournament()
    with transaction.atomic():
        audit_record(actor=None, action="test.first", obj=event)
        try:
            with transaction.atomic():
                audit_record(actor=None, action="test.undone", obj=event)
                raise RuntimeError("an inner step fails and is caught")
        except RuntimeError:
            pass
        audit_record(actor=None, action="test.last", obj=event)

    actions = list(AuditEntry.objects.order_by("seq").values_list("action", flat=True))
    assert actions == ["test.first", "test.last"]
    assert audit_chain_verify().holds


def test_floats_and_keys_stored_as_json_keep_their_hash():
    event = tournament()
    with transaction.atomic():
        audit_record(
            actor=None,
            action="test.values",
            obj=event,
            before={"big": 1e20, "small": 1.5e-7, "whole": 2.0, "list": (1, "ü")},
            after={"7": None, "nested": {"b": [0.1, {"a": True}]}},
        )

    assert audit_chain_verify().holds


def test_deleting_a_staff_member_leaves_their_entries_alone():
    event = tournament()
    cashier = staff("cashier")
    register(event, "Ada", actor=cashier)
    actor_id = cashier.pk

    User.objects.filter(pk=actor_id).delete()

    assert AuditEntry.objects.filter(actor_id=actor_id, action="entry.register").exists()
    assert audit_chain_verify().holds


def test_django_still_marks_the_transaction_a_test_runs_in():
    """The before-commit hooks (floorman.database.hooks) tell the test's own transaction
    from the code's by Django's private `Atomic._from_testcase`: Django has no public way.
    If this fails, Django renamed or dropped the flag and `opened_by_test_case_only` must
    find another; until then services' audit entries would never join the chain in tests."""
    assert connection.atomic_blocks, "pytest-django runs the test in a transaction"
    assert all(block._from_testcase is True for block in connection.atomic_blocks)
    assert opened_by_test_case_only(connection)
    with transaction.atomic():
        assert connection.atomic_blocks[-1]._from_testcase is False
        assert not opened_by_test_case_only(connection)
        with transaction.atomic():
            assert not opened_by_test_case_only(connection)
    assert opened_by_test_case_only(connection)


@on_postgres
def test_the_chain_lock_is_the_last_lock_of_a_bust():
    """A bust locks the tournament, the seat and the clock; the chain lock comes after
    all of them and only the audit rows are written under it (no deadlock with a clock
    change that holds the clock and waits to log)."""
    event = tournament()
    with_structure(event)
    seated = seat_players(event, {1: [1, 2, 3], 2: [1, 2, 3]})
    button_at(event, 1, 1)

    logged_before = AuditEntry.objects.count()
    with CaptureQueriesContext(connection) as queries:
        busts.entry_bust(actor=None, tournament_id=event.pk, entry_id=seated[(1, 2)].pk)

    statements = [q["sql"] for q in queries.captured_queries]
    chain_lock = next(i for i, sql in enumerate(statements) if chain.FUNCTION in sql)
    before = statements[:chain_lock]
    after = [sql for sql in statements[chain_lock + 1 :] if not sql.startswith("RELEASE")]
    assert sum("FOR UPDATE" in sql for sql in before) >= 3  # tournament, entry, clock, ...
    assert AuditEntry.objects.count() > logged_before
    assert len(after) == 1 and after[0].startswith('INSERT INTO floorman_auditentry ("')


def test_a_transactions_entries_are_appended_in_two_statements():
    """The head under the chain lock, then one INSERT, however many entries (issue 16):
    the append runs in every commit."""
    event = tournament()
    logged(event, 1)

    for count in (1, 5):
        with CaptureQueriesContext(connection) as queries, transaction.atomic():
            entries = [
                audit_record(actor=None, action="test.many", obj=event, after={"n": n})
                for n in range(count)
            ]
        statements = [
            q["sql"] for q in queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))
        ]
        assert len(statements) == 2, statements

    stored = list(AuditEntry.objects.filter(action="test.many").order_by("seq"))
    assert [(e.pk, e.seq, e.hash) for e in stored[1:]] == [(e.pk, e.seq, e.hash) for e in entries]
    assert [e.seq for e in stored] == [2, 3, 4, 5, 6, 7]
    assert audit_chain_verify().holds


# --- The database refuses changes ----------------------------------------------------------


def test_the_database_refuses_to_update_an_entry():
    entry = logged(tournament(), 1)[0]

    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        AuditEntry.objects.filter(pk=entry.pk).update(action="entry.nothing")
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        entry.object_repr = "someone else"
        entry.save()
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("UPDATE floorman_auditentry SET after = NULL")

    assert AuditEntry.objects.get().action == "test.step"


def test_the_database_refuses_to_delete_an_entry():
    entry = logged(tournament(), 2)[0]

    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        entry.delete()
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        AuditEntry.objects.all().delete()
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM floorman_auditentry")

    assert AuditEntry.objects.count() == 2


@on_postgres
def test_the_database_refuses_to_truncate_the_log():
    logged(tournament(), 1)

    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("TRUNCATE floorman_auditentry")

    assert AuditEntry.objects.count() == 1


def test_the_guard_is_on_the_audit_table():
    expected = (
        guard.POSTGRES_TRIGGERS if connection.vendor == "postgresql" else guard.SQLITE_TRIGGERS
    )
    assert guard.installed(connection) == sorted(expected)


@pytest.mark.django_db(transaction=True)
def test_flush_empties_the_log_and_puts_the_guard_back():
    """Django's flush (and so the test runner between transactional tests) may empty
    the table; the guard is on again afterwards."""
    logged(tournament(), 2)

    call_command("flush", interactive=False, verbosity=0)

    assert not AuditEntry.objects.exists()
    logged(tournament(), 1)
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        AuditEntry.objects.all().delete()
    assert AuditEntry.objects.get().seq == 1


def test_entries_logged_before_the_chain_are_chained_in_id_order():
    event = tournament()
    entries = logged(event, 4)
    # As before the chain: numbers and hashes that mean nothing.
    tamper("UPDATE floorman_auditentry SET seq = seq + 100, prev_hash = '', hash = ''")
    fill = importlib.import_module("floorman.migrations.0004_audit_chain_fill").chain_fill

    with guard.lifted(connection):
        fill(django_apps, None)

    rows = list(AuditEntry.objects.order_by("seq"))
    assert [(e.pk, e.seq) for e in rows] == [(e.pk, n) for n, e in enumerate(entries, start=1)]
    assert [e.hash for e in rows] == [e.hash for e in entries]
    assert audit_chain_verify().holds


# --- Tampering is found ---------------------------------------------------------------------


def test_a_changed_entry_is_found():
    entries = logged(tournament(), 5)
    tamper(
        "UPDATE floorman_auditentry SET object_repr = %s WHERE id = %s",
        ["#3 Someone Else", entries[2].pk],
    )

    report = audit_chain_verify()

    assert not report.holds
    assert (report.broken.kind, report.broken.seq, report.broken.entry_id) == (
        CHANGED,
        3,
        entries[2].pk,
    )
    assert report.head_seq == 2


def test_a_changed_entry_whose_hash_was_made_again_is_found_at_the_next():
    entries = logged(tournament(), 4)
    forged = entries[1]
    forged.after = {"step": 99}
    fields = {name: getattr(forged, name) for name in ("seq", "at", "action", "object_type")}
    fields.update(
        object_id=forged.object_id,
        object_repr=forged.object_repr,
        tournament=forged.tournament_id,
        actor=None,
        before=None,
        after=forged.after,
    )
    tamper(
        "UPDATE floorman_auditentry SET after = %s, hash = %s WHERE id = %s",
        ['{"step": 99}', entry_hash(fields, forged.prev_hash), forged.pk],
    )

    report = audit_chain_verify()

    assert (report.broken.kind, report.broken.seq) == (UNLINKED, 3)


def test_a_missing_entry_is_found():
    entries = logged(tournament(), 5)
    tamper("DELETE FROM floorman_auditentry WHERE id = %s", [entries[1].pk])

    report = audit_chain_verify()

    assert (report.broken.kind, report.broken.seq, report.broken.expected_seq) == (MISSING, 3, 2)
    assert report.broken.entry_id == entries[2].pk


def test_the_command_says_the_chain_holds():
    entries = logged(tournament(), 3)
    out = []

    call_command("audit_verify", stdout=_Lines(out))

    assert out == [
        "The audit log holds: 3 entries, none changed or missing.",
        f"Last entry: no. 3, hash {entries[-1].hash}",
    ]


def test_the_command_fails_at_the_first_broken_entry():
    entries = logged(tournament(), 5)
    tamper("DELETE FROM floorman_auditentry WHERE id IN (%s, %s)", [entries[1].pk, entries[2].pk])
    tamper("UPDATE floorman_auditentry SET action = 'x' WHERE id = %s", [entries[4].pk])

    with pytest.raises(CommandError) as failed:
        call_command("audit_verify")

    assert str(failed.value) == "The audit log is broken: entries no. 2 to 3 are missing."
    assert failed.value.returncode == 1


def test_the_command_names_a_changed_entry():
    entries = logged(tournament(), 2)
    tamper("UPDATE floorman_auditentry SET action = 'x' WHERE id = %s", [entries[0].pk])

    with pytest.raises(CommandError, match=r"entry no\. 1 \(id \d+\) was changed"):
        call_command("audit_verify")


class _Lines:
    def __init__(self, lines: list):
        self.lines = lines

    def write(self, text: str) -> None:
        self.lines.extend(text.splitlines())

    def flush(self) -> None:
        pass


# --- The director's audit page --------------------------------------------------------------


def _page(client, event, **query) -> str:
    client.force_login(staff("director"))
    response = client.get(reverse("audit-log", args=[event.pk]), query)
    assert response.status_code == 200
    return response.content.decode()


def test_the_audit_page_says_the_chain_holds(client):
    event = tournament()
    entries = logged(event, 3)

    html = _page(client, event)

    assert "The audit log holds: 3 entries, none changed or missing." in html
    assert entries[-1].hash in html
    assert cache.get(CHAIN_CHECKED_KEY) == (3, entries[-1].hash)


def test_the_audit_page_says_where_the_chain_breaks(client):
    event = tournament()
    entries = logged(event, 3)
    tamper("UPDATE floorman_auditentry SET after = NULL WHERE id = %s", [entries[1].pk])

    html = _page(client, event)

    assert "The audit log is broken: entry no. 2 (id" in html
    assert 'class="message audit-chain error"' in html


def test_the_audit_page_checks_new_entries_and_the_last_one_it_saw(client):
    event = tournament()
    logged(event, 3)
    _page(client, event)
    logged(event, 2)  # 5 now; the page goes on from no. 3

    assert "holds: 5 entries" in _page(client, event)
    assert audit_chain_checked().entries == 0

    # Cut back to no. 2: a chain that holds, but not the one the page saw.
    tamper("DELETE FROM floorman_auditentry WHERE seq >= 3")
    assert audit_chain_verify().holds
    for _visit in range(2):
        assert "does not match its last check: entry no. 5 is no longer" in _page(client, event)
    assert audit_chain_checked().broken.kind == REWRITTEN

    # Checking every entry starts over from what is there.
    assert "holds: 2 entries" in _page(client, event, check="all")
    assert "holds: 2 entries" in _page(client, event)


def test_a_break_found_by_checking_every_entry_stays_on_the_page(client):
    event = tournament()
    entries = logged(event, 4)
    _page(client, event)
    tamper("UPDATE floorman_auditentry SET action = 'x' WHERE id = %s", [entries[0].pk])

    assert "holds: 4 entries" in _page(client, event)  # only what is new is walked
    assert "entry no. 1 (id" in _page(client, event, check="all")
    assert "entry no. 1 (id" in _page(client, event)


def test_the_audit_page_answers_in_as_many_queries_for_many_entries(
    client, django_assert_num_queries
):
    client.force_login(staff("director"))
    small, full = tournament(name="Small"), tournament(name="Full")
    logged(small, 1)
    for name in range(30):
        register(full, f"P{name:02d}")

    for event in (small, full):
        url = reverse("audit-log", args=[event.pk])
        client.get(url)  # warm up: the roles, and the walk from the first entry
        logged(event, 2)
        # Session, user, roles, tournament, its actions, its staff, the count, the page;
        # the chain: the entry the last visit ended at, the entries since.
        with django_assert_num_queries(10):
            assert client.get(url).status_code == 200


# --- Many writers at once -------------------------------------------------------------------


@on_postgres
@pytest.mark.django_db(transaction=True)
def test_services_logging_at_once_make_one_unbroken_chain():
    """Registrations in four tournaments at four desks at once: the chain is one line,
    numbered in the order the entries were committed."""
    events = [tournament(name=f"Event {n}") for n in range(4)]

    def desk(event):
        for number in range(5):
            register(event, f"{event.name} Player {number}")

    results = at_once(*(lambda event=event: desk(event) for event in events))

    assert results == [None] * 4
    entries = list(AuditEntry.objects.order_by("seq"))
    assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
    assert [e.pk for e in entries] == sorted(e.pk for e in entries)
    assert sum(e.action == "entry.register" for e in entries) == 20
    report = audit_chain_verify()
    assert report.holds and report.head_seq == len(entries)


@on_postgres
@pytest.mark.django_db(transaction=True)
def test_transactions_of_several_entries_at_once_make_one_unbroken_chain():
    """Each desk's transaction appends three entries in one statement; the next writer
    reads the head only once the one before has committed (issue 16)."""
    event = tournament()

    def desk(name):
        for number in range(5):
            with transaction.atomic():
                for step in range(3):
                    audit_record(
                        actor=None, action=f"test.{name}", obj=event, after={"n": number, "s": step}
                    )

    results = at_once(*(lambda name=name: desk(name) for name in "abcd"))

    assert results == [None] * 4
    entries = list(AuditEntry.objects.order_by("seq"))
    assert [e.seq for e in entries] == list(range(1, 61))
    # A transaction's three entries stay together, in the order they were written.
    for first in range(0, 60, 3):
        trio = entries[first : first + 3]
        assert len({e.action for e in trio}) == 1
        assert [e.after["s"] for e in trio] == [0, 1, 2]
    assert audit_chain_verify().holds

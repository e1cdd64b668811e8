"""The audit log: every service that changes state records exactly one entry.

The log is append-only and hash-chained (floorman.engine.audit_chain): entries are numbered
without gaps, and each carries the hash of the one before. An entry is appended just before
its service's transaction commits (floorman.database.hooks), under one lock for the whole
database, so the chain is one line however many services write at once. On PostgreSQL the
lock is a transaction-level advisory lock; SQLite serialises writing transactions anyway
(`transaction_mode` IMMEDIATE in settings). A transaction's entries are appended in two
statements, however many it wrote: the head read under the lock
(floorman.database.chain), then one INSERT of them all.
"""

import logging
from functools import partial

from django.core.cache import cache
from django.db import connection, models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from floorman.database import chain
from floorman.engine.audit_chain import (
    CHANGED,
    FIELDS,
    GENESIS,
    MISSING,
    REWRITTEN,
    ChainBreak,
    ChainReport,
    chain_check,
    entry_hash,
)
from floorman.models import AuditEntry
from floorman.signals import audit_committed

CHAIN_LOCK = 0x466C6F6F726D616E  # pg_advisory_xact_lock key: "Floorman" in ASCII
VERIFY_BATCH = 5000
CHAIN_CHECKED_KEY = "audit:chain:checked"  # (number, hash) of the last entry the page checked

logger = logging.getLogger(__name__)


def staff_user(actor):
    """Who to record as having acted: the signed-in user, or None for a player's own
    request, a dealer's table link or the system (timed tasks, commands)."""
    return actor if actor is not None and actor.is_authenticated else None


def audit_record(
    *,
    actor,
    action: str,
    obj: models.Model,
    tournament=None,
    before: dict | None = None,
    after: dict | None = None,
) -> AuditEntry:
    """Log a change. The entry is saved, numbered and chained when the transaction commits
    (at once outside a transaction); it is dropped if the transaction rolls back."""
    entry = AuditEntry(
        tournament=tournament,
        actor=staff_user(actor),
        at=timezone.now(),
        action=action,
        object_type=obj._meta.model_name,
        object_id=str(obj.pk),
        object_repr=str(obj)[:200],
        before=before,
        after=after,
    )
    connection.before_commit(_chain_append, entry)
    # robust: a listener that fails is logged; the change and its other callbacks (the
    # live events) stand.
    transaction.on_commit(partial(_committed, entry), robust=True)
    return entry


def _committed(entry: AuditEntry) -> None:
    """Tell the listeners (floorman.signals) of an entry once its transaction committed.
    By then the chain has numbered and saved it: it has its id."""
    audit_committed.send(sender=AuditEntry, entries=[entry])


def _fields(entry: AuditEntry) -> dict:
    values = {name: getattr(entry, name) for name in FIELDS}
    values["tournament"], values["actor"] = entry.tournament_id, entry.actor_id
    return values


def _chain_append(entries: list[AuditEntry]) -> None:
    """Number and hash a transaction's `entries` after the last one, and save them. Runs
    last in its transaction; the lock is held until the commit, so the next writer sees
    these entries. Plain SQL, two statements in all: it runs in every commit."""
    with connection.cursor() as cursor:
        seq, prev = chain.head(cursor, connection.vendor, CHAIN_LOCK) or (0, GENESIS)
        for entry in entries:
            seq += 1
            entry.seq, entry.prev_hash = seq, prev
            entry.hash = prev = entry_hash(_fields(entry), prev)
        cursor.execute(*_insert(entries))
        ids = dict(cursor.fetchall())
    for entry in entries:
        entry.pk = ids[entry.seq]
        entry._state.adding, entry._state.db = False, connection.alias


def _insert(entries: list[AuditEntry]) -> tuple[str, list]:
    """One INSERT of `entries`, answering each one's number and id."""
    fields = [f for f in AuditEntry._meta.concrete_fields if not f.primary_key]
    row = "(" + ", ".join(["%s"] * len(fields)) + ")"
    sql = (
        f"INSERT INTO {AuditEntry._meta.db_table} "
        f"({', '.join(connection.ops.quote_name(f.column) for f in fields)}) "
        f"VALUES {', '.join([row] * len(entries))} RETURNING seq, id"
    )
    params = [
        f.get_db_prep_save(getattr(e, f.attname), connection) for e in entries for f in fields
    ]
    return sql, params


def _chain_rows(after: int):
    """The entries after number `after` in chain order, read in batches (a log may hold
    millions)."""
    columns = ["id", "prev_hash", "hash", *FIELDS]
    while True:
        batch = list(
            AuditEntry.objects.filter(seq__gt=after).order_by("seq").values(*columns)[:VERIFY_BATCH]
        )
        yield from batch
        if len(batch) < VERIFY_BATCH:
            return
        after = batch[-1]["seq"]


def audit_chain_verify(*, since: tuple[int, str] | None = None) -> ChainReport:
    """Walk the chain: the first entry changed, missing or out of line, if any.

    `since`: the number and hash of the last entry an earlier walk found holding. The
    walk goes on from it, once it has checked that the entry is still there as it was:
    a log rewritten from some entry to its end, hashes and all, holds as a chain, and
    only that remembered entry tells."""
    if since is None:
        return chain_check(_chain_rows(0))
    seq, prev = since
    found = AuditEntry.objects.filter(seq=seq).values_list("id", "hash").first()
    if found is None or found[1] != prev:
        broken = ChainBreak(seq, found[0] if found else 0, REWRITTEN, 0)
        return ChainReport(0, 0, GENESIS, broken)
    return chain_check(_chain_rows(seq), seq=seq, prev=prev)


def audit_chain_checked(*, full: bool = False) -> ChainReport:
    """The audit page's verdict: the chain walked on from where the last walk ended (kept
    in the cache), or from the first entry when `full` or nothing is kept. Each visit
    then checks the entries written since the last one, and that the last entry seen
    then is unchanged; `full` and `manage.py audit_verify` check every entry. A full
    walk that holds starts over from what is there (after a restore from a backup, say)."""
    since = None
    if not full:
        try:
            since = cache.get(CHAIN_CHECKED_KEY)
        except Exception:  # the cache is down: walk the whole chain
            logger.exception("Audit chain: the cache does not answer.")
    report = audit_chain_verify(since=since)
    try:
        if report.holds:
            cache.set(CHAIN_CHECKED_KEY, (report.head_seq, report.head_hash), timeout=None)
        elif since is None:  # broken before any entry kept: every visit walks it all
            cache.delete(CHAIN_CHECKED_KEY)
    except Exception:  # the next visit walks the whole chain
        logger.exception("Audit chain: the cache does not answer.")
    return report


def audit_chain_verdict(report: ChainReport) -> str:
    """The verdict in words, for the audit page and `manage.py audit_verify`."""
    broken = report.broken
    if broken is None:
        return ngettext(
            "The audit log holds: %(count)s entry, none changed or missing.",
            "The audit log holds: %(count)s entries, none changed or missing.",
            report.head_seq,
        ) % {"count": report.head_seq}
    values = {"seq": broken.seq, "id": broken.entry_id, "first": broken.expected_seq}
    if broken.kind == MISSING:
        if broken.expected_seq == broken.seq - 1:
            return _("The audit log is broken: entry no. %(first)s is missing.") % values
        values["last"] = broken.seq - 1
        return _("The audit log is broken: entries no. %(first)s to %(last)s are missing.") % (
            values
        )
    if broken.kind == REWRITTEN:
        return (
            _(
                "The audit log does not match its last check: entry no. %(seq)s is no longer "
                "the entry checked then (the log was changed, restored or replaced). Check "
                "every entry to start over."
            )
            % values
        )
    if broken.kind == CHANGED:
        return _("The audit log is broken: entry no. %(seq)s (id %(id)s) was changed.") % values
    return (
        _(
            "The audit log is broken: entry no. %(seq)s (id %(id)s) does not follow the "
            "entry before it, which was changed or replaced."
        )
        % values
    )


def audit_entries(*, tournament, action: str = "", actor_id: int | None = None):
    """Selector for the director's audit page, newest first."""
    entries = AuditEntry.objects.filter(tournament=tournament).select_related("actor")
    if action:
        entries = entries.filter(action=action)
    if actor_id:
        entries = entries.filter(actor_id=actor_id)
    return entries

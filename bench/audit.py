"""Benchmark: checking the audit log's hash chain, on PostgreSQL.

1. `floorman.audit.audit_chain_verify` (what `manage.py audit_verify` runs) over a log of
   BENCH_AUDIT_ENTRIES entries (default 100,000), spread over 100 tournaments, each with
   before and after data as the services write them.
2. The director's audit page of one of those tournaments, which shows the verdict.
3. Appending one entry (a service's commit: the chain lock, the head, the insert).
4. Appends per second: BENCH_APPEND_TRANSACTIONS transactions (default 300) of one entry
   and of three, from one desk and from four at once (threads, each its own connection),
   the way the chain appends now against the way it did before (lock; then per entry the
   head through the ORM and an ORM save), in the same run on the same log. Each figure is
   the best of BENCH_RUNS rounds, the two ways taking turns, with the database statements
   per transaction (BEGIN and COMMIT not counted).

The entries are chained and inserted in bulk beforehand; each figure is the median of
BENCH_RUNS runs (default 3).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres python bench/audit.py

Prints "audit: <what> <figure>" lines.
"""

import os

from common import manage, production_env

RUNS = int(os.environ.get("BENCH_RUNS", "3"))
ENTRIES = int(os.environ.get("BENCH_AUDIT_ENTRIES", "100000"))
APPENDS = int(os.environ.get("BENCH_APPEND_TRANSACTIONS", "300"))
DESKS = 4

TIMED = """
import statistics, time
from datetime import timedelta
from django.contrib.auth.models import Group, User
from django.db import connection, transaction
from django.test import Client
from django.utils import timezone
from floorman import audit
from floorman.engine.audit_chain import GENESIS, entry_hash
from floorman.roles import DIRECTOR
from floorman.models import AuditEntry
from tournaments.models import Tournament

RUNS, ENTRIES, APPENDS, DESKS = %(runs)d, %(entries)d, %(appends)d, %(desks)d
director = User.objects.create_user("bench_director", password="x" * 20)
director.groups.add(Group.objects.get(name=DIRECTOR))
events = [Tournament.objects.create(name=f"Audit {n}", buy_in=10000, fee=1000,
    starting_stack=30000, start_at=timezone.now()) for n in range(100)]
start, prev, rows = timezone.now() - timedelta(days=1), GENESIS, []
for seq in range(1, ENTRIES + 1):
    event = events[seq %% 100]
    fields = {"seq": seq, "at": start + timedelta(milliseconds=seq), "tournament": event.pk,
        "actor": director.pk, "action": "entry.register", "object_type": "entry",
        "object_id": str(seq), "object_repr": f"#{seq} Player {seq}",
        "before": {"status": "active", "chips": 30000, "seat": None},
        "after": {"status": "busted", "chips": 0, "place": seq, "at": "2026-11-25T20:00:00"}}
    digest = entry_hash(fields, prev)
    fields = dict(fields)
    del fields["tournament"], fields["actor"]
    rows.append(AuditEntry(**fields, tournament=event, actor=director, prev_hash=prev,
        hash=digest))
    prev = digest
    if len(rows) == 5000:
        AuditEntry.objects.bulk_create(rows)
        rows = []
AuditEntry.objects.bulk_create(rows)
with connection.cursor() as cursor:
    cursor.execute("VACUUM ANALYZE floorman_auditentry")


def timed(fn):
    seconds = []
    for _ in range(RUNS):
        began = time.perf_counter()
        fn()
        seconds.append(time.perf_counter() - began)
    return statistics.median(seconds) * 1000


report = audit.audit_chain_verify()
assert report.holds and report.entries == ENTRIES, report
print(f"verify {timed(audit.audit_chain_verify):.0f}")
client = Client()
client.force_login(director)
url = f"/tournaments/{events[0].pk}/audit/"
assert client.get(url, HTTP_HOST="localhost").status_code == 200
print(f"page {timed(lambda: client.get(url, HTTP_HOST='localhost')):.0f}")


def append():
    with transaction.atomic():
        audit.audit_record(actor=None, action="bench.append", obj=events[0])


print(f"append {timed(append):.1f}")


# --- Appends per second: now against before --------------------------------------------
import threading
from django.db import connections
from django.test.utils import CaptureQueriesContext


# How the chain appended before issue 16: the lock, then per entry the head through the
# ORM and an ORM save.
def append_before(entries):
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%%s)", [audit.CHAIN_LOCK])
    for entry in entries:
        head = AuditEntry.objects.order_by("-seq").values_list("seq", "hash").first()
        entry.seq, entry.prev_hash = head if head else (0, GENESIS)
        entry.seq += 1
        entry.hash = entry_hash(audit._fields(entry), entry.prev_hash)
        entry.save(force_insert=True)


WAYS = {"before": append_before, "now": audit._chain_append}


def transactions(way, count, per):
    for _ in range(count):
        with transaction.atomic():
            entries = [AuditEntry(tournament=events[1], actor=None, at=timezone.now(),
                action="bench.append", object_type="tournament", object_id=str(events[1].pk),
                object_repr=str(events[1]), before={"n": n}, after={"n": n + 1})
                for n in range(per)]
            # Straight to the append, as the commit hook calls it.
            WAYS[way](entries)


def statements(way, per):
    with CaptureQueriesContext(connection) as queries:
        transactions(way, 1, per)
    return sum(not q["sql"].startswith(("BEGIN", "COMMIT")) for q in queries)


def appends_per_second(way, per, desks):
    share = APPENDS // desks
    def desk():
        try:
            transactions(way, share, per)
        finally:
            connections.close_all()
    threads = [threading.Thread(target=desk) for _ in range(desks)]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return share * desks * per / (time.perf_counter() - began)


for per in (1, 3):
    for desks in (1, DESKS):
        best = {way: 0.0 for way in WAYS}
        for _ in range(RUNS):
            for way in WAYS:
                best[way] = max(best[way], appends_per_second(way, per, desks))
        counts = [statements(way, per) for way in WAYS]
        print(f"rate {per} {desks} {best['before']:.0f} {best['now']:.0f} "
              f"{counts[0]} {counts[1]}")
report = audit.audit_chain_verify()
assert report.holds, report
print(f"holds {report.entries}")
"""


def figure(lines: list[str], key: str) -> str:
    return next(line.split()[1] for line in lines if line.startswith(key + " "))


def main() -> None:
    env = production_env()
    manage(env, "migrate", "--verbosity", "0")
    code = TIMED % {"runs": RUNS, "entries": ENTRIES, "appends": APPENDS, "desks": DESKS}
    out = manage(env, "shell", "--no-imports", "-c", code).splitlines()
    print(f"audit: verify the chain of {ENTRIES} entries {figure(out, 'verify')} ms — target —")
    print(f"audit: audit page, {ENTRIES} entries {figure(out, 'page')} ms — target —")
    print(f"audit: append one entry (lock, head, insert) {figure(out, 'append')} ms — target —")
    for line in out:
        if line.startswith("rate "):
            per, desks, before, now, before_sql, now_sql = line.split()[1:]
            print(
                f"audit: append, {per} per transaction, {desks} at once: {now} entries/s "
                f"(before: {before}; ratio {float(now) / float(before):.2f}), "
                f"{now_sql} statements per transaction (before: {before_sql})"
            )
    print(
        f"audit: median of {RUNS} runs each; appends: best of {RUNS}, {APPENDS} "
        f"transactions each; the chain holds after them ({figure(out, 'holds')} entries)"
    )


if __name__ == "__main__":
    main()

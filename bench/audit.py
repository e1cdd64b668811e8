"""Benchmark: checking the audit log's hash chain, on PostgreSQL.

1. `floorman.audit.audit_chain_verify` (what `manage.py audit_verify` runs) over a log of
   BENCH_AUDIT_ENTRIES entries (default 100,000), spread over 100 tournaments, each with
   before and after data as the services write them.
2. The director's audit page of one of those tournaments, which shows the verdict.
3. Appending one entry (a service's commit: the chain lock, the head, the insert).

The entries are chained and inserted in bulk beforehand; each figure is the median of
BENCH_RUNS runs (default 3).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres python bench/audit.py

Prints "audit: <what> <figure>" lines.
"""

import os

from common import manage, production_env

RUNS = int(os.environ.get("BENCH_RUNS", "3"))
ENTRIES = int(os.environ.get("BENCH_AUDIT_ENTRIES", "100000"))

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

RUNS, ENTRIES = %(runs)d, %(entries)d
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
"""


def figure(lines: list[str], key: str) -> str:
    return next(line.split()[1] for line in lines if line.startswith(key + " "))


def main() -> None:
    env = production_env()
    manage(env, "migrate", "--verbosity", "0")
    code = TIMED % {"runs": RUNS, "entries": ENTRIES}
    out = manage(env, "shell", "--no-imports", "-c", code).splitlines()
    print(f"audit: verify the chain of {ENTRIES} entries {figure(out, 'verify')} ms")
    print(f"audit: audit page with the verdict, {ENTRIES} entries {figure(out, 'page')} ms")
    print(f"audit: append one entry (chain lock, head, insert) {figure(out, 'append')} ms")
    print(f"audit: median of {RUNS} runs each")


if __name__ == "__main__":
    main()

"""Benchmark: paying a prize at 300 and at 10,000 entries, on PostgreSQL (issue 20, item 1).

For each field size (BENCH_SIZES, default "300,10000") builds one running event of that
many entries with their buy-ins, busts all of them but the places paid less BENCH_REPEAT
and a few (one hand each, recorded in entry order), then pays BENCH_REPEAT (default 30)
of the prizes due through the service the cashier's page calls
(`prizes.services.prize_pay`), one after the other as the cage pays them, after one
untimed payment; then takes BENCH_REPEAT of them back (`prize_pay_undo`). The time is the
service's, with its commit (the audit chain, the live events to the channel layer); the
statements are counted with CaptureQueriesContext. Live events go to Redis when REDIS_URL
is set, else to the in-memory layer.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
    REDIS_URL=redis://127.0.0.1:6379/0 python bench/prize_pay.py

Prints "prize_pay: pay a prize at <n> entries p95 <ms> ms, <q> queries (same at <m>: <q>)
— target ≤ 50 ms: met|NOT met" (the largest field), and a line per size and action.
"""

import json
import os

from common import manage, percentile, production_env
from floor_actions import redis_keys_remove

SIZES = [int(n) for n in os.environ.get("BENCH_SIZES", "300,10000").split(",")]
REPEAT = int(os.environ.get("BENCH_REPEAT", "30"))
DEBUG = int(os.environ.get("BENCH_SLOW_QUERIES", "0"))  # print each call's n slowest
PROFILE = bool(os.environ.get("BENCH_PROFILE"))  # a cProfile of every timed call
TARGET_MS = 50  # p95 at 10,000 entries, on an idle machine (issue 20)

TIMED = r"""
import cProfile, io, json, pstats, time
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from tournaments.services.ledger import ledger_totals_recount
from hands.models import Elimination
from payouts.selectors import payout_table
from prizes import services
from prizes.selectors import results
from tournaments.models import (Entry, EntryStatus, Player, Tournament, Transaction,
    TransactionKind)

SIZES, REPEAT, DEBUG = %(sizes)r, %(repeat)d, %(debug)d
PROFILE = cProfile.Profile() if %(profile)r else None
cashier = User.objects.create_user("bench_cashier")


def timed(call):
    with CaptureQueriesContext(connection) as queries:
        if PROFILE:
            PROFILE.enable()
        began = time.perf_counter()
        call()
        took = time.perf_counter() - began
        if PROFILE:
            PROFILE.disable()
    if DEBUG:
        slow = sorted(queries.captured_queries, key=lambda q: -float(q["time"]))[:DEBUG]
        print("SLOW " + json.dumps([(q["time"], q["sql"][:300]) for q in slow]))
    return took * 1000, len(queries.captured_queries)


for size in SIZES:
    t = Tournament.objects.create(name=f"Pay Bench {size}", buy_in=10000, fee=1000,
        starting_stack=30000, start_at=timezone.now(), status="running", table_size=9,
        current_level=1)
    people = Player.objects.bulk_create(
        [Player(name=f"Pay {size} {i:05d}", name_key=f"pay {size} {i:05d}",
                name_plain=f"pay {size} {i:05d}") for i in range(size)], batch_size=2000)
    entries = Entry.objects.bulk_create(
        [Entry(tournament=t, player=p, number=i + 1, chips=30000)
         for i, p in enumerate(people)], batch_size=2000)
    Transaction.objects.bulk_create(
        [Transaction(tournament=t, entry=e, kind=TransactionKind.BUY_IN, amount=11000,
                     prize_share=10000, fee_share=1000) for e in entries], batch_size=2000)
    # In bulk, past the ledger's writer: its running totals are summed afresh.
    ledger_totals_recount(tournament=t)
    paid = payout_table(t).places_paid
    busted = min(size - 2, size - paid + REPEAT + 2)  # REPEAT + 2 placed in the money
    out = entries[:busted]
    Entry.objects.filter(pk__in=[e.pk for e in out]).update(status=EntryStatus.BUSTED, chips=0)
    Elimination.objects.bulk_create([Elimination(tournament=t, entry=e, hand_key=f"e{e.pk}",
        stack=1000) for e in out], batch_size=2000)
    due = [row for row in results(t).rows if row.payable]
    assert len(due) > REPEAT, (size, len(due))
    rows = iter(due)

    def pay():
        row = next(rows)
        services.prize_pay(actor=cashier, tournament_id=t.pk, entry_id=row.entry_id,
            expected=row.prize)
        return row.entry_id

    pay()  # warm-up
    samples, done = [], []
    for _ in range(REPEAT):
        ms, queries = timed(lambda: done.append(pay()))
        samples.append((ms, queries))
    print(json.dumps({"size": size, "action": "pay a prize", "places_paid": paid,
        "ms": sorted(s[0] for s in samples), "queries": sorted({s[1] for s in samples})}))
    if PROFILE:
        out = io.StringIO()
        pstats.Stats(PROFILE, stream=out).sort_stats("cumulative").print_stats(45)
        print("PROFILE " + json.dumps(out.getvalue()))
        PROFILE.clear()
    samples = []
    for entry_id in done:
        samples.append(timed(lambda entry_id=entry_id: services.prize_pay_undo(
            actor=cashier, tournament_id=t.pk, entry_id=entry_id)))
    print(json.dumps({"size": size, "action": "undo a payment", "places_paid": paid,
        "ms": sorted(s[0] for s in samples), "queries": sorted({s[1] for s in samples})}))
"""


def main() -> None:
    env = production_env()
    redis_url = env.get("REDIS_URL", "").strip()
    manage(env, "migrate", "--verbosity", "0")
    code = TIMED % {"sizes": SIZES, "repeat": REPEAT, "debug": DEBUG, "profile": PROFILE}
    try:
        out = manage(env, "shell", "--no-imports", "-c", code).splitlines()
    finally:
        if redis_url:
            redis_keys_remove(redis_url, env["REDIS_KEY_PREFIX"])
    rows = [json.loads(line) for line in out if line.startswith("{")]
    for line in out:
        if line.startswith("SLOW "):
            print(line)
        if line.startswith("PROFILE "):
            print(json.loads(line[8:]))

    def spread(counts):
        return str(counts[0]) if len(counts) == 1 else f"{counts[0]}–{counts[-1]}"

    largest, smallest = max(SIZES), min(SIZES)
    for action in ("pay a prize", "undo a payment"):
        by_size = {row["size"]: row for row in rows if row["action"] == action}
        big, small = by_size[largest], by_size[smallest]
        p95 = percentile(big["ms"], 95)
        if action == "pay a prize":
            met = "met" if p95 <= TARGET_MS else "NOT met"
            print(
                f"prize_pay: pay a prize at {largest:,} entries p95 {p95:.0f} ms, "
                f"{spread(big['queries'])} queries (same at {smallest:,}: "
                f"{spread(small['queries'])}) — target ≤ {TARGET_MS} ms: {met}"
            )
        for size in SIZES:
            row = by_size[size]
            print(
                f"prize_pay: {action} at {size:,} entries ({row['places_paid']} places paid) "
                f"p50 {percentile(row['ms'], 50):.0f} ms p95 {percentile(row['ms'], 95):.0f} ms, "
                f"{spread(row['queries'])} queries"
            )
    layer = "Redis" if redis_url else "in-memory"
    print(
        f"prize_pay: {REPEAT} payments per size after one warm-up, the service in process; "
        f"live events through the {layer} channel layer"
    )


if __name__ == "__main__":
    main()

"""Benchmark: seating at festival size, on PostgreSQL.

1. Draw 10,000 entries onto 1,112 nine-seat tables through `seating.services.seating_draw`,
   end to end including the writes (target <= 1 s).
2. Compute the balance plan for 1,000 tables (`seating.services.balance_state`, which
   reads the tables and runs the TDA 11 engine; target <= 100 ms).
3. Break one table of 1,000 (`seating.services.table_break`, TDA 10-B; target <= 300 ms).
4. Seat lookup (`GET /api/v1/tournaments/<id>/lookup/?q=`) at 50 concurrent connections
   against a trivial Django JSON view on the same gunicorn server in the same run
   (target ratio >= 0.5).

The entries and tables are created in bulk beforehand; only the service calls are timed
(each the median of BENCH_RUNS runs on fresh copies). Before the lookup runs, the
database is vacuumed and analysed, as autovacuum keeps a live one.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres python bench/seating.py

Prints "seating: <what> <figure> (target ...)" lines. Environment: BENCH_RUNS (default
3); for the lookup, as bench/clock_api.py: BENCH_WORKERS (default one per core),
BENCH_CONNECTIONS (default 50), BENCH_SECONDS (default 10).
"""

import os
import sys

from common import WRK, free_port, gunicorn_command, load_paths, manage, production_env, serving

RUNS = int(os.environ.get("BENCH_RUNS", "3"))
WORKERS = int(os.environ.get("BENCH_WORKERS", str(os.cpu_count() or 1)))
CONNECTIONS = int(os.environ.get("BENCH_CONNECTIONS", "50"))
SECONDS = int(os.environ.get("BENCH_SECONDS", "10"))
WARMUP_SECONDS = 2
TRIVIAL_PATH = "/health/live/"

TIMED = """
import random, statistics, time
from django.db import connection
from django.utils import timezone
from seating import services
from seating.models import Seat, Table
from tournaments.models import Entry, Player, Tournament

RUNS = %(runs)d


def event(name, players, tables, seats=9):
    t = Tournament.objects.create(name=name, buy_in=10000, fee=1000, starting_stack=30000,
        start_at=timezone.now(), status="running", table_size=seats)
    people = Player.objects.bulk_create(
        [Player(name=f"{name} Player {i:05d}", name_key=f"{name.lower()} player {i:05d}",
                name_plain=f"{name.lower()} player {i:05d}") for i in range(players)],
        batch_size=2000)
    Entry.objects.bulk_create(
        [Entry(tournament=t, player=p, number=i + 1, chips=30000) for i, p in enumerate(people)],
        batch_size=2000)
    rows = Table.objects.bulk_create(
        [Table(tournament=t, number=n, seats=seats, break_order=tables - n + 1)
         for n in range(1, tables + 1)], batch_size=2000)
    Seat.objects.bulk_create(
        [Seat(table=row, number=s) for row in rows for s in range(1, seats + 1)],
        batch_size=5000)
    return t


def timed(fn):
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


draws = []
for run in range(RUNS):
    t = event(f"Draw{run}", 10_000, 1112)
    seconds, (_action, assignments) = timed(
        lambda: services.seating_draw(actor=None, tournament_id=t.pk)
    )
    assert len(assignments) == 10_000
    draws.append(seconds)
print(f"draw {statistics.median(draws) * 1000:.0f} ms")

# 1,000 tables, seated unevenly: some tables short by bust-outs.
t = event("Balance", 9_000, 1000)
services.seating_draw(actor=None, tournament_id=t.pk)
rng = random.Random(7)
seated = Seat.objects.filter(table__tournament=t, entry__isnull=False)
seated = list(seated.values_list("pk", flat=True))
Seat.objects.filter(pk__in=rng.sample(seated, 600)).update(entry=None)
big_blind = {n: 1 for n in range(1, 1001)}
plans = []
for _ in range(RUNS):
    connection.queries_log.clear()
    seconds, (plan, halted, _views) = timed(lambda: services.balance_state(t, big_blind))
    plans.append(seconds)
print(f"balance {statistics.median(plans) * 1000:.0f} ms {len(plan.moves)} moves")

breaks = []
for run in range(RUNS):
    number = services.balance_state(t)[2][run].number
    seconds, action = timed(
        lambda: services.table_break(actor=None, tournament_id=t.pk, number=number)
    )
    breaks.append(seconds)
print(f"break {statistics.median(breaks) * 1000:.0f} ms {action.moves.count()} moves")

look = event("Lookup", 10_000, 1112)
services.seating_draw(actor=None, tournament_id=look.pk)
Player.objects.filter(name="Lookup Player 04711").update(
    name="Jürgen Müller", name_key="juergen mueller", name_plain="jurgen muller")
# A live database is vacuumed and analysed by autovacuum; a freshly bulk-loaded one is not
# yet (its trigram index still holds the new names in its pending list).
with connection.cursor() as cursor:
    cursor.execute("VACUUM ANALYZE")
print(f"lookup {look.pk}")
"""


def figure(lines: list[str], key: str) -> list[str]:
    return next(line.split()[1:] for line in lines if line.startswith(key + " "))


def main() -> None:
    env = production_env()
    env = {k: v for k, v in env.items() if k != "REDIS_URL"}  # live events: in-memory layer
    env["FLOORMAN_RATE_LOOKUP"] = ""  # wrk asks from one address, far above any room's rate
    manage(env, "migrate", "--verbosity", "0")
    out = manage(env, "shell", "--no-imports", "-c", TIMED % {"runs": RUNS}).splitlines()
    draw_ms = figure(out, "draw")[0]
    balance_ms, _ms, moves = figure(out, "balance")[:3]
    break_ms, _ms, broken = figure(out, "break")[:3]
    tournament_id = int(figure(out, "lookup")[0])
    print(f"seating: draw 10000 entries onto 1112 tables {draw_ms} ms (target <= 1000 ms)")
    print(
        f"seating: balance plan for 1000 tables {balance_ms} ms, {moves} moves (target <= 100 ms)"
    )
    print(f"seating: break one table of 1000 {break_ms} ms, {broken} players (target <= 300 ms)")

    lookup_path = f"/api/v1/tournaments/{tournament_id}/lookup/?q=mueller"
    port = free_port()
    with serving(gunicorn_command(port, WORKERS), env, port):
        results = load_paths(
            port,
            {"seat lookup": lookup_path, "trivial JSON view": TRIVIAL_PATH},
            connections=CONNECTIONS,
            seconds=SECONDS,
            warmup=WARMUP_SECONDS,
        )
    lookup, trivial = results["seat lookup"].rate, results["trivial JSON view"].rate
    print(f"seating: seat lookup {lookup:.0f} req/s, trivial JSON view {trivial:.0f} req/s")
    print(f"seating: lookup ratio {lookup / trivial if trivial else 0:.2f} (target >= 0.5)")
    print(
        f"seating: median of {RUNS} runs each; lookup by {'wrk' if WRK else 'threads'}, "
        f"{CONNECTIONS} connections, gunicorn {WORKERS} workers, {SECONDS} s per path"
    )
    failures = [f"{n}: {f}" for n, r in results.items() for f in r.failures]
    if failures:
        sys.exit("seating: failures: " + "; ".join(failures[:5]))


if __name__ == "__main__":
    main()

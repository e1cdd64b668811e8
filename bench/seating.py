"""Benchmark: seating at festival size, on PostgreSQL.

1. Draw 10,000 entries onto 1,112 nine-seat tables through `seating.services.seating_draw`,
   end to end including the writes (target <= 1 s).
2. Compute the balance plan for 1,000 tables (`seating.services.balance_state`, which
   reads the tables and runs the TDA 11 engine; target <= 100 ms).
3. Break one table of 1,000 (`seating.services.table_break`, TDA 10-B; target <= 300 ms).
4. Seat lookup (`GET /api/v1/tournaments/<id>/lookup/?q=`) at 50 concurrent connections
   against a trivial Django JSON view on the same gunicorn server in the same run
   (target ratio >= 0.5), as production runs: the rate limiter on at its production rate
   (FLOORMAN_RATE_LOOKUP, counted in Redis), Redis for the cache and the live events, and
   players busting through `hands.services.busts.entry_bust` at BENCH_BUSTS_PER_SECOND
   (default 2) all the while, so that the field, and each process's lookup index, keeps
   changing. The limiter counts per client address, which in production the proxy sets
   in X-Real-IP (deploy/nginx.conf): the load comes from many phones, each request from
   the next of 65,536 addresses (a few requests per address per minute, far under the
   limit), so every request is counted and none is refused; any refusal (429) would show
   among the failures.
5. The cost of bringing a process's index up to date after a bust (the version read, the
   update and the search) against a full rebuild, at 10,000 entries.

The entries and tables are created in bulk beforehand; only the service calls are timed
(each the median of BENCH_RUNS runs on fresh copies). Before the lookup runs, the
database is vacuumed and analysed, as autovacuum keeps a live one.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres python bench/seating.py

Prints "seating: <what> <figure> (target ...)" lines. Environment: BENCH_RUNS (default
3); for the lookup, as bench/clock_api.py: BENCH_WORKERS (default one per core),
BENCH_CONNECTIONS (default 50), BENCH_SECONDS (default 10, in three turns per path, the
lookup and the trivial view taking turns), BENCH_BUSTS_PER_SECOND
(default 2). Needs REDIS_URL (the limiter's counts and the cache) and wrk.
"""

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from common import (
    ROOT,
    WRK,
    Result,
    answers_ok,
    fail,
    free_port,
    gunicorn_command,
    manage,
    production_env,
    serving,
    wrk_result,
)

RUNS = int(os.environ.get("BENCH_RUNS", "3"))
WORKERS = int(os.environ.get("BENCH_WORKERS", str(os.cpu_count() or 1)))
CONNECTIONS = int(os.environ.get("BENCH_CONNECTIONS", "50"))
SECONDS = int(os.environ.get("BENCH_SECONDS", "10"))
BUSTS_PER_SECOND = float(os.environ.get("BENCH_BUSTS_PER_SECOND", "2"))
WARMUP_SECONDS = 2
TURNS = 3  # the lookup and the trivial view measured in turns, SLICE seconds each
SLICE = max(1, round(SECONDS / TURNS))  # wrk takes whole seconds
INDEX_RUNS = 15  # busts timed for the index update, each against a full rebuild
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

# A process's index brought up to date after a bust, against a full rebuild: each the
# whole search as a request pays it (the version read, the index, the search).
from django.conf import settings
from hands.services.busts import entry_bust
from seating import selectors

settings.SEAT_LOOKUP_MAX_AGE = 0
muller = Entry.objects.get(tournament=look, player__name="Jürgen Müller").pk
active = list(Entry.objects.filter(tournament=look, status="active").exclude(pk=muller)
              .values_list("pk", flat=True))
rebuilds, updates = [], []
numbers = dict(Entry.objects.filter(tournament=look).values_list("pk", "number"))
for entry in rng.sample(active, %(index_runs)d):
    selectors._field_indexes.clear()
    seconds, _found = timed(lambda: selectors.seat_lookup(look.pk, "mueller"))
    rebuilds.append(seconds)
    entry_bust(actor=None, tournament_id=look.pk, entry_id=entry)
    seconds, found = timed(lambda: selectors.seat_lookup(look.pk, f"#{numbers[entry]}"))
    assert found and found[0]["status"] == "busted", found
    updates.append(seconds)
print(f"index {statistics.median(updates) * 1000:.2f} {statistics.median(rebuilds) * 1000:.1f}")
"""

# Busts at a steady rate through the bust service, as the floor records them, until the
# file `stop` exists; prints how many and their median time. The searched player stays.
BUSTER = """
import os, random, statistics, time
from hands.services.busts import entry_bust
from tournaments.models import Entry

rng = random.Random(11)
active = list(Entry.objects.filter(tournament_id=%(tournament)d, status="active")
              .exclude(player__name="Jürgen Müller").values_list("pk", flat=True))
rng.shuffle(active)
interval = 1 / %(rate)f
took = []
began = due = time.monotonic()
while active and not os.path.exists(%(stop)r):
    due += interval
    start = time.perf_counter()
    entry_bust(actor=None, tournament_id=%(tournament)d, entry_id=active.pop())
    took.append(time.perf_counter() - start)
    if len(took) == 1:
        print("busting", flush=True)
    time.sleep(max(0.0, due - time.monotonic()))
print(f"busts {len(took)} {statistics.median(took) * 1000:.0f} {time.monotonic() - began:.1f}")
"""

# wrk's requests, each from the next phone: the address the proxy puts in X-Real-IP.
PHONES_LUA = """
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("id", threads)
end
local sent = 0
function request()
  sent = sent + 1
  local n = sent % 65536
  wrk.headers["X-Real-IP"] = "10." .. id .. "." .. math.floor(n / 256) .. "." .. (n % 256)
  return wrk.format()
end
"""


def figure(lines: list[str], key: str) -> list[str]:
    return next(line.split()[1:] for line in lines if line.startswith(key + " "))


def combined(runs: list[Result]) -> Result:
    """The mean rate of equal slices, with every slice's latencies and failures."""
    silent = sum(1 for r in runs if not r.rate)  # wrk counts no timeout then
    return Result(
        sum(r.rate for r in runs) / len(runs),
        "; ".join(r.detail for r in runs),
        [f for r in runs for f in r.failures]
        + ([f"{silent} turns without an answer"] * bool(silent)),
    )


def phones_wrk(port: int, path: str, script: str, seconds: float):
    """wrk at CONNECTIONS connections, each request from the next phone's address."""
    done = subprocess.run(
        [WRK, "-t2", f"-c{CONNECTIONS}", f"-d{seconds:g}s", "--latency", "-s", script]
        + [f"http://127.0.0.1:{port}{path}"],
        capture_output=True,
        text=True,
        timeout=seconds + 60,
    )
    if done.returncode:
        fail(f"wrk failed:\n{done.stderr}")
    return wrk_result(done.stdout)


def main() -> None:
    if not os.environ.get("REDIS_URL"):
        fail("set REDIS_URL: the lookup is measured as production runs, with Redis")
    if not WRK:
        fail("needs wrk (Debian: apt-get install wrk)")
    env = production_env()
    manage(env, "migrate", "--verbosity", "0")
    timed = TIMED % {"runs": RUNS, "index_runs": INDEX_RUNS}
    out = manage(env, "shell", "--no-imports", "-c", timed).splitlines()
    draw_ms = figure(out, "draw")[0]
    balance_ms, _ms, moves = figure(out, "balance")[:3]
    break_ms, _ms, broken = figure(out, "break")[:3]
    tournament_id = int(figure(out, "lookup")[0])
    print(f"seating: draw 10000 entries onto 1112 tables {draw_ms} ms (target <= 1000 ms)")
    print(
        f"seating: balance plan for 1000 tables {balance_ms} ms, {moves} moves (target <= 100 ms)"
    )
    print(f"seating: break one table of 1000 {break_ms} ms, {broken} players (target <= 300 ms)")

    update_ms, rebuild_ms = figure(out, "index")[:2]
    print(
        f"seating: index update after a bust {update_ms} ms vs full rebuild {rebuild_ms} ms "
        "at 10,000 entries — target —"
    )

    lookup_path = f"/api/v1/tournaments/{tournament_id}/lookup/?q=mueller"
    paths = {"seat lookup": lookup_path, "trivial JSON view": TRIVIAL_PATH}
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="bench-seating-") as scratch:
        script, stop = Path(scratch, "phones.lua"), Path(scratch, "stop")
        script.write_text(PHONES_LUA)
        with serving(gunicorn_command(port, WORKERS), env, port):
            for path in paths.values():
                answers_ok(port, path)
            buster = subprocess.Popen(
                [sys.executable, "manage.py", "shell", "--no-imports", "-c"]
                + [
                    BUSTER
                    % {"tournament": tournament_id, "rate": BUSTS_PER_SECOND, "stop": str(stop)}
                ],
                cwd=ROOT,
                env=env,
                stdout=subprocess.PIPE,
                text=True,
            )
            try:
                buster.stdout.readline()  # the busts under way before the first request
                for path in paths.values():
                    phones_wrk(port, path, str(script), WARMUP_SECONDS)
                # In turns, so that the other work on the machine weighs on both alike.
                slices: dict[str, list[Result]] = {name: [] for name in paths}
                for _turn in range(TURNS):
                    for name, path in paths.items():
                        slices[name].append(phones_wrk(port, path, str(script), SLICE))
                results = {name: combined(runs) for name, runs in slices.items()}
            finally:
                stop.touch()
                busted, _ = buster.communicate(timeout=60)
    busts, bust_ms, elapsed = figure(busted.splitlines(), "busts")[:3]
    rate = int(busts) / float(elapsed)
    lookup, trivial = results["seat lookup"].rate, results["trivial JSON view"].rate
    ratio = lookup / trivial if trivial else 0
    print(
        f"seating: seat lookup {lookup:.0f} vs trivial {trivial:.0f} req/s (limiter on, Redis, "
        f"busts at {rate:.1f}/s): ratio {ratio:.2f} — target ≥ 0.5: "
        + ("met" if ratio >= 0.5 else "NOT met")
    )
    print(
        f"seating: medians of {RUNS} runs for the timed steps; lookup by wrk from 65,536 "
        f"phone addresses (X-Real-IP), {CONNECTIONS} connections, gunicorn {WORKERS} "
        f"workers, {TURNS} turns of {SLICE} s per path; {busts} busts during the load, "
        f"median {bust_ms} ms each; lookup "
        f"{results['seat lookup'].detail}, trivial {results['trivial JSON view'].detail}"
    )
    failures = [f"{n}: {f}" for n, r in results.items() for f in r.failures]
    if failures:  # a refusal by the limiter (429) is one
        sys.exit("seating: failures: " + "; ".join(failures[:5]))


if __name__ == "__main__":
    main()

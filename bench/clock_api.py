"""Benchmark: GET /api/v1/tournaments/<id>/clock/ against a trivial Django JSON view.

Sets up a scratch PostgreSQL database with one tournament whose clock runs, serves the
app with gunicorn sync workers (web.wsgi, as production serves HTTP), one per
core, and loads the clock and /health/live/ (a JSON view that touches neither the
database nor the cache) in turn, each at 50 concurrent connections for a fixed time
after a warm-up, on the same server in the same run. The load generator is wrk when
installed (Debian: apt-get install wrk), else Python threads with keep-alive
connections (which saturate sooner: the figures are not comparable between the two).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres python bench/clock_api.py

Prints "clock_api: GET clock <n> vs trivial <m> req/s: ratio <r> — target ≥ 0.5: met"
(or "NOT met"), then details. The clock is read from the cache once the first request
has kept it (clock/cache.py), as screens read it between changes. Environment: BENCH_WORKERS
(default one per core), BENCH_CONNECTIONS (default 50), BENCH_SECONDS (default 10).
"""

import os

from common import (
    CLOCK_STRUCTURE_SETUP,
    WRK,
    free_port,
    gunicorn_command,
    load_paths,
    manage,
    production_env,
    results_report,
    serving,
)

WORKERS = int(os.environ.get("BENCH_WORKERS", str(os.cpu_count() or 1)))
CONNECTIONS = int(os.environ.get("BENCH_CONNECTIONS", "50"))
SECONDS = int(os.environ.get("BENCH_SECONDS", "10"))
WARMUP_SECONDS = 2
TARGET_RATIO = 0.5
TRIVIAL_PATH = "/health/live/"

SETUP = (
    """
from django.utils import timezone
from tournaments.models import Tournament
t = Tournament.objects.create(name="Bench Clock Event", buy_in=10000, fee=1000,
    starting_stack=30000, start_at=timezone.now(), status="running")
"""
    + CLOCK_STRUCTURE_SETUP
    + """
services.clock_act(actor=None, tournament_id=t.pk, action="start")
print(t.pk)
"""
)


def main() -> None:
    env = production_env()
    setup_env = {k: v for k, v in env.items() if k != "REDIS_URL"}  # nothing to Redis
    manage(setup_env, "migrate", "--verbosity", "0")
    tournament_id = int(manage(setup_env, "shell", "--no-imports", "-c", SETUP).split()[-1])
    clock_path = f"/api/v1/tournaments/{tournament_id}/clock/"
    generator = (
        f"wrk -t2 -c{CONNECTIONS} -d{SECONDS}s"
        if WRK
        else f"Python threads ({CONNECTIONS} keep-alive connections; wrk is not installed)"
    )
    port = free_port()
    with serving(gunicorn_command(port, WORKERS), env, port):
        results = load_paths(
            port,
            {"GET clock": clock_path, "trivial JSON view": TRIVIAL_PATH},
            connections=CONNECTIONS,
            seconds=SECONDS,
            warmup=WARMUP_SECONDS,
        )

    clock = results["GET clock"].rate
    trivial = results["trivial JSON view"].rate
    ratio = clock / trivial if trivial else 0.0
    verdict = "met" if ratio >= TARGET_RATIO else "NOT met"
    print(
        f"clock_api: GET clock {clock:.0f} vs trivial {trivial:.0f} req/s: ratio {ratio:.2f}"
        f" — target ≥ {TARGET_RATIO}: {verdict}"
    )
    print(
        f"clock_api: load generator {generator}, gunicorn {WORKERS} sync workers, "
        f"{SECONDS} s per path after {WARMUP_SECONDS} s warm-up, trivial view {TRIVIAL_PATH}"
    )
    results_report(results)


if __name__ == "__main__":
    main()

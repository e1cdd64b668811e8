"""Benchmark: requests per second for the same pages under WSGI (gunicorn) and ASGI (uvicorn).

Sets up a scratch PostgreSQL database with some tournaments, then serves the app first
with gunicorn sync workers (web.wsgi, as production serves HTTP) and then with
uvicorn (web.asgi, as production serves /ws/), each with the same number of worker
processes. For each server and each path, a fixed number of keep-alive connections
(threads) on 127.0.0.1 send GET requests for a fixed time; the first seconds warm up
and are not counted.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres python bench/asgi_vs_wsgi.py

Both reuse database connections, as production runs them: gunicorn's sync workers keep
one each (CONN_MAX_AGE), uvicorn's processes borrow them from Django's pool (web/asgi.py,
DATABASE_POOL_MIN/DATABASE_POOL_MAX): what differs is the server.

Prints one line per path, "asgi_vs_wsgi: <path> gunicorn <a> vs uvicorn <b> req/s:
<a/b>× — target —", then details. Environment: BENCH_WORKERS (worker
processes per server, default one per core), BENCH_CONNECTIONS (default 8),
BENCH_SECONDS (measured seconds per run, default 10), BENCH_TOURNAMENTS (default 25).
"""

import os
import sys

from common import (
    free_port,
    gunicorn_command,
    load_threads,
    manage,
    production_env,
    serving,
    uvicorn_command,
)

WORKERS = int(os.environ.get("BENCH_WORKERS", str(os.cpu_count() or 1)))
CONNECTIONS = int(os.environ.get("BENCH_CONNECTIONS", "8"))
SECONDS = float(os.environ.get("BENCH_SECONDS", "10"))
WARMUP_SECONDS = 2.0
TOURNAMENTS = int(os.environ.get("BENCH_TOURNAMENTS", "25"))
PATHS = ("/tournaments/", "/api/v1/tournaments/")
# Under uvicorn each process borrows connections from Django's pool (web/asgi.py), sized
# as the settings read it; passed on to the servers through the environment.
POOL_MIN = os.environ.get("DATABASE_POOL_MIN", "2")
POOL_MAX = os.environ.get("DATABASE_POOL_MAX", "10")
SERVERS = {"gunicorn": gunicorn_command, "uvicorn": uvicorn_command}

SETUP = f"""
from datetime import timedelta
from django.utils import timezone
from tournaments.models import Tournament
now = timezone.now()
Tournament.objects.bulk_create(
    Tournament(name=f"Bench Event #{{n}}", buy_in=10000 + 100 * n, fee=1000,
        starting_stack=30000, start_at=now + timedelta(days=n), status="registering")
    for n in range(1, {TOURNAMENTS} + 1)
)
print(Tournament.objects.count())
"""


def main() -> None:
    env = production_env()
    manage(env, "migrate", "--verbosity", "0")
    present = int(manage(env, "shell", "--no-imports", "-c", SETUP).split()[-1])
    rates: dict[tuple[str, str], float] = {}
    failures: list[str] = []
    for name, command in SERVERS.items():
        port = free_port()
        with serving(command(port, WORKERS), env, port):
            for path in PATHS:
                result = load_threads(
                    port, path, connections=CONNECTIONS, seconds=SECONDS, warmup=WARMUP_SECONDS
                )
                rates[name, path] = result.rate
                failures.extend(f"{name} {path}: {failure}" for failure in result.failures)

    for path in PATHS:
        wsgi, asgi = rates["gunicorn", path], rates["uvicorn", path]
        ratio = f"{wsgi / asgi:.2f}×" if asgi else "—"
        print(
            f"asgi_vs_wsgi: {path} gunicorn {wsgi:.0f} vs uvicorn {asgi:.0f} req/s: "
            f"{ratio} — target —"
        )
    print(
        f"asgi_vs_wsgi: {WORKERS} worker processes each, {CONNECTIONS} connections, "
        f"{SECONDS:.0f} s per run after {WARMUP_SECONDS:.0f} s warm-up, "
        f"{present} tournaments, {len(failures)} failed; database connections reused by "
        f"both: gunicorn keeps one per worker, uvicorn borrows from its pool "
        f"({POOL_MIN}–{POOL_MAX} per process)"
    )
    if failures:
        sys.exit(f"asgi_vs_wsgi: {len(failures)} requests failed, e.g. {failures[0]}")


if __name__ == "__main__":
    main()

"""Benchmark: requests per second for the same pages under WSGI (gunicorn) and ASGI (uvicorn).

Sets up a scratch PostgreSQL database with some tournaments, then serves the app first
with gunicorn sync workers (floorman.wsgi, as production serves HTTP) and then with
uvicorn (floorman.asgi, as production serves /ws/), each with the same number of worker
processes. For each server and each path, a fixed number of keep-alive connections
(threads) on 127.0.0.1 send GET requests for a fixed time; the first seconds warm up
and are not counted.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres python bench/asgi_vs_wsgi.py

Prints one line per server and path, "asgi_vs_wsgi: <server> <path> <n> req/s", then
the ratio gunicorn/uvicorn per path, then details. Environment: BENCH_WORKERS (worker
processes per server, default one per core), BENCH_CONNECTIONS (default 8),
BENCH_SECONDS (measured seconds per run, default 10), BENCH_TOURNAMENTS (default 25).
"""

import http.client
import os
import sys
import threading
import time
from dataclasses import dataclass, field

from common import free_port, manage, production_env, serving

WORKERS = int(os.environ.get("BENCH_WORKERS", str(os.cpu_count() or 1)))
CONNECTIONS = int(os.environ.get("BENCH_CONNECTIONS", "8"))
SECONDS = float(os.environ.get("BENCH_SECONDS", "10"))
WARMUP_SECONDS = 2.0
TOURNAMENTS = int(os.environ.get("BENCH_TOURNAMENTS", "25"))
MAX_REQUESTS_PER_CONNECTION = 200_000  # a bound besides time; never reached on loopback
PATHS = ("/tournaments/", "/api/v1/tournaments/")
SERVERS = ("gunicorn", "uvicorn")

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


def server_command(name: str, port: int) -> list[str]:
    workers = str(WORKERS)
    return {
        "gunicorn": [
            sys.executable,
            "-m",
            "gunicorn",
            "floorman.wsgi:application",
            "--workers",
            workers,
            "--bind",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
        ],
        "uvicorn": [
            sys.executable,
            "-m",
            "uvicorn",
            "floorman.asgi:application",
            "--workers",
            workers,
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--lifespan",
            "off",  # Django's ASGI handler does not speak the lifespan protocol
            "--log-level",
            "warning",
            "--no-access-log",
        ],
    }[name]


@dataclass
class Tally:
    done: int = 0
    failures: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def client(port: int, path: str, start: float, stop: float, tally: Tally) -> None:
    """Send GET path until `stop`; count the 200 answers completed after `start`."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    done = 0
    failures = []
    try:
        for _ in range(MAX_REQUESTS_PER_CONNECTION):
            if time.monotonic() >= stop:
                break
            try:
                conn.request("GET", path)
                response = conn.getresponse()
                response.read()
            except (OSError, http.client.HTTPException) as exc:
                failures.append(f"{type(exc).__name__}: {exc}")
                conn.close()  # the next request opens a new connection
                continue
            if response.status != 200:
                failures.append(f"HTTP {response.status}")
            elif time.monotonic() > start:
                done += 1
    finally:
        conn.close()
    with tally.lock:
        tally.done += done
        tally.failures.extend(failures)


def load(port: int, path: str) -> tuple[float, list[str]]:
    """Requests per second for `path` over SECONDS, after WARMUP_SECONDS."""
    tally = Tally()
    start = time.monotonic() + WARMUP_SECONDS
    stop = start + SECONDS
    threads = [
        threading.Thread(target=client, args=(port, path, start, stop, tally))
        for _ in range(CONNECTIONS)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # Requests still in flight at `stop` finish a little later and are counted: the
    # error is at most CONNECTIONS requests, a few per mille of a run.
    return tally.done / SECONDS, tally.failures


def main() -> None:
    env = production_env(
        os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    )
    manage(env, "migrate", "--verbosity", "0")
    present = int(manage(env, "shell", "--no-imports", "-c", SETUP).split()[-1])
    rates: dict[tuple[str, str], float] = {}
    failures: list[str] = []
    for name in SERVERS:
        port = free_port()
        with serving(server_command(name, port), env, port):
            for path in PATHS:
                rates[name, path], failed = load(port, path)
                failures.extend(f"{name} {path}: {failure}" for failure in failed)

    for (name, path), rate in rates.items():
        print(f"asgi_vs_wsgi: {name} {path} {rate:.0f} req/s")
    ratios = ", ".join(
        f"{path} {rates['gunicorn', path] / rates['uvicorn', path]:.2f}x"
        for path in PATHS
        if rates["uvicorn", path]
    )
    print(f"asgi_vs_wsgi: gunicorn/uvicorn {ratios}")
    print(
        f"asgi_vs_wsgi: {WORKERS} worker processes each, {CONNECTIONS} connections, "
        f"{SECONDS:.0f} s per run after {WARMUP_SECONDS:.0f} s warm-up, "
        f"{present} tournaments, {len(failures)} failed"
    )
    if failures:
        sys.exit(f"asgi_vs_wsgi: {len(failures)} requests failed, e.g. {failures[0]}")


if __name__ == "__main__":
    main()

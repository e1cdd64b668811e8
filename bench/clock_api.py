"""Benchmark: GET /api/v1/tournaments/<id>/clock/ against a trivial Django JSON view.

Sets up a scratch PostgreSQL database with one tournament whose clock runs, serves the
app with gunicorn sync workers (floorman.wsgi, as production serves HTTP), one per
core, and loads the clock and /health/live/ (a JSON view that touches neither the
database nor the cache) in turn, each at 50 concurrent connections for a fixed time
after a warm-up, on the same server in the same run. The load generator is wrk when
installed (Debian: apt-get install wrk), else Python threads with keep-alive
connections (which saturate sooner: the figures are not comparable between the two).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres python bench/clock_api.py

Prints "clock_api: GET clock <n> req/s", "clock_api: trivial JSON view <n> req/s",
"clock_api: ratio <r> (target >= 0.5)", then details. Environment: BENCH_WORKERS
(default one per core), BENCH_CONNECTIONS (default 50), BENCH_SECONDS (default 10).
"""

import http.client
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

from common import free_port, manage, production_env, serving

WORKERS = int(os.environ.get("BENCH_WORKERS", str(os.cpu_count() or 1)))
CONNECTIONS = int(os.environ.get("BENCH_CONNECTIONS", "50"))
SECONDS = int(os.environ.get("BENCH_SECONDS", "10"))
WARMUP_SECONDS = 2
TARGET_RATIO = 0.5
TRIVIAL_PATH = "/health/live/"

SETUP = """
from django.utils import timezone
from clock import engine, services
from clock.engine import BREAK, LEVEL, Step
from tournaments.models import Tournament
t = Tournament.objects.create(name="Bench Clock Event", buy_in=10000, fee=1000,
    starting_stack=30000, start_at=timezone.now(), status="running")
steps = [
    Step(LEVEL, 20, 100, 200),
    Step(LEVEL, 20, 200, 400),
    Step(BREAK, 10, label="Break", color_up=(25,)),
    Step(LEVEL, 20, 300, 600, ante=600, ante_type=engine.ANTE_BIG_BLIND),
    Step(LEVEL, 20, 400, 800, ante=800, ante_type=engine.ANTE_BIG_BLIND),
]
s = services.structure_create(actor=None, name="Bench 20", steps=steps, is_template=True,
    chip_set_id=None)
services.clock_structure_set(actor=None, tournament_id=t.pk, structure_id=s.pk)
services.clock_act(actor=None, tournament_id=t.pk, action="start")
print(t.pk)
"""


@dataclass
class Result:
    rate: float  # requests per second
    detail: str
    failures: list[str] = field(default_factory=list)


def server_command(port: int) -> list[str]:
    return [
        sys.executable,
        "-m",
        "gunicorn",
        "floorman.wsgi:application",
        "--workers",
        str(WORKERS),
        "--bind",
        f"127.0.0.1:{port}",
        "--log-level",
        "warning",
    ]


def answers_ok(port: int, path: str) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        body = response.read()
    finally:
        conn.close()
    if response.status != 200 or not body.startswith((b"{", b"[")):
        sys.exit(f"clock_api: GET {path} answered HTTP {response.status}, not JSON 200")


# --- wrk ---------------------------------------------------------------------------


def wrk(command: str, port: int, path: str, seconds: int) -> str:
    done = subprocess.run(
        [
            command,
            "-t2",
            f"-c{CONNECTIONS}",
            f"-d{seconds}s",
            "--latency",
            f"http://127.0.0.1:{port}{path}",
        ],
        capture_output=True,
        text=True,
        timeout=seconds + 60,
    )
    if done.returncode:
        sys.exit(f"clock_api: wrk failed:\n{done.stderr}")
    return done.stdout


def load_wrk(command: str, port: int, path: str) -> Result:
    wrk(command, port, path, WARMUP_SECONDS)
    out = wrk(command, port, path, SECONDS)
    rate = re.search(r"Requests/sec:\s+([\d.]+)", out)
    if rate is None:
        sys.exit(f"clock_api: cannot read wrk's output:\n{out}")
    latency = {
        p: m.group(1) for p in ("50", "99") if (m := re.search(rf"^\s+{p}%\s+(\S+)", out, re.M))
    }
    failures = []
    if m := re.search(r"Non-2xx or 3xx responses: (\d+)", out):
        failures.append(f"{m.group(1)} non-2xx answers")
    if m := re.search(r"Socket errors: (.*)", out):
        # Reading or writing a connection that the server closed counts here too.
        failures.append(f"socket errors: {m.group(1)}")
    detail = f"latency p50 {latency.get('50', '?')} p99 {latency.get('99', '?')}"
    return Result(float(rate.group(1)), detail, failures)


# --- Python threads (when wrk is missing) -------------------------------------------


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
        while time.monotonic() < stop:
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


def load_threads(port: int, path: str) -> Result:
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
    return Result(tally.done / SECONDS, "", tally.failures)


def main() -> None:
    env = production_env(
        os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    )
    setup_env = {k: v for k, v in env.items() if k != "REDIS_URL"}  # nothing to Redis
    manage(setup_env, "migrate", "--verbosity", "0")
    tournament_id = int(manage(setup_env, "shell", "--no-imports", "-c", SETUP).split()[-1])
    clock_path = f"/api/v1/tournaments/{tournament_id}/clock/"
    command = shutil.which("wrk")
    generator = (
        f"wrk -t2 -c{CONNECTIONS} -d{SECONDS}s"
        if command
        else f"Python threads ({CONNECTIONS} keep-alive connections; wrk is not installed)"
    )
    port = free_port()
    with serving(server_command(port), env, port):
        results = {}
        for name, path in (("GET clock", clock_path), ("trivial JSON view", TRIVIAL_PATH)):
            answers_ok(port, path)
            results[name] = load_wrk(command, port, path) if command else load_threads(port, path)

    for name, result in results.items():
        print(f"clock_api: {name} {result.rate:.0f} req/s")
    trivial = results["trivial JSON view"].rate
    ratio = results["GET clock"].rate / trivial if trivial else 0.0
    print(f"clock_api: ratio {ratio:.2f} (target >= {TARGET_RATIO})")
    print(
        f"clock_api: load generator {generator}, gunicorn {WORKERS} sync workers, "
        f"{SECONDS} s per path after {WARMUP_SECONDS} s warm-up, trivial view {TRIVIAL_PATH}"
    )
    failures = []
    for name, result in results.items():
        if result.detail:
            print(f"clock_api: {name}: {result.detail}")
        failures.extend(f"{name}: {failure}" for failure in result.failures)
    if failures:
        print(f"clock_api: {len(failures)} failures, e.g. {failures[0]}")
        sys.exit(f"clock_api: requests failed: {'; '.join(failures[:3])}")


if __name__ == "__main__":
    main()

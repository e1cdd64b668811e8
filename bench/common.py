"""Helpers shared by the benchmarks: a scratch PostgreSQL database, manage.py, servers,
and HTTP load (wrk when installed, else Python threads).

Every server a benchmark starts runs in its own process group, and `serving` stops the
whole group when the benchmark ends, on error and on Ctrl-C or SIGTERM too.
"""

import asyncio
import atexit
import contextlib
import http.client
import json
import math
import os
import re
import resource
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn
from urllib.parse import urlsplit, urlunsplit

import psycopg
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parent.parent
SCRATCH_DB = os.environ.get("BENCH_SCRATCH_DB", "floorman_bench")  # one per parallel run
DATABASE_URL = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
BENCH = Path(sys.argv[0]).stem  # "clock_api" for bench/clock_api.py: prefixes its messages
WRK = shutil.which("wrk")  # the load generator when installed (Debian: apt-get install wrk)
MAX_REQUESTS_PER_CONNECTION = 200_000  # a bound besides time; never reached on loopback

# Shell code for `manage.py shell -c`, after a tournament `t` exists: gives it a structure
# of 20-minute levels with a break (and a colour-up) after level 2, ready to start.
CLOCK_STRUCTURE_SETUP = """
from clock import engine, services
from clock.engine import BREAK, LEVEL, Step
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
"""

# Shell code for `manage.py shell -c`: defines `field_sell(t, prefix, entries)`, that many
# players (named "<prefix> 00000"...) bought into `t` in bulk, and `field_setup(name,
# prefix, entries, seats, tables)`, a festival-size event: its field sold, `tables` of
# `seats` seats drawn by the service, a clock on 40 twenty-minute levels (not started),
# the event running at level 1.
FIELD_SETUP = """
from django.utils import timezone
from clock import services as clock_services
from clock.engine import LEVEL, Step
from seating import services as seating_services
from seating.models import Seat, Table
from tournaments.models import Entry, Player, Tournament, Transaction, TransactionKind
from tournaments.services.ledger import ledger_totals_recount


def field_sell(t, prefix, entries):
    # `entries` new players bought into `t`, in bulk; returns the entries.
    key = prefix.lower()
    people = Player.objects.bulk_create(
        [Player(name=f"{prefix} {i:05d}", name_key=f"{key} {i:05d}",
                name_plain=f"{key} {i:05d}") for i in range(entries)], batch_size=2000)
    sold = Entry.objects.bulk_create(
        [Entry(tournament=t, player=p, number=i + 1, chips=30000)
         for i, p in enumerate(people)], batch_size=2000)
    Transaction.objects.bulk_create(
        [Transaction(tournament=t, entry=e, kind=TransactionKind.BUY_IN, amount=11000,
                     prize_share=10000, fee_share=1000) for e in sold], batch_size=2000)
    ledger_totals_recount(tournament=t)  # in bulk, past the ledger's one writer
    return sold


def field_setup(name, prefix, entries, seats, tables):
    t = Tournament.objects.create(name=name, buy_in=10000, fee=1000, starting_stack=30000,
        start_at=timezone.now(), status="registering", table_size=seats,
        late_reg_until_level=40)
    steps = [Step(LEVEL, 20, 100 * n, 200 * n) for n in range(1, 41)]
    s = clock_services.structure_create(actor=None, name="Bench 40", steps=steps,
        is_template=True, chip_set_id=None)
    clock_services.clock_structure_set(actor=None, tournament_id=t.pk, structure_id=s.pk)
    field_sell(t, prefix, entries)
    rows = Table.objects.bulk_create(
        [Table(tournament=t, number=n, seats=seats, break_order=tables - n + 1)
         for n in range(1, tables + 1)], batch_size=2000)
    Seat.objects.bulk_create(
        [Seat(table=row, number=n) for row in rows for n in range(1, seats + 1)],
        batch_size=5000)
    seating_services.seating_draw(actor=None, tournament_id=t.pk, tables=tables)
    Tournament.objects.filter(pk=t.pk).update(status="running", current_level=1)
    t.refresh_from_db()
    return t
"""


def fail(message: str) -> NoReturn:
    """Stop the benchmark with `message`, prefixed with its name."""
    sys.exit(f"{BENCH}: {message}")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def scratch_database(base_url: str) -> str:
    """Create a scratch database under a new name of its own and return its URL; it is
    dropped when the benchmark exits. A database the benchmark did not create is never
    dropped: CREATE fails rather than reuse an existing name."""
    parts = urlsplit(base_url)
    admin_url = urlunsplit(parts._replace(path="/postgres"))
    name = f"{SCRATCH_DB}_{os.getpid()}_{secrets.token_hex(4)}"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    atexit.register(_drop_scratch, admin_url, name)
    return urlunsplit(parts._replace(path=f"/{name}"))


def _drop_scratch(admin_url: str, name: str) -> None:
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def production_env(base_url: str = DATABASE_URL) -> dict[str, str]:
    """Environment for production settings on a fresh scratch database (plain HTTP)."""
    return {
        **os.environ,
        "DATABASE_URL": scratch_database(base_url),
        # Keys of its own in whatever Redis database REDIS_URL names.
        "REDIS_KEY_PREFIX": f"floorman-bench-{secrets.token_hex(4)}",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "false",
        "DEBUG": "false",
        "LOG_LEVEL": "WARNING",
        # The benchmark's clients all connect from this one address, far above any room.
        "FLOORMAN_RATE_WEBSOCKET": "",
        "FLOORMAN_WEBSOCKETS_PER_ADDRESS": "0",
    }


def manage(env: dict, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True
    )
    if done.returncode:
        sys.exit(f"manage.py {' '.join(args)} failed:\n{done.stderr}")
    return done.stdout


# --- Servers -----------------------------------------------------------------------


def gunicorn_command(port: int, workers: int) -> list[str]:
    """web.wsgi under gunicorn sync workers, as production serves HTTP."""
    return [
        sys.executable,
        "-m",
        "gunicorn",
        "web.wsgi:application",
        "--workers",
        str(workers),
        "--bind",
        f"127.0.0.1:{port}",
        "--log-level",
        "warning",
    ]


def uvicorn_command(port: int, workers: int, *options: str) -> list[str]:
    """web.asgi under uvicorn, as production serves /ws/; `options` go at the end."""
    return [
        sys.executable,
        "-m",
        "uvicorn",
        "web.asgi:application",
        "--workers",
        str(workers),
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--lifespan",
        "off",  # Django's ASGI handler does not speak the lifespan protocol
        "--log-level",
        "warning",
        "--no-access-log",
        *options,
    ]


def wait_for_server(
    server: subprocess.Popen, port: int, deadline: float, path: str = "/api/v1/tournaments/"
) -> None:
    while time.monotonic() < deadline and server.poll() is None:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            conn.request("GET", path)
            if conn.getresponse().status == 200:
                conn.close()
                return
            conn.close()
        except OSError:
            pass
        time.sleep(0.2)
    sys.exit("the server did not start")


def _sigterm_exits(signum: int, frame: object) -> None:
    sys.exit(128 + signum)  # unwinds through `finally`, so servers are stopped


@contextlib.contextmanager
def serving(command: list[str], env: dict, port: int) -> Iterator[subprocess.Popen]:
    """Start a server, wait until it answers on 127.0.0.1:port, stop it (and its workers)."""
    signal.signal(signal.SIGTERM, _sigterm_exits)
    server = subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True)
    try:
        wait_for_server(server, port, time.monotonic() + 30)
        yield server
    finally:
        stop(server)


def stop(server: subprocess.Popen) -> None:
    """SIGTERM the server's process group, SIGKILL it if it has not gone in 10 s."""
    for sig, grace in ((signal.SIGTERM, 10), (signal.SIGKILL, 5)):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, sig)
        try:
            server.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            continue
        # The main process is gone; make sure no worker outlived it.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGKILL)
        return


# The proxy: the configuration the project ships (deploy/nginx.conf), its upstreams
# pointed at servers on this machine.

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
NGINX_SHIPPED = ROOT / "deploy" / "nginx.conf"
COMPOSE = ROOT / "docker-compose.yml"
# What the shipped file names, and what the benchmark puts in its place.
NGINX_LISTEN = "listen 80 default_server;"
NGINX_UPSTREAMS = {
    "web": "set $web_upstream http://web:8000;",
    "ws": "set $ws_upstream http://ws:8000;",
}


NGINX_MAIN_SHIPPED = ROOT / "deploy" / "nginx-main.conf"


def shipped_worker_connections() -> int:
    """The connections per nginx worker that deploy/nginx-main.conf allows."""
    return int(re.search(r"worker_connections (\d+);", NGINX_MAIN_SHIPPED.read_text())[1])


def open_files_limit(wanted: int) -> int:
    """`wanted`, or the hard limit an unprivileged process cannot raise itself beyond."""
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    return wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)


def proxy_defaults() -> dict[str, str]:
    """The proxy's ${PROXY_WS_...} settings as docker-compose.yml defaults them."""
    return dict(re.findall(r"\b(PROXY_WS_\w+): \$\{\1:-(\d+)\}", COMPOSE.read_text()))


def nginx_config(
    directory: Path,
    port: int,
    upstreams: dict[str, list[int]],
    *,
    worker_connections: int = 1024,
    workers: int = 1,
    settings: dict[str, str] | None = None,
) -> list[str]:
    """Write an nginx configuration into `directory` and return the command that runs it
    in the foreground (a child to stop like any server).

    The server block is deploy/nginx.conf as the nginx image makes it (the ${PROXY_WS_...}
    filled in, docker-compose.yml's defaults unless `settings` says otherwise), with two
    changes only: it listens on 127.0.0.1:port, and each of its upstreams ("web", "ws")
    is an upstream group of the given ports on 127.0.0.1 instead of a Docker service
    name. Routing, headers and limits stay as shipped. pid, logs and temporary files
    live in `directory`.
    """
    text = NGINX_SHIPPED.read_text()
    values = {**proxy_defaults(), **(settings or {})}
    text = re.sub(r"\$\{(PROXY_WS_\w+)\}", lambda m: values[m.group(1)], text)
    replacements = {NGINX_LISTEN: f"listen 127.0.0.1:{port} default_server;"}
    groups = []
    for name, ports in upstreams.items():
        line = NGINX_UPSTREAMS[name]
        # A variable naming an upstream group: nginx uses the group, no resolver asked.
        replacements[line] = line.replace(f"http://{name}:8000", f"http://floorman_{name}")
        servers = "".join(f"        server 127.0.0.1:{p};\n" for p in ports)
        groups.append(f"    upstream floorman_{name} {{\n{servers}    }}\n")
    for old, new in replacements.items():
        if text.count(old) != 1:
            raise ValueError(f"{NGINX_SHIPPED} no longer has {old!r} once")
        text = text.replace(old, new)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "default.conf").write_text(text)
    temp = "\n".join(
        f"    {kind}_temp_path {directory / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    main = directory / "nginx.conf"
    main.write_text(
        f"daemon off;\n"
        f"worker_processes {workers};\n"
        # Each proxied socket holds two descriptors: the client's and the upstream's.
        f"worker_rlimit_nofile {open_files_limit(2 * worker_connections + 64)};\n"
        f"pid {directory / 'nginx.pid'};\n"
        f"error_log {directory / 'error.log'} warn;\n"
        f"events {{\n    worker_connections {worker_connections};\n}}\n"
        f"http {{\n    access_log off;\n{temp}\n"
        + "".join(groups)
        + f"    include {directory / 'default.conf'};\n}}\n"
    )
    return [NGINX, "-c", str(main), "-p", str(directory), "-e", str(directory / "error.log")]


# --- Load ---------------------------------------------------------------------------


@dataclass
class Result:
    rate: float  # requests per second
    detail: str = ""
    failures: list[str] = field(default_factory=list)


def answers_ok(port: int, path: str) -> None:
    """Stop the benchmark unless GET path answers JSON with HTTP 200."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        body = response.read()
    finally:
        conn.close()
    if response.status != 200 or not body.startswith((b"{", b"[")):
        fail(f"GET {path} answered HTTP {response.status}, not JSON 200")


def load(port: int, path: str, *, connections: int, seconds: float, warmup: float) -> Result:
    """GET path at `connections` concurrent connections: wrk when installed, else threads."""
    run = load_wrk if WRK else load_threads
    return run(port, path, connections=connections, seconds=seconds, warmup=warmup)


def load_paths(
    port: int, paths: dict[str, str], *, connections: int, seconds: float, warmup: float
) -> dict[str, Result]:
    """Name -> result of loading each path in turn, each checked to answer JSON first."""
    results = {}
    for name, path in paths.items():
        answers_ok(port, path)
        results[name] = load(port, path, connections=connections, seconds=seconds, warmup=warmup)
    return results


# wrk


def wrk(port: int, path: str, *, connections: int, seconds: float) -> str:
    done = subprocess.run(
        [
            WRK or "wrk",
            "-t2",
            f"-c{connections}",
            f"-d{seconds:g}s",
            "--latency",
            f"http://127.0.0.1:{port}{path}",
        ],
        capture_output=True,
        text=True,
        timeout=seconds + 60,
    )
    if done.returncode:
        fail(f"wrk failed:\n{done.stderr}")
    return done.stdout


def wrk_result(out: str) -> Result:
    """The rate, latency and failures that wrk --latency printed."""
    rate = re.search(r"Requests/sec:\s+([\d.]+)", out)
    if rate is None:
        fail(f"cannot read wrk's output:\n{out}")
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


def load_wrk(port: int, path: str, *, connections: int, seconds: float, warmup: float) -> Result:
    wrk(port, path, connections=connections, seconds=warmup)
    return wrk_result(wrk(port, path, connections=connections, seconds=seconds))


# Python threads, one keep-alive connection each (they saturate sooner than wrk: the
# figures are not comparable between the two)


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


def load_threads(
    port: int, path: str, *, connections: int, seconds: float, warmup: float
) -> Result:
    """Requests per second for `path` over `seconds`, after `warmup` seconds."""
    tally = Tally()
    start = time.monotonic() + warmup
    stop = start + seconds
    threads = [
        threading.Thread(target=client, args=(port, path, start, stop, tally))
        for _ in range(connections)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # Requests still in flight at `stop` finish a little later and are counted: the
    # error is at most `connections` requests, a few per mille of a run.
    return Result(tally.done / seconds, "", tally.failures)


def results_report(results: dict[str, Result]) -> None:
    """Print each load's latency line; stop the benchmark if any of its requests failed."""
    failures = []
    for name, result in results.items():
        if result.detail:
            print(f"{BENCH}: {name}: {result.detail}")
        failures.extend(f"{name}: {failure}" for failure in result.failures)
    if failures:
        print(f"{BENCH}: {len(failures)} failures, e.g. {failures[0]}")
        fail(f"requests failed: {'; '.join(failures[:3])}")


def verdict(met: bool) -> str:
    """What `make bench`'s table shows beside a target (bench/run_all.py)."""
    return "met" if met else "NOT met"


def percentile(sorted_values: list[float], p: float) -> float:
    """Nearest rank."""
    return sorted_values[max(0, math.ceil(p / 100 * len(sorted_values)) - 1)]


def celery_leftovers_remove(redis_url: str, server_pid: int) -> int:
    """Remove the clock announcements the server queued (with an eta hours away) in
    Redis: no worker runs here, and another worker on a shared Redis must not get them."""
    import redis  # noqa: PLC0415 - only the benchmarks that measure Redis need it

    origin = f"gen{server_pid}@{socket.gethostname()}"
    removed = 0
    client = redis.Redis.from_url(redis_url)
    try:
        for raw in client.lrange("celery", 0, -1):
            try:
                headers = json.loads(raw).get("headers") or {}
            except ValueError:
                continue
            if headers.get("origin") == origin:
                removed += client.lrem("celery", 1, raw)
    finally:
        client.close()
    return removed


def raise_open_file_limit(needed: int) -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        soft = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    return soft


async def screen_open(
    port: int, tournament_id: int, gate: asyncio.Semaphore, listen
) -> tuple[ClientConnection, asyncio.Task]:
    """A lobby screen's socket to the tournament, once the server has said hello; `listen`
    (a coroutine function of the socket) then reads it in a task of its own. At most
    `gate`'s count of handshakes are in flight at once."""
    async with gate:
        ws = await connect(
            f"ws://127.0.0.1:{port}/ws/tournaments/{tournament_id}/",
            origin=f"http://127.0.0.1:{port}",
            open_timeout=30,
            ping_interval=None,  # the server pings; the benchmark needs no second one
        )
        try:
            hello = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if hello.get("type") != "hello":
                raise RuntimeError(f"expected hello, got {hello!r}")
        except BaseException:
            await ws.close()
            raise
    return ws, asyncio.create_task(listen(ws))

"""Benchmark: a festival's deployment on one machine; a table break's move alerts reaching
the moved players' phones (issue 20, item 8).

Starts what a festival runs on several hosts, here on one, against one PostgreSQL (a
scratch database) and one Redis (keys under a prefix of its own):

- three web processes (gunicorn, BENCH_WEB_WORKERS sync workers each, default 2),
- two websocket processes (uvicorn web.asgi, one worker each, as docker-compose.yml's
  `ws` service runs them: no per-message deflate, proxy headers),
- two Celery workers (`celery --app=floorman worker`, concurrency 2, as the `worker`
  service),
- nginx with the shipped deploy/nginx.conf (bench/common.py nginx_config: its upstreams
  pointed at the servers above, its websocket limits as docker-compose.yml defaults them).

The event: BENCH_ENTRIES entries (default 10,000) drawn onto nine-seat tables, eight to
a table, its clock running. BENCH_PHONES phone pages (default 5,000) connect to
/ws/tournaments/<id>/entries/<entry id>/ through nginx, as a player's page does
(static/js/seats.js EntryScreen, web.consumers.EntryConsumer): each receives its own
entry's part of each "seating.updated" (floorman.phones) and looks for its new seat among
the seats taken. (Until issue 20's phones work, each phone joined the tournament's
socket and received every event of the event: p99 22.5 s at 5,000 phones.) The phones
come from BENCH_ADDRESSES client addresses (default 250, 127.10.x.y:
a venue's phones behind a few NATs), so the limits per address of nginx and of the
application stay as shipped. The players of the tables to be broken all have phones; the
others are drawn at random.

The floor then breaks BENCH_BREAKS tables (default 10, one warm-up break before them),
one every BENCH_BREAK_EVERY seconds (default 5), through POST
/api/v1/tournaments/<id>/tables/<n>/break/ through nginx with a floor user's token. For
every moved player's phone: the time from sending the break request to the phone
receiving the event with its new table and seat. Meanwhile, in a process of its own,
players look their seats up (GET /seat/<id>/?q=<name> and the phone page's
/seat/<id>/entry/<n>/, BENCH_LOOKUPS per second, default 20, from 1,000 addresses), the
floor pauses or resumes the clock through the API every BENCH_FLOOR_EVERY seconds
(default 5), and PostgreSQL connections (pg_stat_activity, the scratch database) and
Redis clients (CLIENT LIST, the benchmark's Redis database) are counted every half second
from the start. Also printed: the CPU seconds of each kind of process during the breaks,
and how late the phones' event loop woke (when it lags, the phones' own side, one
process here, is part of the figures). BENCH_SETTINGS=bench.settings_pubsub serves with
channels_redis's pub/sub layer instead, for comparison.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
    REDIS_URL=redis://127.0.0.1:6379/0 python bench/cluster.py

Prints "cluster: move alerts to <n> moved phones of 5,000, p50 <a> ms p99 <b> ms —
target p99 ≤ 1 s: met|NOT met", then the background requests' p99 and errors, the peak
connections and the machine's load. Every process is stopped at the end, the scratch
database dropped, the benchmark's Redis keys removed. Needs REDIS_URL and nginx.
"""

import asyncio
import contextlib
import http.client
import json
import os
import random
import resource
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from common import (
    NGINX,
    ROOT,
    fail,
    free_port,
    gunicorn_command,
    manage,
    nginx_config,
    percentile,
    production_env,
    raise_open_file_limit,
    shipped_worker_connections,
    stop,
    uvicorn_command,
    wait_for_server,
)

ENTRIES = int(os.environ.get("BENCH_ENTRIES", "10000"))
PHONES = int(os.environ.get("BENCH_PHONES", "5000"))
ADDRESSES = int(os.environ.get("BENCH_ADDRESSES", "250"))
BREAKS = int(os.environ.get("BENCH_BREAKS", "10"))
BREAK_EVERY = float(os.environ.get("BENCH_BREAK_EVERY", "5"))
WEB_WORKERS = int(os.environ.get("BENCH_WEB_WORKERS", "2"))
SETTINGS = os.environ.get("BENCH_SETTINGS", "")
LOOKUPS = float(os.environ.get("BENCH_LOOKUPS", "20"))  # per second, all players together
WEB_PROCESSES = 3
WS_PROCESSES = 2
CELERY_WORKERS = 2
CELERY_CONCURRENCY = 2
SEATS = 9  # per table; eight drawn to each, so a broken table's players fit elsewhere
CONNECTING = 50  # handshakes in flight at once
DEADLINE = 30.0  # seconds after the break request; later counts as not received
# A clock pause or resume, seconds apart: a busy floor (each reaches every phone too).
FLOOR_EVERY = float(os.environ.get("BENCH_FLOOR_EVERY", "5"))
SAMPLE_EVERY = 0.5
LOOKUP_THREADS = 4
TARGET_P99_MS = 1000
# nginx's connections per worker as shipped (deploy/nginx-main.conf): each proxied
# websocket holds two, the phone's and uvicorn's.
WORKER_CONNECTIONS = shipped_worker_connections()

SETUP = """
import json, random
from django.contrib.auth.models import Group, User
from django.utils import timezone
from tournaments.services.ledger import ledger_totals_recount
from rest_framework.authtoken.models import Token
from clock import services as clock_services
from clock.engine import LEVEL, Step
from seating import services as seating_services
from seating.models import Seat, Table
from tournaments.models import Entry, Player, Tournament, Transaction, TransactionKind

ENTRIES, SEATS, BREAKS, PHONES = %(entries)d, %(seats)d, %(breaks)d, %(phones)d
user = User.objects.create_user("bench-floor", password=None)
user.groups.add(Group.objects.get(name="floor"))
t = Tournament.objects.create(name="Cluster Bench", buy_in=10000, fee=1000,
    starting_stack=30000, start_at=timezone.now(), status="registering", table_size=SEATS,
    late_reg_until_level=40)
steps = [Step(LEVEL, 20, 100 * n, 200 * n) for n in range(1, 41)]
s = clock_services.structure_create(actor=None, name="Bench 40", steps=steps,
    is_template=True, chip_set_id=None)
clock_services.clock_structure_set(actor=None, tournament_id=t.pk, structure_id=s.pk)
people = Player.objects.bulk_create(
    [Player(name=f"Cluster Player {i:05d}", name_key=f"cluster player {i:05d}",
            name_plain=f"cluster player {i:05d}") for i in range(ENTRIES)], batch_size=2000)
entries = Entry.objects.bulk_create(
    [Entry(tournament=t, player=p, number=i + 1, chips=30000) for i, p in enumerate(people)],
    batch_size=2000)
Transaction.objects.bulk_create(
    [Transaction(tournament=t, entry=e, kind=TransactionKind.BUY_IN, amount=11000,
                 prize_share=10000, fee_share=1000) for e in entries], batch_size=2000)
# In bulk, past the ledger's writer: its running totals are summed afresh.
ledger_totals_recount(tournament=t)
tables = -(-ENTRIES // (SEATS - 1))
rows = Table.objects.bulk_create(
    [Table(tournament=t, number=n, seats=SEATS, break_order=tables - n + 1)
     for n in range(1, tables + 1)], batch_size=2000)
Seat.objects.bulk_create([Seat(table=row, number=n) for row in rows for n in range(1, SEATS + 1)],
    batch_size=5000)
seating_services.seating_draw(actor=None, tournament_id=t.pk, tables=tables)
Tournament.objects.filter(pk=t.pk).update(status="running", current_level=1)
clock_services.clock_act(actor=user, tournament_id=t.pk, action="start")
# The warm-up break and the measured ones: the highest numbers. Their players all have
# phones (a player moved twice keeps the same phone); the rest are drawn.
broken = list(range(tables, tables - BREAKS - 1, -1))
at_broken = set(Seat.objects.filter(table__tournament=t, table__number__in=broken,
    entry__isnull=False).values_list("entry_id", flat=True))
numbers = dict(Entry.objects.filter(tournament=t).values_list("pk", "number"))
others = random.Random(20).sample(sorted(set(numbers) - at_broken),
    max(0, min(PHONES, len(numbers)) - len(at_broken)))
phones = sorted(at_broken)[:PHONES] + others
print(json.dumps({"tournament": t.pk, "token": Token.objects.create(user=user).key,
    "breaks": broken, "phones": [[pk, numbers[pk]] for pk in phones], "entries": len(numbers),
    "tables": tables}))
"""


def address(n: int, second: int) -> str:
    """The n-th client address of a range 127.<second>.x.y (all of 127/8 is loopback)."""
    return f"127.{second}.{n // 250}.{n % 250 + 1}"


# --- The servers ---------------------------------------------------------------------


class Cluster:
    """Every server process, each in its own process group; `close` stops them all."""

    def __init__(self, env: dict, directory: Path) -> None:
        self.env = env
        self.directory = directory
        self.processes: list[subprocess.Popen] = []
        self.logs: list[Path] = []
        self.kinds: dict[int, str] = {}  # process group -> "web", "ws", "worker", "nginx"

    def start(self, name: str, command: list[str]) -> subprocess.Popen:
        log = self.directory / f"{name}.log"
        with log.open("w") as out:
            process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=self.env,
                start_new_session=True,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        self.processes.append(process)
        self.logs.append(log)
        self.kinds[process.pid] = name.rstrip("0123456789")
        return process

    def close(self) -> None:
        for process in reversed(self.processes):
            stop(process)

    def tail(self) -> str:
        return "\n".join(f"--- {log.name}\n{log.read_text()[-1500:]}" for log in self.logs)


def celery_ready(log: Path, process: subprocess.Popen, deadline: float) -> None:
    while time.monotonic() < deadline and process.poll() is None:
        if " ready." in log.read_text():
            return
        time.sleep(0.3)
    fail(f"a Celery worker did not start:\n{log.read_text()[-2000:]}")


def cluster_start(cluster: Cluster) -> int:
    """Start every server, wait until each answers; return nginx's port."""
    web = [free_port() for _ in range(WEB_PROCESSES)]
    ws = [free_port() for _ in range(WS_PROCESSES)]
    servers = []
    for n, port in enumerate(web):
        servers.append((cluster.start(f"web{n}", gunicorn_command(port, WEB_WORKERS)), port))
    ws_options = ("--ws-per-message-deflate", "false", "--proxy-headers")
    ws_options += ("--forwarded-allow-ips", "*")
    for n, port in enumerate(ws):
        servers.append((cluster.start(f"ws{n}", uvicorn_command(port, 1, *ws_options)), port))
    workers = []
    for n in range(CELERY_WORKERS):
        command = [sys.executable, "-m", "celery", "--app=floorman", "worker"]
        command += ["--loglevel=INFO", f"--concurrency={CELERY_CONCURRENCY}"]
        command += ["--hostname", f"bench{n}-{secrets.token_hex(3)}@%h"]
        workers.append(cluster.start(f"worker{n}", command))
    deadline = time.monotonic() + 120
    for process, port in servers:
        wait_for_server(process, port, deadline)
    for process, log in zip(workers, cluster.logs[-CELERY_WORKERS:], strict=True):
        celery_ready(log, process, deadline)
    proxy_port = free_port()
    command = nginx_config(
        cluster.directory / "nginx",
        proxy_port,
        {"web": web, "ws": ws},
        worker_connections=WORKER_CONNECTIONS,
    )
    proxy = cluster.start("nginx", command)
    wait_for_server(proxy, proxy_port, deadline, path="/proxy-health")
    return proxy_port


# --- The phones ----------------------------------------------------------------------


class Phones:
    """Every phone's "seating.updated" messages as they arrive: phone -> [(time, text)].
    Decoded after the run: the phones share one event loop here, not in a room."""

    def __init__(self) -> None:
        self.received: dict[int, list[tuple[float, str]]] = {}
        self.texts: dict[str, str] = {}  # one copy of each distinct message
        self.sockets: list = []
        self.errors: list[str] = []
        self.closed: dict[str, int] = {}  # sockets the other side closed, by close code
        self.frames = 0  # every frame the phones received: the fan-out the servers paid

    async def listen(self, ws, phone: int) -> None:
        inbox = self.received.setdefault(phone, [])
        with contextlib.suppress(Exception):
            async for raw in ws:
                self.frames += 1
                if '"seating.updated"' in raw:
                    inbox.append((time.perf_counter(), self.texts.setdefault(raw, raw)))
        # Closed before the benchmark closed it: by the server or the proxy.
        reason = f"closed {ws.close_code} {ws.close_reason or ''}".strip()
        self.closed[reason] = self.closed.get(reason, 0) + 1

    async def open(self, port: int, tournament: int, phone: int, entry: int, gate) -> None:
        from websockets.asyncio.client import connect  # noqa: PLC0415 - the client side only

        async with gate:
            try:
                ws = await connect(
                    # The page's own entry socket (seating.views.public.entry_socket).
                    f"ws://127.0.0.1:{port}/ws/tournaments/{tournament}/entries/{entry}/",
                    origin=f"http://127.0.0.1:{port}",
                    open_timeout=60,
                    ping_interval=None,  # the server pings
                    local_addr=(address(phone % ADDRESSES, 10), 0),
                )
                hello = json.loads(await asyncio.wait_for(ws.recv(), 60))
                if hello.get("type") != "hello":
                    raise RuntimeError(f"expected hello, got {hello!r}")
            except Exception as exc:  # noqa: BLE001 - counted and shown
                self.errors.append(f"{type(exc).__name__}: {exc}")
                return
        self.sockets.append((ws, asyncio.create_task(self.listen(ws, phone))))

    def arrival(self, phone: int, entry: int, table: int, seat: int, sent: float) -> float | None:
        """When the phone learnt of its seat at table/seat, after `sent`; None: never."""
        for at, raw in self.received.get(phone, ()):
            if at < sent:
                continue
            for row in json.loads(raw)["data"].get("seats", ()):
                if row["entry"] == entry and row["table"] == table and row["seat"] == seat:
                    return at
        return None


def api(port: int, token: str, method: str, path: str, body: dict | None = None):
    """(seconds, status, JSON answer) of one API request through nginx."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
    try:
        began = time.perf_counter()
        conn.request(method, path, json.dumps(body or {}), headers)
        response = conn.getresponse()
        data = response.read()
        took = time.perf_counter() - began
    finally:
        conn.close()
    try:
        answer = json.loads(data)
    except ValueError:
        answer = None
    return took, response.status, answer


async def floor_breaks(port: int, setup: dict, index: dict[int, int], phones: Phones):
    """Break the tables; every moved phone's latency in seconds, and those never told."""
    timed, errors, answers = [], [], []
    tournament = setup["tournament"]
    last = (0.0, [])
    for n, number in enumerate(setup["breaks"]):
        await asyncio.sleep(BREAK_EVERY)
        path = f"/api/v1/tournaments/{tournament}/tables/{number}/break/"
        sent = time.perf_counter()
        took, status, answer = await asyncio.to_thread(api, port, setup["token"], "POST", path)
        if status != 200:
            errors.append(f"break {number}: HTTP {status} {str(answer)[:200]}")
            continue
        moves = [m for m in answer["moves"] if m["entry"] in index]
        last = (sent, moves)
        if n:  # the first is a warm-up
            answers.append(took)
            timed.extend((sent, move) for move in moves)
    # The last break's phones have until the deadline; then nothing more is timed.
    sent, moves = last
    while time.perf_counter() < sent + DEADLINE and any(
        phones.arrival(index[m["entry"]], m["entry"], m["to_table"], m["to_seat"], sent) is None
        for m in moves
    ):
        await asyncio.sleep(0.1)
    latencies, missing, by_break = [], 0, {}
    for sent, move in timed:
        phone = index[move["entry"]]
        at = phones.arrival(phone, move["entry"], move["to_table"], move["to_seat"], sent)
        if at is None or at - sent > DEADLINE:
            missing += 1
        else:
            latencies.append(at - sent)
            by_break.setdefault(sent, []).append(at - sent)
    # Each break's slowest phone, in order: a backlog shows as a rise from break to break.
    slowest = [max(by_break[sent]) for sent in sorted(by_break)]
    return latencies, missing, errors, answers, slowest


async def loop_lag(lags: list[float], until: asyncio.Event) -> None:
    """How late the phones' event loop wakes up: when it lags, the phones' own side (one
    process here, 5,000 devices in a room) is part of the figures."""
    while not until.is_set():
        began = time.perf_counter()
        await asyncio.sleep(0.05)
        lags.append(time.perf_counter() - began - 0.05)


def cpu_seconds() -> dict[int, float]:
    """Process group -> CPU seconds of its live processes (/proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    groups: dict[int, float] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        group = int(fields[2])
        groups[group] = groups.get(group, 0.0) + (int(fields[11]) + int(fields[12])) / tick
    return groups


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def run_phones(port: int, setup: dict, background: subprocess.Popen) -> dict:
    phones = Phones()
    index = {entry: n for n, (entry, _number) in enumerate(setup["phones"])}
    gate = asyncio.Semaphore(CONNECTING)
    began = time.perf_counter()
    await asyncio.gather(
        *(
            phones.open(port, setup["tournament"], n, entry, gate)
            for n, (entry, _number) in enumerate(setup["phones"])
        )
    )
    connected = time.perf_counter() - began
    background.stdin.write("go\n")  # the lookups and the floor's clock actions begin
    background.stdin.flush()
    lags: list[float] = []
    done = asyncio.Event()
    lagging = asyncio.create_task(loop_lag(lags, done))
    cpu_before, clock_before, own_before = cpu_seconds(), time.perf_counter(), own_cpu()
    frames_before = phones.frames
    try:
        latencies, missing, errors, answers, slowest = await floor_breaks(
            port, setup, index, phones
        )
    finally:
        cpu_after, clock_after, own_after = cpu_seconds(), time.perf_counter(), own_cpu()
        closed = dict(phones.closed)  # before the benchmark closes the rest
        frames = phones.frames - frames_before
        done.set()
        await lagging
        for _ws, listener in phones.sockets:
            listener.cancel()
        await asyncio.gather(*(ws.close() for ws, _ in phones.sockets), return_exceptions=True)
    return {
        "connected": len(phones.sockets),
        "connect_seconds": connected,
        "connect_errors": phones.errors,
        "latencies": sorted(latencies),
        "missing": missing,
        "break_errors": errors,
        "break_seconds": sorted(answers),
        "slowest": slowest,
        "lags": sorted(lags),
        "cpu": {g: cpu_after.get(g, 0.0) - cpu_before.get(g, 0.0) for g in cpu_after},
        "own_cpu": own_after - own_before,
        "closed": closed,
        "frames": frames,
        "seconds": clock_after - clock_before,
    }


# --- The background: seat lookups, clock actions, connection counts -----------------


class Tally:
    def __init__(self) -> None:
        self.times: list[float] = []
        self.errors: dict[str, int] = {}
        self.lock = threading.Lock()

    def add(self, took: float | None, error: str | None) -> None:
        with self.lock:
            if error:
                self.errors[error] = self.errors.get(error, 0) + 1
            else:
                self.times.append(took)

    def summary(self) -> dict:
        times = sorted(self.times)
        p = (lambda q: 1000 * percentile(times, q)) if times else (lambda q: 0.0)
        return {"count": len(times), "p50": p(50), "p99": p(99), "errors": self.errors}


def lookups(port: int, setup: dict, until: threading.Event, tally: Tally, seed: int) -> None:
    rng = random.Random(seed)
    tournament = setup["tournament"]
    gap = LOOKUP_THREADS / LOOKUPS
    following = time.monotonic()
    while not until.is_set():
        _entry, number = rng.choice(setup["phones"])
        if rng.random() < 0.5:
            path = f"/seat/{tournament}/?q=cluster+player+{number - 1:05d}"
        else:  # the phone page's own seat, as it asks after (re)connecting
            path = f"/seat/{tournament}/entry/{number}/"
        conn = http.client.HTTPConnection(
            "127.0.0.1", port, timeout=30, source_address=(address(rng.randrange(1000), 20), 0)
        )
        began = time.perf_counter()
        try:
            conn.request("GET", path, headers={"Host": f"127.0.0.1:{port}"})
            response = conn.getresponse()
            response.read()
            error = None if response.status == 200 else f"HTTP {response.status}"
        except (OSError, http.client.HTTPException) as exc:
            error = type(exc).__name__
        finally:
            conn.close()
        tally.add(time.perf_counter() - began, error)
        following += gap
        until.wait(max(0.0, following - time.monotonic()))


def floor_clock(port: int, setup: dict, until: threading.Event, tally: Tally) -> None:
    path = f"/api/v1/tournaments/{setup['tournament']}/clock/"
    action = "pause"
    while not until.wait(FLOOR_EVERY):
        try:
            took, status, answer = api(port, setup["token"], "POST", path, {"action": action})
        except (OSError, http.client.HTTPException) as exc:
            tally.add(None, type(exc).__name__)
            continue
        tally.add(took, None if status == 200 else f"HTTP {status}")
        if status == 200:
            action = "resume" if answer["status"] != "running" else "pause"


def connections(database: str, redis_url: str, until: threading.Event, peak: dict) -> None:
    import psycopg  # noqa: PLC0415
    import redis  # noqa: PLC0415

    db = redis.Redis.from_url(redis_url).connection_pool.connection_kwargs.get("db", 0)
    client = redis.Redis.from_url(redis_url)
    name = database.rsplit("/", 1)[1]
    admin = database.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        while not until.wait(SAMPLE_EVERY):
            rows = conn.execute(
                "SELECT state, count(*) FROM pg_stat_activity WHERE datname = %s GROUP BY 1",
                (name,),
            ).fetchall()
            total = sum(n for _, n in rows)
            if total > peak["postgres"]:
                peak["postgres"] = total
                peak["postgres_states"] = {str(state): n for state, n in rows}
            ours = sum(1 for c in client.client_list() if int(c.get("db", -1)) == db) - 1
            peak["redis"] = max(peak["redis"], ours)
            peak["redis_server"] = max(
                peak["redis_server"], int(client.info("clients")["connected_clients"])
            )
    client.close()


def background(port: int, setup_file: str, database: str, redis_url: str) -> None:
    """The background process: counts connections from the start; once "go" arrives on
    stdin, looks seats up and drives the clock; at the end of stdin, prints its figures."""
    setup = json.loads(Path(setup_file).read_text())
    until = threading.Event()
    peak = {"postgres": 0, "postgres_states": {}, "redis": 0, "redis_server": 0}
    threads = [threading.Thread(target=connections, args=(database, redis_url, until, peak))]
    threads[0].start()
    sys.stdin.readline()
    looked, floor = Tally(), Tally()
    for n in range(LOOKUP_THREADS):
        threads.append(threading.Thread(target=lookups, args=(port, setup, until, looked, n)))
    threads.append(threading.Thread(target=floor_clock, args=(port, setup, until, floor)))
    for thread in threads[1:]:
        thread.start()
    sys.stdin.read()
    until.set()
    for thread in threads:
        thread.join()
    print(json.dumps({"lookups": looked.summary(), "floor": floor.summary(), "peak": peak}))


# --- Main ----------------------------------------------------------------------------


def redis_keys_remove(redis_url: str, prefix: str) -> int:
    import redis  # noqa: PLC0415

    client = redis.Redis.from_url(redis_url)
    removed = 0
    try:
        keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
        for n in range(0, len(keys), 500):
            removed += client.delete(*keys[n : n + 500])
    finally:
        client.close()
    return removed


def errors_text(errors: dict[str, int]) -> str:
    return ", ".join(f"{n} {kind}" for kind, n in sorted(errors.items())) or "0"


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--background":
        background(int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5])
        return
    redis_url = os.environ.get("REDIS_URL", "").strip()
    if not redis_url:
        fail("needs REDIS_URL: the processes share the channel layer and the broker there")
    if not Path(NGINX).exists():
        fail(f"needs nginx ({NGINX}; Debian: apt-get install nginx-light)")
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    env = production_env()
    env.pop("DJANGO_SETTINGS_MODULE", None)
    # The limits per address as shipped: the phones come from many addresses.
    env.pop("FLOORMAN_RATE_WEBSOCKET")
    env.pop("FLOORMAN_WEBSOCKETS_PER_ADDRESS")
    in_memory = {k: v for k, v in env.items() if k != "REDIS_URL"}
    if SETTINGS:  # the servers' (e.g. bench.settings_pubsub: another channel layer)
        env["DJANGO_SETTINGS_MODULE"] = SETTINGS
    manage(in_memory, "migrate", "--verbosity", "0")
    started = time.perf_counter()
    # Set up in memory: nothing of it reaches Redis.
    setup = json.loads(
        manage(
            in_memory,
            "shell",
            "--no-imports",
            "-c",
            SETUP % {"entries": ENTRIES, "seats": SEATS, "breaks": BREAKS, "phones": PHONES},
        ).splitlines()[-1]
    )
    print(
        f"cluster: {setup['entries']} entries seated at {setup['tables']} tables in "
        f"{time.perf_counter() - started:.0f} s; {len(setup['phones'])} phones"
    )
    open_files = raise_open_file_limit(WORKER_CONNECTIONS + 2 * PHONES + 1024)
    with tempfile.TemporaryDirectory(prefix="bench-cluster-") as scratch:
        directory = Path(scratch)
        (directory / "setup.json").write_text(json.dumps(setup))
        cluster = Cluster(env, directory)
        helper = None
        try:
            started = time.perf_counter()
            port = cluster_start(cluster)
            print(f"cluster: 8 servers up in {time.perf_counter() - started:.0f} s")
            helper = subprocess.Popen(
                [
                    sys.executable,
                    __file__,
                    "--background",
                    str(port),
                    str(directory / "setup.json"),
                    env["DATABASE_URL"],
                    redis_url,
                ],
                env=env,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                start_new_session=True,
            )
            try:
                from uvloop import run as run_loop  # noqa: PLC0415 - as the servers run
            except ImportError:
                from asyncio import run as run_loop  # noqa: PLC0415
            phones = run_loop(run_phones(port, setup, helper))
            out, _ = helper.communicate(timeout=120)
            figures = json.loads(out.splitlines()[-1])
        except BaseException:
            print(cluster.tail(), file=sys.stderr)
            raise
        finally:
            if helper is not None and helper.poll() is None:
                stop(helper)
            cluster.close()
            removed = redis_keys_remove(redis_url, env["REDIS_KEY_PREFIX"])
    cpu = {"background load": phones["cpu"].get(helper.pid, 0.0), "phones": phones["own_cpu"]}
    for group, kind in cluster.kinds.items():
        cpu[kind] = cpu.get(kind, 0.0) + phones["cpu"].get(group, 0.0)
    report(phones, figures, removed, open_files, len(setup["phones"]), cpu)


def report(
    phones: dict, figures: dict, removed: int, open_files: int, wanted: int, cpu: dict
) -> None:
    values = phones["latencies"]
    moved = len(values) + phones["missing"]
    if values:
        p50, p99 = (1000 * percentile(values, p) for p in (50, 99))
    else:
        p50 = p99 = float("inf")
    met = "met" if values and not phones["missing"] and p99 <= TARGET_P99_MS else "NOT met"
    print(
        f"cluster: move alerts to {moved} moved phones of {phones['connected']:,}, "
        f"p50 {p50:.0f} ms p99 {p99:.0f} ms — target p99 ≤ 1 s: {met}"
    )
    looked, floor, peak = figures["lookups"], figures["floor"], figures["peak"]
    breaks = phones["break_seconds"]
    print(
        f"cluster: seat lookups {looked['count']} p99 {looked['p99']:.0f} ms "
        f"(p50 {looked['p50']:.0f} ms), errors {errors_text(looked['errors'])}; "
        f"clock pause/resume {floor['count']} p99 {floor['p99']:.0f} ms, "
        f"errors {errors_text(floor['errors'])}; break request median "
        f"{1000 * breaks[len(breaks) // 2] if breaks else 0:.0f} ms — target —"
    )
    print(
        f"cluster: peak PostgreSQL connections {peak['postgres']} "
        f"({', '.join(f'{n} {s}' for s, n in peak['postgres_states'].items())}); "
        f"Redis clients {peak['redis']} of the benchmark's database "
        f"({peak['redis_server']} on the server)"
    )
    print(
        f"cluster: {phones['connected']} of {wanted} phones connected in "
        f"{phones['connect_seconds']:.0f} s, {len(phones['connect_errors'])} errors; "
        f"{phones['missing']} moved phones not told within {DEADLINE:.0f} s; "
        f"{len(phones['break_errors'])} failed breaks; phones closed by the other side: "
        f"{errors_text(phones['closed'])}; open files {open_files}; "
        f"{removed} Redis keys removed; frames the phones received during the breaks "
        f"{phones['frames']}"
    )
    slowest = ", ".join(f"{seconds:.1f}" for seconds in phones["slowest"])
    print(f"cluster: each break's slowest phone, in order: {slowest} s")
    lags = phones["lags"]
    print(
        f"cluster: CPU seconds in the {phones['seconds']:.0f} s of breaks: "
        + ", ".join(f"{kind} {seconds:.1f}" for kind, seconds in cpu.items())
        + f"; the phones' event loop woke late by up to {lags[-1]:.2f} s "
        f"(99th percentile {percentile(lags, 99):.2f} s)"
    )
    for error in (phones["connect_errors"] + phones["break_errors"])[:3]:
        print(f"cluster: e.g. {error}")
    print(f"cluster: load {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} (1, 5 min)")
    if phones["missing"] or phones["break_errors"] or phones["connected"] < wanted:
        sys.exit("cluster: phones or breaks lost")


if __name__ == "__main__":
    main()

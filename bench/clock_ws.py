"""Benchmark: how fast a clock change reaches 1,000 screens over websockets.

Sets up a scratch PostgreSQL database with one tournament whose clock runs, then, once
per channel layer, starts ONE uvicorn process (web.asgi, as production serves
/ws/) and connects 1,000 websocket clients to /ws/tournaments/<id>/ from this process.
Each round a floor user pauses (or resumes) the clock through POST
/api/v1/tournaments/<id>/clock/ on the same server; every client's latency is the time
from sending that request to receiving the "clock.updated" message with the new
version. A first round warms up and is not counted. Layers: in-memory (REDIS_URL
unset in the server), channels_redis core (floorman.settings with REDIS_URL) and
channels_redis pub/sub (bench.settings_pubsub).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
    REDIS_URL=redis://127.0.0.1:6379/0 python bench/clock_ws.py

Prints one line per layer, "clock_ws: <layer> <n> clients p50 <x> ms p99 <y> ms max
<z> ms, <n> of <m> messages received", then details. Target: p99 <= 250 ms. Without
REDIS_URL only the in-memory layer runs. The clients share the machine and one event
loop, so their own work (reading and inflating 1,000 frames) is part of the figures;
they decode the JSON only after each round. The clock announcements that the server
queues in Redis on resume (no worker runs here) are removed afterwards.
Environment: BENCH_CLIENTS (default 1000), BENCH_ROUNDS (default 10).
"""

import asyncio
import http.client
import json
import os
import secrets
import sys
import time
from dataclasses import dataclass, field
from statistics import median

from common import (
    CLOCK_STRUCTURE_SETUP,
    celery_leftovers_remove,
    free_port,
    manage,
    percentile,
    production_env,
    raise_open_file_limit,
    serving,
    uvicorn_command,
)
from websockets.asyncio.client import ClientConnection, connect

try:  # the server runs on uvloop (uvicorn[standard]); the clients too, to keep up
    from uvloop import run as run_loop
except ImportError:
    from asyncio import run as run_loop

CLIENTS = int(os.environ.get("BENCH_CLIENTS", "1000"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "10"))
DEADLINE = 10.0  # seconds after the request; a message later than this counts as missing
CONNECTING = 50  # websocket handshakes in flight at once
PAUSE_BETWEEN_ROUNDS = 0.3
TARGET_P99_MS = 250

# A large id, so that the group name does not meet another run's on a shared Redis.
TOURNAMENT_ID = 9_000_000 + secrets.randbelow(1_000_000)

SETUP = (
    f"""
from django.contrib.auth.models import Group, User
from django.utils import timezone
from rest_framework.authtoken.models import Token
from tournaments.models import Tournament
user = User.objects.create_user("bench-floor", password=None)
user.groups.add(Group.objects.get(name="floor"))
t = Tournament.objects.create(pk={TOURNAMENT_ID}, name="Bench Clock Event", buy_in=10000,
    fee=1000, starting_stack=30000, start_at=timezone.now(), status="running")
"""
    + CLOCK_STRUCTURE_SETUP
    + """
services.clock_act(actor=user, tournament_id=t.pk, action="start")
print(Token.objects.create(user=user).key, t.pk)
"""
)
SERVER_OPTIONS = (
    "--ws-per-message-deflate",
    "false",  # as production serves /ws/ (docker-compose.yml, manage.py serve)
)


@dataclass
class Layer:
    name: str
    env: dict
    latencies: list[float] = field(default_factory=list)  # seconds
    expected: int = 0
    connected: int = 0
    connect_errors: list[str] = field(default_factory=list)
    connect_seconds: float = 0.0
    post_errors: list[str] = field(default_factory=list)
    request_seconds: list[float] = field(default_factory=list)  # POST sent to answer read


class Inbox:
    """clock.updated messages as they arrive: (client, time, text).

    Decoding waits until the round is over: the clients share one event loop, so
    decoding a message as it arrives would delay every later client's receipt.
    """

    def __init__(self) -> None:
        self.received: list[tuple[int, float, str]] = []

    def arrivals(self, start: int, version: int, status: str, deadline: float) -> dict[int, float]:
        """Client -> receipt time of `version` with `status`, among messages since `start`."""
        got: dict[int, float] = {}
        for client, at, raw in self.received[start:]:
            data = json.loads(raw)["data"]
            if data["version"] == version and data["status"] == status and at <= deadline:
                got.setdefault(client, at)
        return got


async def open_client(
    port: int, client: int, inbox: Inbox, gate: asyncio.Semaphore
) -> tuple[ClientConnection, asyncio.Task]:
    async with gate:
        ws = await connect(
            f"ws://127.0.0.1:{port}/ws/tournaments/{TOURNAMENT_ID}/",
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
    return ws, asyncio.create_task(listen(ws, client, inbox))


async def listen(ws: ClientConnection, client: int, inbox: Inbox) -> None:
    async for raw in ws:
        at = time.perf_counter()
        if '"clock.updated"' in raw:
            inbox.received.append((client, at, raw))


class ClockDriver:
    """Pauses and resumes the clock through the API, alternating, across servers."""

    def __init__(self, token: str) -> None:
        self.token = token
        self.running = True  # the setup started the clock

    def act(self, port: int) -> tuple[float, float, int, str]:
        """POST the next action; return (time sent, time answered, new version, status)."""
        action = "pause" if self.running else "resume"
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        headers = {"Authorization": f"Token {self.token}", "Content-Type": "application/json"}
        try:
            sent = time.perf_counter()
            conn.request(
                "POST",
                f"/api/v1/tournaments/{TOURNAMENT_ID}/clock/",
                json.dumps({"action": action}),
                headers,
            )
            response = conn.getresponse()
            body = response.read()
            answered = time.perf_counter()
        finally:
            conn.close()
        if response.status != 200:
            raise RuntimeError(f"{action}: HTTP {response.status} {body[:200]!r}")
        state = json.loads(body)
        self.running = state["status"] == "running"
        return sent, answered, state["version"], state["status"]


async def measure(layer: Layer, port: int, driver: ClockDriver) -> None:
    inbox = Inbox()
    gate = asyncio.Semaphore(CONNECTING)
    started = time.perf_counter()
    opened = await asyncio.gather(
        *(open_client(port, n, inbox, gate) for n in range(CLIENTS)), return_exceptions=True
    )
    layer.connect_seconds = time.perf_counter() - started
    clients = []
    for result in opened:
        if isinstance(result, BaseException):
            layer.connect_errors.append(f"{type(result).__name__}: {result}")
        else:
            clients.append(result)
    layer.connected = len(clients)
    try:
        for round_number in range(ROUNDS + 1 if clients else 0):
            await asyncio.sleep(PAUSE_BETWEEN_ROUNDS)
            start = len(inbox.received)
            try:
                sent, answered, version, status = await asyncio.to_thread(driver.act, port)
            except (OSError, http.client.HTTPException, RuntimeError) as exc:
                layer.post_errors.append(f"{type(exc).__name__}: {exc}")
                continue
            deadline = sent + DEADLINE
            got: dict[int, float] = {}
            while time.perf_counter() < deadline:
                if len(inbox.received) - start >= len(clients):
                    got = inbox.arrivals(start, version, status, deadline)
                    if len(got) >= len(clients):
                        break
                await asyncio.sleep(0.005)
            else:
                got = inbox.arrivals(start, version, status, deadline)
            if round_number == 0:
                continue  # warm-up
            layer.request_seconds.append(answered - sent)
            layer.expected += len(clients)
            layer.latencies.extend(at - sent for at in got.values())
    finally:
        for _ws, listener in clients:
            listener.cancel()
        await asyncio.gather(*(ws.close() for ws, _ in clients), return_exceptions=True)


def main() -> None:
    redis_url = os.environ.get("REDIS_URL", "").strip()
    env = production_env()
    env.pop("DJANGO_SETTINGS_MODULE", None)
    in_memory_env = {k: v for k, v in env.items() if k != "REDIS_URL"}
    manage(in_memory_env, "migrate", "--verbosity", "0")
    # The setup publishes and schedules in memory: nothing of it reaches a shared Redis.
    token, _ = manage(in_memory_env, "shell", "--no-imports", "-c", SETUP).split()[-2:]
    # The server inherits the limit: a socket per client on each side, and some spare.
    open_files = raise_open_file_limit(2 * CLIENTS + 1024)

    layers = [Layer("in-memory", in_memory_env)]
    if redis_url:
        layers.append(Layer("redis-core", {**env, "REDIS_URL": redis_url}))
        layers.append(
            Layer(
                "redis-pubsub",
                {**env, "REDIS_URL": redis_url, "DJANGO_SETTINGS_MODULE": "bench.settings_pubsub"},
            )
        )
    driver = ClockDriver(token)
    leftovers = 0
    for layer in layers:
        port = free_port()
        with serving(uvicorn_command(port, 1, *SERVER_OPTIONS), layer.env, port) as server:
            run_loop(measure(layer, port, driver))
        if "REDIS_URL" in layer.env:
            leftovers += celery_leftovers_remove(redis_url, server.pid)

    failed = []
    for layer in layers:
        got = len(layer.latencies)
        if got:
            values = sorted(layer.latencies)
            p50, p99, top = (1000 * percentile(values, p) for p in (50, 99, 100))
            figures = f"p50 {p50:.0f} ms p99 {p99:.0f} ms max {top:.0f} ms"
        else:
            figures = "no messages"
        print(
            f"clock_ws: {layer.name} {layer.connected} clients {figures}, "
            f"{got} of {layer.expected} messages received"
        )
        if layer.connected < CLIENTS or got < layer.expected or layer.post_errors:
            failed.append(layer)
    if not redis_url:
        print("clock_ws: Redis layers skipped (REDIS_URL is unset)")
    for layer in layers:
        print(
            f"clock_ws: {layer.name}: {layer.connected} of {CLIENTS} connected in "
            f"{layer.connect_seconds:.1f} s, {len(layer.connect_errors)} connect errors, "
            f"{len(layer.post_errors)} failed requests, POST answered in "
            f"{1000 * median(layer.request_seconds or [0]):.0f} ms (median)"
        )
        for error in (layer.connect_errors + layer.post_errors)[:3]:
            print(f"clock_ws: {layer.name}: e.g. {error}")
    print(
        f"clock_ws: one uvicorn process per layer, {ROUNDS} rounds (pause/resume) after "
        f"1 warm-up round, "
        f"target p99 <= {TARGET_P99_MS} ms, open files {open_files}, "
        f"{leftovers} queued announcements removed from Redis"
    )
    if failed:
        sys.exit(f"clock_ws: {', '.join(layer.name for layer in failed)}: clients or messages lost")


if __name__ == "__main__":
    main()

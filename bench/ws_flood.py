"""Benchmark: a flood of websocket handshakes from one address, and a normal screen.

Starts ONE uvicorn process (web.asgi, production settings on a scratch PostgreSQL
database and the Redis of REDIS_URL, the application's websocket limits at their
defaults: no proxy in front), then opens BENCH_FLOOD (default 2,000) handshakes to one
tournament at once from one address (X-Real-IP, as the proxy would send it) and keeps
the accepted ones open. Meanwhile a normal screen from another address connects every
0.1 s; its time from opening the connection to the "hello" message is the figure. Also
counted: handshakes accepted, PostgreSQL sessions opened during the flood
(pg_stat_database.sessions), and the server's Redis connections a few seconds after
every socket closed (CLIENT LIST, connections named by this benchmark's server). The
normal screen runs in a process of its own, so that the flood's clients do not slow it.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
    REDIS_URL=redis://127.0.0.1:6379/0 python bench/ws_flood.py

Prints "ws_flood: normal screen's connect during <n> handshakes from one address: p50
<x> ms, max <y> ms (alone: p50 <z> ms); <a> of <n> accepted; <s> PostgreSQL sessions;
<r> Redis connections left open".
"""

import asyncio
import multiprocessing
import os
import secrets
import sys
import time
from statistics import median
from urllib.parse import urlsplit, urlunsplit

import psycopg
import redis
from common import (
    fail,
    free_port,
    manage,
    production_env,
    raise_open_file_limit,
    serving,
    uvicorn_command,
)
from websockets.asyncio.client import connect

FLOOD = int(os.environ.get("BENCH_FLOOD", "2000"))
ATTACKER = "198.51.100.7"
TOURNAMENT_ID = 9_000_000 + secrets.randbelow(1_000_000)
CLIENT_NAME = f"floorman-ws-flood-{secrets.token_hex(4)}"

SETUP = f"""
from django.utils import timezone
from tournaments.models import Tournament
Tournament.objects.create(pk={TOURNAMENT_ID}, name="Flood", buy_in=10000, fee=1000,
    starting_stack=30000, start_at=timezone.now(), status="running")
"""


def sessions(database_url: str) -> int:
    name = urlsplit(database_url).path.lstrip("/")
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("SELECT pg_stat_clear_snapshot()")
        row = conn.execute(
            "SELECT sessions FROM pg_stat_database WHERE datname = %s", (name,)
        ).fetchone()
    return row[0]


def redis_connections(url: str) -> int:
    with redis.Redis.from_url(url) as client:
        return sum(1 for c in client.client_list() if c.get("name") == CLIENT_NAME)


async def hello(url: str, ip: str, keep: list | None = None) -> float | None:
    """Seconds from opening to the hello message; None when refused or failed."""
    started = time.perf_counter()
    try:
        socket = await connect(
            url,
            additional_headers={"X-Real-IP": ip, "Origin": "http://127.0.0.1"},
            open_timeout=60,
            ping_interval=None,
            compression=None,
        )
    except Exception:
        return None
    try:
        await asyncio.wait_for(socket.recv(), 60)
    except Exception:
        await socket.close()
        return None
    took = time.perf_counter() - started
    if keep is None:
        await socket.close()
    else:
        keep.append(socket)
    return took


async def normal_screens(url: str, stop) -> list[float]:
    times, n = [], 0
    while not stop.is_set():
        n += 1
        took = await hello(url, f"203.0.113.{n % 250 + 1}")
        if took is not None:
            times.append(took)
        await asyncio.sleep(0.1)
    return times


def watch(url: str, stop, results) -> None:
    """The normal screens, in a process of their own: the flood's 2,000 clients keep
    this process's event loop busy, which would count against the server."""
    results.put(asyncio.run(normal_screens(url, stop)))


async def run(url: str, database_url: str, redis_url: str) -> None:
    alone = [await hello(url, f"192.0.2.{n + 1}") for n in range(20)]
    alone = [t for t in alone if t is not None]
    before = sessions(database_url)
    stop, timings = multiprocessing.Event(), multiprocessing.Queue()
    watcher = multiprocessing.Process(target=watch, args=(url, stop, timings))
    watcher.start()
    await asyncio.sleep(0.5)
    held: list = []
    results = await asyncio.gather(*(hello(url, ATTACKER, held) for _ in range(FLOOD)))
    await asyncio.sleep(1)
    stop.set()
    during = timings.get(timeout=120)
    watcher.join()
    opened = sessions(database_url) - before
    await asyncio.gather(*(socket.close() for socket in held))
    await asyncio.sleep(3)
    left = redis_connections(redis_url)
    accepted = sum(1 for t in results if t is not None)
    if not during:
        fail("no normal screen connected during the flood")
    print(
        f"ws_flood: normal screen's connect during {FLOOD} handshakes from one address: "
        f"p50 {median(during) * 1000:.0f} ms, max {max(during) * 1000:.0f} ms "
        f"(alone: p50 {median(alone) * 1000:.0f} ms); {accepted} of {FLOOD} accepted; "
        f"{opened} PostgreSQL sessions; {left} Redis connections left open"
    )


def main() -> None:
    redis_url = os.environ.get("REDIS_URL", "").strip()
    if not redis_url:
        fail("needs REDIS_URL")
    raise_open_file_limit(FLOOD * 2 + 1000)
    env = production_env()
    for name in ("FLOORMAN_RATE_WEBSOCKET", "FLOORMAN_WEBSOCKETS_PER_ADDRESS"):
        env.pop(name)  # the defaults, as in production
    parts = urlsplit(redis_url)
    query = f"{parts.query}&" if parts.query else ""
    env["REDIS_URL"] = urlunsplit(parts._replace(query=f"{query}client_name={CLIENT_NAME}"))
    manage(env, "migrate", "--no-input")
    manage(env, "shell", "-c", SETUP)
    port = free_port()
    url = f"ws://127.0.0.1:{port}/ws/tournaments/{TOURNAMENT_ID}/"
    with serving(uvicorn_command(port, 1, "--ws-per-message-deflate", "false"), env, port):
        asyncio.run(run(url, env["DATABASE_URL"], redis_url))


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark: the floor's actions through the pages at 1,000 entries, on PostgreSQL.

Builds one running event of BENCH_ENTRIES entries (default 1,000) seated at nine-seat
tables, a director signed in, and drives each action through its real URL with Django's
test client, in process (issue 16, item 10):

- start the clock, set its time, the next level (what the TV shows next is sent on commit),
- add a table, sign in (the login form), pay a prize (880 entries busted, the bubble
  burst),
- the ordinary pages: the desk, the desk's entries list, the seating map, the clock
  console, the lobby screen, the results.

Each action runs BENCH_REPEAT times (default 20) after one untimed warm-up; the time is
the server's (the request through Django's handler, middleware, view, template and the
commit with its hooks: the audit chain and the live events to the channel layer) and the
statements are counted with CaptureQueriesContext. Live events go to Redis when REDIS_URL
is set (the channel layer production uses), else to the in-memory layer.

Then the first page after a restart: a fresh gunicorn worker (one, as production starts
them: the application is loaded before it accepts) is asked for the clock console as the
director, BENCH_RESTARTS times (default 3); its first answer against its second.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
    REDIS_URL=redis://127.0.0.1:6379/0 python bench/floor_actions.py

Prints "floor_actions: <action> p50 <ms> ms p95 <ms> ms, <n> queries" lines, the
slowest first line being the headline; BENCH_PROFILE=<action> also prints a cProfile of
that action's requests (cumulative, top 40; several names separated by commas).
"""

import http.client
import json
import os
import socket
import statistics
import sys
import time
from pathlib import Path

from common import (
    ROOT,
    free_port,
    gunicorn_command,
    manage,
    percentile,
    production_env,
    stop,
)

ENTRIES = int(os.environ.get("BENCH_ENTRIES", "1000"))
REPEAT = int(os.environ.get("BENCH_REPEAT", "20"))
RESTARTS = int(os.environ.get("BENCH_RESTARTS", "3"))
PROFILE = os.environ.get("BENCH_PROFILE", "")
TARGET_MS = 150  # every floor action at p95, server time, on an idle machine

TIMED = r"""
import cProfile, io, json, os, pstats, random, time
from datetime import timedelta
from django.contrib.auth.models import Group, User
from django.db import connection
from django.db.models import F
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from tournaments.services.ledger import ledger_totals_recount
from clock import services as clock_services
from clock.engine import LEVEL, NOT_STARTED, Step
from clock.models import Clock
from floorman.roles import DIRECTOR
from hands.models import Elimination
from prizes.selectors import results
from seating import services as seating_services
from seating.models import Seat, Table
from tournaments.models import (Entry, EntryStatus, Player, Tournament, Transaction,
    TransactionKind)

ENTRIES, REPEAT, PROFILE = %(entries)d, %(repeat)d, %(profile)r.split(",")
PASSWORD = "Bench-floor-2026-pw"
BUSTED = ENTRIES * 88 // 100  # past the bubble: the last places are paid
HOST = {"HTTP_HOST": "localhost"}

director = User.objects.create_user("bench_director", password=PASSWORD)
director.groups.add(Group.objects.get(name=DIRECTOR))
t = Tournament.objects.create(name="Floor Bench", buy_in=10000, fee=1000,
    starting_stack=30000, start_at=timezone.now(), status="registering", table_size=9,
    late_reg_until_level=40)
steps = [Step(LEVEL, 20, 100 * n, 200 * n) for n in range(1, 41)]
s = clock_services.structure_create(actor=None, name="Bench 40", steps=steps,
    is_template=True, chip_set_id=None)
clock_services.clock_structure_set(actor=None, tournament_id=t.pk, structure_id=s.pk)

people = Player.objects.bulk_create(
    [Player(name=f"Bench Player {i:05d}", name_key=f"bench player {i:05d}",
            name_plain=f"bench player {i:05d}") for i in range(ENTRIES)], batch_size=2000)
entries = Entry.objects.bulk_create(
    [Entry(tournament=t, player=p, number=i + 1, chips=30000) for i, p in enumerate(people)],
    batch_size=2000)
Transaction.objects.bulk_create(
    [Transaction(tournament=t, entry=e, kind=TransactionKind.BUY_IN, amount=11000,
                 prize_share=10000, fee_share=1000) for e in entries], batch_size=2000)
# In bulk, past the ledger's writer: its running totals are summed afresh.
ledger_totals_recount(tournament=t)
tables = -(-ENTRIES // 9)
rows = Table.objects.bulk_create(
    [Table(tournament=t, number=n, seats=9, break_order=tables - n + 1)
     for n in range(1, tables + 1)])
Seat.objects.bulk_create([Seat(table=row, number=n) for row in rows for n in range(1, 10)])
seating_services.seating_draw(actor=None, tournament_id=t.pk)
Tournament.objects.filter(pk=t.pk).update(status="running", current_level=1)
t.refresh_from_db()

client = Client(**HOST)
client.force_login(director)
url = {
    "clock": reverse("clock:action", args=[t.pk]),
    "table": reverse("seating:table-add", args=[t.pk]),
    "login": reverse("login"),
    "desk": reverse("tournaments:desk", args=[t.pk]),
    "entries": reverse("tournaments:entries", args=[t.pk]),
    "map": reverse("seating:map", args=[t.pk]),
    "console": reverse("clock:console", args=[t.pk]),
    "lobby": reverse("screens:lobby", args=[t.pk]),
    "results": reverse("tournaments:results", args=[t.pk]),
}


def clock_reset():
    Clock.objects.filter(pk=t.pk).update(status=NOT_STARTED, position=0, left_ms=0,
        anchor_at=None, version=F("version") + 1)


def clock_running():
    clock_reset()
    clock_services.clock_act(actor=None, tournament_id=t.pk, action="start")


# Time `send` (one request) and the page its redirect leads to, as the browser asks for
# it next: the server's times and statements of each.
def one(action, send, before=None):
    if before:
        before()
    with CaptureQueriesContext(connection) as queries:
        began = time.perf_counter()
        response = send()
        took = time.perf_counter() - began
    assert response.status_code in (200, 302), (action, response.status_code)
    sample = {"ms": took * 1000, "queries": len(queries.captured_queries)}
    if response.status_code == 302:
        browser = response.client  # the test client that asked
        with CaptureQueriesContext(connection) as queries:
            began = time.perf_counter()
            page = browser.get(response["Location"])
            took = time.perf_counter() - began
        assert page.status_code == 200, (action, response["Location"], page.status_code)
        sample.update(page_ms=took * 1000, page_queries=len(queries.captured_queries))
    return sample


def measure(action, send, before=None):
    one(action, send, before)  # warm-up: caches and the first compile of a template
    profile = cProfile.Profile() if action in PROFILE else None
    samples = []
    for _ in range(REPEAT):
        if profile:
            profile.enable()
        samples.append(one(action, send, before))
        if profile:
            profile.disable()
    row = {"action": action, "times": sorted(s["ms"] for s in samples),
           "queries": sorted({s["queries"] for s in samples})}
    if "page_ms" in samples[0]:
        row["with_page"] = sorted(s["ms"] + s["page_ms"] for s in samples)
        row["page_queries"] = sorted({s["page_queries"] for s in samples})
    print(json.dumps(row))
    if profile:
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(40)
        print("PROFILE " + json.dumps(out.getvalue()))


post = client.post
measure("start the clock", lambda: post(url["clock"], {"action": "start"}), clock_reset)
clock_running()
measure("set time", lambda: post(url["clock"],
    {"action": "set", "minutes": random.randint(1, 19), "confirm": "on"}))
measure("next level", lambda: post(url["clock"], {"action": "next", "confirm": "on"}),
    clock_running)
clock_running()
numbers = iter(range(tables + 1, tables + 1000))
measure("add a table", lambda: post(url["table"], {"first": next(numbers), "seats": 9}))


visitor = {}


def visitor_new():
    visitor["client"] = Client(**HOST)  # a browser that has not signed in yet
    visitor["client"].get(url["login"])


def login():
    return visitor["client"].post(url["login"], {"username": "bench_director",
        "password": PASSWORD})


measure("sign in", login, visitor_new)

for name in ("desk", "entries", "map", "console", "lobby"):
    measure(f"page: {name}", lambda name=name: client.get(url[name]))

# Past the bubble: the first BUSTED entries out, one hand each, their seats freed.
out = entries[:BUSTED]
Entry.objects.filter(pk__in=[e.pk for e in out]).update(status=EntryStatus.BUSTED, chips=0)
Seat.objects.filter(entry__in=out).update(entry=None)
Elimination.objects.bulk_create([Elimination(tournament=t, entry=e, hand_key=f"e{e.pk}",
    stack=1000) for e in out])
due = [row for row in results(t).rows if row.payable]
assert len(due) > REPEAT, len(due)
payable = iter(due)


def pay():
    row = next(payable)
    return post(reverse("tournaments:result-pay", args=[t.pk, row.entry.pk]),
        {"amount": row.prize})


measure("pay a prize", pay)
measure("page: results", lambda: client.get(url["results"]))
print("SESSION " + json.dumps({"cookie": client.cookies["sessionid"].value,
    "console": url["console"], "pid": os.getpid()}))
"""


def port_open(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.2)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def get(port: int, path: str, cookie: str) -> tuple[float, int]:
    """GET path with the director's session: milliseconds to the whole answer, status."""
    began = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", path, headers={"Cookie": f"sessionid={cookie}", "Host": "localhost"})
    response = conn.getresponse()
    response.read()
    conn.close()
    return (time.perf_counter() - began) * 1000, response.status


READY_HOOK = """
from pathlib import Path


def post_worker_init(worker):
    Path(%r).touch()  # the worker has loaded the application
"""


def first_pages(env: dict, path: str, cookie: str) -> list[tuple[float, float, float]]:
    """(boot, first, second) of a fresh gunicorn worker, once per restart: the seconds
    from the start until the worker has loaded the application and accepts, then the
    first answer and the second, in milliseconds."""
    import subprocess  # noqa: PLC0415 - only this part starts servers
    import tempfile  # noqa: PLC0415

    found = []
    for _ in range(RESTARTS):
        port = free_port()
        with tempfile.TemporaryDirectory() as scratch:
            ready = Path(scratch) / "ready"
            config = Path(scratch) / "gunicorn_ready.py"
            config.write_text(READY_HOOK % str(ready))
            began = time.perf_counter()
            server = subprocess.Popen(
                [*gunicorn_command(port, 1), "--config", str(config)],
                cwd=ROOT,
                env=env,
                start_new_session=True,
            )
            try:
                deadline = time.monotonic() + 120
                while not (ready.exists() and port_open(port)):
                    if time.monotonic() > deadline or server.poll() is not None:
                        sys.exit("floor_actions: gunicorn did not start")
                    time.sleep(0.05)
                boot = time.perf_counter() - began
                first, status = get(port, path, cookie)
                second, _ = get(port, path, cookie)
                if status != 200:
                    sys.exit(f"floor_actions: the console answered HTTP {status} after a restart")
                found.append((boot, first, second))
            finally:
                stop(server)
    return found


def redis_keys_remove(redis_url: str, prefix: str) -> int:
    """The keys this run wrote (its own prefix): the clock's queued announcements."""
    import redis  # noqa: PLC0415 - only with REDIS_URL

    client = redis.Redis.from_url(redis_url)
    try:
        keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
        return client.delete(*keys) if keys else 0
    finally:
        client.close()


def main() -> None:
    env = production_env()
    # One address signs in REPEAT times a minute, above the room's limit; counted still.
    env["FLOORMAN_RATE_LOGIN"] = "10000/m"
    redis_url = env.get("REDIS_URL", "").strip()
    manage(env, "migrate", "--verbosity", "0")
    code = TIMED % {"entries": ENTRIES, "repeat": REPEAT, "profile": PROFILE}
    try:
        out = manage(env, "shell", "--no-imports", "-c", code).splitlines()
        rows = [json.loads(line) for line in out if line.startswith("{")]
        session = json.loads(next(line for line in out if line.startswith("SESSION "))[8:])
        restarts = first_pages(env, session["console"], session["cookie"]) if RESTARTS else []
    finally:
        if redis_url:
            redis_keys_remove(redis_url, env["REDIS_KEY_PREFIX"])
    for line in out:
        if line.startswith("PROFILE "):
            print(json.loads(line[8:]))

    def p(values, n):
        return f"{percentile(values, n):.0f}"

    def spread(counts):
        return str(counts[0]) if len(counts) == 1 else f"{counts[0]}–{counts[-1]}"

    slowest = max(rows, key=lambda row: percentile(row["times"], 95))
    print(
        f"floor_actions: slowest p95 {p(slowest['times'], 95)} ms "
        f"({slowest['action']}; target <= {TARGET_MS} ms), {ENTRIES} entries"
    )
    for row in rows:
        line = (
            f"floor_actions: {row['action']} p50 {p(row['times'], 50)} ms "
            f"p95 {p(row['times'], 95)} ms, {spread(row['queries'])} queries"
        )
        if "with_page" in row:
            line += (
                f"; with the page it leads to p50 {p(row['with_page'], 50)} ms "
                f"p95 {p(row['with_page'], 95)} ms, {spread(row['page_queries'])} more queries"
            )
        print(line)
    if restarts:
        boot = statistics.median(r[0] for r in restarts)
        first = statistics.median(r[1] for r in restarts)
        second = statistics.median(r[2] for r in restarts)
        print(
            f"floor_actions: first page after a restart {first:.0f} ms, the next {second:.0f} ms "
            f"(clock console; the worker ready {boot:.1f} s after the start; median of "
            f"{len(restarts)} restarts)"
        )
    layer = "Redis" if redis_url else "in-memory"
    print(
        f"floor_actions: {REPEAT} requests per action after one warm-up, Django test "
        f"client in process; live events through the {layer} channel layer"
    )


if __name__ == "__main__":
    main()

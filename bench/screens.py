"""Benchmark: the lobby and the seating screens at 10,000 entries (issue 20, item 2).

Sets up a scratch PostgreSQL database with one running event of 10,000 entries (bought
in, drawn onto 1,112 nine-seat tables, its clock running), serves the app with gunicorn
sync workers as production serves HTML (web.wsgi; the cache in Redis when REDIS_URL is
set, as in production), and loads in turn, each at BENCH_CONNECTIONS for BENCH_SECONDS
after a warm-up, on the same server in the same run:

- /health/live/, a trivial Django JSON view (no database, no cache);
- the lobby page /lobby/<id>/ and its data /lobby/<id>/data/;
- a page of the public seating board /lobby/<id>/seating/?page=2 and of its data;
- a page of the seating lists by name and by table and of the table map (the seating
  layout), signed in as staff.

Before loading, every page of each paged screen is fetched once and the largest is
reported (a screen that is not paged counts as one page).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
    REDIS_URL=redis://127.0.0.1:6379/0 python bench/screens.py

Prints "screens: lobby <n> req/s vs trivial <m> req/s: ratio <r> — target ≥ 0.5: met" and
one line per paged screen: "<name> page <kb> KB (largest of <p> pages), <n> req/s — target
≤ 100 KB: met". Environment: BENCH_ENTRIES (default 10000), BENCH_WORKERS (default one
per core), BENCH_CONNECTIONS (default 50), BENCH_SECONDS (default 10).
"""

import http.client
import os
import re
import subprocess

from common import (
    CLOCK_STRUCTURE_SETUP,
    WRK,
    Result,
    fail,
    free_port,
    gunicorn_command,
    load,
    manage,
    production_env,
    results_report,
    serving,
    wrk_result,
)

ENTRIES = int(os.environ.get("BENCH_ENTRIES", "10000"))
WORKERS = int(os.environ.get("BENCH_WORKERS", str(os.cpu_count() or 1)))
CONNECTIONS = int(os.environ.get("BENCH_CONNECTIONS", "50"))
SECONDS = int(os.environ.get("BENCH_SECONDS", "10"))
WARMUP_SECONDS = 2
TARGET_RATIO = 0.5
TARGET_KB = 100
TRIVIAL_PATH = "/health/live/"
PAGE_OF = re.compile(r"Page \d+ of (\d+)")

SETUP = (
    """
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from tournaments.services.ledger import ledger_totals_recount
from seating import services as seating
from seating.models import Seat, Table
from tournaments.models import Entry, Player, Tournament, Transaction
ENTRIES = %(entries)d
TABLES = -(-ENTRIES // 9)
t = Tournament.objects.create(name="Bench Festival Main Event", buy_in=10000, fee=1000,
    starting_stack=30000, start_at=timezone.now(), status="running", table_size=9)
people = Player.objects.bulk_create(
    [Player(name=f"Maximiliane Oppenheim {i:05d}", name_key=f"maximiliane oppenheim {i:05d}",
            name_plain=f"maximiliane oppenheim {i:05d}") for i in range(ENTRIES)],
    batch_size=2000)
entries = Entry.objects.bulk_create(
    [Entry(tournament=t, player=p, number=i + 1, chips=30000) for i, p in enumerate(people)],
    batch_size=2000)
Transaction.objects.bulk_create(
    [Transaction(tournament=t, entry=e, kind="buy_in", amount=11000, prize_share=10000,
                 fee_share=1000) for e in entries], batch_size=2000)
# In bulk, past the ledger's writer: its running totals are summed afresh.
ledger_totals_recount(tournament=t)
rows = Table.objects.bulk_create(
    [Table(tournament=t, number=n, seats=9, break_order=TABLES - n + 1)
     for n in range(1, TABLES + 1)], batch_size=2000)
Seat.objects.bulk_create(
    [Seat(table=row, number=s) for row in rows for s in range(1, 10)], batch_size=5000)
seating.seating_draw(actor=None, tournament_id=t.pk)
"""
    + CLOCK_STRUCTURE_SETUP
    + """
services.clock_act(actor=None, tournament_id=t.pk, action="start")
user = User.objects.create_superuser("bench-director", password=None)
client = Client()
client.force_login(user)
name, morsel = next(iter(client.cookies.items()))
print("tournament", t.pk)
print("cookie", f"{name}={morsel.value}")
"""
)


def get(port: int, path: str, cookie: str = "") -> bytes:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        conn.request("GET", path, headers={"Cookie": cookie} if cookie else {})
        response = conn.getresponse()
        body = response.read()
    finally:
        conn.close()
    if response.status != 200:
        fail(f"GET {path} answered HTTP {response.status}")
    return body


def load_with_cookie(port: int, path: str, cookie: str) -> Result:
    """As common.load, with wrk's timeout at 30 s (a page that takes seconds under load
    counts its answers rather than wrk's 2 s timeouts) and, signed in, the session's
    cookie."""
    if not WRK:
        if cookie:
            fail("the staff pages need wrk (apt-get install wrk)")
        return load(port, path, connections=CONNECTIONS, seconds=SECONDS, warmup=WARMUP_SECONDS)
    headers = ["-H", f"Cookie: {cookie}"] if cookie else []

    def run(seconds: float) -> str:
        done = subprocess.run(
            [WRK, "-t2", f"-c{CONNECTIONS}", f"-d{seconds:g}s", "--timeout", "30s",
             "--latency", *headers, f"http://127.0.0.1:{port}{path}"],
            capture_output=True, text=True, timeout=seconds + 60,
        )  # fmt: skip
        if done.returncode:
            fail(f"wrk failed:\n{done.stderr}")
        return done.stdout

    run(WARMUP_SECONDS)
    return wrk_result(run(SECONDS))


def largest_page(port: int, path: str, cookie: str = "") -> tuple[int, int]:
    """The largest page of a paged screen in bytes, and how many pages it has: the
    first page says how many ("Page 1 of n", or "pages" in JSON), 1 if it does not."""
    first = get(port, path, cookie)
    text = first.decode()
    if text.startswith("{"):
        found = re.search(r'"pages": (\d+)', text)
    else:
        found = PAGE_OF.search(text)
    pages = int(found.group(1)) if found else 1
    sep = "&" if "?" in path else "?"
    sizes = [len(first)] + [
        len(get(port, f"{path}{sep}page={n}", cookie)) for n in range(2, pages + 1)
    ]
    return max(sizes), pages


def main() -> None:
    env = production_env()
    setup_env = {k: v for k, v in env.items() if k != "REDIS_URL"}  # live events in memory
    manage(setup_env, "migrate", "--verbosity", "0")
    out = manage(setup_env, "shell", "--no-imports", "-c", SETUP % {"entries": ENTRIES})
    values = dict(line.split(" ", 1) for line in out.splitlines() if " " in line)
    tournament, cookie = int(values["tournament"]), values["cookie"]
    lobby = f"/lobby/{tournament}/"
    seating = f"/tournaments/{tournament}/seating/"
    paged = {
        # name: (path of its first page, a page to load, signed in)
        "seating board": (f"{lobby}seating/", f"{lobby}seating/?page=2", False),
        "seating board data": (f"{lobby}seating/data/", f"{lobby}seating/data/?page=2", False),
        "seating list by name": (
            f"{seating}print/by-name/", f"{seating}print/by-name/?page=2", True
        ),
        "seating list by table": (
            f"{seating}print/by-table/", f"{seating}print/by-table/?page=2", True
        ),
        "seating layout": (seating, f"{seating}?page=2", True),
    }  # fmt: skip
    generator = f"wrk -t2 -c{CONNECTIONS} -d{SECONDS}s" if WRK else "Python threads"
    port = free_port()
    with serving(gunicorn_command(port, WORKERS), env, port):
        sizes = {
            name: largest_page(port, first, cookie if staff else "")
            for name, (first, _page, staff) in paged.items()
        }
        for path in (lobby, f"{lobby}data/"):
            get(port, path)
        rates = {
            name: load_with_cookie(port, path, "")
            for name, path in (
                ("trivial", TRIVIAL_PATH),
                ("lobby", lobby),
                ("lobby data", f"{lobby}data/"),
            )
        }
        for name, (_first, path, staff) in paged.items():
            rates[name] = load_with_cookie(port, path, cookie if staff else "")

    trivial = rates["trivial"].rate
    for name in ("lobby", "lobby data"):
        ratio = rates[name].rate / trivial if trivial else 0.0
        met = "met" if ratio >= TARGET_RATIO else "NOT met"
        print(
            f"screens: {name} {rates[name].rate:.0f} req/s vs trivial {trivial:.0f} req/s: "
            f"ratio {ratio:.2f} — target ≥ {TARGET_RATIO}: {met}"
        )
    for name, (size, pages) in sizes.items():
        kb = size / 1024
        met = "met" if kb <= TARGET_KB else "NOT met"
        print(
            f"screens: {name} page {kb:.0f} KB (largest of {pages} pages), "
            f"{rates[name].rate:.0f} req/s — target ≤ {TARGET_KB} KB: {met}"
        )
    print(
        f"screens: {ENTRIES} entries; load generator {generator}, gunicorn {WORKERS} sync "
        f"workers, {SECONDS} s per path after {WARMUP_SECONDS} s warm-up, trivial view "
        f"{TRIVIAL_PATH}, cache {'Redis' if env.get('REDIS_URL') else 'in process'}"
    )
    results_report(rates)


if __name__ == "__main__":
    main()

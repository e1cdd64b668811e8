"""Benchmark: entries registered per second through the API, 10,000 players, PostgreSQL.

Sets up a scratch database, serves the app with gunicorn (as production serves HTTP),
and has several desks (threads with keep-alive connections) register new players into
one tournament through POST /api/v1/tournaments/{id}/entries/.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres python bench/registration.py

Prints "registration: <n> entries/s" first, then details.
"""

import http.client
import json
import os
import sys
import threading
import time

from common import free_port, gunicorn_command, manage, production_env, serving

PLAYERS = int(os.environ.get("BENCH_PLAYERS", "10000"))
DESKS = int(os.environ.get("BENCH_DESKS", "8"))
WORKERS = int(os.environ.get("BENCH_WORKERS", "4"))
PORT = free_port()


SETUP = """
from django.contrib.auth.models import Group, User
from django.utils import timezone
from rest_framework.authtoken.models import Token
from tournaments.models import Tournament
user = User.objects.create_user("bench-cashier", password=None)
user.groups.add(Group.objects.get(name="cashier"))
t = Tournament.objects.create(name="Bench Main Event", buy_in=10000, fee=1000,
    starting_stack=30000, start_at=timezone.now(), status="registering")
print(Token.objects.create(user=user).key, t.pk)
"""


def desk(token: str, tournament_id: int, names: list[str], failures: list) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
    headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
    for name in names:
        body = json.dumps({"player": {"name": name}})
        conn.request("POST", f"/api/v1/tournaments/{tournament_id}/entries/", body, headers)
        response = conn.getresponse()
        response.read()
        if response.status != 201:
            failures.append(response.status)
    conn.close()


def main() -> None:
    env = production_env()
    manage(env, "migrate", "--verbosity", "0")
    token, tournament_id = manage(env, "shell", "--no-imports", "-c", SETUP).split()[-2:]
    with serving(gunicorn_command(PORT, WORKERS), env, PORT):
        names = [f"Bench Player {n:05d}" for n in range(PLAYERS)]
        failures: list[int] = []
        threads = [
            threading.Thread(
                target=desk, args=(token, int(tournament_id), names[i::DESKS], failures)
            )
            for i in range(DESKS)
        ]
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - started
    print(f"registration: {PLAYERS / elapsed:.0f} entries/s — target —")
    print(
        f"registration: {PLAYERS} players, {DESKS} desks, gunicorn {WORKERS} workers, "
        f"{elapsed:.1f} s, {len(failures)} failed"
    )
    if failures:
        sys.exit(f"registration: {len(failures)} requests failed, e.g. HTTP {failures[0]}")


if __name__ == "__main__":
    main()

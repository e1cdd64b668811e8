"""Helpers shared by the benchmarks: a scratch PostgreSQL database, manage.py, servers.

Every server a benchmark starts runs in its own process group, and `serving` stops the
whole group when the benchmark ends, on error and on Ctrl-C or SIGTERM too.
"""

import contextlib
import http.client
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg

ROOT = Path(__file__).resolve().parent.parent
SCRATCH_DB = "floorman_bench"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def scratch_database(base_url: str) -> str:
    """Drop and create the scratch database; return its URL."""
    parts = urlsplit(base_url)
    with psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {SCRATCH_DB} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {SCRATCH_DB}")
    return urlunsplit(parts._replace(path=f"/{SCRATCH_DB}"))


def production_env(base_url: str) -> dict[str, str]:
    """Environment for production settings on a fresh scratch database (plain HTTP)."""
    return {
        **os.environ,
        "DATABASE_URL": scratch_database(base_url),
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "false",
        "DEBUG": "false",
        "LOG_LEVEL": "WARNING",
    }


def manage(env: dict, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True
    )
    if done.returncode:
        sys.exit(f"manage.py {' '.join(args)} failed:\n{done.stderr}")
    return done.stdout


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

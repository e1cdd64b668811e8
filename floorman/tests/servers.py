"""Floorman's real processes for the browser and fault tests (issue 8).

The web server (`manage.py serve`, uvicorn), a Celery worker and a private Redis each run
as their own process against this test run's PostgreSQL database, so a test can stop and
start one of them the way an operator or a crash would. Tests that use them need
`transactional_db` (the processes see committed data only) and PostgreSQL: the embedded
SQLite test database lives in this process's memory.

A private Redis (its own port, nothing on disk) is started for a test that restarts
Redis, so that the shared Redis of the other tests is never touched.
"""

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 30.0  # seconds for a process to answer after it starts


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_database_url() -> str:
    """This test process's PostgreSQL test database, as a DATABASE_URL for another process."""
    db = connection.settings_dict
    if connection.vendor != "postgresql":
        raise RuntimeError("the server processes need PostgreSQL: set DATABASE_URL")
    password = f":{quote(db['PASSWORD'], safe='')}" if db["PASSWORD"] else ""
    host = db["HOST"] or "127.0.0.1"
    port = db["PORT"] or 5432
    return f"postgres://{quote(db['USER'], safe='')}{password}@{host}:{port}/{db['NAME']}"


def wait_until(check: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)
    raise TimeoutError(f"{what} within {timeout} s")


BUSY_SQL = """
    SELECT count(*) FROM pg_stat_activity
    WHERE datname = current_database() AND pid <> pg_backend_pid()
      AND state IN ('active', 'idle in transaction')
"""


def database_quiet(timeout: float = 10.0) -> None:
    """Wait until no other connection to the test database is in the middle of a query or
    a transaction: the servers' requests and tasks have finished."""

    def quiet() -> bool:
        with connection.cursor() as cursor:
            cursor.execute(BUSY_SQL)
            return cursor.fetchone()[0] == 0

    wait_until(quiet, timeout, "the test database did not fall quiet")


class Process:
    """One child process with its output in a log file, started, stopped and restarted
    with the same command and environment."""

    def __init__(self, name: str, command: list[str], env: dict, ready: Callable[[], bool]):
        self.name = name
        self.command = command
        self.env = env
        self.ready = ready
        self.log_path = Path(tempfile.mkstemp(prefix=f"floorman-{name}-", suffix=".log")[1])
        self.popen: subprocess.Popen | None = None

    def start(self) -> "Process":
        log = self.log_path.open("ab")
        self.popen = subprocess.Popen(
            self.command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT
        )
        log.close()
        try:
            wait_until(self._ready_or_dead, START_TIMEOUT, f"{self.name} did not come up")
        except TimeoutError:
            self.stop()
            raise
        if self.popen.poll() is not None:
            raise RuntimeError(f"{self.name} exited at start:\n{self.log()}")
        return self

    def _ready_or_dead(self) -> bool:
        return self.popen.poll() is not None or self.ready()

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 15.0) -> None:
        if self.popen is None or self.popen.poll() is not None:
            return
        self.popen.send_signal(sig)
        try:
            self.popen.wait(timeout)
        except subprocess.TimeoutExpired:
            self.popen.kill()
            self.popen.wait()

    def kill(self) -> None:
        """A crash: no chance to clean up."""
        self.stop(signal.SIGKILL)

    def restart(self, sig: int = signal.SIGTERM) -> None:
        self.stop(sig)
        self.start()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-5000:]

    def close(self) -> None:
        self.stop()
        self.log_path.unlink(missing_ok=True)


def _environment(database_url: str, redis_url: str | None) -> dict:
    env = {
        key: value
        for key, value in os.environ.items()
        if key
        not in {
            "DATABASE_URL",
            "REDIS_URL",
            "DEBUG",
            "PYTEST_XDIST_WORKER",
            "DJANGO_ALLOW_ASYNC_UNSAFE",  # the servers run as in production
        }
    }
    env["DATABASE_URL"] = database_url
    if redis_url:
        env["REDIS_URL"] = redis_url
    # The browser talks plain HTTP to 127.0.0.1; production settings would send it to
    # HTTPS, which the TLS proxy provides in a real deployment.
    env["SECURE_SSL_REDIRECT"] = "false"
    env["FLOORMAN_RATE_LOGIN"] = ""
    env["FLOORMAN_RATE_LOOKUP"] = ""
    env["FLOORMAN_RATE_FEED"] = ""
    env["FLOORMAN_RATE_WEBSOCKET"] = ""
    env["FLOORMAN_RATE_PASSWORD"] = ""
    env["FLOORMAN_WEBSOCKETS_PER_ADDRESS"] = "0"
    env["PYTHONUNBUFFERED"] = "1"
    return env


def _answers(url: str) -> Callable[[], bool]:
    def check() -> bool:
        try:
            with urllib.request.urlopen(url, timeout=1) as response:
                return response.status == 200
        except (OSError, urllib.error.URLError):
            return False

    return check


def web_server(*, redis_url: str | None = None, port: int | None = None) -> Process:
    """`manage.py serve` on the test database. Without `redis_url` it runs as the quick
    start does: in-memory channel layer and the Celery worker inside the process."""
    port = port or free_port()
    process = Process(
        "web",
        [sys.executable, "manage.py", "serve", "--host", "127.0.0.1", "--port", str(port)],
        _environment(test_database_url(), redis_url),
        _answers(f"http://127.0.0.1:{port}/health/live/"),
    )
    process.url = f"http://localhost:{port}"
    return process


def celery_worker(*, redis_url: str) -> Process:
    """`celery worker`, as docker-compose runs it, on the test database and `redis_url`."""
    command = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "floorman",
        "worker",
        "--pool=solo",
        "--loglevel=INFO",
        "--without-mingle",
        "--without-gossip",
    ]
    process = Process("worker", command, _environment(test_database_url(), redis_url), None)
    process.ready = lambda: " ready." in process.log()  # Celery logs "celery@host ready."
    return process


def redis_server() -> Process:
    """A private Redis on a free port that keeps nothing on disk."""
    executable = shutil.which("redis-server")
    if executable is None:
        raise RuntimeError("redis-server is not installed")
    port = free_port()
    process = Process(
        "redis",
        [
            executable,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        dict(os.environ),
        lambda: _redis_answers(port),
    )
    process.url = f"redis://127.0.0.1:{port}/0"
    return process


def _redis_answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False

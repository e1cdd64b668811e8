"""Fault tests (issue 8): Floorman's real processes, stopped, crashed and restarted.

Every process a test starts is closed at its end, whatever happened; the logs of all of
them are printed then, so a failing test shows what each process said.
"""

import shutil
from collections.abc import Callable, Iterator

import pytest

from floorman.tests import servers

NEEDS_REDIS_SERVER = pytest.mark.skipif(
    shutil.which("redis-server") is None,
    reason="needs redis-server for a private Redis: apt-get install redis-server",
)


@pytest.fixture
def started() -> Iterator[Callable[[servers.Process], servers.Process]]:
    """`started(process)` starts it now and closes it when the test ends."""
    running: list[servers.Process] = []

    def start(process: servers.Process) -> servers.Process:
        running.append(process)
        return process.start()

    yield start
    for process in reversed(running):
        process.stop()
        log = process.log_path.read_text(errors="replace")
        print(f"--- {process.name} log ---\n{log}")
        process.close()


@pytest.fixture
def private_redis(started) -> servers.Process:
    """A Redis of this test's own: it is stopped and restarted, never the shared one."""
    return started(servers.redis_server())

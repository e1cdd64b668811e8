"""Loaded by pytest before Django settings (`-p floorman.pytest_plugin` in pyproject.toml).

pytest-django imports the settings before any conftest.py runs, so environment defaults
that the settings read must be set here:
- FLOORMAN_VAR_DIR: a fresh temporary directory, so a test run never writes into the
  developer's var/ (SQLite file, generated secret key);
- SECRET_KEY: production settings (DATABASE_URL set, as in CI) require one; tests get
  a random one per run;
- REDIS_KEY_PREFIX: the Redis database is the one REDIS_URL names, but every test
  process writes under a prefix of its own (the run, and the xdist worker), so that
  one worker's channel groups, cache keys and broker queues never reach another's
  tests, nor the developer's running Floorman (each worker has its own PostgreSQL test
  database too, test_<name>_gw<n>). Nothing there is ever flushed.
"""

import atexit
import os
import secrets
import shutil
import tempfile

import pytest

if not os.environ.get("FLOORMAN_VAR_DIR"):
    _var_dir = tempfile.mkdtemp(prefix="floorman-test-var-")
    os.environ["FLOORMAN_VAR_DIR"] = _var_dir
    atexit.register(shutil.rmtree, _var_dir, ignore_errors=True)

if not os.environ.get("SECRET_KEY"):
    os.environ["SECRET_KEY"] = secrets.token_urlsafe(50)


def redis_key_prefix(environ) -> str:
    """Keys of this test process's own, in the Redis database REDIS_URL names."""
    worker = environ.get("PYTEST_XDIST_WORKER") or "main"
    prefix = environ.get("REDIS_KEY_PREFIX") or "floorman"
    return f"{prefix}-test-{secrets.token_hex(4)}-{worker}"


os.environ["REDIS_KEY_PREFIX"] = redis_key_prefix(os.environ)


# `make test` runs `pytest -n auto --dist loadfile`: each test file goes whole to one worker.
# The browser tests (floorman/tests/browser/) go as one unit instead, so that one worker
# starts their server and Chromium once for all of them (package-scoped fixtures there),
# and the longest units go out first, so that none is left to run alone at the end.
BROWSER_TESTS = "floorman/tests/browser/"
LONGEST_FIRST = (
    BROWSER_TESTS,
    "floorman/tests/test_form_fuzz.py",
    "floorman/tests/test_permissions.py",
)


def work_unit(nodeid: str) -> str | None:
    """The unit of work a test belongs to, where it is not its file."""
    return BROWSER_TESTS if nodeid.startswith(BROWSER_TESTS) else None


@pytest.hookimpl(optionalhook=True)  # the hook exists only where pytest-xdist is loaded
def pytest_xdist_make_scheduler(config, log):
    if config.getoption("dist") != "loadfile":
        return None
    # Imported here: a run with -p no:xdist never calls the hook.
    from xdist.scheduler import LoadFileScheduling  # noqa: PLC0415

    class Scheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid) or super()._split_scope(nodeid)

        def _assign_work_unit(self, node) -> None:
            for unit in reversed(LONGEST_FIRST):
                if unit in self.workqueue:
                    self.workqueue.move_to_end(unit, last=False)
            super()._assign_work_unit(node)

    return Scheduling(config, log)

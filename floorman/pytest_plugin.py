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

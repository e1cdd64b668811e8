"""Loaded by pytest before Django settings (`-p floorman.pytest_plugin` in pyproject.toml).

pytest-django imports the settings before any conftest.py runs, so environment defaults
that the settings read must be set here:
- FLOORMAN_VAR_DIR: a fresh temporary directory, so a test run never writes into the
  developer's var/ (SQLite file, generated secret key);
- SECRET_KEY: production settings (DATABASE_URL set, as in CI) require one; tests get
  a random one per run;
- REDIS_URL: under pytest-xdist each worker uses its own Redis database, so that one
  worker's channel groups, cache keys and broker queues never reach another's tests
  (each worker has its own PostgreSQL test database too, test_<name>_gw<n>).
"""

import atexit
import os
import secrets
import shutil
import tempfile
from urllib.parse import urlsplit, urlunsplit

if not os.environ.get("FLOORMAN_VAR_DIR"):
    _var_dir = tempfile.mkdtemp(prefix="floorman-test-var-")
    os.environ["FLOORMAN_VAR_DIR"] = _var_dir
    atexit.register(shutil.rmtree, _var_dir, ignore_errors=True)

if not os.environ.get("SECRET_KEY"):
    os.environ["SECRET_KEY"] = secrets.token_urlsafe(50)

_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
if _worker.startswith("gw") and os.environ.get("REDIS_URL", "").strip():
    _parts = urlsplit(os.environ["REDIS_URL"].strip())
    _database = 1 + int(_worker[2:]) % 15  # Redis has databases 0-15; 0 stays the developer's
    os.environ["REDIS_URL"] = urlunsplit(_parts._replace(path=f"/{_database}"))

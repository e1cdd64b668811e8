"""Loaded by pytest before Django settings (`-p floorman.pytest_plugin` in pyproject.toml).

pytest-django imports the settings before any conftest.py runs, so environment defaults
that the settings read must be set here:
- FLOORMAN_VAR_DIR: a fresh temporary directory, so a test run never writes into the
  developer's var/ (SQLite file, generated secret key);
- SECRET_KEY: production settings (DATABASE_URL set, as in CI) require one; tests get
  a random one per run.
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

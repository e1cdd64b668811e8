"""Settings refuse bad environment values by name, and production passes check --deploy.

Each case runs in a fresh interpreter: settings are read once per process.
"""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parents[2]
CONFIG_VARS = (
    "DATABASE_URL",
    "REDIS_URL",
    "SECRET_KEY",
    "DEBUG",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "TIME_ZONE",
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
)
# Never connected to: django.setup() and `check` without --database open no connection.
PRODUCTION = {
    "DATABASE_URL": "postgres://floorman@127.0.0.1:5432/floorman",
    "REDIS_URL": "redis://127.0.0.1:6379/0",
    "SECRET_KEY": secrets.token_urlsafe(45)[:60],
    "ALLOWED_HOSTS": "floorman.example",
}


def run(args: list[str], env: dict[str, str], tmp_path: Path) -> subprocess.CompletedProcess:
    clean = {key: value for key, value in os.environ.items() if key not in CONFIG_VARS}
    clean.update({"DJANGO_SETTINGS_MODULE": "floorman.settings", "FLOORMAN_VAR_DIR": str(tmp_path)})
    clean.update(env)
    return subprocess.run(
        [sys.executable, *args],
        env=clean,
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        timeout=120,
    )


def django_setup(env: dict[str, str], tmp_path: Path) -> subprocess.CompletedProcess:
    return run(["-c", "import django; django.setup()"], env, tmp_path)


@pytest.mark.parametrize(
    ("env", "name"),
    [
        pytest.param({"DEBUG": "yes"}, "DEBUG", id="debug-yes"),
        pytest.param({"DATABASE_URL": "mysql://x"}, "DATABASE_URL", id="database-mysql"),
        pytest.param({"REDIS_URL": "http://x"}, "REDIS_URL", id="redis-http"),
        pytest.param({"TIME_ZONE": "Mars/Base"}, "TIME_ZONE", id="time-zone-unknown"),
        pytest.param({"ALLOWED_HOSTS": ""}, "ALLOWED_HOSTS", id="allowed-hosts-empty"),
        pytest.param(
            {**PRODUCTION, "SECURE_HSTS_SECONDS": "a year"},
            "SECURE_HSTS_SECONDS",
            id="hsts-not-a-number",
        ),
        pytest.param(
            {key: value for key, value in PRODUCTION.items() if key != "SECRET_KEY"},
            "SECRET_KEY",
            id="production-no-secret-key",
        ),
        pytest.param(
            {**PRODUCTION, "SECRET_KEY": "too-short"}, "SECRET_KEY", id="production-short-key"
        ),
    ],
)
def test_settings_bad_value_exits_naming_variable(env: dict, name: str, tmp_path: Path) -> None:
    result = django_setup(env, tmp_path)

    assert result.returncode != 0
    assert name in result.stderr
    assert "ImproperlyConfigured" in result.stderr


@pytest.mark.parametrize(
    "env",
    [pytest.param({}, id="embedded"), pytest.param(PRODUCTION, id="production")],
)
def test_settings_good_values_start(env: dict, tmp_path: Path) -> None:
    # The control for the test above: these fail only because of the bad value.
    result = django_setup(env, tmp_path)

    assert result.returncode == 0, result.stderr


def test_settings_production_passes_check_deploy(tmp_path: Path) -> None:
    result = run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"], PRODUCTION, tmp_path
    )

    assert result.returncode == 0, result.stdout + result.stderr

"""Backups (issue 15): deploy/backup.sh dumps the database, deploy/restore.sh restores a
dump into a fresh database, and the event is all there. Runs the same scripts the
compose file and `make restore` run, against PostgreSQL, on databases of their own."""

import os
import re
import secrets
import shutil
import subprocess
import time
from pathlib import Path

import psycopg
import pytest
import yaml
from django.conf import settings
from django.db import connection

from tournaments.tests.factories import register, tournament

ROOT = Path(settings.BASE_DIR)
DEPLOY = ROOT / "deploy"

pytestmark = [
    pytest.mark.skipif(
        shutil.which("pg_dump") is None or shutil.which("pg_restore") is None,
        reason="needs PostgreSQL's client tools (pg_dump, pg_restore, psql)",
    ),
]


def _url(name: str) -> str:
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db["PASSWORD"] else ""
    port = db["PORT"] or 5432
    return f"postgres://{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}:{port}/{name}"


def _run(script: str, *args: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["sh", str(DEPLOY / script), *args],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def fresh_database():
    """A database name no one has, dropped afterwards only if the restore made it."""
    name = f"floorman_restore_test_{secrets.token_hex(4)}"
    yield name
    with psycopg.connect(_url("postgres"), autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _needs_postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("backups are of PostgreSQL: set DATABASE_URL")


@pytest.mark.django_db(transaction=True)
def test_a_backup_restores_into_a_fresh_database_with_the_event_intact(tmp_path, fresh_database):
    _needs_postgresql()
    event = tournament(name="Main Event Day 1A")
    players = [register(event, f"Player {n:02}").entry for n in range(12)]

    dumped = _run(
        "backup.sh",
        "once",
        env={"DATABASE_URL": _url(connection.settings_dict["NAME"]), "BACKUP_DIR": str(tmp_path)},
    )
    assert dumped.returncode == 0, dumped.stderr
    [dump] = tmp_path.glob("floorman-*.dump")
    restored = _run("restore.sh", str(dump), env={"DATABASE_URL": _url(fresh_database)})
    assert restored.returncode == 0, restored.stderr

    with psycopg.connect(_url(fresh_database)) as copy:
        name = copy.execute(
            "SELECT name FROM tournaments_tournament WHERE id = %s", [event.pk]
        ).fetchone()
        entries = copy.execute(
            "SELECT count(*) FROM tournaments_entry WHERE tournament_id = %s", [event.pk]
        ).fetchone()
        migrated = copy.execute("SELECT count(*) FROM django_migrations").fetchone()
    assert name == ("Main Event Day 1A",)
    assert entries == (len(players),)
    assert migrated[0] > 0


@pytest.mark.django_db(transaction=True)
def test_restore_refuses_a_database_that_holds_tables(tmp_path):
    _needs_postgresql()
    dump = tmp_path / "floorman-20260101-000000.dump"
    dump.write_bytes(b"not needed: refused before reading")
    live = _url(connection.settings_dict["NAME"])  # the test database: it holds tables

    refused = _run("restore.sh", str(dump), env={"DATABASE_URL": live})

    assert refused.returncode == 3
    assert "restore into a fresh one" in refused.stderr


@pytest.mark.django_db(transaction=True)
def test_old_dumps_are_deleted_after_keep_days_and_recent_ones_kept(tmp_path):
    _needs_postgresql()
    old = tmp_path / "floorman-20250101-000000.dump"
    recent = tmp_path / "floorman-20261120-000000.dump"
    other = tmp_path / "notes.txt"  # not a dump: never touched
    for path in (old, recent, other):
        path.write_bytes(b"x")
    twenty_days_ago = time.time() - 20 * 86400
    os.utime(old, (twenty_days_ago, twenty_days_ago))
    os.utime(other, (twenty_days_ago, twenty_days_ago))

    done = _run(
        "backup.sh",
        "once",
        env={
            "DATABASE_URL": _url(connection.settings_dict["NAME"]),
            "BACKUP_DIR": str(tmp_path),
            "BACKUP_KEEP_DAYS": "14",
        },
    )

    assert done.returncode == 0, done.stderr
    assert not old.exists() and recent.exists() and other.exists()
    assert len(list(tmp_path.glob("floorman-*.dump"))) == 2  # the recent one and the new one


@pytest.mark.django_db
def test_the_compose_postgres_is_the_major_version_the_tests_run_on():
    """docker-compose.yml runs the PostgreSQL that CI tests (issue 15)."""
    _needs_postgresql()
    image = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]["postgres"]
    major = int(re.fullmatch(r"postgres:(\d+)(?:[.-].*)?", image["image"])[1])

    assert major == connection.pg_version // 10000

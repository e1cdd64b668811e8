"""The planner's statistics kept by autovacuum's rule (simulation.statistics): a table
changed by more than 50 rows and a tenth of itself is analyzed, a table barely changed
is not."""

import time

import pytest
from django.db import connection

from simulation.statistics import stale_tables_analyze
from tournaments.models import Player

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _changes_counted(table: str, at_least: int) -> None:
    """PostgreSQL counts a committed change in its statistics a moment later: wait for
    it (at most 10 s), so that the test asks about the change it made."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_stat_force_next_flush()")
            cursor.execute(
                "SELECT n_mod_since_analyze FROM pg_stat_user_tables WHERE relname = %s",
                [table],
            )
            row = cursor.fetchone()
        if row and row[0] >= at_least:
            return
        time.sleep(0.05)
    raise AssertionError(f"{table}: the changes were never counted")


def _analyzed(table: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT analyze_count FROM pg_stat_user_tables WHERE relname = %s", [table])
        return cursor.fetchone()[0]


def test_a_table_filled_since_it_was_analyzed_is_analyzed_again():
    table = Player._meta.db_table
    Player.objects.bulk_create(Player(name=f"Player {n}") for n in range(200))
    _changes_counted(table, 200)
    before = _analyzed(table)

    analyzed = stale_tables_analyze()

    assert table in analyzed
    assert _analyzed(table) > before
    assert table not in stale_tables_analyze()  # nothing changed since

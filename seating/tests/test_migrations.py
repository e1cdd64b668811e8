"""The table state moved from hands to seating with its table, and learnt when each
table last dealt: seating 0003 fills `dealt_at` from each table's latest hand."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from clock.tests.factories import with_structure
from hands.tests.factories import button_at, deal, finish, seat_players
from seating.models import TableState
from tournaments.tests.factories import tournament

BEFORE_DEALT_AT = [("seating", "0002_tablestate_from_hands")]


def migrate(targets) -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)


@pytest.mark.django_db(transaction=True)
def test_dealt_at_is_filled_from_each_tables_latest_hand():
    event = tournament()
    with_structure(event)
    seat_players(event, {1: [1, 2, 3], 2: [1, 2], 3: [1, 2]})
    for table in (1, 2, 3):
        button_at(event, table, 1)
    first = deal(event, 1)
    finish(event, 1, first)
    second = deal(event, 1)
    other = deal(event, 2)

    migrate(BEFORE_DEALT_AT)  # the column goes, with what the deals wrote into it
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    dealt_at = dict(TableState.objects.values_list("table__number", "dealt_at"))
    assert dealt_at == {1: second.started_at, 2: other.started_at, 3: None}
    assert first.started_at < second.started_at

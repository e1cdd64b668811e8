"""The table state moved from hands to seating with its table, and learnt when each
table last dealt: seating 0003 fills `dealt_at` from each table's latest hand."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from clock.tests.factories import with_structure
from hands.tests.factories import button_at, deal, finish, seat_players
from seating.models import TableState
from tournaments.models import Tournament
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


BEFORE_HALTING_MOVED = [("seating", "0004_seat_draw_may_start_the_tournament")]


@pytest.mark.django_db(transaction=True)
def test_an_events_halting_rule_moves_to_its_house_settings():
    """Issue 19, seating 0005: a halting rule other than the TDA's (11-D) becomes the
    event's "halting" house setting; the TDA's needs no entry."""
    casino, off, tda = tournament(), tournament(), tournament()
    migrate(BEFORE_HALTING_MOVED)
    with connection.cursor() as cursor:
        for event, rule in ((casino, "casino"), (off, "off"), (tda, "tda")):
            cursor.execute(
                "INSERT INTO seating_seating (tournament_id, balance_threshold, source_rule,"
                " halt_rule, break_headroom, final_draw, draw_starts, stud_positions)"
                " VALUES (%s, 2, 'most', %s, 0, 'random', false, false)",
                [event.pk, rule],
            )

    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    settings = dict(Tournament.objects.values_list("pk", "house_settings"))
    assert settings[casino.pk] == {"halting": "casino"}
    assert settings[off.pk] == {"halting": "off"}
    assert settings[tda.pk] == {}

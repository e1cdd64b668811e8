"""The migration that keeps each hand's dead seats (TDA 71-C, `HandPlayer.dead`): a hand
in play with no action logged gets the seats of players whose penalty has begun (TDA 68)
as the deal would now set them; a hand with logged actions is left alone, so its log
replays as written. The schema is migrated back and forth, so the test commits."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from hands.models import HandPlayer
from seating.tests.factories import add_tables
from tournaments.tests.factories import field, tournament

BEFORE = [("hands", "0008_hand_house_settings")]
AFTER = [("hands", "0009_hand_player_dead")]

pytestmark = pytest.mark.django_db(transaction=True)


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture
def at_the_old_schema():
    apps = migrate(BEFORE)
    yield apps
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_hands_in_play_without_a_log_get_their_dead_seats(at_the_old_schema):
    apps = at_the_old_schema
    Hand, OldPlayer = apps.get_model("hands", "Hand"), apps.get_model("hands", "HandPlayer")
    Away, Action = apps.get_model("hands", "Away"), apps.get_model("hands", "HandAction")
    event = tournament()
    entries = field(event, 6)
    tables = add_tables(event, 2)

    def hand_in_play(table, players, number=3):
        hand = Hand.objects.create(
            tournament_id=event.pk,
            table_id=table.pk,
            number=number,
            level=1,
            game="nlhe",
            button=3,
            small_blind_seat=1,
            small_blind=1,
            big_blind=2,
        )
        for seat, entry in enumerate(players, start=1):
            OldPlayer.objects.create(hand=hand, entry_id=entry.pk, seat=seat, stack=1000)
        return hand

    fresh = hand_in_play(tables[0], entries[:3])
    logged = hand_in_play(tables[1], entries[3:])
    Action.objects.create(hand=logged, sequence=1, seat=3, kind="call", street="preflop")
    for entry, table, after in ((entries[1], 1, 2), (entries[2], 1, 3), (entries[4], 2, None)):
        Away.objects.create(
            tournament_id=event.pk, entry_id=entry.pk, table_number=table, after_hand=after, hands=2
        )

    migrate(AFTER)

    dead = set(HandPlayer.objects.filter(dead=True).values_list("hand_id", "seat"))
    # Table 1's hand 3: seat 2's penalty began after hand 2; seat 3's was given during
    # hand 3 and begins after it (TDA 68). Table 2's hand has a log: left as it was.
    assert dead == {(fresh.pk, 2)}
    assert logged.pk not in {hand for hand, _seat in dead}

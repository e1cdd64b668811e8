"""The data migration that gives each penalty served away its away record (hands.Away):
the counts, status and end each penalty kept become the record's, and going back puts
them on the penalty again. The schema is migrated back and forth, so the test commits."""

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from hands.models import Away
from rulings.models import Penalty, PenaltyStatus
from tournaments.tests.factories import field, tournament

BEFORE = [("rulings", "0002_penalty_away")]  # the penalty keeps its counts, away added
AFTER = [("rulings", "0004_penalty_counts_from_away")]

pytestmark = pytest.mark.django_db(transaction=True)


def migrate(targets):
    """The schema at `targets`; the historical models of that state."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture
def at_the_old_schema():
    """Rulings before the away records; the latest schema again afterwards, whatever
    the test did."""
    apps = migrate(BEFORE)
    yield apps
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_penalties_get_their_away_records_and_get_them_back(at_the_old_schema):
    OldPenalty = at_the_old_schema.get_model("rulings", "Penalty")
    event = tournament()
    first, second, third, fourth = field(event, 4)
    given = timezone.now() - timedelta(hours=1)
    ended = given + timedelta(minutes=30)

    def old(entry, kind, **values):
        penalty = OldPenalty.objects.create(
            tournament_id=event.pk, entry_id=entry.pk, kind=kind, **values
        )
        OldPenalty.objects.filter(pk=penalty.pk).update(at=given)  # auto_now_add
        return penalty.pk

    serving = old(first, "missed_hands", hands=3, hands_served=1, table_number=1, after_hand=4)
    served = old(
        second,
        "missed_rounds",
        rounds=1,
        hands=6,
        hands_served=6,
        table_number=2,
        status="served",
        ended_at=ended,
    )
    cancelled = old(
        third,
        "missed_hands",
        hands=5,
        hands_served=2,
        table_number=1,
        status="cancelled",
        ended_at=ended,
    )
    warning = old(fourth, "warning", status="served", ended_at=given, table_number=1)

    migrate(AFTER)

    penalties = {p.pk: p for p in Penalty.objects.select_related("away")}
    assert Away.objects.count() == 3
    now_serving = penalties[serving]
    assert (now_serving.status, now_serving.hands_served, now_serving.hands_left) == (
        PenaltyStatus.SERVING,
        1,
        2,
    )
    assert now_serving.ended_at is None
    assert (now_serving.away.entry_id, now_serving.away.table_number) == (first.pk, 1)
    assert (now_serving.away.after_hand, now_serving.away.started_at) == (4, given)
    assert (penalties[served].status, penalties[served].hands_served) == (PenaltyStatus.SERVED, 6)
    assert penalties[served].ended_at == ended and penalties[served].hands_left == 0
    assert (penalties[cancelled].status, penalties[cancelled].hands_served) == (
        PenaltyStatus.CANCELLED,
        2,
    )
    assert penalties[cancelled].ended_at == ended
    assert penalties[warning].away is None
    assert (penalties[warning].status, penalties[warning].hands_served) == (PenaltyStatus.SERVED, 0)
    assert penalties[warning].ended_at == given

    OldPenalty = migrate(BEFORE).get_model("rulings", "Penalty")

    back = {
        p["pk"]: p
        for p in OldPenalty.objects.values("pk", "status", "hands_served", "ended_at", "away")
    }
    assert back[serving] == {
        "pk": serving,
        "status": "serving",
        "hands_served": 1,
        "ended_at": None,
        "away": None,
    }
    assert (back[served]["status"], back[served]["hands_served"]) == ("served", 6)
    assert (back[cancelled]["status"], back[cancelled]["ended_at"]) == ("cancelled", ended)
    assert (back[warning]["status"], back[warning]["ended_at"]) == ("served", given)
    assert not Away.objects.exists()

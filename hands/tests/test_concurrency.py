"""Two tablets or a tablet and the floor at once (PostgreSQL: real row locks).

The hands services queue up behind the tournament's row lock; below them the database
keeps one hand in play per table and one bust-out per entry."""

import pytest
from django.db import IntegrityError, transaction

from clock.tests.factories import with_structure
from floorman.errors import Conflict
from floorman.tests.concurrency import at_once
from hands import services
from hands.models import Elimination, Hand
from hands.tests.factories import button_at, deal, seat_players
from tournaments.tests.factories import tournament

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _table():
    event = tournament()
    with_structure(event)
    seated = seat_players(event, {1: [1, 2, 3, 4]})
    button_at(event, 1, 1)
    return event, seated


@pytest.mark.parametrize("_run", range(3))
def test_two_tablets_dealing_one_table_at_once_deal_one_hand(_run):
    event, _seated = _table()

    results = at_once(
        lambda: services.hand_start(actor=None, tournament_id=event.pk, number=1),
        lambda: services.hand_start(actor=None, tournament_id=event.pk, number=1),
    )

    assert sorted(type(r).__name__ for r in results) == ["Conflict", "Hand"]
    assert Hand.objects.filter(table__tournament=event).count() == 1


@pytest.mark.parametrize("_run", range(3))
def test_the_same_bust_sent_twice_at_once_places_the_player_once(_run):
    event, _seated = _table()
    hand = deal(event, 1)

    results = at_once(
        *[
            lambda: services.hand_finish(
                actor=None, tournament_id=event.pk, number=1, hand_number=hand.number, busts=[2]
            )
        ]
        * 2
    )

    assert sum(isinstance(r, Conflict) for r in results) == 1
    assert Elimination.objects.filter(tournament=event).count() == 1


def test_the_database_refuses_a_second_hand_in_play_at_one_table():
    event, _seated = _table()
    hand = deal(event, 1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.create(
            tournament=event,
            table=hand.table,
            number=2,
            level=1,
            game="nlhe",
            button=1,
            small_blind_seat=2,
            big_blind=3,
        )

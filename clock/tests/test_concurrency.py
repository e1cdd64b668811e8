"""A clock action and a bust at the same moment (real transactions, PostgreSQL).

A bust locks the tournament, then tells the clock the count (casino §31), which locks
the clock. A clock action used to lock the clock, then the tournament as it saved the
level: each could hold what the other waited for. Both now take the tournament's lock
first."""

import threading
import time

import pytest
from django.db import DatabaseError, connection, transaction

from clock import services
from clock.models import Clock
from clock.tests.factories import with_structure
from tournaments.services import tournament_lock
from tournaments.tests.factories import staff, tournament

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _waiting_for_a_lock(seconds: float = 10) -> bool:
    """Another connection of this test waits for a row lock (pg_locks, not granted)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_locks WHERE NOT granted AND pid <> pg_backend_pid()"
            )
            if cursor.fetchone()[0]:
                return True
        time.sleep(0.02)
    return False


def test_a_clock_action_waits_for_the_tournament_before_it_holds_the_clock():
    event = tournament()
    with_structure(event)
    director = staff("director")
    outcome = {}

    def pause_the_clock():
        try:
            outcome["clock"] = services.clock_act(
                actor=director, tournament_id=event.pk, action="start"
            )
        except Exception as exc:  # the test reports what the other desk saw
            outcome["clock"] = exc
        finally:
            connection.close()

    with transaction.atomic():
        tournament_lock(event.pk)  # a bust has begun at another desk
        other_desk = threading.Thread(target=pause_the_clock)
        other_desk.start()
        assert _waiting_for_a_lock(), "the clock action did not queue behind the bust"
        # What the bust does next: tell the clock. The clock row must be free.
        try:
            Clock.objects.select_for_update(nowait=True).get(pk=event.pk)
        except DatabaseError:
            pytest.fail("the clock action holds the clock while waiting for the tournament")
    other_desk.join(timeout=30)

    assert isinstance(outcome["clock"], Clock), outcome
    assert outcome["clock"].status == "running"

"""Issue 8, faults: the Celery worker restarts, and crashes, during hand-for-hand.

Tablets deal and finish hands through the web process over HTTP; the worker runs the
timed alert that flags a slow table to the floor (RP-8). No hand-for-hand hand may be
lost or dealt twice, and the slow table's alert must still come.
"""

import signal
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.authtoken.models import Token

from clock.services import clock_act
from clock.tests.factories import with_structure
from floorman import live
from floorman.tests import servers
from floorman.tests.faults.clients import Api, LiveEvents
from floorman.tests.faults.conftest import NEEDS_REDIS_SERVER
from hands import services
from hands.models import Hand, HandForHand
from hands.tests.factories import button_at, seat_players
from tournaments.tests.factories import staff, tournament

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True), NEEDS_REDIS_SERVER]

TABLES = (1, 2, 3)
ALERT_MINUTES = 1  # the shortest the floor can set


class Tablets:
    """The dealers' tablets of one tournament: deal and finish through the API."""

    def __init__(self, api: Api, tournament_id: int):
        self.api = api
        self.base = f"tournaments/{tournament_id}"
        self.hands: dict[int, int] = {}  # table → the hand it is playing

    def deal(self, *tables: int) -> None:
        for table in tables:
            hand = self.api.ok("POST", f"{self.base}/tables/{table}/hands/")
            self.hands[table] = hand["number"]

    def finish(self, *tables: int) -> None:
        for table in tables:
            hand = self.hands.pop(table)
            self.api.ok("POST", f"{self.base}/tables/{table}/hands/{hand}/finish/", {})

    def round(self) -> int:
        return self.api.ok("GET", f"{self.base}/hand-for-hand/")["round"]


@pytest.fixture
def bubble():
    """Three tables of three on the bubble (six paid), the clock running, a floor token."""
    event = tournament()
    with_structure(event)
    seat_players(event, {table: [1, 2, 3] for table in TABLES})
    for table in TABLES:
        button_at(event, table, 1)
    services.h4h_settings_update(
        actor=None,
        tournament_id=event.pk,
        data={"places_paid": 6, "alert_minutes": ALERT_MINUTES},
    )
    clock_act(actor=None, tournament_id=event.pk, action="start")
    token = Token.objects.create(user=staff("floor")).key
    return event, token


def round_begun(tournament_id: int, seconds_ago: float) -> None:
    """Make the current round `seconds_ago` old: the test cannot wait out the minute
    before the alert, so the worker is restarted as if late in that minute."""
    HandForHand.objects.filter(pk=tournament_id).update(
        round_started_at=timezone.now() - timedelta(seconds=seconds_ago)
    )


def test_worker_restart_and_crash_in_hand_for_hand_lose_no_hand_and_no_alert(
    started, private_redis, bubble
):
    event, token = bubble
    web = started(servers.web_server(redis_url=private_redis.url))
    worker = started(servers.celery_worker(redis_url=private_redis.url))
    api = Api(web, token)
    tablets = Tablets(api, event.pk)

    with LiveEvents(web, event.pk) as screen:
        api.ok("POST", f"tournaments/{event.pk}/hand-for-hand/", {"action": "start"})
        assert tablets.round() == 1  # no hand was in play: round 0 is over at once

        # Round 1: the worker is restarted (a deploy) while table 3 still plays.
        tablets.deal(*TABLES)
        tablets.finish(1, 2)
        worker.restart(signal.SIGTERM)
        tablets.finish(3)
        assert tablets.round() == 2

        # Round 2: the worker crashes while table 3 still plays, late in the minute
        # after which the floor is alerted. The new worker must still alert on time.
        tablets.deal(*TABLES)
        tablets.finish(1, 2)
        worker.kill()
        round_begun(event.pk, seconds_ago=ALERT_MINUTES * 60 - 3)
        worker.start()
        alert = screen.wait_for(live.HAND_FOR_HAND, 15, lambda data: "alert" in data)
        assert (alert["round"], alert["alert"]) == (2, [3])

        # A tablet that sends its deal again (no answer seen) is refused: one hand a round.
        status, answer = api.call("POST", f"tournaments/{event.pk}/tables/1/hands/")
        assert (status, answer.get("code")) == (409, "h4h_wait")
        tablets.finish(3)

        # Round 3 runs as usual on the new worker.
        tablets.deal(*TABLES)
        tablets.finish(*TABLES)
        assert tablets.round() == 4

    played = sorted(Hand.objects.filter(tournament=event).values_list("table__number", "h4h_round"))
    assert played == [(table, r) for table in TABLES for r in (1, 2, 3)]
    alerts = [e["data"] for e in screen.of_kind(live.HAND_FOR_HAND) if "alert" in e["data"]]
    assert [(a["round"], a["alert"]) for a in alerts] == [(2, [3])]  # once, not per worker
    assert HandForHand.objects.get(pk=event.pk).alerted_round == 2

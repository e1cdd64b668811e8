"""Issue 8, faults: Redis restarts (the cache, the rate-limit counts, the channel layer
and the Celery broker). Floorman serves through the outage and recovers by itself."""

import json
import time
import urllib.error
import urllib.request
from datetime import UTC, datetime

import pytest
from rest_framework.authtoken.models import Token

from clock.services import clock_act
from clock.tests.factories import with_structure
from floorman import live
from floorman.tests import servers
from floorman.tests.faults.clients import Api, LiveEvents
from floorman.tests.faults.conftest import NEEDS_REDIS_SERVER
from tournaments.tests.factories import staff, tournament

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True), NEEDS_REDIS_SERVER]


def get(web: servers.Process, path: str) -> tuple[int, float]:
    """The status of GET `path` and how long it took, in seconds."""
    began = time.monotonic()
    request = urllib.request.Request(f"{web.url}{path}", headers={"X-Forwarded-Proto": "https"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            status = response.status
    except urllib.error.HTTPError as error:
        status = error.code
    return status, time.monotonic() - began


def health(web: servers.Process) -> dict:
    try:
        with urllib.request.urlopen(f"{web.url}/health/", timeout=10) as response:
            return json.load(response)
    except urllib.error.HTTPError as error:
        return json.load(error)


def worker_seen(web: servers.Process) -> datetime:
    """When a worker last ran the heartbeat task that /health/ sends."""
    seen = health(web)["worker_seen"]
    return datetime.fromisoformat(seen) if seen else datetime.min.replace(tzinfo=UTC)


def test_redis_restart_needs_no_manual_step(started, private_redis):
    event = tournament()
    with_structure(event)
    clock_act(actor=None, tournament_id=event.pk, action="start")
    api_client_token = Token.objects.create(user=staff("floor")).key
    web = servers.web_server(redis_url=private_redis.url)
    web.env["FLOORMAN_RATE_LOOKUP"] = "120/m"  # the seat lookup counts in Redis
    started(web)
    worker = started(servers.celery_worker(redis_url=private_redis.url))
    api = Api(web, api_client_token)
    pages = [
        f"/lobby/{event.pk}/",
        f"/lobby/{event.pk}/data/",
        f"/seat/{event.pk}/?q=Player",
        f"/api/v1/tournaments/{event.pk}/clock/",
        "/login/",
    ]

    with LiveEvents(web, event.pk) as screen:
        private_redis.kill()

        # While Redis is away the screens, phones and staff keep working.
        answers = {path: get(web, path) for path in pages}
        assert {path: status for path, (status, _took) in answers.items()} == {
            path: 200 for path in pages
        }
        assert max(took for _status, took in answers.values()) < 2, answers
        paused = api.ok("POST", f"tournaments/{event.pk}/clock/", {"action": "pause"})
        assert paused["status"] == "paused"
        assert health(web)["cache"] is False  # the health check says what is wrong

        private_redis.start()
        back = datetime.now(UTC)
        back_monotonic = time.monotonic()

        # The web process drops the screens' sockets when Redis goes (the screens then
        # resync from the API, live.js); once Redis is back they connect again for good,
        # and live events reach them again, with no restart of anything.
        screen.wait_steady(since=back_monotonic, timeout=15)
        resumed = api.ok("POST", f"tournaments/{event.pk}/clock/", {"action": "resume"})
        screen.wait_for(live.CLOCK_UPDATED, 10, lambda data: data["version"] == resumed["version"])
        # The same worker is back on the broker (floorman.celery: kombu's restore step
        # would hang it): the heartbeat the health check sends now runs.
        servers.wait_until(
            lambda: worker_seen(web) > back, 15, "the worker did not run a task sent now"
        )
    assert worker.popen.poll() is None
    # The timed tasks Redis lost (clock announcements) were sent again once it was back.
    assert worker.log_path.read_text().count("timers_resend") >= 2 * 2  # received, succeeded

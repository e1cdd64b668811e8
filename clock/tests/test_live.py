"""The clock reaches the screens: a pause over the websocket, the time probe, and timed
announcements through a real Celery worker (a stale one does nothing)."""

import time
import uuid

import pytest
from asgiref.sync import sync_to_async
from celery import Celery
from channels.testing import WebsocketCommunicator
from django.db import connection
from rest_framework.test import APIClient

from clock import engine, services
from clock.models import Clock
from clock.tests.factories import with_structure
from floorman.worker import start_embedded_worker
from tournaments.models import Tournament
from tournaments.tests.factories import staff, tournament
from web.asgi import application

HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


async def _screen(tournament_id: int) -> WebsocketCommunicator:
    screen = WebsocketCommunicator(
        application, f"/ws/tournaments/{tournament_id}/", headers=HEADERS
    )
    connected, _code = await screen.connect(timeout=5)
    assert connected
    assert (await screen.receive_json_from(timeout=5))["type"] == "hello"
    return screen


def _post_clock(tournament_id: int, user, action: str):
    client = APIClient(HTTP_X_FORWARDED_PROTO="https")
    client.force_authenticate(user)
    return client.post(
        f"/api/v1/tournaments/{tournament_id}/clock/", {"action": action}, format="json"
    )


def _running_event():
    event = tournament(status="running")
    with_structure(event)
    services.clock_act(actor=None, tournament_id=event.pk, action="start")
    return event


@pytest.mark.django_db(transaction=True)
async def test_pause_through_the_api_reaches_a_connected_screen():
    event = await sync_to_async(_running_event)()
    floor = await sync_to_async(staff)("floor")
    screen = await _screen(event.pk)

    response = await sync_to_async(_post_clock)(event.pk, floor, "pause")
    assert response.status_code == 200

    message = await screen.receive_json_from(timeout=5)
    assert message["type"] == "clock.updated"
    assert message["tournament"] == event.pk
    assert message["data"]["status"] == "paused"
    assert message["data"]["version"] == response.json()["version"]
    assert message["data"]["ends_at"] is None
    await screen.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_screen_probes_server_time_over_the_socket():
    event = await sync_to_async(tournament)()
    screen = await _screen(event.pk)
    sent = time.time() * 1000

    await screen.send_json_to({"type": "time.ping", "client": sent})
    pong = await screen.receive_json_from(timeout=5)

    assert pong["type"] == "time.pong" and pong["client"] == sent
    assert abs(pong["server"] - sent) < 5000
    await screen.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_garbage_from_a_screen_is_ignored_and_the_socket_stays_open():
    event = await sync_to_async(tournament)()
    screen = await _screen(event.pk)

    await screen.send_to(text_data="{not json")
    await screen.send_json_to({"type": "time.ping", "client": "soon"})
    await screen.send_json_to([1, 2, 3])
    assert await screen.receive_nothing(timeout=0.3)

    await screen.send_json_to({"type": "time.ping", "client": 1})
    assert (await screen.receive_json_from(timeout=5))["type"] == "time.pong"
    await screen.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_deeply_nested_json_from_a_screen_is_ignored_and_the_socket_stays_open():
    """Issue 15: 1,000 nested brackets made the decoder raise RecursionError, which
    closed the socket with an error."""
    event = await sync_to_async(tournament)()
    screen = await _screen(event.pk)

    await screen.send_to(text_data="[" * 1000 + "]" * 1000)
    await screen.send_to(text_data='{"type": ' * 1000 + "1" + "}" * 1000)
    assert await screen.receive_nothing(timeout=0.3)

    await screen.send_json_to({"type": "time.ping", "client": 1})
    assert (await screen.receive_json_from(timeout=5))["type"] == "time.pong"
    await screen.disconnect()


# --- Timed announcements through a real worker ---------------------------------------


def _worker_app(queue: str) -> Celery:
    app = Celery("floorman-clock-test", set_as_current=False)
    app.config_from_object("django.conf:settings", namespace="CELERY")
    app.conf.task_default_queue = queue
    return app


def _wait_for(condition, seconds: float) -> bool:
    deadline = time.time() + seconds
    while time.time() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


@pytest.mark.django_db(transaction=True)
def test_worker_sends_the_level_change_on_time_and_ignores_a_stale_one(announcements_sent):
    announcements_sent.undo()  # this test sends real tasks to a real worker
    queue = f"floorman-test-{uuid.uuid4().hex}"
    app = _worker_app(queue)
    from clock.tasks import clock_announce

    task = app.tasks[clock_announce.name]
    event = tournament(status="running")
    with_structure(event)
    services.clock_act(actor=None, tournament_id=event.pk, action="start")
    version = Clock.objects.get(pk=event.pk).version
    # Level 1 ends two seconds from now.
    services.clock_act(actor=None, tournament_id=event.pk, action="set", seconds=2)
    current = Clock.objects.get(pk=event.pk).version
    worker = start_embedded_worker(app, queues=[queue])
    try:
        now = time.time()
        # A task from before the last change: stale, must do nothing.
        task.apply_async(args=(event.pk, version, engine.CHANGE, 1), countdown=0)
        task.apply_async(args=(event.pk, current, engine.CHANGE, 1), countdown=2)

        time.sleep(1)
        clock = Clock.objects.get(pk=event.pk)
        assert clock.announced_seq == 0  # the stale task claimed nothing
        assert Tournament.objects.get(pk=event.pk).current_level == 1  # and nothing is early

        assert _wait_for(lambda: Tournament.objects.get(pk=event.pk).current_level == 2, 6)
        assert time.time() - now >= 1.9
        assert (
            Clock.objects.get(pk=event.pk).announced_seq
            == engine.Announcement(engine.CHANGE, 1, None).seq
        )
    finally:
        worker.stop()
        if not app.conf.broker_url.startswith("memory"):
            with app.connection_for_write() as conn:
                conn.default_channel.queue_delete(queue)
        connection.close()

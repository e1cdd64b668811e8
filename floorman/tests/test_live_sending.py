"""Live events leave the request at once (issue 20): the change is answered without
waiting for the screens, and the screens still get every committed change, in order."""

import asyncio
import json
import logging
import threading

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import transaction

from floorman import live
from floorman.groups import tournament_group
from floorman.layers import InMemoryChannelLayer
from tournaments.tests.factories import tournament
from web.asgi import application

HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


class HeldLayer:
    """A channel layer that sends only once it is let go, and records what it sent."""

    def __init__(self, failing: int | None = None) -> None:
        self.go = threading.Event()
        self.sent: list[tuple[str, dict]] = []
        self.failing = failing  # the data "n" of a message the layer fails to send

    async def group_send(self, group: str, event: dict) -> None:
        await asyncio.get_running_loop().run_in_executor(None, self.go.wait, 10)
        message = json.loads(event["text"])
        if message["data"]["n"] == self.failing:
            raise ConnectionError("Redis is down")
        self.sent.append((group, message))


@pytest.fixture
def held(monkeypatch):
    layer = HeldLayer()
    monkeypatch.setattr(live, "get_channel_layer", lambda: layer)
    yield layer
    layer.go.set()
    live.flush()


def _publish(n: int, tournament_id: int = 7) -> None:
    live.live_publish(tournament_id=tournament_id, kind=live.CLOCK_UPDATED, data={"n": n})


def _sent(layer: HeldLayer) -> list[int]:
    return [message["data"]["n"] for _group, message in layer.sent]


@pytest.mark.django_db
def test_the_change_is_answered_before_the_screens_get_it_and_they_get_it_in_order(
    held, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        for n in range(1, 21):
            _publish(n)

    # The commit returned while the layer still holds every message back.
    assert held.sent == []
    held.go.set()
    assert live.flush()
    assert _sent(held) == list(range(1, 21))
    assert {group for group, _ in held.sent} == {tournament_group(7)}


@pytest.mark.django_db
def test_a_rolled_back_change_is_never_sent(held, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError):
        with transaction.atomic():
            _publish(1)
            raise RuntimeError("the service refused")
    with django_capture_on_commit_callbacks(execute=True):
        _publish(2)

    held.go.set()
    assert live.flush()
    assert _sent(held) == [2]


@pytest.mark.django_db
def test_a_failing_layer_does_not_fail_the_change_is_logged_and_the_next_event_goes(
    held, django_capture_on_commit_callbacks, caplog
):
    held.failing = 2
    with caplog.at_level(logging.ERROR, logger="floorman.live"):
        with django_capture_on_commit_callbacks(execute=True):
            for n in (1, 2, 3):
                _publish(n)
        held.go.set()
        assert live.flush()

    assert _sent(held) == [1, 3]
    assert "live event for" in caplog.text and "was not sent" in caplog.text
    assert "Redis is down" in caplog.text


@pytest.mark.django_db(transaction=True)
async def test_events_of_one_request_reach_a_connected_screen_in_the_order_sent():
    event = await sync_to_async(tournament)()
    screen = WebsocketCommunicator(application, f"/ws/tournaments/{event.pk}/", headers=HEADERS)
    connected, _ = await screen.connect(timeout=10)
    assert connected
    await screen.receive_json_from(timeout=10)  # hello

    def request() -> None:
        with transaction.atomic():
            for n in range(1, 6):
                _publish(n, event.pk)

    await sync_to_async(request)()
    received = [await screen.receive_json_from(timeout=10) for _ in range(5)]
    assert [m["data"]["n"] for m in received] == list(range(1, 6))
    await screen.disconnect()


# The in-memory layer (one process, no Redis): sent in the screens' own event loop.


async def _members(layer: InMemoryChannelLayer, group: str, count: int) -> list[str]:
    channels = [await layer.new_channel() for _ in range(count)]
    for channel in channels:
        await layer.group_add(group, channel)
    return channels


async def test_in_memory_messages_from_another_thread_reach_every_screen_in_order():
    layer = InMemoryChannelLayer()
    channels = await _members(layer, "t-1", 120)

    def request() -> None:  # a service's thread, as Django runs a view under ASGI
        for n in range(5):
            assert layer.publish("t-1", {"type": "live.event", "text": str(n)})

    await asyncio.to_thread(request)
    for channel in channels:
        got = [(await layer.receive(channel))["text"] for _ in range(5)]
        assert got == ["0", "1", "2", "3", "4"]


async def test_in_memory_group_message_gives_the_loop_back_between_slices():
    """A request served by the same event loop is answered while a message goes out to
    a large room, not after every screen has been served."""
    layer = InMemoryChannelLayer()
    channels = await _members(layer, "t-1", 3 * layer.SLICE)

    sending = asyncio.create_task(layer.group_send("t-1", {"type": "live.event", "text": "x"}))
    await asyncio.sleep(0)  # the sending task starts, then hands the loop back

    assert layer.channels[channels[0]].qsize() == 1  # the first slice is out
    assert channels[-1] not in layer.channels  # the last screen's turn has not come
    await sending
    assert [(await layer.receive(channel))["text"] for channel in channels] == ["x"] * len(channels)


def test_in_memory_layer_without_a_screen_loop_says_so():
    """No screen joined from a running loop: live falls back to sending directly."""
    assert InMemoryChannelLayer().publish("t-1", {"type": "live.event", "text": "x"}) is False

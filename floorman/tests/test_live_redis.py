"""The Redis channel layer with a room full of screens (channels_redis issue 422).

redis-py 8 caps a connection pool at 100 and reads with a 5 s socket timeout; with
defaults, channels_redis then fails once many screens are connected or after a quiet
spell longer than its 5 s blocking read. settings.CHANNEL_LAYERS configures both; this
test holds more screens than the default cap, stays quiet past the timeout, and checks
that every screen still receives each event.
"""

import asyncio
import json

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from floorman import live
from floorman.groups import tournament_group
from tournaments.tests.factories import tournament
from web.asgi import application

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]

SCREENS = 150  # more than redis-py's default pool of 100 connections
HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


async def _connect(tournament_id: int) -> WebsocketCommunicator:
    screen = WebsocketCommunicator(
        application, f"/ws/tournaments/{tournament_id}/", headers=HEADERS
    )
    connected, _ = await screen.connect(timeout=10)
    assert connected
    await screen.receive_json_from(timeout=10)  # hello
    return screen


async def _broadcast(tournament_id: int, n: int) -> None:
    message = {"type": "clock.updated", "tournament": tournament_id, "data": {"n": n}}
    await get_channel_layer().group_send(
        tournament_group(tournament_id), {"type": "live.event", "text": json.dumps(message)}
    )


async def test_many_screens_each_receive_every_event_even_after_a_quiet_spell():
    event = await sync_to_async(tournament)()
    screens = await asyncio.gather(*(_connect(event.pk) for _ in range(SCREENS)))
    try:
        await _broadcast(event.pk, 1)
        first = await asyncio.gather(*(s.receive_json_from(timeout=10) for s in screens))
        assert [m["data"]["n"] for m in first] == [1] * SCREENS

        await asyncio.sleep(6)  # longer than redis-py's default 5 s socket timeout

        await _broadcast(event.pk, 2)
        second = await asyncio.gather(*(s.receive_json_from(timeout=10) for s in screens))
        assert [m["data"]["n"] for m in second] == [2] * SCREENS
    finally:
        await asyncio.gather(*(s.disconnect() for s in screens))


def test_events_sent_from_a_request_share_one_connection_pool(monkeypatch):
    """Services publish from plain threads. Each event used to start an event loop of its
    own, and channels_redis a connection pool (a new Redis connection) per loop: 10–17 ms
    per event in the request (issue 16). One loop per process sends them all now."""
    layer = get_channel_layer()
    made = []
    original = type(layer).create_pool
    monkeypatch.setattr(
        type(layer), "create_pool", lambda self, index: made.append(index) or original(self, index)
    )
    message = {"type": "clock.updated", "tournament": 1, "data": {}}

    for _ in range(20):
        live._send(1, message)
    assert live.flush()  # the request did not wait for them: they are sent by now

    assert len(made) <= 1  # the first event of this process makes the pool, if any


async def test_the_layer_tells_which_groups_have_a_member():
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add("listened", channel)
    await layer.group_add("forgotten", channel)
    # A member older than group_expiry has gone, as group_send itself would drop it.
    await layer.connection(layer.consistent_hash("forgotten")).zadd(
        layer._group_key("forgotten"), {channel: 1}
    )

    listening = await layer.groups_listening(["listened", "nobody", "forgotten", "listened"])

    assert listening == {"listened"}


def test_the_sender_skips_groups_nobody_listens_to_and_keeps_the_order(monkeypatch):
    """A phone's group is empty unless that player has the page open: a bust's messages
    to it cost no send, the screens' group still hears every message in order."""
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(tournament_group(7), channel)
    sent = []
    original = type(layer).group_send

    async def group_send(self, group, message):
        sent.append(group)
        await original(self, group, message)

    monkeypatch.setattr(type(layer), "group_send", group_send)
    for n in range(5):
        message = {"type": "entry.updated", "tournament": 7, "data": {"id": 100 + n}}
        live._send(7, message)  # to the screens' group and to entry 100 + n's phone
    assert live.flush()

    assert sent == [tournament_group(7)] * 5

    async def hear() -> list[dict]:
        return [json.loads((await layer.receive(channel))["text"]) for _ in range(5)]

    heard = async_to_sync(hear)()
    assert [message["data"]["id"] for message in heard] == [100, 101, 102, 103, 104]

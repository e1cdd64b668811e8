"""The screens' websocket (web.consumers) under attack (issue 15): garbage frames, floods
of handshakes from one address, the cache gone, and what a handshake costs.

Each test connects from addresses of its own (random), so counts left in a shared cache
by an earlier run never reach it, and holds django-ratelimit's clock still, so a test
never straddles the end of a counting window.
"""

import asyncio
import copy
import json
import random
from contextlib import contextmanager
from types import SimpleNamespace

import pytest
import redis
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db.backends.signals import connection_created
from django.db.backends.utils import CursorWrapper
from django_ratelimit import core

from floorman import live, ratelimit
from floorman.groups import tournament_group
from tournaments.tests.factories import tournament
from web import consumers
from web.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)

HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
CLOSED_PORT = "redis://127.0.0.1:1/0"  # nothing listens there: the connection is refused


@pytest.fixture(autouse=True)
def clock_stands_still(monkeypatch):
    monkeypatch.setattr(core, "time", SimpleNamespace(time=lambda: 1_800_000_000.0))


@pytest.fixture
async def event():
    return await sync_to_async(tournament)()


def address() -> str:
    return f"10.{random.randrange(256)}.{random.randrange(256)}.{random.randrange(1, 255)}"


def screen(tournament_id: int, ip: str = "", headers=()) -> WebsocketCommunicator:
    """A screen at `ip`, as the proxy forwards its handshake (X-Real-IP)."""
    ip = ip or address()
    communicator = WebsocketCommunicator(
        application,
        f"/ws/tournaments/{tournament_id}/",
        headers=[*HEADERS, (b"x-real-ip", ip.encode()), *headers],
    )
    communicator.scope["client"] = ("172.18.0.5", 40000)  # the proxy
    return communicator


async def connected(tournament_id: int, ip: str = "", headers=()) -> WebsocketCommunicator:
    live.flush()  # what the set-up published is out before this socket listens
    communicator = screen(tournament_id, ip, headers)
    opened, _ = await communicator.connect(timeout=5)
    assert opened
    assert await communicator.receive_json_from(timeout=5) == {
        "type": "hello",
        "tournament": tournament_id,
    }
    return communicator


async def refusal(tournament_id: int, ip: str = "", headers=()) -> int | None:
    """The close code that refused a screen's handshake; None if it was accepted."""
    communicator = screen(tournament_id, ip, headers)
    opened, code = await communicator.connect(timeout=5)
    await communicator.disconnect()  # as the server tells the app once the client is gone
    return None if opened else code


def strict(text: str):
    """JSON as a browser parses it: NaN and Infinity are not JSON."""

    def refuse(constant):
        raise ValueError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=refuse)


async def ping(communicator: WebsocketCommunicator) -> dict:
    await communicator.send_json_to({"type": "time.ping", "client": 1_700_000_000_000})
    pong = strict(await communicator.receive_from(timeout=5))
    assert pong["type"] == "time.pong"
    assert pong["client"] == 1_700_000_000_000
    return pong


async def broadcast(tournament_id: int, n: int) -> None:
    message = {"type": "clock.updated", "tournament": tournament_id, "data": {"n": n}}
    await get_channel_layer().group_send(
        tournament_group(tournament_id), {"type": "live.event", "text": json.dumps(message)}
    )


# --- Garbage from a client ------------------------------------------------------------


async def test_binary_frame_is_ignored_and_the_socket_stays_open(event):
    communicator = await connected(event.pk)

    await communicator.send_to(bytes_data=b"\x00\xff garbage")

    assert await communicator.receive_nothing(timeout=0.3)
    await ping(communicator)
    await communicator.disconnect()


@pytest.mark.parametrize(
    "frame",
    [
        "[" * 100_000,
        '{"a":' * 400 + "1" + "}" * 400,
        "[" * 500 + "]" * 500,
        "[" * 1000,
        "x" * 100_000,
        "not json",
        '"just a string"',
        "null",
        "[1, 2]",
        '{"type": "time.ping"}',
        '{"type": "time.ping", "client": "soon"}',
        '{"type": "time.ping", "client": true}',
        '{"type": "time.ping", "client": 1' + "0" * 4000 + "}",
        '{"type": "something else"}',
    ],
    ids=lambda frame: frame[:20],
)
async def test_garbage_frame_is_ignored_and_the_socket_stays_open(event, frame):
    communicator = await connected(event.pk)

    await communicator.send_to(text_data=frame)

    assert await communicator.receive_nothing(timeout=0.3)
    await ping(communicator)
    await communicator.disconnect()


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e999", "-1e999"])
async def test_a_ping_without_a_finite_clock_gets_no_answer(event, number):
    """A pong that echoed NaN would not be JSON: a browser could not read it."""
    communicator = await connected(event.pk)

    await communicator.send_to(text_data=f'{{"type": "time.ping", "client": {number}}}')

    assert await communicator.receive_nothing(timeout=0.3)
    await ping(communicator)
    await communicator.disconnect()


async def test_ping_is_answered_with_strict_json(event):
    communicator = await connected(event.pk)

    await communicator.send_to(text_data='{"type": "time.ping", "client": 12.5}')

    pong = strict(await communicator.receive_from(timeout=5))
    assert pong["client"] == 12.5
    assert isinstance(pong["server"], float)
    await communicator.disconnect()


async def test_deep_nesting_is_garbage_not_an_error():
    assert await consumers.TournamentConsumer.decode_json("[" * 100_000) is None


async def test_replies_refuse_what_is_not_strict_json():
    with pytest.raises(ValueError):
        await consumers.TournamentConsumer.encode_json({"client": float("nan")})


# --- Handshakes and open sockets per address --------------------------------------------


@pytest.fixture
def layer_spy(monkeypatch):
    """Records the channel layer's group_add and group_discard calls."""
    layer = get_channel_layer()
    calls = []
    add, discard = layer.group_add, layer.group_discard

    async def group_add(group, channel):
        calls.append(("add", group, channel))
        await add(group, channel)

    async def group_discard(group, channel):
        calls.append(("discard", group, channel))
        await discard(group, channel)

    monkeypatch.setattr(layer, "group_add", group_add)
    monkeypatch.setattr(layer, "group_discard", group_discard)
    return calls


async def test_handshakes_over_the_rate_are_refused_before_joining_a_group(
    settings, event, layer_spy
):
    settings.FLOORMAN_RATE_WEBSOCKET = "3/m"
    ip = address()
    screens = [await connected(event.pk, ip) for _ in range(3)]
    assert [call[0] for call in layer_spy] == ["add"] * 3

    assert await refusal(event.pk, ip) == consumers.REFUSED

    assert [call[0] for call in layer_spy] == ["add"] * 3
    other = await connected(event.pk)  # another address
    for communicator in [*screens, other]:
        await communicator.disconnect()


async def test_handshakes_count_per_ipv6_64(settings, event):
    settings.FLOORMAN_RATE_WEBSOCKET = "2/m"
    network = f"2001:db8:{random.randrange(1, 65536):x}:{random.randrange(65536):x}"
    first = await connected(event.pk, f"{network}::1")
    second = await connected(event.pk, f"{network}:1::2")

    assert await refusal(event.pk, f"{network}:ffff::3") == consumers.REFUSED
    await first.disconnect()
    await second.disconnect()


async def test_open_sockets_per_address_are_limited_and_given_back_on_close(settings, event):
    settings.FLOORMAN_WEBSOCKETS_PER_ADDRESS = 2
    ip = address()
    first = await connected(event.pk, ip)
    second = await connected(event.pk, ip)

    assert await refusal(event.pk, ip) == consumers.REFUSED
    other = await connected(event.pk)  # another address

    await first.disconnect()
    third = await connected(event.pk, ip)
    assert await refusal(event.pk, ip) == consumers.REFUSED
    for communicator in (second, third, other):
        await communicator.disconnect()


async def test_refused_and_unknown_handshakes_hold_no_count(settings, event):
    settings.FLOORMAN_WEBSOCKETS_PER_ADDRESS = 1
    ip = address()
    for _ in range(3):
        assert await refusal(999_999_999, ip) == consumers.NOT_FOUND

    only = await connected(event.pk, ip)
    assert await refusal(event.pk, ip) == consumers.REFUSED
    await only.disconnect()


async def test_a_count_left_by_a_dead_process_is_forgotten(settings, event, monkeypatch):
    """A process that dies with its sockets open never gives their count back: each
    count expires an hour (SOCKET_MEMORY) after its bucket began."""
    settings.FLOORMAN_WEBSOCKETS_PER_ADDRESS = 2
    ip = address()
    now = 1_800_000_000.0
    monkeypatch.setattr(ratelimit, "time", SimpleNamespace(time=lambda: now))
    request = ratelimit.scope_request({"headers": [(b"x-real-ip", ip.encode())]})
    dead = [await sync_to_async(ratelimit.socket_open)(request) for _ in range(2)]
    assert [admitted for admitted, _ in dead] == [True, True]
    assert await refusal(event.pk, ip) == consumers.REFUSED

    now += ratelimit.SOCKET_MEMORY - ratelimit.SOCKET_BUCKET
    assert await refusal(event.pk, ip) == consumers.REFUSED
    now += ratelimit.SOCKET_BUCKET

    communicator = await connected(event.pk, ip)
    await communicator.disconnect()


async def test_the_address_behind_the_proxy_is_the_one_it_saw(settings, event):
    settings.FLOORMAN_WEBSOCKETS_PER_ADDRESS = 1
    ip = address()
    held = await connected(event.pk, ip)

    spoofed = [(b"x-forwarded-for", address().encode())]

    assert await refusal(event.pk, ip, headers=spoofed) == consumers.REFUSED
    await held.disconnect()


@pytest.fixture
def cache_down(settings):
    settings.CACHES = {
        **settings.CACHES,
        "ratelimit": {"BACKEND": "floorman.cache.CounterCache", "LOCATION": CLOSED_PORT},
    }


async def test_screens_connect_uncounted_when_the_cache_is_down(
    settings, event, cache_down, caplog
):
    settings.FLOORMAN_RATE_WEBSOCKET = "1/m"
    settings.FLOORMAN_WEBSOCKETS_PER_ADDRESS = 1
    ip = address()

    screens = [await connected(event.pk, ip) for _ in range(3)]

    await broadcast(event.pk, 1)
    for communicator in screens:
        assert (await communicator.receive_json_from(timeout=5))["data"] == {"n": 1}
        await communicator.disconnect()
    assert any(
        "rate limit websocket not counted" in record.getMessage() for record in caplog.records
    )


# --- Groups are left, whatever happened -------------------------------------------------


async def test_a_closed_screen_leaves_its_group(event, layer_spy):
    communicator = await connected(event.pk)

    await communicator.disconnect()

    (added, discarded) = layer_spy
    assert added[0] == "add" and discarded[0] == "discard"
    assert added[1:] == discarded[1:]


async def test_a_handshake_that_fails_after_joining_leaves_its_group(event, layer_spy, monkeypatch):
    async def broken(self, content, close=False):
        raise ConnectionResetError("the client went away")

    monkeypatch.setattr(consumers.TournamentConsumer, "send_json", broken)
    communicator = screen(event.pk)

    with pytest.raises(ConnectionResetError):
        await communicator.connect(timeout=5)
        await communicator.receive_output(timeout=5)

    assert [call[0] for call in layer_spy] == ["add", "discard"]
    assert layer_spy[0][1:] == layer_spy[1][1:]


# --- What a handshake costs ---------------------------------------------------------


@contextmanager
def database_use():
    """Every query and every new database connection, in any thread (Channels reads the
    database in a thread of its own)."""
    used = {"queries": [], "connections": 0}
    run = CursorWrapper._execute_with_wrappers

    def counted(self, sql, *args, **kwargs):
        used["queries"].append(sql)
        return run(self, sql, *args, **kwargs)

    def opened(sender, connection, **kwargs):
        used["connections"] += 1

    CursorWrapper._execute_with_wrappers = counted
    connection_created.connect(opened)
    try:
        yield used
    finally:
        CursorWrapper._execute_with_wrappers = run
        connection_created.disconnect(opened)


async def test_a_public_screens_handshake_touches_no_database(event):
    """Once this process knows the tournament, a screen connects, pings, hears an event
    and leaves without a query or a new database connection, even from a browser that
    carries a staff member's session cookie."""
    first = await connected(event.pk)  # the tournament's existence is read once
    await first.disconnect()
    cookie = (b"cookie", b"sessionid=abcdefghijklmnopqrstuvwxyz012345; csrftoken=x")

    with database_use() as used:
        communicator = await connected(event.pk, headers=[cookie])
        await ping(communicator)
        await broadcast(event.pk, 1)
        assert (await communicator.receive_json_from(timeout=5))["data"] == {"n": 1}
        await communicator.disconnect()

    assert used == {"queries": [], "connections": 0}


async def test_unknown_tournament_is_refused_each_time():
    for _ in range(2):
        assert await refusal(999_999_998) == consumers.NOT_FOUND


# --- Redis connections are shared, not made per socket -----------------------------------


def redis_clients_named(name: str) -> int:
    with redis.Redis.from_url(settings.REDIS_URL) as client:
        return sum(1 for c in client.client_list() if c.get("name") == name)


@pytest.mark.redis
async def test_counting_handshakes_opens_no_redis_connection_per_socket(settings, event):
    """Django makes a cache object per async context, so per socket: the counts' cache
    must not make a connection pool with each (floorman.cache: one per process)."""
    name = f"floorman-test-{random.randrange(10**9)}"
    settings.CACHES = {
        **settings.CACHES,
        "ratelimit": {
            "BACKEND": "floorman.cache.CounterCache",
            "LOCATION": settings.REDIS_URL,
            "KEY_PREFIX": settings.CACHES["ratelimit"]["KEY_PREFIX"],  # this run's keys only
            "OPTIONS": {"client_name": name},
        },
    }
    settings.FLOORMAN_RATE_WEBSOCKET = "1000/m"
    settings.FLOORMAN_WEBSOCKETS_PER_ADDRESS = 1000

    screens = [await connected(event.pk) for _ in range(12)]  # a pool each would be 12
    held = await sync_to_async(redis_clients_named)(name)
    for communicator in screens:
        await communicator.disconnect()

    assert 1 <= held <= 4
    assert await sync_to_async(redis_clients_named)(name) <= 4


@pytest.mark.redis
async def test_a_flood_of_handshakes_leaves_few_redis_connections_open(settings, event):
    """Every group_add of a burst of handshakes took a connection of its own, and the
    pool kept them all open afterwards (368 after 2,000 handshakes): the channel layer's
    pool is bounded, and a burst waits for a free connection instead."""
    name, most = f"floorman-test-{random.randrange(10**9)}", 20
    layers = copy.deepcopy(settings.CHANNEL_LAYERS)
    layers["default"]["CONFIG"]["hosts"][0].update(client_name=name, max_connections=most)
    settings.CHANNEL_LAYERS = layers

    screens = await asyncio.gather(*(connected(event.pk) for _ in range(200)))
    await broadcast(event.pk, 1)
    for communicator in screens:
        assert (await communicator.receive_json_from(timeout=10))["data"] == {"n": 1}
    await asyncio.gather(*(communicator.disconnect() for communicator in screens))

    assert await sync_to_async(redis_clients_named)(name) <= most
    await get_channel_layer().close_pools()

"""A player's phone page has a socket of its own (web.consumers.EntryConsumer,
/ws/tournaments/<id>/entries/<entry id>/, issue 20 item 8): it hears its entry's moves
and status and a whole draw, not another player's move nor the clock, under the same
limits per address as every screen's socket."""

import random

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.urls import reverse

from clock import services as clock_services
from clock.tests.factories import with_structure
from floorman import live
from seating import engine, services
from seating.models import Seat
from seating.selectors import table_views
from seating.tests.factories import add_tables, field
from seating.views.public import entry_socket
from tournaments.tests.factories import register, tournament
from web import consumers
from web.asgi import application
from web.tests.test_consumers import database_use

pytestmark = pytest.mark.django_db(transaction=True)

HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


def address() -> str:
    return f"10.{random.randrange(256)}.{random.randrange(256)}.{random.randrange(1, 255)}"


def phone(tournament_id: int, entry_id: int, ip: str = "") -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(
        application,
        entry_socket(tournament_id, entry_id),
        headers=[*HEADERS, (b"x-real-ip", (ip or address()).encode())],
    )
    communicator.scope["client"] = ("172.18.0.5", 40000)  # the proxy
    return communicator


async def connected(tournament_id: int, entry_id: int, ip: str = "") -> WebsocketCommunicator:
    live.flush()  # what the set-up published is out before this socket listens
    communicator = phone(tournament_id, entry_id, ip)
    opened, _ = await communicator.connect(timeout=5)
    assert opened
    hello = {"type": "hello", "tournament": tournament_id, "entry": entry_id}
    assert await communicator.receive_json_from(timeout=5) == hello
    return communicator


async def refusal(tournament_id: int, entry_id: int, ip: str = "") -> int | None:
    communicator = phone(tournament_id, entry_id, ip)
    opened, code = await communicator.connect(timeout=5)
    await communicator.disconnect()
    return None if opened else code


@sync_to_async
def seated_event():
    """18 players drawn at 3 tables, the clock running; the table to break's players and
    one of another table."""
    event = tournament()
    add_tables(event, 3)
    field(event, 18)
    services.seating_draw(actor=None, tournament_id=event.pk, tables=3)
    with_structure(event)
    clock_services.clock_act(actor=None, tournament_id=event.pk, action="start")
    breaking = engine.table_to_break(table_views(event.pk)).number
    seats = Seat.objects.filter(table__tournament=event).exclude(entry=None)
    leaving = list(seats.filter(table__number=breaking).values_list("entry_id", flat=True))
    staying = seats.exclude(table__number=breaking).values_list("entry_id", flat=True).first()
    return event, breaking, leaving, staying


async def test_a_phone_hears_its_own_move_and_not_the_clock_nor_another_players():
    event, breaking, leaving, staying = await seated_event()
    mine, other = leaving[0], leaving[1]
    moved = await connected(event.pk, mine)
    stays = await connected(event.pk, staying)

    await sync_to_async(clock_services.clock_act)(
        actor=None, tournament_id=event.pk, action="pause"
    )
    await sync_to_async(services.table_break)(actor=None, tournament_id=event.pk, number=breaking)

    message = await moved.receive_json_from(timeout=5)  # not the pause: it came first
    assert message["type"] == "seating.updated"
    assert message["data"]["freed"] == []
    [row] = message["data"]["seats"]
    assert row["entry"] == mine and row["from_table"] == breaking and row["table"] != breaking
    assert other not in [r["entry"] for r in message["data"]["seats"]]
    # The staying player heard neither the pause nor the break: the next thing it hears
    # is its own news, sent after them.
    await sync_to_async(live._send)(
        event.pk, {"type": live.ENTRY_UPDATED, "tournament": event.pk, "data": {"id": staying}}
    )
    assert (await stays.receive_json_from(timeout=5))["data"] == {"id": staying}
    await moved.disconnect()
    await stays.disconnect()


async def test_a_whole_draw_reaches_every_phone(monkeypatch):
    event = await sync_to_async(tournament)()
    await sync_to_async(add_tables)(event, 3)
    entries = await sync_to_async(field)(event, 18)
    phones = [await connected(event.pk, entry.pk) for entry in entries[:2]]
    monkeypatch.setattr(services, "LIVE_MOVES_MAX", 1)  # a draw of 18 is "whole" now

    await sync_to_async(services.seating_draw)(actor=None, tournament_id=event.pk, tables=3)

    for communicator in phones:
        message = await communicator.receive_json_from(timeout=5)
        assert message["type"] == "seating.updated" and message["data"]["resync"] is True
        await communicator.disconnect()


async def test_an_entry_of_another_tournament_or_none_is_not_found():
    event, _, leaving, _ = await seated_event()
    other = await sync_to_async(tournament)()

    assert await refusal(other.pk, leaving[0]) == consumers.NOT_FOUND
    assert await refusal(event.pk, 999_999_999) == consumers.NOT_FOUND
    assert await refusal(999_999_999, leaving[0]) == consumers.NOT_FOUND


async def test_a_phones_sockets_count_against_its_address(settings):
    event, _, leaving, staying = await seated_event()
    settings.FLOORMAN_WEBSOCKETS_PER_ADDRESS = 1
    ip = address()
    first = await connected(event.pk, leaving[0], ip)

    assert await refusal(event.pk, staying, ip) == consumers.REFUSED
    await first.disconnect()  # its count given back
    again = await connected(event.pk, staying, ip)
    await again.disconnect()


async def test_handshakes_over_the_rate_are_refused(settings):
    event, _, leaving, _ = await seated_event()
    settings.FLOORMAN_RATE_WEBSOCKET = "2/m"
    ip = address()
    for _ in range(2):
        await (await connected(event.pk, leaving[0], ip)).disconnect()

    assert await refusal(event.pk, leaving[0], ip) == consumers.REFUSED


async def test_a_closed_phone_leaves_both_its_groups(monkeypatch):
    event, _, leaving, _ = await seated_event()
    layer = get_channel_layer()
    calls = []
    add, discard = layer.group_add, layer.group_discard

    async def group_add(group, channel):
        calls.append(("add", group))
        await add(group, channel)

    async def group_discard(group, channel):
        calls.append(("discard", group))
        await discard(group, channel)

    monkeypatch.setattr(layer, "group_add", group_add)
    monkeypatch.setattr(layer, "group_discard", group_discard)
    communicator = await connected(event.pk, leaving[0])

    await communicator.disconnect()

    added = sorted(group for kind, group in calls if kind == "add")
    assert len(added) == 2
    assert added == sorted(group for kind, group in calls if kind == "discard")


def test_the_phone_page_opens_its_entrys_socket(client):
    event, _, leaving, _ = async_to_sync(seated_event)()
    number = event.entries.get(pk=leaving[0]).number

    response = client.get(reverse("tournaments:entry-public", args=[event.pk, number]))

    assert response.status_code == 200
    html = response.content.decode()
    assert entry_socket(event.pk, leaving[0]) in html
    assert f'"/ws/tournaments/{event.pk}/"' not in html


async def test_a_phones_handshake_reads_nothing_once_its_tournaments_entries_are_known():
    """A room of phones connecting at once (after a restart) asks the database once per
    tournament, not once per phone."""
    event, _, leaving, staying = await seated_event()
    await (await connected(event.pk, leaving[0])).disconnect()  # the entries read once

    with database_use() as used:
        for entry in (leaving[1], staying):
            await (await connected(event.pk, entry)).disconnect()

    assert used == {"queries": [], "connections": 0}


async def test_an_entry_registered_after_its_tournament_was_read_is_found():
    event = await sync_to_async(tournament)()
    first = await sync_to_async(register)(event, "Early Erna")
    await (await connected(event.pk, first.entry.pk)).disconnect()
    late = await sync_to_async(register)(event, "Late Larry")

    await (await connected(event.pk, late.entry.pk)).disconnect()

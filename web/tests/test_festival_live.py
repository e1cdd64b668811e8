"""A change in a flight reaches the open screens of its event (issue 17, item 6): the
event's lobby hears "overview.changed" and fetches its overview once."""

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import transaction

from clock import services as clock_services
from clock.tests.factories import with_structure
from floorman import live
from hands.services import busts
from tournaments.services import tournament_lock
from tournaments.tests.factories import register, tournament
from tournaments.tests.festival_view_factories import flight, main_event
from web.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)

HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


async def screen_of(tournament_id: int) -> WebsocketCommunicator:
    live.flush()  # what the set-up published is out before this socket listens
    screen = WebsocketCommunicator(
        application, f"/ws/tournaments/{tournament_id}/", headers=HEADERS
    )
    connected, _code = await screen.connect(timeout=5)
    assert connected
    assert (await screen.receive_json_from(timeout=5))["type"] == "hello"
    return screen


def event_with_flight():
    event = main_event()
    return event, flight(event, "1A")


async def test_an_entry_in_a_flight_tells_the_events_screens_that_its_overview_changed():
    event, day1a = await sync_to_async(event_with_flight)()
    lobby = await screen_of(event.pk)
    flight_lobby = await screen_of(day1a.pk)

    await sync_to_async(register)(day1a, "Anna Berger")

    assert await lobby.receive_json_from(timeout=5) == {
        "type": "overview.changed",
        "tournament": event.pk,
        "data": {"flight": day1a.pk, "change": "entry.registered"},
    }
    assert await lobby.receive_nothing(timeout=0.3)  # never the flight's own event
    assert (await flight_lobby.receive_json_from(timeout=5))["type"] == "entry.registered"
    await lobby.disconnect()
    await flight_lobby.disconnect()


async def test_a_bust_in_a_flight_changes_the_events_overview():
    event, day1a = await sync_to_async(event_with_flight)()
    anna = (await sync_to_async(register)(day1a, "Anna Berger")).entry
    await sync_to_async(register)(day1a, "Ben Ode")
    lobby = await screen_of(event.pk)

    await sync_to_async(busts.entry_bust)(actor=None, tournament_id=day1a.pk, entry_id=anna.pk)

    changes = set()
    while not await lobby.receive_nothing(timeout=0.5):
        message = await lobby.receive_json_from(timeout=5)
        assert message["type"] == "overview.changed"
        changes.add(message["data"]["change"])
    assert "entry.updated" in changes
    await lobby.disconnect()


async def test_any_service_of_a_flight_that_locks_it_is_relayed_so_a_bag_recorded_is_too():
    """A bag is recorded as every change of a flight: under the flight's lock, then its
    live event (tournaments.services.bags, another part of issue 17)."""
    event, day1a = await sync_to_async(event_with_flight)()
    lobby = await screen_of(event.pk)

    def bag_recorded():
        with transaction.atomic():
            tournament_lock(day1a.pk)
            live.live_publish(
                tournament_id=day1a.pk, kind=live.TOURNAMENT_UPDATED, data={"id": day1a.pk}
            )

    await sync_to_async(bag_recorded)()

    message = await lobby.receive_json_from(timeout=5)
    assert message["data"] == {"flight": day1a.pk, "change": "tournament.updated"}
    await lobby.disconnect()


async def test_the_flights_clock_stays_on_the_flights_screens():
    event, day1a = await sync_to_async(event_with_flight)()
    await sync_to_async(with_structure)(day1a)
    lobby = await screen_of(event.pk)

    await sync_to_async(clock_services.clock_act)(
        actor=None, tournament_id=day1a.pk, action="start"
    )

    assert await lobby.receive_nothing(timeout=0.5)
    await lobby.disconnect()


async def test_an_event_without_flights_relays_nothing():
    event, other = await sync_to_async(tournament)(), await sync_to_async(tournament)()
    screen = await screen_of(other.pk)

    await sync_to_async(register)(event, "Anna Berger")

    assert await screen.receive_nothing(timeout=0.5)
    await screen.disconnect()

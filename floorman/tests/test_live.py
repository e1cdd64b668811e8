"""Live events: what a service does reaches every open screen of the tournament."""

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from rest_framework.test import APIClient

from tournaments.tests.factories import staff, tournament
from web.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)

HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


async def _connect(tournament_id: int) -> WebsocketCommunicator:
    screen = WebsocketCommunicator(
        application, f"/ws/tournaments/{tournament_id}/", headers=HEADERS
    )
    connected, _code = await screen.connect(timeout=5)
    assert connected
    assert await screen.receive_json_from(timeout=5) == {
        "type": "hello",
        "tournament": tournament_id,
    }
    return screen


def _register_through_api(tournament_id: int, user, name: str):
    client = APIClient(HTTP_X_FORWARDED_PROTO="https")  # through the TLS proxy
    client.force_authenticate(user)
    return client.post(
        f"/api/v1/tournaments/{tournament_id}/entries/",
        {"player": {"name": name, "country": "AT", "email": "anna@example.com"}},
        format="json",
    )


async def test_entry_registered_through_api_reaches_a_connected_screen():
    event = await sync_to_async(tournament)()
    cashier = await sync_to_async(staff)("cashier")
    screen = await _connect(event.pk)

    response = await sync_to_async(_register_through_api)(event.pk, cashier, "Anna Berger")
    assert response.status_code == 201

    message = await screen.receive_json_from(timeout=5)
    entry = response.json()
    assert message == {
        "type": "entry.registered",
        "tournament": event.pk,
        "data": {
            "id": entry["id"],
            "number": 1,
            "reentry_number": 1,
            "player": {
                "id": entry["player"]["id"],
                "name": "Anna Berger",
                "nickname": "",
                "country": "AT",
            },
            "status": "active",
            "chips": 20000,
            "table": None,
            "seat": None,
        },
    }
    assert "anna@example.com" not in str(message)
    await screen.disconnect()


async def test_screen_of_another_tournament_hears_nothing():
    event, other = await sync_to_async(tournament)(), await sync_to_async(tournament)(name="Other")
    cashier = await sync_to_async(staff)("cashier")
    screen = await _connect(other.pk)

    response = await sync_to_async(_register_through_api)(event.pk, cashier, "Ben Ode")
    assert response.status_code == 201
    assert await screen.receive_nothing(timeout=0.5)
    await screen.disconnect()


async def test_refused_registration_sends_no_event():
    event = await sync_to_async(tournament)(status="planned")
    cashier = await sync_to_async(staff)("cashier")
    screen = await _connect(event.pk)

    response = await sync_to_async(_register_through_api)(event.pk, cashier, "Cleo Dahl")
    assert response.status_code == 409
    assert await screen.receive_nothing(timeout=0.5)
    await screen.disconnect()


async def test_unknown_tournament_is_refused():
    screen = WebsocketCommunicator(application, "/ws/tournaments/999999/", headers=HEADERS)
    connected, code = await screen.connect(timeout=5)
    assert not connected
    assert code == 4404

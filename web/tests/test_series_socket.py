"""A series' schedule socket (/ws/series/<id>/, issue 17): a public series' page hears
its events' status changes; a series that is not public is not found."""

import random

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from floorman import live
from seating.services import desk
from tournaments.services import series as services
from tournaments.tests.factories import tournament
from web.asgi import application
from web.consumers import NOT_FOUND

pytestmark = pytest.mark.django_db(transaction=True)

HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


def phone(series_id: int) -> WebsocketCommunicator:
    ip = f"10.{random.randrange(256)}.{random.randrange(256)}.{random.randrange(1, 255)}"
    communicator = WebsocketCommunicator(
        application, f"/ws/series/{series_id}/", headers=[*HEADERS, (b"x-real-ip", ip.encode())]
    )
    communicator.scope["client"] = ("172.18.0.5", 40000)  # the proxy
    return communicator


@sync_to_async
def festival_with_event(public: bool = True):
    event = tournament(name="Opening Deepstack", status="planned")
    day = timezone.localdate(event.start_at)
    series = services.series_add(
        actor=None,
        data={
            "name": "Spring",
            "slug": "spring",
            "starts_on": day,
            "ends_on": day,
            "public": public,
        },
    )
    services.series_event_set(
        actor=None, tournament_id=event.pk, series_id=series.pk, series_number=1
    )
    live.flush()  # what the set-up published is out before a phone listens
    return series, event


async def test_the_schedule_hears_an_event_open_its_registration():
    series, event = await festival_with_event()
    communicator = phone(series.pk)
    opened, _ = await communicator.connect(timeout=5)
    assert opened
    assert await communicator.receive_json_from(timeout=5) == {"type": "hello", "series": series.pk}

    await sync_to_async(desk.tournament_status_set)(
        actor=None, tournament_id=event.pk, status="registering"
    )

    message = await communicator.receive_json_from(timeout=5)
    assert message["type"] == "tournament.updated"
    assert (message["tournament"], message["data"]["status"]) == (event.pk, "registering")
    await communicator.disconnect()


async def test_a_series_that_is_not_public_has_no_socket():
    series, _ = await festival_with_event(public=False)
    communicator = phone(series.pk)

    opened, code = await communicator.connect(timeout=5)

    assert (opened, code) == (False, NOT_FOUND)
    await communicator.disconnect()

"""GET /api/v1/tournaments/{id}/overview/ (issue 17, item 6): public, the event with
flights as a whole, for a flight its event; documented in the OpenAPI schema."""

import pytest
from rest_framework.test import APIClient

from floorman.tests.openapi import api_schema, response_schema
from tournaments.models import BagStatus
from tournaments.tests.factories import tournament
from tournaments.tests.festival_view_factories import (
    bag,
    flight,
    flight_stopped,
    main_event,
    players,
)

pytestmark = pytest.mark.django_db


def overview_url(event) -> str:
    return f"/api/v1/tournaments/{event.pk}/overview/"


def get(url: str):
    return APIClient(HTTP_X_FORWARDED_PROTO="https").get(url)


def festival():
    event = main_event()
    day1a = flight(event, "1A", status="finished")
    anna, ben, _ = players(day1a, "Anna", "Ben", "Clara", busted=1)
    anna.player.email = "anna@example.com"
    anna.player.save()
    flight_stopped(day1a, confirmed=True)
    bag(anna, 45000)
    bag(ben, 15000)
    day1b = flight(event, "1B", day=1, status="finished")
    (anna_again,) = players(day1b, "Anna")
    flight_stopped(day1b, confirmed=True)
    bag(anna_again, 20000, status=BagStatus.FORFEITED)
    return event, day1a, day1b


def test_anyone_reads_the_events_flights_entries_survivors_and_chip_leaders():
    event, day1a, day1b = festival()

    response = get(overview_url(event))

    assert response.status_code == 200
    body = response.json()
    assert (body["id"], body["parent"], body["flight_name"]) == (event.pk, None, "")
    overview = body["overview"]
    assert [(f["id"], f["name"], f["entries"], f["survivors"]) for f in overview["flights"]] == [
        (day1a.pk, "1A", 3, 2),
        (day1b.pk, "1B", 1, 1),
    ]
    assert (overview["entries"], overview["survivors"], overview["day2"]) == (4, 2, None)
    assert [(row["player"]["name"], row["chips"]) for row in overview["chip_leaders"]] == [
        ("Anna", 45000),
        ("Ben", 15000),
    ]
    assert "anna@example.com" not in response.content.decode()


def test_a_flight_names_its_event_and_reads_the_events_overview():
    event, _, day1b = festival()

    body = get(overview_url(day1b)).json()

    assert body["parent"] == {"id": event.pk, "name": "Main Event"}
    assert body["flight_name"] == "1B"
    assert body["overview"]["event"]["id"] == event.pk
    assert body["overview"]["entries"] == 4


def test_a_tournament_without_flights_has_no_overview_and_an_unknown_one_is_404():
    plain = tournament()
    body = get(overview_url(plain)).json()
    assert (body["parent"], body["overview"]) == (None, None)
    assert get("/api/v1/tournaments/999999/overview/").status_code == 404


def test_the_overview_takes_four_queries_however_many_flights(django_assert_num_queries):
    event, *_ = festival()
    with django_assert_num_queries(4):  # the event, its flights, Day 2, the leaders
        get(overview_url(event))
    for name in ("1C", "1D", "1E"):
        players(flight(event, name), "Spieler")
    with django_assert_num_queries(4):
        assert len(get(overview_url(event)).json()["overview"]["flights"]) == 5


def test_the_schema_documents_the_overview():
    path = "/api/v1/tournaments/{tournament_pk}/overview/"
    assert "get" in api_schema()["paths"][path]
    schema = response_schema(path, "GET", 200)
    assert {"id", "name", "parent", "flight_name", "overview"} <= set(schema["properties"])

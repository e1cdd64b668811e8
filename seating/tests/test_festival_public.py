"""The phone pages of an event with flights (issue 17, item 6): a flight's seat lookup and
page name its event and link to it; the event's list its flights and the chip counts of
the bags, forfeited bags left out."""

import re

import pytest
from django.urls import reverse

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


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def page(client, name: str, *args, **headers) -> str:
    response = client.get(reverse(name, args=args), **headers)
    assert response.status_code == 200
    return response.content.decode()


def festival():
    """Day 1A: three entries, Anna (45,000) and Ben (15,000) bagged; Day 1B: Anna again,
    her 20,000 forfeited (she keeps the larger stack), and Cem with 30,000."""
    event = main_event()
    day1a = flight(event, "1A", status="finished")
    anna, ben, _ = players(day1a, "Anna", "Ben", "Clara", busted=1)
    flight_stopped(day1a, confirmed=True)
    bag(anna, 45000)
    bag(ben, 15000)
    day1b = flight(event, "1B", day=1, status="finished")
    anna_again, cem = players(day1b, "Anna", "Cem")
    flight_stopped(day1b, confirmed=True)
    bag(anna_again, 20000, status=BagStatus.FORFEITED)
    bag(cem, 30000)
    return event, day1a, day1b


def test_a_flights_seat_lookup_names_its_event_and_links_to_its_lookup(client):
    event, _, day1b = festival()

    html = page(client, "seats:lookup", day1b.pk)

    assert "Day 1B — flight of" in text(html)
    assert f'<a href="{reverse("seats:lookup", args=[event.pk])}">Main Event</a>' in html


def test_the_events_seat_lookup_lists_its_flights_and_the_chip_counts_of_the_bags(client):
    event, day1a, day1b = festival()

    html = page(client, "seats:lookup", event.pk)
    shown = text(html)

    assert f'href="{reverse("seats:lookup", args=[day1a.pk])}"' in html
    assert f'href="{reverse("seats:lookup", args=[day1b.pk])}"' in html
    assert "In all 5 3" in shown  # Anna counted once
    assert "1 Anna Day 1A 1 45,000 2 Cem Day 1B 2 30,000 3 Ben Day 1A 2 15,000" in shown
    assert "20,000" not in shown


def test_the_events_page_lists_its_flights_and_a_flights_page_links_to_the_event(client):
    event, day1a, _ = festival()

    shown = text(page(client, "tournaments:detail", event.pk))
    assert "Finished · bags confirmed 3 2" in shown
    assert "Anna Day 1A 1 45,000" in shown

    html = page(client, "tournaments:detail", day1a.pk)
    assert f'<a href="{reverse("tournaments:detail", args=[event.pk])}">Main Event</a>' in html


def test_a_players_page_in_a_flight_names_the_flight_and_its_event(client):
    event, day1a, _ = festival()

    html = page(client, "tournaments:entry-public", day1a.pk, 1)

    assert "Day 1A — flight of" in text(html)
    assert f'href="{reverse("tournaments:detail", args=[event.pk])}"' in html


def test_the_phone_pages_speak_german(client):
    event, _, day1b = festival()

    assert "Tag 1B – Flight von Main Event" in text(
        page(client, "seats:lookup", day1b.pk, HTTP_ACCEPT_LANGUAGE="de")
    )
    shown = text(page(client, "seats:lookup", event.pk, HTTP_ACCEPT_LANGUAGE="de"))
    assert "Chipcounts (Bags)" in shown
    assert "Insgesamt 5 3" in shown


def test_the_seat_lookup_of_a_tournament_without_flights_still_takes_one_query(
    client, django_assert_num_queries
):
    event = tournament()
    with django_assert_num_queries(1):  # the tournament, knowing it has no flights
        client.get(reverse("seats:lookup", args=[event.pk]))


def test_the_events_seat_lookup_asks_no_more_queries_for_more_flights(
    client, django_assert_num_queries
):
    event, *_ = festival()
    url = reverse("seats:lookup", args=[event.pk])
    with django_assert_num_queries(4):  # the event, its flights, Day 2, the bags
        client.get(url)
    for name in ("1C", "1D"):
        more = flight(event, name, status="finished")
        flight_stopped(more, confirmed=True)
        bag(players(more, f"Spieler {name}")[0], 10000)
    with django_assert_num_queries(4):
        assert "Day 1D" in client.get(url).content.decode()

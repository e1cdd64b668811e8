"""The director's Day 2 page (issue 17): flights and bags, the players in two flights,
the field, the start and the seats afterwards; in a fixed number of queries."""

import pytest
from django.urls import reverse

from seating.services.day2 import day2_start
from seating.tests.test_day2 import two_flights
from tournaments.models import Bag, BagStatus, Entry
from tournaments.tests import factories
from tournaments.tests.festival_factories import player

pytestmark = pytest.mark.django_db


def page(client, event) -> str:
    response = client.get(reverse("seating:day2", args=[event.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_the_page_shows_the_bags_the_double_survivor_and_the_field(client):
    event, (a, _b), _bags = two_flights()
    client.force_login(factories.staff("director"))

    html = page(client, event)

    assert "1A-1" in html and "1B-1" in html
    assert "Players in two flights" in html
    assert "Plays bag 1B-1 (52,000 chips)" in html
    assert "3 players with 111,000 chips." in html
    assert "Start Day 2 (redraw, TDA 7)" in html
    assert "The clock resumes at level 1, where the flights stopped." in html
    # A flight's Day 2 link opens its event's page.
    response = client.get(reverse("seating:day2", args=[a.pk]))
    assert response.url == reverse("seating:day2", args=[event.pk])


def test_the_start_button_says_why_day_2_cannot_start_yet(client):
    event, (a, b), _bags = two_flights()
    Bag.objects.filter(flight=b).delete()
    b.flight_end.delete()
    client.force_login(factories.staff("director"))

    html = page(client, event)

    assert "Play has not stopped yet in: 1B." in html
    assert "disabled" in html


def test_the_director_starts_day_2_and_sees_the_seats(client):
    event, _flights, _bags = two_flights()
    client.force_login(factories.staff("director"))

    response = client.post(reverse("seating:day2-start", args=[event.pk]), follow=True)

    html = response.content.decode()
    assert "Day 2 has started: 3 players drawn to new seats (TDA 7)." in html
    assert "Day 2 seats" in html
    assert html.count("<bdi>Anna</bdi>") >= 1


def test_the_player_chooses_on_the_page_where_the_house_lets_them(client):
    event, _flights, (anna_a, _bo, anna_b, _dana) = two_flights(survivor_keeps="choose")
    client.force_login(factories.staff("floor"))
    html = page(client, event)
    assert "Must choose a bag before Day 2" in html

    client.post(reverse("seating:day2-choose", args=[event.pk, anna_a.pk]))

    anna_b.refresh_from_db()
    assert anna_b.status == BagStatus.FORFEITED


def test_a_cashier_may_not_open_the_day_2_page(client):
    event, _flights, _bags = two_flights()
    client.force_login(factories.staff("cashier"))
    assert client.get(reverse("seating:day2", args=[event.pk])).status_code == 403


# Session, user, roles, the event, its flights (with their ends and survivors), the bags
# with their players; after the start the seats.
DAY2_PAGE_QUERIES = 6


def test_the_page_costs_the_same_queries_for_a_bigger_field(client, django_assert_num_queries):
    event, (a, b), _bags = two_flights()
    client.force_login(factories.staff("director"))
    page(client, event)  # warm up: roles and content types read once per process
    with django_assert_num_queries(DAY2_PAGE_QUERIES):
        page(client, event)
    more = {
        Entry.objects.create(
            tournament=b, player=player(f"More {n}"), number=10 + n, chips=1
        ): 10000
        for n in range(12)
    }
    Bag.objects.bulk_create(
        [Bag(flight=b, entry=e, number=10 + i, chips=c) for i, (e, c) in enumerate(more.items())]
    )
    with django_assert_num_queries(DAY2_PAGE_QUERIES):
        page(client, event)
    day2_start(actor=None, event_id=event.pk)
    with django_assert_num_queries(DAY2_PAGE_QUERIES + 1):
        html = page(client, event)
    assert "15 players seated." in html

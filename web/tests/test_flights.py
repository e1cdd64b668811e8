"""The flight pages (web.flights) and the tablet's "Bag chips" step (issue 17): the
event's flights with "Add flight", the director's stop, the bagging page with its check
and the director's confirmation, the bag-and-tag sheet; who may do what; bad input and
refusals change nothing; the pages' queries do not grow with the field."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from clock import services as clock_services
from tournaments.models import Bag, FlightEnd, Tournament
from tournaments.services.bags import bag_record
from tournaments.tests.factories import staff
from tournaments.tests.flights import flight_of, main_event, running_flight, stopped_flight

pytestmark = pytest.mark.django_db

TOMORROW = (timezone.localtime() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")


def html(response) -> str:
    return response.content.decode()


def signed_in(client, role: str):
    client.force_login(staff(role))
    return client


def url(name: str, flight) -> str:
    return reverse(f"tournaments:{name}", args=[flight.pk])


# --- The event's flights ---------------------------------------------------------------------


def test_the_director_adds_a_flight_and_the_list_shows_entries_and_survivors(client):
    event = main_event()
    running_flight(event, "Day 1A")
    director = signed_in(client, "director")

    response = director.post(
        url("flights", event), {"flight_name": "Day 1B", "start_at": TOMORROW}, follow=True
    )

    page = html(response)
    assert response.status_code == 200
    assert "Day 1A" in page and "Day 1B" in page
    assert Tournament.objects.get(parent=event, flight_name="Day 1B").name == (
        "Main Event – Day 1B"
    )
    start = page.index(">Day 1A</a>")
    row = page[start : page.index("</tr>", start)]
    assert row.count('class="num">6<') == 2  # six entries, six survivors still in


def test_a_flight_name_taken_is_refused_on_the_page_with_409_and_nothing_made(client):
    event = main_event()
    flight_of(event, "Day 1A")
    director = signed_in(client, "director")

    response = director.post(url("flights", event), {"flight_name": "Day 1A", "start_at": TOMORROW})
    empty = director.post(url("flights", event), {"flight_name": "", "start_at": TOMORROW})

    assert response.status_code == 409
    assert "already has a flight of this name" in html(response)
    assert empty.status_code == 400
    assert event.flights.count() == 1


def test_the_floor_may_not_add_flights(client):
    event = main_event()
    floor = signed_in(client, "floor")

    assert floor.get(url("flights", event)).status_code == 403
    response = floor.post(url("flights", event), {"flight_name": "Day 1A", "start_at": TOMORROW})
    assert response.status_code == 403
    assert not event.flights.exists()


def test_the_events_navigation_links_its_flights_and_a_flights_its_end(client):
    event = main_event()
    flight = flight_of(event, "Day 1A")
    director = signed_in(client, "director")

    assert url("flights", event) in html(
        director.get(reverse("tournaments:detail", args=[event.pk]))
    )
    assert url("flight-end", flight) in html(
        director.get(reverse("tournaments:detail", args=[flight.pk]))
    )


def test_the_flights_page_queries_do_not_grow_with_the_flights(
    client, django_assert_max_num_queries
):
    event = main_event()
    flight_of(event, "Day 1A")
    director = signed_in(client, "director")
    director.get(url("flights", event))
    with django_assert_max_num_queries(30) as one:
        director.get(url("flights", event))
    for name in ("Day 1B", "Day 1C", "Day 1D"):
        flight_of(event, name)

    with django_assert_max_num_queries(len(one.captured_queries)):
        response = director.get(url("flights", event))

    assert "Day 1D" in html(response)


# --- The end of a flight at the floor ------------------------------------------------------------


def test_the_director_stops_play_and_the_floor_may_not(client):
    event = main_event()
    flight, _seats = running_flight(event)
    floor = signed_in(client, "floor")
    assert floor.post(url("flight-stop", flight)).status_code == 403
    assert not FlightEnd.objects.exists()

    director = signed_in(client, "director")
    response = director.post(url("flight-stop", flight), follow=True)

    assert response.status_code == 200
    assert "Play has stopped" in html(response)
    assert FlightEnd.objects.get(flight=flight).reason == "director"
    again = director.post(url("flight-stop", flight))
    assert again.status_code == 409


def test_the_floor_bags_each_survivor_on_the_bagging_page_and_sees_the_difference(client):
    event = main_event()
    flight, seats = stopped_flight(event)
    floor = signed_in(client, "floor")

    for place, entry in seats.items():
        chips = 19000 if place == (1, 1) else 20000
        response = floor.post(url("bag-record", flight), {"entry": entry.pk, "chips": chips})
        assert response.status_code == 302
    page = html(floor.get(url("flight-end", flight)))

    assert Bag.objects.filter(flight=flight).count() == 6
    assert 'data-difference class="warn">-1,000' in page or "-1.000" in page
    assert "Confirm the bags" not in page  # the director's


def test_a_bad_count_on_the_bagging_page_is_400_and_a_bag_before_the_stop_409(client):
    event = main_event()
    flight, seats = running_flight(event)
    floor = signed_in(client, "floor")
    entry = seats[(1, 1)]

    before = floor.post(url("bag-record", flight), {"entry": entry.pk, "chips": 1000})
    clock_services.flight_stop(actor=None, tournament_id=flight.pk)
    nought = floor.post(url("bag-record", flight), {"entry": entry.pk, "chips": 0})
    words = floor.post(url("bag-record", flight), {"entry": entry.pk, "chips": "lots"})

    assert before.status_code == 409 and "not stopped" in html(before)
    assert nought.status_code == 400 and words.status_code == 400
    assert not Bag.objects.exists()


def test_the_director_confirms_a_difference_only_with_a_note(client):
    event = main_event()
    flight, seats = stopped_flight(event)
    for place, entry in seats.items():
        bag_record(
            actor=None,
            tournament_id=flight.pk,
            entry_id=entry.pk,
            chips=19500 if place == (2, 2) else 20000,
        )
    director = signed_in(client, "director")

    refused = director.post(url("bags-confirm", flight), {"accept_difference": "on"})
    done = director.post(
        url("bags-confirm", flight),
        {"accept_difference": "on", "note": "A 500 chip went home in a pocket"},
        follow=True,
    )

    assert refused.status_code == 409
    assert done.status_code == 200 and "confirmed the bags" in html(done)
    assert FlightEnd.objects.get(flight=flight).difference == -500


def test_the_bag_and_tag_sheet_has_one_tag_per_bag(client):
    event = main_event()
    flight, seats = stopped_flight(event)
    bag_record(actor=None, tournament_id=flight.pk, entry_id=seats[(2, 3)].pk, chips=52000)
    bag_record(actor=None, tournament_id=flight.pk, entry_id=seats[(1, 1)].pk, chips=3000)
    floor = signed_in(client, "floor")

    page = html(floor.get(url("bag-sheet", flight)))

    assert page.count('class="tag"') == 2
    assert "Bag 1" in page and "Bag 2" in page
    assert "52,000" in page and "Table 2 · seat 3" in page
    assert "Main Event" in page and "Flight Day 1A" in page


def test_the_bagging_page_and_the_sheet_do_not_grow_in_queries_with_the_bags(
    client, django_assert_max_num_queries
):
    event = main_event()
    flight, seats = stopped_flight(event, layout={1: [1, 2, 3, 4, 5, 6], 2: [1, 2, 3, 4, 5, 6]})
    entries = list(seats.values())
    floor = signed_in(client, "floor")
    bag_record(actor=None, tournament_id=flight.pk, entry_id=entries[0].pk, chips=100)
    floor.get(url("flight-end", flight))
    with django_assert_max_num_queries(30) as page_one:
        floor.get(url("flight-end", flight))
    with django_assert_max_num_queries(30) as sheet_one:
        floor.get(url("bag-sheet", flight))
    for entry in entries[1:]:
        bag_record(actor=None, tournament_id=flight.pk, entry_id=entry.pk, chips=100)

    with django_assert_max_num_queries(len(page_one.captured_queries)):
        floor.get(url("flight-end", flight))
    with django_assert_max_num_queries(len(sheet_one.captured_queries)):
        sheet = floor.get(url("bag-sheet", flight))
    assert html(sheet).count('class="tag"') == 12


# --- The tablet's "Bag chips" step -------------------------------------------------------------


def tablet(flight, number: int) -> str:
    return f"/tournaments/{flight.pk}/tables/{number}/tablet/"


def test_the_tablet_bags_its_own_tables_players_once_play_stopped(client):
    event = main_event()
    flight, seats = running_flight(event)
    dealer = signed_in(client, "dealer")
    assert "Bag chips" not in html(dealer.get(tablet(flight, 1)))
    clock_services.flight_stop(actor=None, tournament_id=flight.pk)

    page = html(dealer.get(tablet(flight, 1)))
    response = dealer.post(tablet(flight, 1), {"action": "bag", "seat": 2, "chips": 33000})
    empty = dealer.post(tablet(flight, 1), {"action": "bag", "seat": 9, "chips": 33000})

    assert "Bag chips" in page
    assert response.status_code == 302
    assert Bag.objects.get().entry == seats[(1, 2)]
    assert Bag.objects.get().chips == 33000
    assert empty.status_code == 400
    assert Bag.objects.count() == 1


def test_the_tablet_with_the_bag_step_does_not_grow_in_queries_with_the_bags(
    client, django_assert_max_num_queries
):
    event = main_event()
    flight, seats = stopped_flight(event, layout={1: [1, 2, 3, 4, 5, 6], 2: [1]})
    dealer = signed_in(client, "dealer")
    dealer.get(tablet(flight, 1))
    with django_assert_max_num_queries(60) as one:
        dealer.get(tablet(flight, 1))
    for seat in range(1, 7):
        bag_record(actor=None, tournament_id=flight.pk, entry_id=seats[(1, seat)].pk, chips=500)

    with django_assert_max_num_queries(len(one.captured_queries)):
        dealer.get(tablet(flight, 1))

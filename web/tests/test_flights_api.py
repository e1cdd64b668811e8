"""The flights' API (issue 17): the event's flights, a flight's stop, its bags, their
check and confirmation. Each refusal is 400 with field messages, 403, 404 or 409 with a
code, and writes nothing; the lists' queries do not grow with their rows."""

import pytest

from clock.models import Clock
from tournaments.models import Bag, FlightEnd, Tournament
from tournaments.services.bags import bag_record
from tournaments.tests.factories import api, staff, tournament
from tournaments.tests.flights import flight_of, main_event, running_flight, stopped_flight

pytestmark = pytest.mark.django_db

API = "/api/v1"
START = "2027-03-05T12:00:00+01:00"


def path(event, suffix: str) -> str:
    return f"{API}/tournaments/{event.pk}/{suffix}"


def test_the_director_adds_a_flight_and_anyone_reads_the_list():
    event = main_event()
    director = api(staff("director"))

    made = director.post(
        path(event, "flights/"), {"flight_name": "Day 1A", "start_at": START}, format="json"
    )
    listed = api().get(path(event, "flights/"))

    assert made.status_code == 201
    assert made.json()["name"] == "Main Event – Day 1A"
    assert listed.status_code == 200
    assert [
        (f["flight_name"], f["entries"], f["survivors"], f["flight_end"]) for f in listed.json()
    ] == [("Day 1A", 0, 0, None)]


@pytest.mark.parametrize(
    ("role", "body", "status"),
    [
        ("director", {"start_at": START}, 400),
        ("director", {"flight_name": "Day 1A", "start_at": "someday"}, 400),
        ("director", {"flight_name": "Day 1A", "start_at": START}, 409),  # taken
        ("floor", {"flight_name": "Day 1B", "start_at": START}, 403),
        (None, {"flight_name": "Day 1B", "start_at": START}, 401),
    ],
)
def test_adding_a_flight_refused_writes_nothing(role, body, status):
    event = main_event()
    flight_of(event, "Day 1A")
    client = api(staff(role)) if role else api()
    made = Tournament.objects.count()

    response = client.post(path(event, "flights/"), body, format="json")

    assert response.status_code == status
    assert Tournament.objects.count() == made
    assert Clock.objects.count() == 1


def test_a_flight_of_an_unknown_event_is_404_and_a_flight_of_a_flight_409():
    event = main_event()
    flight = flight_of(event, "Day 1A")
    director = api(staff("director"))
    body = {"flight_name": "Day 2", "start_at": START}

    assert (
        director.post(f"{API}/tournaments/999999/flights/", body, format="json").status_code == 404
    )
    refused = director.post(path(flight, "flights/"), body, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "flight_of_flight"


def test_the_director_stops_a_flight_through_the_api():
    flight, _seats = running_flight(main_event())

    floor = api(staff("floor")).post(path(flight, "flight-stop/"))
    stopped = api(staff("director")).post(path(flight, "flight-stop/"))
    again = api(staff("director")).post(path(flight, "flight-stop/"))
    lone = api(staff("director")).post(path(tournament(), "flight-stop/"))

    assert floor.status_code == 403
    assert stopped.status_code == 201
    assert stopped.json()["chips_in_play"] == 120000 and stopped.json()["reason"] == "director"
    assert again.status_code == 409 and again.json()["code"] == "flight_stopped"
    assert lone.status_code == 409 and lone.json()["code"] == "not_a_flight"
    assert FlightEnd.objects.count() == 1


def test_the_floor_records_bags_and_anyone_reads_them_and_the_check():
    flight, seats = stopped_flight(main_event())
    floor = api(staff("floor"))

    made = floor.post(
        path(flight, "bags/"), {"entry": seats[(1, 2)].pk, "chips": 44000}, format="json"
    )
    bags = api().get(path(flight, "bags/")).json()
    check = api().get(path(flight, "bags/check/")).json()

    assert made.status_code == 201 and made.json()["bag"] == 1
    assert [(b["table"], b["seat"], b["bag"], b["chips"]) for b in bags][:2] == [
        (1, 1, None, None),
        (1, 2, 1, 44000),
    ]
    assert check["expected"] == 120000 and check["bagged"] == 44000
    assert check["difference"] == -76000 and len(check["without_bag"]) == 5


SURVIVOR = "survivor"  # the id of a survivor, filled in by the test


@pytest.mark.parametrize(
    ("role", "body", "status"),
    [
        ("floor", {"chips": 100}, 400),  # which entry?
        ("floor", {"entry": "first", "chips": 100}, 400),
        ("floor", {"entry": SURVIVOR, "chips": 0}, 400),
        ("floor", {"entry": SURVIVOR, "chips": -5}, 400),
        ("floor", {"entry": SURVIVOR, "chips": "lots"}, 400),
        ("floor", {"entry": 999999, "chips": 100}, 404),
        ("cashier", {"entry": SURVIVOR, "chips": 100}, 403),
        ("dealer", {"entry": SURVIVOR, "chips": 100}, 403),
    ],
)
def test_a_bag_refused_writes_nothing(role, body, status):
    flight, seats = stopped_flight(main_event())
    if body.get("entry") == SURVIVOR:
        body = {**body, "entry": seats[(1, 1)].pk}

    response = api(staff(role)).post(path(flight, "bags/"), body, format="json")

    assert response.status_code == status
    assert not Bag.objects.exists()


def test_a_bag_before_the_stop_is_409():
    flight, seats = running_flight(main_event())

    response = api(staff("floor")).post(
        path(flight, "bags/"), {"entry": seats[(1, 1)].pk, "chips": 9}, format="json"
    )

    assert response.status_code == 409 and response.json()["code"] == "flight_not_stopped"
    assert not Bag.objects.exists()


def test_the_director_confirms_the_bags_through_the_api():
    flight, seats = stopped_flight(main_event())
    director = api(staff("director"))
    entries = list(seats.values())
    for entry in entries[:-1]:
        bag_record(actor=None, tournament_id=flight.pk, entry_id=entry.pk, chips=20000)

    missing = director.post(path(flight, "bags/confirm/"), {}, format="json")
    bag_record(actor=None, tournament_id=flight.pk, entry_id=entries[-1].pk, chips=20000)
    floor = api(staff("floor")).post(path(flight, "bags/confirm/"), {}, format="json")
    long_note = director.post(path(flight, "bags/confirm/"), {"note": "x" * 301}, format="json")
    done = director.post(path(flight, "bags/confirm/"), {}, format="json")

    assert missing.status_code == 409 and missing.json()["code"] == "bags_missing"
    assert floor.status_code == 403
    assert long_note.status_code == 400
    assert done.status_code == 200 and done.json()["confirmed"] is True
    assert done.json()["difference"] == 0


def test_the_lists_queries_do_not_grow_with_flights_and_bags(django_assert_max_num_queries):
    event = main_event()
    flight, seats = stopped_flight(event, layout={1: [1, 2], 2: [1, 2, 3, 4, 5, 6]})
    entries = list(seats.values())
    bag_record(actor=None, tournament_id=flight.pk, entry_id=entries[0].pk, chips=100)
    reader = api()
    counts = {}
    for suffix, target in (("flights/", event), ("bags/", flight), ("bags/check/", flight)):
        with django_assert_max_num_queries(10) as one:
            reader.get(path(target, suffix))
        counts[suffix] = len(one.captured_queries)
    flight_of(event, "Day 1B")
    flight_of(event, "Day 1C")
    for entry in entries[1:]:
        bag_record(actor=None, tournament_id=flight.pk, entry_id=entry.pk, chips=100)

    for suffix, target in (("flights/", event), ("bags/", flight), ("bags/check/", flight)):
        with django_assert_max_num_queries(counts[suffix]):
            response = reader.get(path(target, suffix))
        assert response.status_code == 200


def test_the_schema_documents_the_flights_api():
    schema = api().get(f"{API}/schema/", {"format": "json"}).json()

    for route in (
        "flights/",
        "flight-stop/",
        "bags/",
        "bags/check/",
        "bags/confirm/",
    ):
        assert f"/api/v1/tournaments/{{tournament_pk}}/{route}" in schema["paths"]

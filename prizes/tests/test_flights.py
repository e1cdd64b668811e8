"""Adding a flight to an event (issue 17, item 2) and entering a later flight (item 4):
a flight is a tournament of its own made from the event's setup; where the event allows
no entry in a later flight, a player entered in one is refused."""

import pytest

from clock.models import Clock
from clock.selectors import structure_steps
from clock.tests.factories import STEPS, with_structure
from floorman.errors import Conflict, Invalid
from floorman.models import AuditEntry
from floorman.tests.concurrency import at_once
from seating.models import Table
from seating.tests.factories import add_tables
from tournaments.models import Entry, Series, Tournament
from tournaments.tests.factories import register, staff
from tournaments.tests.flights import flight_of, main_event, registering

pytestmark = pytest.mark.django_db


def test_a_flight_is_a_tournament_of_its_own_with_the_events_setup_and_name():
    series = Series.objects.create(
        name="Spring Festival", slug="spring", starts_on="2026-04-01", ends_on="2026-04-09"
    )
    event = main_event(starting_stack=30000, buy_in=25000, fee=2500, series=series)
    event.series_number = 7
    event.save()
    with_structure(event)
    add_tables(event, 2)

    flight = flight_of(event, "Day 1A", actor=staff("director"))

    assert flight.name == "Main Event – Day 1A"
    assert (flight.parent, flight.flight_name, flight.series) == (event, "Day 1A", series)
    assert flight.series_number is None  # the event's number is the event's
    assert (flight.starting_stack, flight.buy_in, flight.fee) == (30000, 25000, 2500)
    assert flight.status == "planned"
    clock = Clock.objects.get(pk=flight.pk)
    assert structure_steps(clock.structure_id) == STEPS  # the event's structure ...
    assert clock.structure_id != Clock.objects.get(pk=event.pk).structure_id  # ... its own copy
    audit = AuditEntry.objects.get(action="tournament.flight_add")
    assert audit.after["event"] == event.pk and audit.after["flight_name"] == "Day 1A"


def test_a_flight_leaves_the_events_tables_to_it_and_gets_its_own_from_the_floor():
    event = main_event()
    add_tables(event, 2)

    flight = flight_of(event, "Day 1A")
    add_tables(flight, 2, first=3)

    assert list(Table.objects.filter(tournament=event).values_list("number", flat=True)) == [
        1,
        2,
    ]
    assert list(Table.objects.filter(tournament=flight).values_list("number", flat=True)) == [
        3,
        4,
    ]


def test_a_flight_of_a_flight_a_satellites_flight_and_a_name_twice_are_refused():
    event = main_event()
    day_1a = flight_of(event, "Day 1A")
    satellite = main_event(name="Mega Satellite", satellite_target=event)
    made = Tournament.objects.count()

    with pytest.raises(Conflict) as of_flight:
        flight_of(day_1a, "Day 1A-1")
    with pytest.raises(Conflict) as of_satellite:
        flight_of(satellite, "Day 1A")
    with pytest.raises(Conflict) as twice:
        flight_of(event, "day 1a")

    assert of_flight.value.code == "flight_of_flight"
    assert of_satellite.value.code == "flight_of_satellite"
    assert twice.value.code == "flight_name_taken"
    assert Tournament.objects.count() == made  # nothing written
    assert Clock.objects.filter(tournament__parent=event).count() == 1


@pytest.mark.parametrize(("name", "field"), [("", "flight_name"), ("D" * 21, "flight_name")])
def test_a_flight_needs_a_short_visible_name(name, field):
    event = main_event()
    with pytest.raises(Invalid) as error:
        flight_of(event, name)
    assert field in error.value.fields
    assert not event.flights.exists()


@pytest.mark.django_db(transaction=True)
def test_two_desks_adding_the_same_flight_at_once_make_it_once():
    event = main_event()

    results = at_once(lambda: flight_of(event, "Day 1B"), lambda: flight_of(event, "Day 1B"))

    assert sum(isinstance(r, Tournament) for r in results) == 1
    assert [r.code for r in results if isinstance(r, Conflict)] == ["flight_name_taken"]
    assert event.flights.count() == 1


def test_entering_a_later_flight_is_refused_where_the_event_allows_none_naming_the_flight():
    event = main_event(flight_reentry=False)
    day_1a = registering(flight_of(event, "Day 1A"))
    day_1b = registering(flight_of(event, "Day 1B"))
    register(day_1a, "Anna Berger", email="anna@example.org")
    player = Entry.objects.get(tournament=day_1a).player

    from seating.services import desk

    with pytest.raises(Conflict) as refused:
        desk.entry_register(actor=None, tournament_id=day_1b.pk, player_id=player.pk)

    assert refused.value.code == "flight_entered"
    assert "Day 1A" in refused.value.message
    assert not day_1b.entries.exists()


def test_entering_a_later_flight_is_fine_where_the_event_allows_it():
    event = main_event(flight_reentry=True)
    day_1a = registering(flight_of(event, "Day 1A"))
    day_1b = registering(flight_of(event, "Day 1B"))
    register(day_1a, "Anna Berger")
    player = Entry.objects.get(tournament=day_1a).player

    from seating.services import desk

    outcome = desk.entry_register(actor=None, tournament_id=day_1b.pk, player_id=player.pk)

    assert outcome.entry.tournament == day_1b

"""Test helpers for multi-flight events (issue 17): the event, a flight of it with a
field seated and play begun, and a flight stopped with its survivors to bag."""

from datetime import timedelta

from django.utils import timezone

from clock import services as clock_services
from clock.tests.factories import with_structure
from hands.tests.factories import seat_players
from prizes.services import events
from tournaments.models import Tournament
from tournaments.tests.factories import tournament

LAYOUT = {1: [1, 2, 3], 2: [1, 2, 3]}  # six players on two tables


def main_event(**settings) -> Tournament:
    """The festival's Main Event, whose flights are added: €100 + €10, 20,000 chips."""
    return tournament(**{"name": "Main Event", "status": "planned", **settings})


def flight_of(event: Tournament, name: str = "Day 1A", *, actor=None) -> Tournament:
    return events.flight_add(
        actor=actor,
        event_id=event.pk,
        flight_name=name,
        start_at=timezone.now().replace(microsecond=0) + timedelta(days=1),
    )


def registering(flight: Tournament) -> Tournament:
    Tournament.objects.filter(pk=flight.pk).update(status="registering")
    flight.refresh_from_db()
    return flight


def running_flight(event: Tournament, name: str = "Day 1A", layout=None) -> tuple:
    """A flight with its field seated (six players on two tables unless `layout`), its
    clock started: play has begun. Returns the flight and {(table, seat): entry}."""
    flight = registering(flight_of(event, name))
    seats = seat_players(flight, layout or LAYOUT)
    with_structure(flight)
    clock_services.clock_act(actor=None, tournament_id=flight.pk, action="start")
    flight.refresh_from_db()
    return flight, seats


def stopped_flight(event: Tournament, name: str = "Day 1A", layout=None) -> tuple:
    """A running flight the director has stopped: its survivors bag their chips."""
    flight, seats = running_flight(event, name, layout)
    clock_services.flight_stop(actor=None, tournament_id=flight.pk)
    flight.refresh_from_db()
    return flight, seats

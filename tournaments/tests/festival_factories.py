"""Test helpers for events with flights and their Day 2 (issue 17): flights made as
plain tournaments of the event, entries sold at the desk, and a flight put in the
"stopped and bagged" state by writing its `FlightEnd` and `Bag` rows directly, so the
Day 2 tests do not wait on the flight-end services."""

from datetime import timedelta

from django.utils import timezone

from seating.services import desk
from tournaments.models import Bag, FlightEnd, Player, Tournament
from tournaments.tests import factories


def event_with_flights(*names: str, **overrides) -> tuple[Tournament, list[Tournament]]:
    """A planned €100 + €10 event with 20,000 chips and its flights (Day 1A, 1B, ...),
    each registering, one day after the other, with the event's money and stack."""
    event = factories.tournament(status="planned", name="Main Event", **overrides)
    flights = [
        factories.tournament(
            name=f"Main Event Day {name}",
            parent=event,
            flight_name=name,
            buy_in=event.buy_in,
            fee=event.fee,
            starting_stack=event.starting_stack,
            table_size=event.table_size,
            start_at=event.start_at + timedelta(days=i),
        )
        for i, name in enumerate(names or ("1A", "1B"))
    ]
    return event, flights


def player(name: str) -> Player:
    return Player.objects.create(name=name)


def enter(flight: Tournament, person: Player):
    """The desk sells `person` an entry in `flight`."""
    return desk.entry_register(actor=None, tournament_id=flight.pk, player_id=person.pk).entry


def bagged(flight: Tournament, stacks: dict, *, confirmed: bool = True) -> list[Bag]:
    """Play stopped in `flight` and the survivors' chips bagged: `stacks` maps each
    surviving entry to its chips; bag numbers 1, 2, ... in that order. Confirmed by the
    director unless `confirmed` is off."""
    Tournament.objects.filter(pk=flight.pk).update(status="finished")
    FlightEnd.objects.create(
        flight=flight,
        reason=FlightEnd.Reason.DIRECTOR,
        chips_in_play=sum(stacks.values()),
        confirmed_at=timezone.now() if confirmed else None,
        difference=0 if confirmed else None,
    )
    return [
        Bag.objects.create(flight=flight, entry=entry, number=n, chips=chips)
        for n, (entry, chips) in enumerate(stacks.items(), start=1)
    ]


def confirm(flight: Tournament) -> None:
    FlightEnd.objects.filter(flight=flight).update(confirmed_at=timezone.now(), difference=0)

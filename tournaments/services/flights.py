"""The tournaments' refusals of a flight's rules (issue 17), under the caller's lock: a
player entered in another flight of the event (registration, `entry_sell`), and play in
a flight that has stopped (busts, hands).

Imports nothing of `tournaments.services` itself: the package imports this module."""

from floorman.errors import Conflict
from tournaments.engine import flights as engine
from tournaments.messages import refusal_message
from tournaments.models import Player, Tournament
from tournaments.selectors import flight_entered_in


def flight_refuse(code: str, **data) -> Conflict:
    return Conflict(refusal_message(code, **data), code=code, data=data)


def flight_entry_refuse(tournament: Tournament, player: Player) -> None:
    """Entering a later flight: where the event allows no entry in another flight
    (`flight_reentry` off), a player entered in one already is refused, with its name.
    Asks nothing of a tournament that is no flight."""
    if tournament.parent_id is None or tournament.parent.flight_reentry:
        return
    entered_in = flight_entered_in(tournament, player)
    if engine.later_flight_refusal(reentry_allowed=False, entered_in=entered_in):
        raise flight_refuse("flight_entered", flights=", ".join(entered_in))


def flight_play_refuse(tournament: Tournament) -> None:
    """A flight that has stopped takes no more busts or hands (its survivors bag)."""
    code = engine.play_refusal(is_flight=tournament.is_flight, status=tournament.status)
    if code:
        raise flight_refuse(code)


def flight_link(*, tournament: Tournament, parent: Tournament, flight_name: str) -> None:
    """The tournaments' part of adding a flight (prizes.services.events.flight_add), for
    an event just made from the parent's setup: it becomes the parent's flight, in the
    parent's series. Refused (409) for a flight of a flight, a satellite as parent, or a
    name the event's flights already have."""
    code = engine.flight_add_refusal(
        parent_is_flight=parent.is_flight,
        parent_is_satellite=parent.is_satellite,
        name_taken=parent.flights.filter(flight_name__iexact=flight_name).exists(),
    )
    if code:
        raise flight_refuse(code)
    tournament.parent = parent
    tournament.flight_name = flight_name
    tournament.series_id = parent.series_id
    tournament.save(update_fields=["parent", "flight_name", "series"])

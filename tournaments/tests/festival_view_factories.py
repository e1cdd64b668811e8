"""An event with flights, bags and Day 2 as rows, for the read side's tests (issue 17).

The services that run flights, bags and Day 2 are other parts of the issue; these tests
check what the lobby, the phone pages, the API and the screens show of what they wrote.
"""

from datetime import timedelta

from django.utils import timezone

from tournaments.models import Bag, BagStatus, Entry, EntryStatus, FlightEnd, Player
from tournaments.tests.factories import tournament


def main_event(name: str = "Main Event", **overrides):
    """The parent event, registering nothing itself until Day 2."""
    return tournament(name=name, status=overrides.pop("status", "planned"), **overrides)


def flight(event, flight_name: str, *, day: int = 0, **overrides):
    """A flight of `event`, its own tournament: the same structure, its own day."""
    return tournament(
        name=f"{event.name} – Day {flight_name}",
        parent=event,
        flight_name=flight_name,
        start_at=event.start_at + timedelta(days=day),
        buy_in=event.buy_in,
        fee=event.fee,
        starting_stack=event.starting_stack,
        **overrides,
    )


def entry(event, name: str, *, chips: int | None = None, status: str = EntryStatus.ACTIVE):
    """A player's entry, numbered after the tournament's last."""
    player = Player.objects.filter(name=name).first() or Player.objects.create(name=name)
    number = Entry.objects.filter(tournament=event).count() + 1
    return Entry.objects.create(
        tournament=event,
        player=player,
        number=number,
        chips=event.starting_stack if chips is None else chips,
        status=status,
        busted_at=timezone.now() if status == EntryStatus.BUSTED else None,
    )


def players(event, *names: str, busted: int = 0) -> list[Entry]:
    """Entries for `names`; the last `busted` of them out already."""
    keep = len(names) - busted
    return [
        entry(event, name, status=EntryStatus.ACTIVE if i < keep else EntryStatus.BUSTED)
        for i, name in enumerate(names)
    ]


def flight_stopped(flight_, *, confirmed: bool = False) -> FlightEnd:
    """Play stopped for the day; `confirmed`: the director accepted the bags."""
    chips = sum(Entry.objects.filter(tournament=flight_).values_list("chips", flat=True))
    return FlightEnd.objects.create(
        flight=flight_,
        reason=FlightEnd.Reason.LEVEL,
        chips_in_play=chips,
        confirmed_at=timezone.now() if confirmed else None,
        difference=0 if confirmed else None,
    )


def bag(entry_: Entry, chips: int, *, status: str = BagStatus.SEALED) -> Bag:
    """The entry's chips bagged, with the flight's next bag number."""
    number = Bag.objects.filter(flight_id=entry_.tournament_id).count() + 1
    return Bag.objects.create(
        flight_id=entry_.tournament_id, entry=entry_, number=number, chips=chips, status=status
    )


def day2_seat(event, bag_: Bag) -> Entry:
    """The bag carried to Day 2: an entry of the event with the bag's chips."""
    day2 = entry(event, bag_.entry.player.name, chips=bag_.chips)
    bag_.status = BagStatus.CARRIED
    bag_.day2_entry = day2
    bag_.save(update_fields=["status", "day2_entry"])
    return day2

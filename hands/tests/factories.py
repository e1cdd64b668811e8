"""Test helpers: tables with players in given seats, and a drawn or set button."""

from hands import services
from seating import services as seating
from seating.tests.factories import add_tables, field


def seat_players(event, layout: dict[int, list[int]], *, seats: int = 9) -> dict:
    """Tables numbered as `layout`'s keys, players in exactly those seats:
    returns {(table, seat): entry}."""
    for number in layout:
        add_tables(event, 1, seats=seats, first=number)
    places = [(table, seat) for table, taken in layout.items() for seat in taken]
    entries = field(event, len(places))
    for entry, (table, seat) in zip(entries, places, strict=True):
        seating.entry_move(
            actor=None, tournament_id=event.pk, entry_id=entry.pk, to_table=table, to_seat=seat
        )
    return dict(zip(places, entries, strict=True))


def button_at(event, table: int, seat: int, *, big_blind: int | None = None):
    return services.button_set(
        actor=None, tournament_id=event.pk, number=table, button=seat, big_blind=big_blind
    )


def deal(event, table: int):
    return services.hand_start(actor=None, tournament_id=event.pk, number=table)


def finish(event, table: int, hand, *, busts=(), stacks=None):
    return services.hand_finish(
        actor=None,
        tournament_id=event.pk,
        number=table,
        hand_number=hand.number,
        busts=list(busts),
        stacks=stacks,
    )

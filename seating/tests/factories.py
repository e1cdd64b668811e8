"""Test helpers: tables and a registered field, through the services."""

from seating import services
from seating.selectors import last_seating_action
from tournaments.tests.factories import register


def add_tables(event, count: int, *, seats: int = 9, first: int = 1, accessible: str = ""):
    return [
        services.table_add(
            actor=None, tournament_id=event.pk, number=n, seats=seats, accessible=accessible
        )
        for n in range(first, first + count)
    ]


def field(event, count: int, *, prefix: str = "Player"):
    """`count` registered entries, in registration order."""
    return [register(event, f"{prefix} {i:04d}").entry for i in range(1, count + 1)]


def undo_last(event):
    """Undo the last seating action, named by its id as the undo page names it."""
    last = last_seating_action(event.pk)
    return services.seating_undo(
        actor=None, tournament_id=event.pk, action_id=last.pk if last else 1
    )

"""Test helpers: tables and a registered field, through the services."""

from seating import services
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

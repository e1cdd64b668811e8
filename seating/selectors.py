"""Read-only views of a tournament's seating, for services, pages, screens and the API."""

from django.conf import settings
from django.db import connection

from floorman.names import name_keys
from seating import engine
from seating.engine.lookup import FieldIndex, Row
from seating.lookup import IndexCache
from seating.models import Move, Seat, Seating, SeatingAction, Table
from tournaments.models import Entry, EntryStatus


def seating_settings(tournament_id: int) -> Seating:
    """The tournament's seating house settings; unsaved defaults until the director first
    changes them (settings_update saves the row)."""
    return Seating.objects.filter(tournament_id=tournament_id).first() or Seating(
        tournament_id=tournament_id
    )


def open_tables(tournament_id: int):
    return Table.objects.filter(tournament_id=tournament_id, broken_at__isnull=True)


def table_views(tournament_id: int) -> list[engine.TableView]:
    """The open tables as the engine sees them: usable seats clockwise, who sits where."""
    rows = (
        Seat.objects.filter(table__tournament_id=tournament_id, table__broken_at__isnull=True)
        .order_by("table__number", "number")
        .values_list(
            "table__number", "table__break_order", "number", "blocked", "accessible", "entry_id"
        )
    )
    tables: dict[int, dict] = {}
    for number, break_order, seat, blocked, accessible, entry_id in rows:
        t = tables.setdefault(
            number, {"seats": [], "occupied": {}, "break_order": break_order, "accessible": set()}
        )
        if not blocked:
            t["seats"].append(seat)
        if accessible:
            t["accessible"].add(seat)
        if entry_id is not None:
            t["occupied"][seat] = entry_id
    return [
        engine.TableView(
            number=number,
            seats=tuple(t["seats"]),
            occupied=t["occupied"],
            break_order=t["break_order"],
            accessible=frozenset(t["accessible"]),
        )
        for number, t in tables.items()
    ]


def unseated_entries(tournament_id: int) -> list[int]:
    return list(
        Entry.objects.filter(
            tournament_id=tournament_id, status=EntryStatus.ACTIVE, seat__isnull=True
        )
        .order_by("number")
        .values_list("pk", flat=True)
    )


def has_draw(tournament_id: int) -> bool:
    return SeatingAction.objects.filter(
        tournament_id=tournament_id, undone_at__isnull=True
    ).exists()


def last_seat_of(entry_ids: list[int]) -> dict[int, tuple[int, int]]:
    """Where each entry last sat (for casino §12: a re-entry gets another seat)."""
    last: dict[int, tuple[int, int]] = {}
    moves = Move.objects.filter(entry_id__in=entry_ids, action__undone_at__isnull=True)
    for entry_id, table, seat in moves.order_by("id").values_list(
        "entry_id", "to_table", "to_seat"
    ):
        last[entry_id] = (table, seat)
    return last


def seating_public(tournament_id: int) -> list[dict]:
    """Public: every seated active entry with its table and seat, by name."""
    rows = (
        Seat.objects.filter(
            table__tournament_id=tournament_id, entry__isnull=False, table__broken_at__isnull=True
        )
        .values_list(
            "entry_id",
            "entry__number",
            "entry__player__name",
            "table__number",
            "number",
            "wait_for_button",
        )
        .order_by("entry__player__name", "entry__number")
    )
    return [
        {
            "entry": entry,
            "number": number,
            "name": name,
            "table": table,
            "seat": seat,
            "wait_for_button": wait,
        }
        for entry, number, name, table, seat, wait in rows
    ]


FIELD_SQL = """
SELECT e.id, e.number, p.name, e.status, t.number, s.number, p.name_key, p.name_plain
FROM tournaments_entry e
JOIN tournaments_player p ON p.id = e.player_id
LEFT JOIN seating_seat s ON s.entry_id = e.id
LEFT JOIN seating_table t ON t.id = s.table_id
WHERE e.tournament_id = %s AND e.status <> 'cancelled'
ORDER BY e.status, p.name, e.number
"""
# The created time tells two tournaments apart that reuse an id (SQLite after a rollback).
VERSION_SQL = "SELECT lookup_version, created_at FROM tournaments_tournament WHERE id = %s"

_field_indexes = IndexCache()


def _field_index(tournament_id: int, version: tuple | None) -> FieldIndex | None:
    """The lookup index of the tournament's field, rebuilt when its version moved on."""

    def read_version() -> tuple | None:
        with connection.cursor() as cursor:
            cursor.execute(VERSION_SQL, [tournament_id])
            return cursor.fetchone()

    def build() -> FieldIndex:
        with connection.cursor() as cursor:
            cursor.execute(FIELD_SQL, [tournament_id])
            return FieldIndex([Row(*row) for row in cursor.fetchall()])

    return _field_indexes.get(
        tournament_id,
        version=version,
        read_version=read_version,
        build=build,
        max_age=settings.SEAT_LOOKUP_MAX_AGE,
    )


def lookup_version(tournament) -> tuple:
    """The version of a tournament already loaded, saving seat_lookup its one query."""
    return (tournament.lookup_version, tournament.created_at)


def seat_lookup(
    tournament_id: int, query: str, *, limit: int = 20, version: tuple | None = None
) -> list[dict] | None:
    """Public seat lookup by name or entry number, forgiving of accents (Müller = Mueller).

    None when there is no such tournament. One small query per search: see seating.lookup.
    """
    query = query.strip().lstrip("#")
    if not query:
        return []
    index = _field_index(tournament_id, version)
    if index is None:
        return None
    if query.isdecimal():  # not isdigit(): "²" is a digit that int() refuses
        rows = index.by_entry_number(int(query), limit) if len(query) <= 9 else []
    else:
        rows = index.by_name(*name_keys(query), limit)
    return [row.public() for row in rows]


def sort_key(row: dict) -> tuple[str, int]:
    """Alphabetical as people read names: accents and case aside (Müller with Muller),
    then by entry number. static/js/seats.js sortKey mirrors it."""
    return name_keys(row["name"])[1], row["number"]


def board_rows(tournament_id: int) -> list[dict]:
    """Every seated player, alphabetically: one query however large the field."""
    rows = [
        {
            "entry": r["entry"],
            "number": r["number"],
            "name": r["name"],
            "table": r["table"],
            "seat": r["seat"],
        }
        for r in seating_public(tournament_id)
    ]
    # The database's collation differs between SQLite and PostgreSQL; the screen's
    # script sorts with this same key, so both agree.
    return sorted(rows, key=sort_key)


def entry_seat(tournament_id: int, number: int) -> dict | None:
    """One entry and its seat, as its player's page shows it."""
    row = (
        Entry.objects.filter(tournament_id=tournament_id, number=number)
        .values_list(
            "pk",
            "number",
            "player__name",
            "status",
            "seat__table__number",
            "seat__number",
            "seat__wait_for_button",
        )
        .first()
    )
    if row is None:
        return None
    pk, number, name, status, table, seat, wait = row
    return {
        "entry": pk,
        "number": number,
        "name": name,
        "status": status,
        "table": table,
        "seat": seat,
        "wait_for_button": bool(wait),
    }

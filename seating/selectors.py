"""Read-only views of a tournament's seating, for services, pages, screens and the API."""

from django.db.models import Q

from floorman.names import name_keys
from seating import engine
from seating.models import Move, Seat, Seating, SeatingAction, Table
from tournaments.models import Entry, EntryStatus


def seating_settings(tournament_id: int) -> Seating:
    settings, _created = Seating.objects.get_or_create(tournament_id=tournament_id)
    return settings


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


def seat_lookup(tournament_id: int, query: str, *, limit: int = 20) -> list[dict]:
    """Public seat lookup by name or entry number, forgiving of accents (Müller = Mueller)."""
    query = query.strip().lstrip("#")
    if not query:
        return []
    entries = Entry.objects.filter(tournament_id=tournament_id).exclude(
        status=EntryStatus.CANCELLED
    )
    if query.isdigit():
        entries = entries.filter(number=int(query))
    else:
        key, plain = name_keys(query)
        entries = entries.filter(
            Q(player__name_key__contains=key) | Q(player__name_plain__contains=plain)
        )
    rows = entries.order_by("status", "player__name", "number").values_list(
        "pk", "number", "player__name", "status", "seat__table__number", "seat__number"
    )[:limit]
    return [
        {
            "entry": pk,
            "number": number,
            "name": name,
            "status": status,
            "table": table,
            "seat": seat,
        }
        for pk, number, name, status, table, seat in rows
    ]

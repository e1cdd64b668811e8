"""Read-only views of a tournament's seating, for services, pages, screens and the API:
the tables, who sits where, each table's button and blinds as balancing needs them, the
seat lookup."""

from dataclasses import dataclass

from django.conf import settings
from django.db import connection
from django.db.models import Count, Max, Q

from floorman.names import name_keys
from seating import engine
from seating.engine import blinds
from seating.engine.lookup import FieldIndex, Row
from seating.lookup import IndexCache
from seating.models import Move, Seat, Seating, SeatingAction, Table, TableState
from tournaments.models import (
    LOOKUP_CHANGES_KEPT,
    CountSweep,
    Entry,
    EntryStatus,
    LookupChange,
    Tournament,
)
from tournaments.selectors import house_settings

# The house settings (tournaments.house) seating's rules read: an event's copy or template
# carries the event's own choices of them with its seating.
HOUSE_KEYS = ("halting", "final_table", "table_minimum")


def seating_settings(tournament_id: int) -> Seating:
    """The tournament's seating house settings; unsaved defaults until the director first
    changes them (settings_update saves the row)."""
    return Seating.objects.filter(tournament_id=tournament_id).first() or Seating(
        tournament_id=tournament_id
    )


def final_size(tournament: Tournament, settings: Seating | None = None) -> int:
    """The players at which the final table forms: the event's own number, else the house
    setting "final_table" (TDA RP-9 or casino §30)."""
    settings = settings or seating_settings(tournament.pk)
    return engine.final_table_size(
        tournament.table_size,
        settings.final_table_size,
        rule=house_settings(tournament).final_table,
    )


def seating_setup(tournament_id: int) -> dict:
    """Seating's part of an event's setup (JSON), for a copy or a saved event template:
    the house settings and the table layout: every table the event had, broken or not,
    with its seats, accessible and blocked seats and its place in the break order.
    Never who sat where."""
    settings = seating_settings(tournament_id)
    seats = Seat.objects.filter(table__tournament_id=tournament_id).order_by(
        "table__break_order", "table__number", "number"
    )
    tables: dict[int, dict] = {}
    for number, count, seat, accessible, blocked in seats.values_list(
        "table__number", "table__seats", "number", "accessible", "blocked"
    ):
        table = tables.setdefault(
            number, {"number": number, "seats": count, "accessible": [], "blocked": []}
        )
        if accessible:
            table["accessible"].append(seat)
        if blocked:
            table["blocked"].append(seat)
    own = Tournament.objects.filter(pk=tournament_id).values_list("house_settings", flat=True)
    return {
        "settings": {name: getattr(settings, name) for name in Seating.SETTINGS},
        # The event's own seating readings (issue 19); the venue's are the venue's.
        "house": {k: v for k, v in (own.first() or {}).items() if k in HOUSE_KEYS},
        "tables": list(tables.values()),  # the first breaks first
    }


def open_tables(tournament_id: int):
    return Table.objects.filter(tournament_id=tournament_id, broken_at__isnull=True)


def table_views(tournament_id: int, *, only=None) -> list[engine.TableView]:
    """The open tables as the engine sees them: usable seats clockwise, who sits where;
    `only` (table ids, or a subquery of them) limits it to those."""
    rows = Seat.objects.filter(table__tournament_id=tournament_id, table__broken_at__isnull=True)
    if only is not None:
        rows = rows.filter(table_id__in=only)
    rows = rows.order_by("table__number", "number").values_list(
        "table__number", "table__break_order", "number", "blocked", "accessible", "entry_id"
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


# --- The button and blinds: what balancing needs (TDA 11-A, 11-D) --------------------------


@dataclass(frozen=True)
class TableNow:
    """A table as the blinds engine sees it: usable seats clockwise, who sits where,
    last hand's button and blinds, and who has not been dealt a hand here yet."""

    table: Table
    seats: tuple[int, ...]
    occupied: dict[int, int]  # seat -> entry
    state: TableState
    # Seats whose player waits for the button to pass (TDA 10-A), as the deal left them.
    waiting: frozenset[int] = frozenset()

    @property
    def new_players(self) -> frozenset[int]:
        if self.state.big_blind is None:
            return frozenset()  # before the first hand nobody is new (TDA 7: the draw)
        return frozenset(self.occupied.values()) - set(self.state.last_dealt)

    def last(self) -> dict:
        return {
            "button": self.state.button,
            "small_blind": self.state.small_blind_seat,
            "big_blind": self.state.big_blind,
        }

    def positions(self) -> blinds.Positions | None:
        """Next hand's button and blinds; None before the button is drawn or with one player."""
        if self.state.button is None or len(self.occupied) < 2:
            return None
        return blinds.next_positions(
            self.seats, self.occupied, **self.last(), new_players=self.new_players
        )


def table_now(table: Table) -> TableNow:
    """One table as the blinds engine sees it; an unsaved state before its button."""
    rows = Seat.objects.filter(table=table, blocked=False).order_by("number")
    rows = list(rows.values_list("number", "entry_id", "wait_for_button"))
    state = TableState.objects.filter(table=table).first() or TableState(table=table)
    return TableNow(
        table=table,
        seats=tuple(number for number, _entry, _waits in rows),
        occupied={number: entry for number, entry, _waits in rows if entry is not None},
        state=state,
        waiting=frozenset(number for number, _entry, waits in rows if waits),
    )


def tables_now(tournament_id: int) -> dict[int, TableNow]:
    """Every open table whose button is known, in two queries (balancing reads them all)."""
    states = {
        state.table_id: state
        for state in TableState.objects.filter(
            table__tournament_id=tournament_id,
            table__broken_at__isnull=True,
            button__isnull=False,
        ).select_related("table")
    }
    rows = Seat.objects.filter(table_id__in=states, blocked=False).order_by("table_id", "number")
    seats: dict[int, list] = {table_id: [] for table_id in states}
    for table_id, number, entry in rows.values_list("table_id", "number", "entry_id"):
        seats[table_id].append((number, entry))
    return {
        state.table.number: TableNow(
            table=state.table,
            seats=tuple(number for number, _entry in seats[table_id]),
            occupied={number: entry for number, entry in seats[table_id] if entry is not None},
            state=state,
        )
        for table_id, state in states.items()
    }


@dataclass(frozen=True)
class Balancing:
    """What balancing and halting need from the tables' button and blinds, by table
    number: only tables whose tablet logged them (a hand dealt, or the button drawn or
    set by the dealer). The TD names the next big blind of the others."""

    big_blind_next: dict[int, int]  # TDA 11-A: the player who moves
    dead_small_blind: dict[int, int]  # an open seat that would post the small blind: never filled
    at_open_seat: dict[int, bool]  # TDA 11-D: the blinds have reached an open seat


def balancing(tournament_id: int) -> Balancing:
    """Each open table's next big blind (TDA 11-A), the dead small blind seat that
    balancing leaves empty, and whether the blinds have reached an open seat (TDA 11-D),
    from the table states: two queries for the whole room.

    A table that has drawn its button but dealt no hand yet has its next big blind too:
    the first hand's, the second player after the button (IFP 2.2). Its blinds have not
    moved yet, so it says nothing about reaching an open seat."""
    big_blind_next, dead, at_open = {}, {}, {}
    for number, now in tables_now(tournament_id).items():
        if len(now.occupied) < 2:
            continue
        positions = now.positions()
        big_blind_next[number] = positions.big_blind
        if now.state.big_blind is None:
            continue
        if positions.small_blind is None:
            dead[number] = positions.small_blind_seat
        at_open[number] = blinds.blinds_reached_open_seat(
            now.seats, now.occupied, big_blind=now.state.big_blind
        )
    return Balancing(big_blind_next, dead, at_open)


def final_table(tournament_id: int) -> int | None:
    """The number of the final table (RP-9): the one table the players left sit at,
    once the field has played at more than one; None before. One query."""
    tables = Table.objects.filter(tournament_id=tournament_id).annotate(
        players=Count("seat_set__entry")
    )
    rows = list(tables.values_list("number", "broken_at", "players"))
    playing = [number for number, broken_at, players in rows if broken_at is None and players]
    return playing[0] if len(rows) > 1 and len(playing) == 1 else None


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


# --- Undo: what the last seating action's undo would do --------------------------------


@dataclass(frozen=True)
class UndoMove:
    """One player of the action to undo: where the action put them, where they go back."""

    entry: int
    number: int
    name: str
    from_table: int | None  # None: the action gave them their seat; undone, they have none
    from_seat: int | None
    to_table: int
    to_seat: int


@dataclass(frozen=True)
class UndoPlan:
    """The last seating action not undone, the players it moved, the tables it broke
    that open again, and why it can no longer be undone ("" while it can)."""

    action: SeatingAction
    moves: tuple[UndoMove, ...]
    reopens: tuple[int, ...]
    refusal: str

    @property
    def unseated(self) -> list[UndoMove]:
        return [m for m in self.moves if m.from_table is None]


def last_seating_action(tournament_id: int) -> SeatingAction | None:
    return (
        SeatingAction.objects.filter(tournament_id=tournament_id, undone_at=None)
        .order_by("-id")
        .first()
    )


def undo_plan(tournament_id: int) -> UndoPlan | None:
    """What undoing the last seating action would do, as the page shows it before the
    TD confirms and as `seating.services.seating_undo` does it (under its lock). It can
    be undone while every player it seated still sits in that seat and no hand has been
    dealt since at a table it changed (`TableState.dealt_at`, written by each deal)."""
    action = last_seating_action(tournament_id)
    if action is None:
        return None
    moves = undo_moves(action)
    reopens = set()
    if action.kind in ("break", "final"):
        reopens = {m.from_table for m in moves if m.from_table is not None}
        if action.kind == "break":
            reopens.add(action.params.get("table"))  # a table broken empty opens too
        else:
            reopens.discard(action.params.get("table"))  # the final table never closed
    reopens.discard(None)
    refusal = _undo_refusal(tournament_id, action, moves)
    return UndoPlan(action, moves, tuple(sorted(reopens)), refusal)


def undo_moves(action: SeatingAction) -> tuple[UndoMove, ...]:
    """The players of a seating action by table and seat, with their names."""
    rows = action.moves.order_by("to_table", "to_seat").values_list(
        "entry_id",
        "entry__number",
        "entry__player__name",
        "from_table",
        "from_seat",
        "to_table",
        "to_seat",
    )
    return tuple(UndoMove(*row) for row in rows)


def _undo_refusal(tournament_id: int, action: SeatingAction, moves) -> str:
    now_at = {
        entry: (table, seat)
        for entry, table, seat in Seat.objects.filter(
            entry_id__in=[m.entry for m in moves]
        ).values_list("entry_id", "table__number", "number")
    }
    if any(now_at.get(m.entry) != (m.to_table, m.to_seat) for m in moves):
        return "undo_stale"
    if not _seats_back_free(tournament_id, moves):
        return "undo_stale"
    tables = {m.to_table for m in moves} | {m.from_table for m in moves if m.from_table}
    dealt_since = TableState.objects.filter(
        table__tournament_id=tournament_id, table__number__in=tables, dealt_at__gt=action.at
    )
    if dealt_since.exists():
        return "undo_after_hand"
    return ""


def _seats_back_free(tournament_id: int, moves) -> bool:
    """Every seat the players go back to is there, open, and empty or left by one of them."""
    back = {(m.from_table, m.from_seat) for m in moves if m.from_table is not None}
    if not back:
        return True
    moving = {m.entry for m in moves}
    seats = {
        (table, number): (entry, blocked)
        for table, number, entry, blocked in Seat.objects.filter(
            table__tournament_id=tournament_id,
            table__number__in={table for table, _seat in back},
        ).values_list("table__number", "number", "entry_id", "blocked")
    }
    for key in back:
        if key not in seats:
            return False
        entry, blocked = seats[key]
        if blocked or (entry is not None and entry not in moving):
            return False
    return True


def last_seat_of(entry_ids: list[int]) -> dict[int, tuple[int, int]]:
    """Where each entry last sat (for casino §12: a re-entry gets another seat)."""
    last: dict[int, tuple[int, int]] = {}
    moves = Move.objects.filter(entry_id__in=entry_ids, action__undone_at__isnull=True)
    for entry_id, table, seat in moves.order_by("id").values_list(
        "entry_id", "to_table", "to_seat"
    ):
        last[entry_id] = (table, seat)
    return last


@dataclass(frozen=True)
class SeatBack:
    """Where a busted entry would sit again if its bust were undone: the seat it left,
    while that is still free (`free`), else a new seat as for a late entry."""

    table: int
    seat: int
    free: bool


def seats_back(tournament_id: int, entry_ids: list[int]) -> dict[int, SeatBack]:
    """Each entry's last seat and whether it is still free (open table, empty, not
    blocked), in two queries however many entries; one with no seat yet is left out."""
    last = last_seat_of(entry_ids)
    if not last:
        return {}
    free = set(
        Seat.objects.filter(
            table__tournament_id=tournament_id,
            table__broken_at=None,
            table__number__in={table for table, _seat in last.values()},
            entry=None,
            blocked=False,
        ).values_list("table__number", "number")
    )
    return {entry: SeatBack(t, s, (t, s) in free) for entry, (t, s) in last.items()}


def seat_of_entry(entry_id: int) -> tuple[int, int] | None:
    """Where the entry sits now: (table, seat), or None."""
    return Seat.objects.filter(entry_id=entry_id).values_list("table__number", "number").first()


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
"""
# The created time tells two tournaments apart that reuse an id (SQLite after a rollback).
VERSION_SQL = "SELECT lookup_version, created_at FROM tournaments_tournament WHERE id = %s"
# Beyond this many changed rows a rebuild costs about as much as the update.
UPDATE_ROWS_MAX = 1000

_field_indexes = IndexCache()


def _index_build(tournament_id: int) -> FieldIndex:
    with connection.cursor() as cursor:
        cursor.execute(FIELD_SQL, [tournament_id])
        return FieldIndex([Row(*row) for row in cursor.fetchall()])


def _index_changes(tournament_id: int, since: tuple, now: tuple) -> set[int] | None:
    """The entries whose rows changed after version `since` up to `now` (both read from
    the tournament), by the change log; None when it cannot say (see seating.lookup)."""
    (old, created), (new, created_now) = since, now
    if created != created_now or not 0 < new - old <= LOOKUP_CHANGES_KEPT:
        return None
    logged = LookupChange.objects.filter(
        tournament_id=tournament_id, version__gt=old, version__lte=new
    ).values_list("version", "entries")
    changed, versions = set(), set()
    for version, entries in logged:
        if entries is None:
            return None
        versions.add(version)
        changed.update(entries)
    if len(versions) != new - old or len(changed) > UPDATE_ROWS_MAX:
        return None  # overwritten by later versions (the process is behind), or large
    return changed


def _index_update(tournament_id: int, since: tuple, now: tuple) -> dict[int, Row | None] | None:
    """The rows changed after version `since` (entry -> row, None: gone), or None: rebuild."""
    changed = _index_changes(tournament_id, since, now)
    if changed is None:
        return None
    rows = {}
    if changed:
        marks = ", ".join(["%s"] * len(changed))
        with connection.cursor() as cursor:
            cursor.execute(f"{FIELD_SQL} AND e.id IN ({marks})", [tournament_id, *changed])
            rows = {row[0]: Row(*row) for row in cursor.fetchall()}
    return {entry: rows.get(entry) for entry in changed}


def _field_index(tournament_id: int, version: tuple | None) -> FieldIndex | None:
    """The lookup index of the tournament's field, updated when its version moved on."""

    def read_version() -> tuple | None:
        with connection.cursor() as cursor:
            cursor.execute(VERSION_SQL, [tournament_id])
            return cursor.fetchone()

    return _field_indexes.get(
        tournament_id,
        version=version,
        read_version=read_version,
        build=lambda: _index_build(tournament_id),
        update=lambda since, now: _index_update(tournament_id, since, now),
        max_age=settings.SEAT_LOOKUP_MAX_AGE,
    )


def seating_version(tournament) -> str:
    """What the seating's cached pages (the board, the lists) are filed under (issue 20):
    the tournament, its created time (two that reuse an id differ) and its
    `lookup_version`, which every change to entries, names and seats bumps in its own
    transaction (tournaments.services.lookup_changed, through seating's one publisher)."""
    return f"{tournament.pk}:{tournament.created_at.timestamp()}:{tournament.lookup_version}"


def lookup_version(tournament) -> tuple:
    """The version of a tournament already loaded, saving seat_lookup its one query."""
    return (tournament.lookup_version, tournament.created_at)


def seat_lookup(
    tournament_id: int, query: str, *, limit: int = 20, version: tuple | None = None
) -> list[dict] | None:
    """Public seat lookup by name or entry number, forgiving of accents (Müller = Mueller).

    None when there is no such tournament, whatever the query: the index knows (see
    seating.lookup), so a search that finds nobody asks the database nothing more.
    """
    index = _field_index(tournament_id, version)
    if index is None:
        return None
    query = query.strip().lstrip("#")
    if not query:
        return []
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


def day2_seats(event: Tournament) -> list[dict]:
    """Who sits where on Day 2, table by table, with the chips and the bag they brought:
    one query."""
    fields = ("table", "seat", "entry", "name", "chips", "bag", "flight")
    rows = (
        Seat.objects.filter(table__tournament=event, table__broken_at=None, entry__isnull=False)
        .order_by("table__number", "number")
        .values_list(
            "table__number",
            "number",
            "entry_id",
            "entry__player__name",
            "entry__chips",
            "entry__from_bag__number",
            "entry__from_bag__flight__flight_name",
        )
    )
    return [dict(zip(fields, row, strict=True)) for row in rows]


# --- The count sweep (issue 18) -------------------------------------------------------------


@dataclass(frozen=True)
class SweepTable:
    number: int
    players: int
    reported_at: object = None  # the last count of the sweep at this table; None: not yet


@dataclass(frozen=True)
class SweepReport:
    """The open count sweep (or the last one) and, for each table in play with players,
    whether it has reported: a count in the sweep from its tablet or the floor."""

    sweep: CountSweep | None
    tables: list[SweepTable]

    @property
    def reported(self) -> list[SweepTable]:
        return [t for t in self.tables if t.reported_at is not None]

    @property
    def waiting(self) -> list[SweepTable]:
        return [t for t in self.tables if t.reported_at is None]


def sweep_report(tournament: Tournament) -> SweepReport:
    """Which tables have reported in the sweep: two queries (the sweep, the tables with
    their players and the sweep's last count at each)."""
    sweep = CountSweep.objects.filter(tournament=tournament).order_by("-started_at", "-id").first()
    if sweep is None:
        return SweepReport(sweep=None, tables=[])
    rows = (
        Table.objects.filter(tournament=tournament, broken_at__isnull=True)
        .annotate(players=Count("seat_set", filter=Q(seat_set__entry__isnull=False)))
        .filter(players__gt=0)
        .order_by("number")
        .values_list("number", "players")
    )
    reported = dict(
        sweep.counts.exclude(table_number=None)
        .values_list("table_number")
        .annotate(last=Max("counted_at"))
    )
    return SweepReport(
        sweep=sweep,
        tables=[SweepTable(number, players, reported.get(number)) for number, players in rows],
    )

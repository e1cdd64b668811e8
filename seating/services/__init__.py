"""The only code that changes tables and seats.

Each public function is one user intention: one transaction under the tournament's row
lock (registrations, busts and seating of one tournament queue up behind it), one
`SeatingAction` with its seed and moves where players take seats, one audit entry, a
live event after commit. The database keeps one entry to a seat and one seat to an
entry, so even a bug here cannot seat two players in one chair.
"""

import random
import secrets
from dataclasses import dataclass

from django.db import IntegrityError, connection, transaction
from django.db.models import Count, F, OuterRef, Q, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from clock.selectors import registration_open
from clock.services import player_clocks_clear
from floorman import live
from floorman.audit import audit_record, staff_user
from floorman.errors import Conflict, Invalid, NotFound
from seating import engine
from seating.engine import breaking
from seating.engine.breaking import BreakPlan
from seating.messages import refusal_message
from seating.models import (
    MAX_SEATS,
    MIN_SEATS,
    ActionKind,
    Move,
    Seat,
    Seating,
    SeatingAction,
    Table,
    VenueTable,
)
from seating.selectors import (
    HOUSE_KEYS,
    balancing,
    final_size,
    has_draw,
    last_seat_of,
    seat_of_entry,
    seating_settings,
    seats_back,
    table_views,
    undo_plan,
    unseated_entries,
)
from tournaments.house import BY_KEY
from tournaments.models import Entry, EntryStatus, Tournament
from tournaments.selectors import house_settings
from tournaments.services import lookup_changed, tournament_lock, tournament_start


def _refuse(code: str, **data) -> Conflict:
    return Conflict(refusal_message(code, **data), code=code, data=data)


def _new_rng() -> tuple[str, random.Random]:
    """DESIGN: every draw uses a fresh seed from `secrets`, stored so it can be replayed."""
    seed = secrets.token_hex(16)
    return seed, random.Random(seed)


def _table(tournament_id: int, number: int, *, lock: bool = True) -> Table:
    tables = Table.objects.filter(tournament_id=tournament_id, number=number)
    table = (tables.select_for_update() if lock else tables).first()
    if table is None:
        raise NotFound(_("No such table."))
    return table


def _table_in_play(tournament_id: int, number: int) -> Table:
    """The table, locked, for a change to it. A broken table keeps the record of who sat
    there and is changed no more: refused before anything is written (issue 15)."""
    table = _table(tournament_id, number)
    if table.broken_at:
        raise _refuse("table_broken", number=number)
    return table


def _entries_public(entry_ids) -> dict[int, dict]:
    rows = Entry.objects.filter(pk__in=list(entry_ids)).values_list("pk", "number", "player__name")
    return {pk: {"entry": pk, "number": number, "name": name} for pk, number, name in rows}


LIVE_MOVES_MAX = 200  # beyond this (a whole draw) screens are told to fetch the seating


def _publish(
    tournament_id: int,
    moves: list[engine.Assignment] = (),
    freed: list[int] = (),
    *,
    logged: bool = False,
) -> None:
    """Tell screens and player pages who now sits where, and whose seat is free; and the
    seat lookup whose rows changed (every row may have, when neither is given), unless
    the caller's change of those entries told it already (`logged`)."""
    changed = [m.entry for m in moves] + list(freed)
    if not logged:
        lookup_changed([tournament_id], changed if 0 < len(changed) <= LIVE_MOVES_MAX else None)
    if len(moves) > LIVE_MOVES_MAX:
        live.live_publish(
            tournament_id=tournament_id,
            kind=live.SEATING_UPDATED,
            data={"resync": True, "seats": [], "freed": []},
        )
        return
    people = _entries_public(m.entry for m in moves)
    seats = [
        {
            **people[m.entry],
            "table": m.table,
            "seat": m.seat,
            "from_table": m.from_table,
            "from_seat": m.from_seat,
        }
        for m in moves
    ]
    live.live_publish(
        tournament_id=tournament_id,
        kind=live.SEATING_UPDATED,
        data={"seats": seats, "freed": list(freed)},
    )


# --- Tables -------------------------------------------------------------------------------


def _parse_seats(text: str, seats: int, field: str) -> list[int]:
    numbers = []
    for part in (text or "").replace(";", ",").split(","):
        part = part.strip()
        if not part:
            continue
        if not part.isdigit() or not 1 <= int(part) <= seats:
            raise Invalid({field: _("Seat numbers run from 1 to %(seats)s.") % {"seats": seats}})
        numbers.append(int(part))
    return sorted(set(numbers))


@transaction.atomic
def table_add(
    *, actor, tournament_id: int, number: int, seats: int | None = None, accessible: str = ""
) -> Table:
    """Bring a table of the venue's pool into the tournament (casino §8: the table added
    last breaks first). A table number the venue does not know yet joins the pool."""
    tournament = tournament_lock(tournament_id)
    if not 1 <= number <= 9999:
        raise Invalid({"number": _("Table numbers run from 1 to 9999.")})
    venue = VenueTable.objects.select_for_update().filter(number=number).first()
    seats = seats or (venue.seats if venue else tournament.table_size)
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise Invalid({"seats": _("A table has 2 to 10 seats.")})
    accessible_seats = _parse_seats(
        accessible or (venue.accessible_seats if venue else ""), seats, "accessible"
    )
    if venue is None:
        venue = VenueTable.objects.create(
            number=number, seats=seats, accessible_seats=",".join(map(str, accessible_seats))
        )
    if Table.objects.filter(tournament=tournament, number=number).exists():
        raise _refuse("table_number_taken", number=number)
    Table.objects.filter(tournament=tournament).update(break_order=F("break_order") + 1)
    try:
        with transaction.atomic():
            table = Table.objects.create(
                tournament=tournament, venue_table=venue, number=number, seats=seats, break_order=1
            )
    except IntegrityError:
        raise _refuse("table_in_use", number=number) from None
    Seat.objects.bulk_create(
        Seat(table=table, number=n, accessible=n in accessible_seats) for n in range(1, seats + 1)
    )
    audit_record(
        actor=actor,
        action="table.add",
        obj=table,
        tournament=tournament,
        after={"number": number, "seats": seats, "accessible": accessible_seats},
    )
    _publish(tournament.pk)
    return table


def seating_prepare(*, tournament: Tournament, setup: dict, tables: bool = True) -> list[Table]:
    """A new event's seating: the house settings of `setup` and, with `tables`, its table
    layout (seating.selectors.seating_setup of the event copied, or as a saved event
    template keeps it): each table with its seats and its accessible and blocked seats,
    in the same break order, and nobody seated.

    Each table is the venue's, as one added by hand is (table_add). A venue table serves
    one tournament at a time: if another still has one of them in play, the event is
    refused and nothing is written. The seating's part of prizes.services.events, in its
    transaction: the new event itself is known to nobody else yet."""
    settings = setup.get("settings") or {}
    Seating.objects.create(
        tournament=tournament,
        **{name: settings[name] for name in Seating.SETTINGS if name in settings},
    )
    # The seating house readings (issue 19) the event copied had chosen itself; a setup
    # saved before halting became a house setting still names it "halt_rule".
    house = dict(setup.get("house") or {})
    if settings.get("halt_rule") not in (None, engine.HALT_TDA):
        house.setdefault("halting", settings["halt_rule"])
    chosen = {k: v for k, v in house.items() if k in HOUSE_KEYS and k in BY_KEY}
    chosen = {k: v for k, v in chosen.items() if v in BY_KEY[k].values}
    if chosen:
        tournament.house_settings = {**chosen, **(tournament.house_settings or {})}
        tournament.save(update_fields=["house_settings"])
    layout = (setup.get("tables") or []) if tables else []
    if not layout:
        return []
    numbers = [table["number"] for table in layout]
    # Locked in number order, so that two events taking the same tables queue up.
    venues = {
        venue.number: venue
        for venue in VenueTable.objects.select_for_update()
        .filter(number__in=numbers)
        .order_by("number")
    }
    _refuse_tables_in_use(numbers)
    try:
        with transaction.atomic():
            for table in layout:
                if table["number"] not in venues:
                    venues[table["number"]] = VenueTable.objects.create(
                        number=table["number"],
                        seats=table["seats"],
                        accessible_seats=",".join(map(str, table.get("accessible") or [])),
                    )
            made = Table.objects.bulk_create(
                Table(
                    tournament=tournament,
                    venue_table=venues[table["number"]],
                    number=table["number"],
                    seats=table["seats"],
                    break_order=order,
                )
                for order, table in enumerate(layout, start=1)
            )
    except IntegrityError:  # another event took a table between the check and the insert
        _refuse_tables_in_use(numbers)
        raise
    Seat.objects.bulk_create(
        Seat(
            table=row,
            number=number,
            accessible=number in (table.get("accessible") or ()),
            blocked=number in (table.get("blocked") or ()),
        )
        for row, table in zip(made, layout, strict=True)
        for number in range(1, table["seats"] + 1)
    )
    return made


def _refuse_tables_in_use(numbers: list[int]) -> None:
    busy = sorted(
        Table.objects.filter(venue_table__number__in=numbers, broken_at=None).values_list(
            "venue_table__number", flat=True
        )
    )
    if busy:
        raise _refuse("tables_in_use", numbers=", ".join(map(str, busy)))


@transaction.atomic
def table_remove(*, actor, tournament_id: int, number: int) -> None:
    """Take an empty table out of the tournament (a table with players is broken)."""
    tournament = tournament_lock(tournament_id)
    table = _table_in_play(tournament.pk, number)
    if table.seat_set.filter(entry__isnull=False).exists():
        raise _refuse("table_not_empty", number=number)
    if Move.objects.filter(action__tournament=tournament, to_table=number).exists():
        table.broken_at = timezone.now()  # keep the history of who sat there
        table.save(update_fields=["broken_at"])
    else:
        table.delete()
    audit_record(
        actor=actor,
        action="table.remove",
        obj=table,
        tournament=tournament,
        before={"number": number},
    )
    _publish(tournament.pk)


@transaction.atomic
def seat_set(
    *,
    actor,
    tournament_id: int,
    number: int,
    seat: int,
    blocked=None,
    accessible=None,
    wait_for_button=None,
) -> Seat:
    """The TD blocks or opens a seat, marks it accessible (TDA 9), or marks a newcomer
    to be dealt in after the button passes (TDA 8-A, 10-A)."""
    tournament = tournament_lock(tournament_id)
    table = _table_in_play(tournament.pk, number)
    row = table.seat_set.filter(number=seat).first()
    if row is None:
        raise NotFound(_("No such seat."))
    before = {"blocked": row.blocked, "accessible": row.accessible, "wait": row.wait_for_button}
    if blocked and row.entry_id:
        raise _refuse("seat_taken", table=number, seat=seat)
    for name, value in (
        ("blocked", blocked),
        ("accessible", accessible),
        ("wait_for_button", wait_for_button),
    ):
        if value is not None:
            setattr(row, name, bool(value))
    row.save(update_fields=["blocked", "accessible", "wait_for_button"])
    audit_record(
        actor=actor,
        action="seat.set",
        obj=row,
        tournament=tournament,
        before=before,
        after={"blocked": row.blocked, "accessible": row.accessible, "wait": row.wait_for_button},
    )
    _publish(tournament.pk)
    return row


@transaction.atomic
def break_order_set(*, actor, tournament_id: int, numbers: list[int]) -> None:
    """The TD sets the predetermined break order: `numbers` break first to last."""
    tournament = tournament_lock(tournament_id)
    tables = {t.number: t for t in Table.objects.filter(tournament=tournament, broken_at=None)}
    if sorted(numbers) != sorted(tables):
        raise Invalid({"order": _("Name every table in play exactly once.")})
    before = {str(n): t.break_order for n, t in tables.items()}
    for position, number in enumerate(numbers, start=1):
        tables[number].break_order = position
    Table.objects.bulk_update(tables.values(), ["break_order"])
    audit_record(
        actor=actor,
        action="table.break_order",
        obj=tournament,
        tournament=tournament,
        before=before,
        after={"order": numbers},
    )
    _publish(tournament.pk)


@transaction.atomic
def settings_update(*, actor, tournament_id: int, data: dict) -> Seating:
    tournament = tournament_lock(tournament_id)
    # The row is born here, the first time a setting changes; until then seating_settings
    # reads the defaults.
    settings, _created = Seating.objects.get_or_create(tournament=tournament)
    fields = [f for f in data if hasattr(settings, f) and f != "tournament"]
    before = {f: getattr(settings, f) for f in fields}
    for name in fields:
        setattr(settings, name, data[name])
    settings.save()
    audit_record(
        actor=actor,
        action="seating.settings",
        obj=settings,
        tournament=tournament,
        before=before,
        after={f: getattr(settings, f) for f in fields},
    )
    return settings


# --- Taking seats ------------------------------------------------------------------------


def _apply(
    *,
    actor,
    tournament: Tournament,
    kind: str,
    seed: str,
    params: dict,
    assignments: list[engine.Assignment],
    reasons: dict[int, str] | None = None,
    redrawn: set[int] = frozenset(),
) -> SeatingAction:
    """Write one seating action: free the old seats first, then fill the new ones (the
    database would refuse an entry in two seats even for a moment). The player clocks on
    the seats it changes and on every seat of the tables it `redrawn` (closed, or drawn
    anew as the final table) stop (TDA 29: on nobody now)."""
    action = SeatingAction.objects.create(
        tournament=tournament,
        kind=kind,
        seed=seed,
        params=params,
        actor=staff_user(actor),
    )
    reasons = reasons or {}
    rows = [
        (action.pk, a.entry, a.from_table, a.from_seat, a.table, a.seat, reasons.get(a.entry, ""))
        for a in assignments
    ]
    _insert_moves(rows)
    _move_entries(
        tournament.pk,
        {a.entry: (a.table, a.seat) for a in assignments},
        seated=[a.entry for a in assignments if a.from_table is not None],
    )
    stopped = _player_clocks_stop(tournament, assignments, redrawn)
    audit_record(
        actor=actor,
        action=f"seating.{kind}",
        obj=action,
        tournament=tournament,
        after={"seed": seed, "moves": len(rows), **params, **stopped},
    )
    _publish(tournament.pk, assignments)
    return action


def _player_clocks_stop(
    tournament: Tournament, assignments: list[engine.Assignment], redrawn: set[int] = frozenset()
) -> dict:
    """TDA 29: the player clocks on every seat a player left or took, and on the tables
    redrawn, stop (clock.services.player_clocks_clear); for the audit entry."""
    seats = {(a.table, a.seat) for a in assignments}
    seats |= {(a.from_table, a.from_seat) for a in assignments if a.from_table is not None}
    cleared = player_clocks_clear(tournament=tournament, seats=seats, tables=set(redrawn))
    if not cleared:
        return {}
    return {"player_clocks_stopped": [[c["table"], c["seat"]] for c in cleared]}


def _move_entries(
    tournament_id: int, targets: dict[int, tuple[int, int]], seated: list[int]
) -> None:
    """Put each entry into its target seat; those in `seated` vacate their seat first."""
    if seated:
        Seat.objects.filter(entry_id__in=seated).update(entry=None, wait_for_button=False)
    tables = {table for table, _seat in targets.values()}
    seats = {
        (table, number): (pk, entry, blocked)
        for pk, table, number, entry, blocked in Seat.objects.filter(
            table__tournament_id=tournament_id, table__number__in=tables
        )
        .select_for_update(of=("self",))
        .values_list("pk", "table__number", "number", "entry_id", "blocked")
    }
    pairs = []
    for entry, key in targets.items():
        pk, occupant, blocked = seats[key]
        if occupant is not None:
            raise _refuse("seat_taken", table=key[0], seat=key[1])
        if blocked:
            raise _refuse("seat_blocked", table=key[0], seat=key[1])
        pairs.append((pk, entry))
    _fill_seats(pairs)


def _fill_seats(pairs: list[tuple[int, int]], batch: int = 2000) -> None:
    """Seat (seat id, entry id) pairs in a few statements: a draw of 10,000 entries must
    take well under a second, which row-by-row saves or Django's CASE-based bulk_update
    cannot do (bench/seating.py). PostgreSQL takes two arrays; SQLite a VALUES list."""
    table = Seat._meta.db_table
    now = timezone.now()
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                f"UPDATE {table} SET entry_id = v.entry, seated_at = %s "  # noqa: S608
                f"FROM unnest(%s::bigint[], %s::bigint[]) AS v(seat, entry) "
                f"WHERE {table}.id = v.seat",
                [now, [p[0] for p in pairs], [p[1] for p in pairs]],
            )
            return
        for start in range(0, len(pairs), batch):
            chunk = pairs[start : start + batch]
            values = ", ".join(["(%s, %s)"] * len(chunk))
            cursor.execute(
                f"WITH v(seat, entry) AS (VALUES {values}) "  # noqa: S608
                f"UPDATE {table} SET entry_id = v.entry, seated_at = %s "
                f"FROM v WHERE {table}.id = v.seat",
                [*(n for pair in chunk for n in pair), now],
            )


MOVE_COLUMNS = ("action_id", "entry_id", "from_table", "from_seat", "to_table", "to_seat", "reason")


def _insert_moves(rows: list[tuple]) -> None:
    """Record the moves; on PostgreSQL by COPY, many times faster than INSERTs for a draw."""
    if connection.vendor != "postgresql":
        Move.objects.bulk_create(
            [Move(**dict(zip(MOVE_COLUMNS, row, strict=True))) for row in rows], batch_size=2000
        )
        return
    columns = ", ".join(MOVE_COLUMNS)
    with connection.cursor() as cursor:
        with cursor.cursor.copy(f"COPY {Move._meta.db_table} ({columns}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)


def _not_enough_seats(missing: int, table_size: int) -> Conflict:
    return _refuse(
        "not_enough_seats", missing=missing, tables=engine.tables_needed(missing, table_size)
    )


@transaction.atomic
def seating_draw(*, actor, tournament_id: int, tables: int | None = None, keep_free: int = 0):
    """TDA 7: seat every unseated active entry at random.

    The first draw uses the fewest tables that fit the field (or `tables`, if the TD
    wants more; `keep_free` seats held for late arrivals, casino §8a), taking the
    tables that break last; later draws seat late entries at the shortest tables
    (TDA 8-A). Re-entries avoid the seat their player busted from (casino §12).
    Where the house says so (`Seating.draw_starts`), the draw starts the tournament
    (tournaments.services.tournament_start); otherwise the clock's start does.
    """
    tournament = tournament_lock(tournament_id)
    entries = unseated_entries(tournament.pk)
    if not entries:
        raise _refuse("nobody_to_seat")
    views = table_views(tournament.pk)
    first = not any(v.players for v in views)
    params = {"entries": len(entries)}
    if first:
        want = max(
            engine.tables_needed(len(entries), tournament.table_size, keep_free=keep_free),
            tables or 0,
        )
        if want > len(views):
            # Seats short for the field and the seats kept free; if none are short, the
            # TD asked for more tables than are in play: count those tables' seats.
            missing = len(entries) + keep_free - sum(len(v.open_seats) for v in views)
            if missing <= 0:
                missing = tournament.table_size * (want - len(views))
            raise _refuse("not_enough_seats", missing=missing, tables=want - len(views))
        views = sorted(views, key=lambda v: -v.break_order)[:want]
        params.update(tables=[v.number for v in views], keep_free=keep_free)
    else:
        views = _late_tables(views, len(entries))
    free = sum(len(v.open_seats) for v in views)
    if len(entries) > free:
        raise _not_enough_seats(len(entries) - free, tournament.table_size)
    seed, rng = _new_rng()
    assignments = engine.draw_seats(
        views,
        entries,
        rng,
        needs_access=_needing_access(tournament.pk, entries),
        avoid=_reentry_avoid(tournament.pk, entries),
    )
    kind = ActionKind.DRAW if first else ActionKind.LATE
    action = _apply(
        actor=actor,
        tournament=tournament,
        kind=kind,
        seed=seed,
        params=params,
        assignments=assignments,
        reasons={a.entry: "TDA 7" if first else "TDA 8-A" for a in assignments},
    )
    if seating_settings(tournament.pk).draw_starts:
        tournament_start(actor=actor, tournament=tournament)
    return action, assignments


def _needing_access(tournament_id: int, entries: list[int]) -> frozenset[int]:
    """TDA 9: the unseated entries whose player needs an accessible seat (one query,
    over `entries` only: the same at 300 and at 10,000 entries)."""
    needing = Entry.objects.filter(
        pk__in=entries,
        tournament_id=tournament_id,
        status=EntryStatus.ACTIVE,
        seat__isnull=True,
        player__accessible_seat=True,
    ).values_list("pk", flat=True)
    return frozenset(needing)


def _reentry_avoid(tournament_id: int, entries: list[int]) -> dict[int, tuple[int, int]]:
    """Casino §12: for each unseated re-entry, the seat its player last held. Two
    queries however many entries: each re-entry with its player's entry before it
    (a subquery), then where those last sat (`last_seat_of`)."""
    earlier = Entry.objects.filter(
        tournament_id=tournament_id,
        player_id=OuterRef("player_id"),
        reentry_number__lt=OuterRef("reentry_number"),
    ).order_by("-reentry_number")
    before = dict(
        Entry.objects.filter(
            pk__in=entries,
            tournament_id=tournament_id,
            status=EntryStatus.ACTIVE,
            seat__isnull=True,
            reentry_number__gt=1,
        )
        .annotate(earlier=Subquery(earlier.values("pk")[:1]))
        .filter(earlier__isnull=False)
        .values_list("pk", "earlier")
    )
    last = last_seat_of(list(before.values())) if before else {}
    return {pk: last[prior] for pk, prior in before.items() if last.get(prior)}


def _late_tables(views: list[engine.TableView], players: int) -> list[engine.TableView]:
    """TDA 8-A: late seats come from the tables in play; a spare table (the one that
    breaks last) opens only when those are full."""
    in_play = [v for v in views if v.players]
    spare = sorted((v for v in views if not v.players), key=lambda v: -v.break_order)
    while spare and sum(len(v.open_seats) for v in in_play) < players:
        in_play.append(spare.pop(0))
    return in_play


def _late_views(tournament_id: int, rng: random.Random) -> list[engine.TableView]:
    """The table one late entry is drawn to (TDA 8-A): one of the shortest tables in play
    with an open seat, drawn at random, else the spare table that breaks last
    (`_late_tables`). The draw of one player fills the shortest tables first
    (engine.draw_seats: water-filling, then a table at random among them; an accessible
    seat or a re-entry's new seat is found within that table), so drawing the table
    here and the seat among its seats alone seats the entry as among every table. Two
    queries, one row per table and one table's seats: reading every seat of 10,000
    entries at each late entry made late registration quadratic, and the shortest
    tables early in an event are most of them (issue 20)."""
    per_table = (
        Seat.objects.filter(table__tournament_id=tournament_id, table__broken_at__isnull=True)
        .values("table_id", "table__number", "table__break_order")
        .annotate(
            players=Count("entry"),
            free=Count("pk", filter=Q(blocked=False, entry__isnull=True)),
        )
        .filter(free__gt=0)
    )
    tables = [
        (row["table_id"], row["table__number"], row["table__break_order"], row["players"])
        for row in per_table
    ]
    in_play = [row for row in tables if row[3] > 0]
    if in_play:
        fewest = min(players for _id, _number, _order, players in in_play)
        shortest = sorted(
            (number, pk) for pk, number, _order, players in in_play if players == fewest
        )
        _number, chosen = rng.choice(shortest)
    elif tables:  # every table in play is full: the spare table that breaks last opens
        chosen = max(tables, key=lambda row: (row[2], row[1]))[0]
    else:
        return []
    return table_views(tournament_id, only=[chosen])


def seat_late_entry(*, actor, tournament: Tournament, entry: Entry) -> Entry:
    """Called by registration inside its transaction: once the field has been drawn, a
    late entry, alternate or re-entry gets its seat at once (TDA 8-A). With no open seat
    it waits unseated and the table map says so."""
    if not has_draw(tournament.pk):
        return entry
    seed, rng = _new_rng()
    views = _late_views(tournament.pk, rng)
    if not views:
        return entry
    assignments = engine.draw_seats(
        views,
        [entry.pk],
        rng,
        needs_access=_needing_access(tournament.pk, [entry.pk]),
        avoid=_reentry_avoid(tournament.pk, [entry.pk]),
    )
    _apply(
        actor=actor,
        tournament=tournament,
        kind=ActionKind.LATE,
        seed=seed,
        params={"entries": 1},
        assignments=assignments,
        reasons={entry.pk: "TDA 8-A"},
    )
    return entry


def seat_release(*, tournament: Tournament, entry: Entry) -> None:
    """A bust, disqualification or cancellation frees the seat (called inside that
    transaction, after the entry's own change, which told the seat lookup already:
    tournaments.services.entry_out, entry_refund)."""
    if Seat.objects.filter(entry=entry).update(entry=None, wait_for_button=False):
        _publish(tournament.pk, freed=[entry.pk], logged=True)


def tables_close(*, tournament: Tournament) -> int:
    """A finished or cancelled event closes its tables, so that their venue tables can
    serve the next event; who sat where stays on record. Cancelled entries leave their
    seats first. Called inside that transaction, under the tournament lock."""
    leaving = Seat.objects.filter(table__tournament=tournament, entry__isnull=False).exclude(
        entry__status=EntryStatus.ACTIVE
    )
    freed = list(leaving.values_list("entry_id", flat=True))
    leaving.update(entry=None, wait_for_button=False)
    closed = Table.objects.filter(tournament=tournament, broken_at=None).update(
        broken_at=timezone.now()
    )
    if closed or freed:
        _publish(tournament.pk, freed=freed)
    return closed


@dataclass(frozen=True)
class SeatRestored:
    """Where a player whose bust was undone sits: the seat they left (`same`) or a new one."""

    table: int
    seat: int
    same: bool


def tables_reopen(*, tournament: Tournament) -> int:
    """The bust that decided the event is undone (hands.services.busts): the tables
    its players left still sit at open again, where their venue tables are still free.
    Called inside that transaction, under the tournament lock."""
    taken = Table.objects.filter(broken_at=None, venue_table__isnull=False).values("venue_table")
    tables = (
        Table.objects.filter(
            tournament=tournament,
            broken_at__isnull=False,
            seat_set__entry__status=EntryStatus.ACTIVE,
        )
        .exclude(venue_table__in=taken)
        .distinct()
    )
    opened = Table.objects.filter(pk__in=list(tables.values_list("pk", flat=True))).update(
        broken_at=None
    )
    if opened:
        _publish(tournament.pk)
    return opened


def seat_restore(*, actor, tournament: Tournament, entry: Entry) -> SeatRestored | None:
    """A bust undone: back to the seat the entry left if it is still free, else a
    random seat as for a late entry. Returns where the entry sits now (None: no seat
    was open, or no draw yet), so that the floor can be told."""
    back = seats_back(tournament.pk, [entry.pk]).get(entry.pk)
    if back is not None and back.free:
        _move_entries(tournament.pk, {entry.pk: (back.table, back.seat)}, seated=[])
        _publish(tournament.pk, [engine.Assignment(entry.pk, back.table, back.seat)])
        return SeatRestored(back.table, back.seat, same=True)
    seat_late_entry(actor=actor, tournament=tournament, entry=entry)
    where = seat_of_entry(entry.pk)
    return SeatRestored(*where, same=False) if where else None


@transaction.atomic
def entry_move(
    *, actor, tournament_id: int, entry_id: int, to_table: int, to_seat: int, reason: str = ""
) -> SeatingAction:
    """Move one player with their stack (TDA 7: a player found in a wrong seat)."""
    tournament = tournament_lock(tournament_id)
    entry = Entry.objects.filter(tournament=tournament, pk=entry_id).first()
    if entry is None:
        raise NotFound(_("No such entry."))
    if entry.status != EntryStatus.ACTIVE:
        raise _refuse("entry_not_active")
    table = _table(tournament.pk, to_table)
    if table.broken_at:
        raise NotFound(_("No such table."))
    seat = table.seat_set.filter(number=to_seat).first()
    if seat is None:
        raise NotFound(_("No such seat."))
    if seat.entry_id == entry.pk:
        raise _refuse("same_seat")
    if seat.entry_id:
        raise _refuse("seat_taken", table=to_table, seat=to_seat)
    if seat.blocked:
        raise _refuse("seat_blocked", table=to_table, seat=to_seat)
    current = Seat.objects.filter(entry=entry).select_related("table").first()
    assignment = engine.Assignment(
        entry.pk,
        to_table,
        to_seat,
        current.table.number if current else None,
        current.number if current else None,
    )
    return _apply(
        actor=actor,
        tournament=tournament,
        kind=ActionKind.MOVE,
        seed="",
        params={"reason": reason[:200]},
        assignments=[assignment],
        reasons={entry.pk: reason[:200] or "TDA 7"},
    )


# --- Balancing, breaking, the final table -----------------------------------------------


def _refuse_unless_confirmed(confirmed: str | None, planned: str, code: str, **data) -> None:
    """Issue 16: a confirmation echoes the key of the plan it showed; worked out again
    under the tournament lock, the action does exactly that plan or nothing (409 `code`,
    naming the plan as it is now for the director to confirm). No key: nothing to check
    (each caller says when that is allowed)."""
    if confirmed is not None and confirmed != planned:
        raise _refuse(code, plan=planned, **data)


def balance_state(tournament: Tournament, big_blind_next: dict[int, int] | None = None):
    """The plan and halted tables for the TD screen and the API (nothing is written).

    Next big blinds come from the tables' blinds where they are known (last hand's, as
    the tablets dealt it: seating.selectors.balancing); the TD's answers in the move
    dialog (`big_blind_next`) cover the other tables and take precedence."""
    settings = seating_settings(tournament.pk)
    house = house_settings(tournament)
    logged = balancing(tournament.pk)
    big_blind_next = {**logged.big_blind_next, **(big_blind_next or {})}
    # Only tables with players are in play: a spare table left empty by the draw is
    # neither balanced into nor halted (TDA 11 balances the tables in play).
    views = [v for v in table_views(tournament.pk) if v.players]
    plan = engine.balance_plan(
        views,
        threshold=settings.balance_threshold,
        source_rule=settings.source_rule,
        big_blind_next=big_blind_next,
        stud=settings.stud_positions,
        dead_small_blind=logged.dead_small_blind,
    )
    waived = set(
        Table.objects.filter(tournament=tournament, broken_at=None, halt_waived=True).values_list(
            "number", flat=True
        )
    )
    # TDA 11-D: a short table halts once its big blind reaches an open seat; where the
    # blinds are not known the TD is shown the table as halting.
    halted = engine.halted_tables(
        views,
        rule=house.halting,  # the house setting: TDA 11-D unless the house chose otherwise
        registration_closed=not registration_open(tournament),
        waived=waived,
        at_open_seat=logged.at_open_seat,
    )
    return plan, halted, views


@transaction.atomic
def tables_balance(
    *, actor, tournament_id: int, big_blind_next: dict[int, int], plan: str | None = None
) -> SeatingAction:
    """TDA 11-A: apply the balancing moves. Where a table's blinds are not known, the TD
    names its seat that is due the big blind next. `plan` is the key of the moves the
    director confirmed (`balance_state`'s plan), echoed back.

    1. The tournament locked; the moves worked out now, as the preview showed them.
    2. Refused, nothing written: the tables are balanced (409); a table's seat due the
       big blind next is needed (400); `plan` is not the moves now (409: a hand was
       dealt, a player busted or sat down since the director confirmed).
    3. The moves made, one action, one audit entry, the live event on commit.
    """
    tournament = tournament_lock(tournament_id)
    planned, _halted, _views = balance_state(tournament, big_blind_next)
    if not planned.moves:
        raise _refuse("balanced")
    if planned.needs_big_blind:
        raise Invalid(
            {
                f"big_blind_next.{n}": _("Which seat of table %(table)s is big blind next?")
                % {"table": n}
                for n in planned.needs_big_blind
            }
        )
    _refuse_unless_confirmed(plan, planned.key, "balance_plan_changed")
    assignments = [
        engine.Assignment(m.entry, m.to_table, m.to_seat, m.from_table, m.from_seat)
        for m in planned.moves
    ]
    return _apply(
        actor=actor,
        tournament=tournament,
        kind=ActionKind.BALANCE,
        seed="",
        params={"big_blind_next": {str(k): v for k, v in big_blind_next.items()}},
        assignments=assignments,
        reasons={m.entry: m.reason for m in planned.moves},
    )


def _break_plan(views: list[engine.TableView], number: int) -> BreakPlan:
    """The plan of breaking an open table, or why it cannot be broken."""
    if not any(view.number == number for view in views):
        raise NotFound(_("No such table."))
    planned = breaking.break_plan(views, number)
    if planned is None:
        raise _refuse("last_table")
    if not planned.room:
        raise _refuse("break_no_room", number=number, players=planned.players, free=planned.free)
    return planned


def break_preview(*, tournament_id: int, number: int) -> BreakPlan:
    """TDA 10-B: what `table_break` would do now, or its refusal; nothing is written.
    The confirmation page and the API show it, and echo its key to confirm it."""
    return _break_plan(table_views(tournament_id), number)


@transaction.atomic
def table_break(
    *, actor, tournament_id: int, number: int, plan: str | None = None
) -> SeatingAction:
    """TDA 10-B: break a table; its players draw the open seats of the tables in play by
    a 2-step random draw. `plan` is the key of the plan the director confirmed
    (`break_preview`), echoed back.

    1. The tournament locked; the plan worked out now, as the confirmation showed it.
    2. Refused, nothing written (409): no other table; the players do not fit even at
       the empty tables; `plan` is not the plan now (the room changed since the
       director confirmed); the break opens an empty table and no plan was confirmed.
    3. The seats drawn (2-step random) at the plan's tables, the table broken, the
       action with its moves, one audit entry, the live event on commit.
    """
    tournament = tournament_lock(tournament_id)
    table = _table(tournament.pk, number)
    if table.broken_at:
        raise NotFound(_("No such table."))
    views = table_views(tournament.pk)
    planned = _break_plan(views, number)
    _refuse_unless_confirmed(plan, planned.key, "break_plan_changed", number=number)
    if planned.opens and plan is None:
        raise _refuse(
            "break_opens_table",
            number=number,
            players=planned.players,
            free=planned.free,
            opens=list(planned.opens),
            tables=", ".join(map(str, planned.opens)),
            plan=planned.key,
        )
    by_number = {v.number: v for v in views}
    seed, rng = _new_rng()
    assignments = engine.break_table(
        by_number[number], [by_number[n] for n in planned.draws_at], rng
    )
    table.broken_at = timezone.now()
    table.save(update_fields=["broken_at"])
    return _apply(
        actor=actor,
        tournament=tournament,
        kind=ActionKind.BREAK,
        seed=seed,
        params={"table": number, "opens": list(planned.opens)},
        assignments=assignments,
        reasons={a.entry: "TDA 10-B" for a in assignments},
        redrawn={number},
    )


@transaction.atomic
def final_table_draw(
    *,
    actor,
    tournament_id: int,
    number: int | None = None,
    positions: dict[str, list[int]] | None = None,
) -> SeatingAction:
    """RP-9: combine the last tables into the final table and draw its seats at random
    (casino §30: by blind position, when the house draws that way). When the field is
    small enough is the house setting "final_table" (RP-9, or casino §30 at ten)."""
    tournament = tournament_lock(tournament_id)
    settings = seating_settings(tournament.pk)
    size = final_size(tournament, settings)  # RP-9, or casino §30 (house setting)
    views = table_views(tournament.pk)
    if len(views) < 2:
        raise _refuse("one_table_left")
    players = [e for v in views for e in v.occupied.values()]
    if len(players) > size:
        raise _refuse("final_too_many", players=len(players), size=size)
    target = (
        next((v for v in views if v.number == number), None)
        if number
        else max(views, key=lambda v: v.break_order)
    )
    if target is None:
        raise NotFound(_("No such table."))
    if len(target.seats) < len(players):
        raise _refuse("final_table_small", number=target.number)
    seats = list(target.seats[:size])
    seed, rng = _new_rng()
    by_position = settings.final_draw == engine.FINAL_BY_POSITION and positions
    drawn = engine.final_table_draw(
        players, seats, rng, positions=positions if by_position else None
    )
    where = {e: (v.number, s) for v in views for s, e in v.occupied.items()}
    assignments = [
        engine.Assignment(e, target.number, seat, *where[e]) for e, seat in drawn.items()
    ]
    closing = Table.objects.filter(tournament=tournament, broken_at=None).exclude(
        number=target.number
    )
    closed = set(closing.values_list("number", flat=True))
    closing.update(broken_at=timezone.now())
    return _apply(
        actor=actor,
        tournament=tournament,
        kind=ActionKind.FINAL,
        seed=seed,
        params={"table": target.number, "by_position": bool(by_position)},
        assignments=assignments,
        reasons={a.entry: "RP-9" for a in assignments},
        redrawn=closed | {target.number},
    )


@transaction.atomic
def halt_waive(*, actor, tournament_id: int, number: int, waived: bool = True) -> Table:
    """TDA 11-D: the TD may waive halting play at a short table."""
    tournament = tournament_lock(tournament_id)
    table = _table_in_play(tournament.pk, number)
    table.halt_waived = waived
    table.save(update_fields=["halt_waived"])
    audit_record(
        actor=actor,
        action="table.halt_waive",
        obj=table,
        tournament=tournament,
        after={"waived": waived},
    )
    _publish(tournament.pk)
    return table


# --- Undo ---------------------------------------------------------------------------------


@transaction.atomic
def seating_undo(*, actor, tournament_id: int, action_id: int) -> SeatingAction:
    """Undo the seating action the TD was shown (`action_id`): the last draw, late seat,
    move, balance, break or final table not undone yet, while every player it seated is
    still in that seat and no hand has been dealt since at a table it changed.

    The page names the action and its players before the TD confirms; a second click, or
    a page left open while someone else undid or seated, is refused (409) rather than
    undoing an earlier action that nobody was shown.

    1. Lock the tournament.
    2. The action must still be the last one and undoable (seating.selectors.undo_plan).
    3. Broken tables it closed open again; the players it seated go back to their seats,
       those it gave a first seat have none.
    4. The action is marked undone; one audit entry; the screens are told on commit.
    """
    tournament = tournament_lock(tournament_id)
    plan = undo_plan(tournament.pk)
    if plan is None:
        raise _refuse("nothing_to_undo")
    if plan.action.pk != action_id:
        shown = SeatingAction.objects.filter(tournament=tournament, pk=action_id).first()
        if shown is None:
            raise NotFound(_("No such seating action."))
        raise _refuse("undo_done" if shown.undone_at else "undo_not_last")
    if plan.refusal:
        raise _refuse(plan.refusal)
    action = plan.action
    if plan.reopens:
        Table.objects.filter(tournament=tournament, number__in=plan.reopens).update(broken_at=None)
    back = {m.entry: (m.from_table, m.from_seat) for m in plan.moves if m.from_table is not None}
    unseat = [m.entry for m in plan.unseated]
    Seat.objects.filter(entry_id__in=unseat).update(entry=None, wait_for_button=False)
    try:
        with transaction.atomic():
            _move_entries(tournament.pk, back, seated=list(back))
    except (Conflict, KeyError):
        raise _refuse("undo_stale") from None
    action.undone_at = timezone.now()
    action.save(update_fields=["undone_at"])
    stopped = _player_clocks_stop(
        tournament,
        [
            engine.Assignment(m.entry, m.to_table, m.to_seat, m.from_table, m.from_seat)
            for m in plan.moves
        ],
    )
    audit_record(
        actor=actor,
        action="seating.undo",
        obj=action,
        tournament=tournament,
        after={
            "kind": action.kind,
            "moves": len(plan.moves),
            "back": {str(e): list(where) for e, where in back.items()},
            "unseated": unseat,
            "reopened": list(plan.reopens),
            **stopped,
        },
    )
    reverse = [engine.Assignment(e, t, s) for e, (t, s) in back.items()]
    _publish(tournament.pk, reverse, freed=unseat)
    return action

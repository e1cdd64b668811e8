"""Chip counts during play (issue 18): a table's counts from its tablet, the floor's
count of any player, and the count sweep the director starts at a break.

Each count is kept as a `ChipCount` row, stamped with the level in play and the time,
and written to the player's stack through `tournaments.services.entries_chips_count`
(with the sales and the hands, the one writer of `Entry.chips`): the chip leaders
follow the count at once. A count is never edited; a recount is a new count.

Casino practice: at a break the floor asks every table for its counts; the table's
dealer counts each stack and enters them in one screen; the floor sees which tables
have reported and checks the sum against the chips in play.
"""

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clock.selectors import level_in_play
from floorman import live
from floorman.audit import audit_record, staff_user
from floorman.errors import Conflict, Invalid, NotFound
from seating.messages import refusal_message
from seating.models import Seat, Table
from tournaments.models import (
    MAX_CHIPS,
    ChipCount,
    CountSource,
    CountSweep,
    Entry,
    EntryStatus,
    Tournament,
    TournamentStatus,
)
from tournaments.services import entries_chips_count, tournament_lock
from tournaments.services.flights import flight_play_refuse

OVER = (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)


def _refuse(code: str, **data) -> Conflict:
    return Conflict(refusal_message(code, **data), code=code, data=data)


def counts_publish(tournament: Tournament, **data) -> None:
    """Tell the screens the counts changed: the lobby's chip leaders, the player's page
    and the floor's counts page fetch what they show again. No chips in the message: a
    house that keeps its counts private still tells its own screens."""
    live.live_publish(tournament_id=tournament.pk, kind=live.COUNTS_UPDATED, data=data)


def _chips_checked(chips, field: str) -> int:
    """A count is a whole number of chips; 0 is refused: a player without chips is out
    (the bust records their place, TDA 20 ff.), not counted."""
    if isinstance(chips, bool) or not isinstance(chips, int):
        raise Invalid({field: _("Count the chips: a whole number.")})
    if chips == 0:
        raise Invalid({field: _("No chips left: bust the player instead of counting 0.")})
    if chips < 0 or chips > MAX_CHIPS:
        raise Invalid({field: _("Between 1 and %(most)s chips.") % {"most": f"{MAX_CHIPS:,}"}})
    return chips


def _play_check(tournament: Tournament) -> None:
    """Counts are taken while the event plays: a stopped flight bags instead (issue 17),
    a finished or cancelled event has no stacks left to count."""
    flight_play_refuse(tournament)
    if tournament.status in OVER:
        raise _refuse("counts_over")


def _open_sweep(tournament: Tournament) -> CountSweep | None:
    return CountSweep.objects.filter(tournament=tournament, closed_at__isnull=True).first()


def _counts_write(
    *, actor, tournament: Tournament, rows: list[tuple[Entry, int, int | None, int | None]], source
) -> tuple[list[ChipCount], int, CountSweep | None]:
    """The counts as rows (entry, chips, table, seat), stamped with the level in play and
    now, in the open sweep if there is one; the stacks written through the one writer."""
    level = level_in_play(tournament)
    sweep = _open_sweep(tournament)
    now = timezone.now()
    counted_by = staff_user(actor)
    made = ChipCount.objects.bulk_create(
        [
            ChipCount(
                tournament=tournament,
                entry=entry,
                chips=chips,
                level=level,
                table_number=table,
                seat=seat,
                sweep=sweep,
                source=source,
                counted_at=now,
                counted_by=counted_by,
            )
            for entry, chips, table, seat in rows
        ]
    )
    entries_chips_count(
        tournament=tournament, counts={entry.pk: chips for entry, chips, _t, _s in rows}
    )
    return made, level, sweep


@transaction.atomic
def table_counts_record(*, actor, tournament_id: int, number: int, counts: dict) -> list[ChipCount]:
    """A table's counts from its tablet, in one screen ({seat: chips}).

    1. Each count checked: a whole number above nought (0: bust the player instead).
    2. Lock the tournament: it plays (not a stopped flight, not over); the table is in
       play, and every seat given has a player.
    3. One count per seat, stamped with the level in play and now, in the open sweep;
       each player's stack becomes the count (`entries_chips_count`).
    4. One audit entry (counts.table); the screens told on commit.
    """
    if not counts:
        raise Invalid({"counts": _("Enter at least one player's chips.")})
    checked = {}
    for seat, chips in counts.items():
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise Invalid({"counts": _("Seats are numbers.")})
        checked[seat] = _chips_checked(chips, f"seat_{seat}")
    tournament = tournament_lock(tournament_id)
    _play_check(tournament)
    table = Table.objects.filter(tournament=tournament, number=number).first()
    if table is None:
        raise NotFound(_("No such table."))
    if table.broken_at:
        raise _refuse("table_broken", number=number)
    seated = {
        seat.number: seat.entry
        for seat in Seat.objects.filter(table=table, entry__isnull=False).select_related("entry")
    }
    empty = sorted(seat for seat in checked if seat not in seated)
    if empty:
        raise Invalid(
            {f"seat_{seat}": _("Nobody sits in seat %(seat)s.") % {"seat": seat} for seat in empty}
        )
    rows = [(seated[seat], chips, number, seat) for seat, chips in sorted(checked.items())]
    made, level, sweep = _counts_write(
        actor=actor, tournament=tournament, rows=rows, source=CountSource.TABLET
    )
    audit_record(
        actor=actor,
        action="counts.table",
        obj=table,
        tournament=tournament,
        after={
            "level": level,
            "sweep": sweep and sweep.pk,
            "counts": {str(seat): chips for seat, chips in sorted(checked.items())},
        },
    )
    counts_publish(tournament, table=number, level=level, sweep=sweep and sweep.pk)
    return made


@transaction.atomic
def entry_count_record(*, actor, tournament_id: int, entry_id: int, chips: int) -> ChipCount:
    """The floor's count of one player, wherever they sit.

    1. The count checked (as a table's); lock the tournament: it plays.
    2. The entry is this event's and still in play.
    3. The count with the level in play, now, the player's table and seat, in the open
       sweep (which counts it for the player's table); the stack becomes the count.
    4. One audit entry (count.entry); the screens told on commit.
    """
    chips = _chips_checked(chips, "chips")
    tournament = tournament_lock(tournament_id)
    _play_check(tournament)
    entry = Entry.objects.filter(tournament=tournament, pk=entry_id).first()
    if entry is None:
        raise NotFound(_("No such entry in this tournament."))
    if entry.status != EntryStatus.ACTIVE:
        raise _refuse("count_not_active")
    seat = Seat.objects.filter(entry=entry).select_related("table").first()
    table = seat.table.number if seat else None
    before = entry.chips
    (count,), level, sweep = _counts_write(
        actor=actor,
        tournament=tournament,
        rows=[(entry, chips, table, seat.number if seat else None)],
        source=CountSource.FLOOR,
    )
    audit_record(
        actor=actor,
        action="count.entry",
        obj=entry,
        tournament=tournament,
        before={"chips": before},
        after={"chips": chips, "level": level, "table": table, "sweep": sweep and sweep.pk},
    )
    counts_publish(tournament, entry=entry.pk, table=table, level=level, sweep=sweep and sweep.pk)
    return count


@transaction.atomic
def count_sweep_start(*, actor, tournament_id: int) -> CountSweep:
    """The director asks every table for its counts (usually at a break).

    1. Lock the tournament: it plays; no sweep open already (one at a time).
    2. The sweep, at the level in play, by the director, now.
    3. One audit entry (counts.sweep_start); the screens told on commit.
    """
    tournament = tournament_lock(tournament_id)
    _play_check(tournament)
    if _open_sweep(tournament) is not None:
        raise _refuse("sweep_open")
    try:
        with transaction.atomic():
            sweep = CountSweep.objects.create(
                tournament=tournament,
                level=level_in_play(tournament),
                started_by=staff_user(actor),
            )
    except IntegrityError:  # never under the lock; kept as a 409, not a 500
        raise _refuse("sweep_open") from None
    audit_record(
        actor=actor,
        action="counts.sweep_start",
        obj=sweep,
        tournament=tournament,
        after={"level": sweep.level},
    )
    counts_publish(tournament, sweep=sweep.pk, open=True)
    return sweep


@transaction.atomic
def count_sweep_close(*, actor, tournament_id: int) -> CountSweep:
    """The director closes the open sweep: the tables that have not reported stay
    listed as such on it. Refused (409) without an open sweep. Allowed once play is
    over, so a sweep left open does not stay open for ever."""
    tournament = tournament_lock(tournament_id)
    sweep = (
        CountSweep.objects.select_for_update()
        .filter(tournament=tournament, closed_at__isnull=True)
        .first()
    )
    if sweep is None:
        raise _refuse("no_sweep")
    sweep.closed_at = timezone.now()
    sweep.save(update_fields=["closed_at"])
    audit_record(
        actor=actor,
        action="counts.sweep_close",
        obj=sweep,
        tournament=tournament,
        after={"level": sweep.level, "counts": sweep.counts.count()},
    )
    counts_publish(tournament, sweep=sweep.pk, open=False)
    return sweep

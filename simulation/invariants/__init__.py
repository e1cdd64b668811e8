"""What must hold after every step of a tournament, read back from the database.

Each check reads the state the services left (through the same selectors the pages
use, and independently from the rows where that is the point) and raises
`SimulationError` naming the step and what broke.
"""

from collections import defaultdict

from django.db.models import Sum

from clock import engine as clock_engine
from clock.models import Clock
from hands.models import Elimination
from hands.selectors import finishing_places
from payouts.selectors import payout_table
from prizes.models import Payment
from prizes.selectors import results
from seating import engine as seating_engine
from seating.models import Seat, Table
from seating.selectors import seating_settings, table_views
from tournaments.models import (
    Entry,
    EntryStatus,
    Tournament,
    TournamentStatus,
    Transaction,
    TransactionKind,
)
from tournaments.selectors import chips_in_play, ledger_totals_check, tournament_totals


class SimulationError(AssertionError):
    """An invariant broke: `step` says when, the message what."""

    def __init__(self, step: str, problem: str):
        super().__init__(f"{step}: {problem}")
        self.step = step
        self.problem = problem


def chips_check(tournament: Tournament, *, step: str) -> None:
    """Every chip sold is in front of a player still in (busted players' chips went to
    the others): chips in play == the active entries' chips, none of them empty."""
    in_play = chips_in_play(tournament)
    active = Entry.objects.filter(tournament=tournament, status=EntryStatus.ACTIVE)
    counted = active.aggregate(chips=Sum("chips", default=0))["chips"]
    if counted != in_play:
        raise SimulationError(
            step, f"the active entries hold {counted:,} chips but {in_play:,} are in play"
        )
    empty = list(active.filter(chips__lt=1).values_list("number", flat=True)[:5])
    if empty:
        raise SimulationError(step, f"active entries without chips: #{empty}")


def seats_check(tournament: Tournament, *, step: str) -> None:
    """Every active entry sits in exactly one seat of an open table; nobody else does."""
    active = set(
        Entry.objects.filter(tournament=tournament, status=EntryStatus.ACTIVE).values_list(
            "pk", flat=True
        )
    )
    rows = list(
        Seat.objects.filter(table__tournament=tournament, entry__isnull=False).values_list(
            "entry_id", "table__number", "table__broken_at"
        )
    )
    seated = defaultdict(int)
    for entry, _table, _broken in rows:
        seated[entry] += 1
    unseated = active - set(seated)
    if unseated:
        raise SimulationError(step, f"{len(unseated)} active entries have no seat")
    twice = [entry for entry, count in seated.items() if count > 1]
    if twice:
        raise SimulationError(step, f"{len(twice)} entries hold two seats")
    gone = set(seated) - active
    if gone:
        raise SimulationError(step, f"{len(gone)} entries no longer in play still hold a seat")
    broken = sorted({table for _entry, table, broken_at in rows if broken_at is not None})
    if broken:
        raise SimulationError(step, f"players sit at broken tables {broken[:5]}")


def over_check(tournament: Tournament, *, step: str) -> None:
    """An event that is over has stopped its clock and handed its venue tables back."""
    still_open = list(
        Table.objects.filter(tournament=tournament, broken_at=None).values_list("number", flat=True)
    )
    if still_open:
        raise SimulationError(step, f"the event is over but tables {still_open[:5]} are open")
    clock = Clock.objects.filter(pk=tournament.pk).first()
    if clock is not None and clock.status not in (clock_engine.NOT_STARTED, clock_engine.FINISHED):
        raise SimulationError(step, f"the event is over but its clock is {clock.status}")


def tables_check(tournament: Tournament, *, step: str) -> None:
    """Once balanced, the tables in play differ by less than the house's threshold
    (TDA 11-A) and no table is over its seats."""
    threshold = seating_settings(tournament.pk).balance_threshold
    views = [view for view in table_views(tournament.pk) if view.players]
    full = [view.number for view in views if view.players > len(view.seats)]
    if full:
        raise SimulationError(step, f"tables {full} seat more players than they have seats")
    spread = seating_engine.spread(views)
    if len(views) > 1 and spread >= threshold:
        counts = sorted(view.players for view in views)
        raise SimulationError(
            step,
            f"tables differ by {spread} players (threshold {threshold}): "
            f"{counts[0]} to {counts[-1]}",
        )


def places_check(tournament: Tournament, *, step: str, finished: bool = False) -> None:
    """Every busted entry has a place; the places run from just below the players left
    to the size of the field, each place once. Places are shared only by busts of one
    hand: hand-for-hand across tables (RP-8 A) or equal stacks at one table (IFP 4.27)."""
    places = finishing_places(tournament.pk)
    statuses = dict(
        Entry.objects.filter(tournament=tournament)
        .exclude(status__in=[EntryStatus.CANCELLED, EntryStatus.DISQUALIFIED])
        .values_list("pk", "status")
    )
    field = len(statuses)
    busted = {pk for pk, status in statuses.items() if status == EntryStatus.BUSTED}
    active = field - len(busted)
    if not busted:
        return
    missing = busted - set(places)
    if missing:
        raise SimulationError(step, f"{len(missing)} busted entries have no place")
    placed_active = [pk for pk in places if pk not in busted]
    # Once registration has closed, the one entry left is the winner: placed first.
    winner_only = active == 1 and [places[pk].shared for pk in placed_active] == [(1, 1)]
    if placed_active and not winner_only:
        raise SimulationError(step, f"{len(placed_active)} entries still in play have a place")
    if finished and active == 1 and not winner_only:
        raise SimulationError(step, "the last entry left is not placed first")
    ranges: dict[tuple[int, int], list[int]] = defaultdict(list)
    for entry, place in places.items():
        ranges[place.shared].append(entry)
    covered: list[int] = []
    for (first, last), entries in ranges.items():
        if len(entries) != last - first + 1:
            raise SimulationError(
                step, f"places {first}-{last} are shared by {len(entries)} entries"
            )
        covered.extend(range(first, last + 1))
    lowest = 1 if winner_only else active + 1
    if sorted(covered) != list(range(lowest, field + 1)):
        raise SimulationError(
            step, f"the places do not run {lowest}..{field} once each ({len(covered)} given)"
        )
    _shared_places_check(tournament, ranges, step=step)


def _shared_places_check(tournament: Tournament, ranges: dict, *, step: str) -> None:
    shared = {
        entry for (first, last), entries in ranges.items() if last > first for entry in entries
    }
    if not shared:
        return
    busts = {
        entry: (key, stack)
        for entry, key, stack in Elimination.objects.filter(
            tournament=tournament, entry_id__in=shared
        ).values_list("entry_id", "hand_key", "stack")
    }
    for (first, last), entries in ranges.items():
        if last == first:
            continue
        keys = {busts[entry][0] for entry in entries}
        if len(keys) != 1:
            raise SimulationError(step, f"places {first}-{last} are shared across hands")
        key = keys.pop()
        if not key.startswith("r") and len({busts[entry][1] for entry in entries}) != 1:
            raise SimulationError(
                step, f"places {first}-{last} are shared outside hand-for-hand ({key})"
            )


def ledger_check(tournament: Tournament, *, step: str, finished: bool = False) -> None:
    """The money adds up: the running totals are the ledger's sums (issue 20), what came
    in is the buy-ins sold, collected less paid out is what remains, payments are the
    payout lines, and the payout table pays the pool. Finished: every prize is paid,
    exactly, and nothing remains."""
    differs = ledger_totals_check(tournament)
    if differs:
        raise SimulationError(step, f"the running totals differ from the ledger: {differs}")
    totals = tournament_totals(tournament)
    pool = totals.prize_pool
    sold = Entry.objects.filter(tournament=tournament).exclude(status=EntryStatus.CANCELLED)
    if totals.total_buy_ins != sold.count():
        raise SimulationError(
            step, f"the ledger counts {totals.total_buy_ins} buy-ins for {sold.count()} entries"
        )
    if pool.collected != tournament.buy_in * totals.total_buy_ins:
        raise SimulationError(
            step,
            f"collected {pool.collected} for {totals.total_buy_ins} buy-ins of {tournament.buy_in}",
        )
    if totals.fees != tournament.fee * totals.total_buy_ins:
        raise SimulationError(step, f"fees {totals.fees} for {totals.total_buy_ins} buy-ins")
    if pool.collected + pool.overlay - pool.paid_out != pool.remaining:
        raise SimulationError(
            step,
            f"collected {pool.collected} less paid out {pool.paid_out} is not the "
            f"{pool.remaining} remaining",
        )
    paid = -(
        Transaction.objects.filter(
            tournament=tournament, kind=TransactionKind.PAYOUT, payment__isnull=False
        ).aggregate(total=Sum("amount", default=0))["total"]
    )
    if paid != pool.paid_out:
        raise SimulationError(
            step, f"payments total {paid} but the ledger paid out {pool.paid_out}"
        )
    table = payout_table(tournament, totals)
    if table.amounts and sum(table.amounts) != pool.total:
        raise SimulationError(
            step, f"the payout lines add up to {sum(table.amounts)}, the pool is {pool.total}"
        )
    if finished:
        _paid_in_full(tournament, pool.total, pool.remaining, step=step)


def _paid_in_full(tournament: Tournament, pool: int, remaining: int, *, step: str) -> None:
    found = results(tournament)
    if found.conflicts:
        raise SimulationError(step, f"places claimed twice: {found.conflicts[:5]}")
    due = sum(row.prize for row in found.rows)
    if due != pool:
        raise SimulationError(step, f"the prizes due add up to {due}, the pool is {pool}")
    wrong = [row.place for row in found.rows if row.prize and row.paid != row.prize]
    if wrong:
        raise SimulationError(step, f"places {wrong[:5]} are not paid their prize")
    paid = Payment.objects.filter(entry__tournament=tournament).aggregate(
        total=Sum("line__amount", default=0)
    )["total"]
    if -paid != due:
        raise SimulationError(step, f"payments add up to {-paid}, the prizes to {due}")
    if remaining != 0:
        raise SimulationError(step, f"{remaining} is left in the prize pool")


def check_all(
    tournament: Tournament,
    *,
    step: str,
    seated: bool = True,
    balanced: bool = False,
    finished: bool = False,
    paid: bool = False,
    light: bool = False,
) -> None:
    """Every invariant that applies at this step: `finished`, the winner is placed;
    `paid`, every prize is paid. `light`: the chips, seats and tables only, what every
    hand and move changes; the places and the ledger, which read the whole field's
    busts and money, are left to the next full check (Simulation.check_round)."""
    tournament.refresh_from_db()
    chips_check(tournament, step=step)
    if tournament.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
        over_check(tournament, step=step)
    else:
        if seated:
            seats_check(tournament, step=step)
        if balanced:
            tables_check(tournament, step=step)
    if light:
        return
    places_check(tournament, step=step, finished=finished)
    ledger_check(tournament, step=step, finished=paid)

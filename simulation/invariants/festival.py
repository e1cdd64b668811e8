"""What must hold after every step of a festival (issue 17), read back from the rows.

- A flight: the single event's checks while it plays; once stopped, every chip of
  every bag comes from it (each bag holds its survivor's chips when play stopped, the
  bags add up to the chips in play, or to the difference the director confirmed).
- The satellite: its busted players placed below the seats, one ticket per seat, to
  the players left, each worth the target's buy-in and fee; the cash the seats leave.
- Tickets: each used once, by an entry of its event (or a flight of it) that has the
  ticket's TICKET ledger line; an unused ticket has none.
- Day 2: one entry per carried bag with its chips; every other bag forfeited under the
  survivor rule, with its reason; the Day 2 chips are the carried bags' (plus late
  entries' stacks); the event's pool is the flights' and its own prize shares, tickets
  at full buy-in, plus the guarantee, and the ledger says the same.
"""

from collections import defaultdict

from django.db.models import Q, Sum

from clock import engine as clock_engine
from clock.models import Clock
from hands.selectors import finishing_places
from payouts.selectors import payout_table
from prizes.models import Payment
from prizes.selectors import results
from simulation.invariants import (
    SimulationError,
    chips_check,
    over_check,
    places_check,
    seats_check,
    tables_check,
)
from tournaments.models import (
    Bag,
    BagStatus,
    Entry,
    EntryStatus,
    FlightEnd,
    SurvivorKeeps,
    Ticket,
    TicketStatus,
    Tournament,
    TournamentStatus,
    Transaction,
    TransactionKind,
)
from tournaments.selectors import tournament_totals

SALES = (TransactionKind.BUY_IN, TransactionKind.REENTRY, TransactionKind.TICKET)
UNREVERSED = Q(reversed_by__isnull=True, reverses__isnull=True)


def _play_checks(tournament: Tournament, *, step: str, seated: bool, balanced: bool) -> None:
    chips_check(tournament, step=step)
    if tournament.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
        over_check(tournament, step=step)
    else:
        if seated:
            seats_check(tournament, step=step)
        if balanced:
            tables_check(tournament, step=step)


# --- Sales -------------------------------------------------------------------------------


def sales_check(tournament: Tournament, *, step: str) -> None:
    """Every entry sold has one sale line (cash or a ticket) and no line sells nothing:
    the cash lines carry the buy-in and the fee, a ticket's line the buy-in alone."""
    lines = Transaction.objects.filter(tournament=tournament, kind__in=SALES).filter(UNREVERSED)
    sold = Entry.objects.filter(tournament=tournament).exclude(status=EntryStatus.CANCELLED)
    count = sold.count()
    if lines.count() != count:
        raise SimulationError(step, f"{lines.count()} sale lines for {count} entries")
    wrong = lines.exclude(kind=TransactionKind.TICKET).exclude(
        prize_share=tournament.buy_in, fee_share=tournament.fee
    )
    if wrong.exists():
        raise SimulationError(step, f"{wrong.count()} cash lines not at the buy-in and fee")
    tickets = lines.filter(kind=TransactionKind.TICKET)
    if tickets.exclude(prize_share=tournament.buy_in, fee_share=0).exists():
        raise SimulationError(step, "a ticket's line does not count the full buy-in, no fee")
    if tickets.filter(ticket__isnull=True).exists():
        raise SimulationError(step, "a TICKET line names no ticket")


# --- Flights and their bags ----------------------------------------------------------------


def flight_check(
    flight: Tournament,
    *,
    step: str,
    seated: bool = True,
    balanced: bool = False,
    stopped: bool = False,
    confirmed: bool = False,
) -> None:
    """A flight while it plays as any event; `stopped`: its end is recorded and its
    survivors are still in, with their chips; `confirmed`: the bags as well."""
    flight.refresh_from_db()
    if flight.status == TournamentStatus.FINISHED:
        # Its survivors stay in their seats to bag their chips (casino practice).
        chips_check(flight, step=step)
        seats_check(flight, step=step)
        clock_stopped_check(flight, step=step)
    else:
        _play_checks(flight, step=step, seated=seated, balanced=balanced)
    places_check(flight, step=step)
    sales_check(flight, step=step)
    if Transaction.objects.filter(tournament=flight, kind=TransactionKind.PAYOUT).exists():
        raise SimulationError(step, "a flight paid a prize: the event pays on Day 2")
    if stopped:
        stop_check(flight, step=step)
        bags_check(flight, step=step, confirmed=confirmed)


def clock_stopped_check(tournament: Tournament, *, step: str) -> None:
    clock = Clock.objects.filter(pk=tournament.pk).first()
    if clock is not None and clock.status not in (clock_engine.NOT_STARTED, clock_engine.FINISHED):
        raise SimulationError(step, f"play stopped but the clock is {clock.status}")


def stop_check(flight: Tournament, *, step: str) -> None:
    """Play stopped at the house's share (or level): the flight is over with its
    survivors in, and the chips in play it recorded are theirs."""
    end = FlightEnd.objects.filter(flight=flight).first()
    if end is None:
        raise SimulationError(step, "the flight has no recorded end")
    if flight.status != TournamentStatus.FINISHED:
        raise SimulationError(step, f"the flight stopped but is {flight.status}")
    survivors = flight.entries.filter(status=EntryStatus.ACTIVE)
    chips = survivors.aggregate(chips=Sum("chips", default=0))["chips"]
    if chips != end.chips_in_play:
        raise SimulationError(
            step, f"the survivors hold {chips:,} chips, the end recorded {end.chips_in_play:,}"
        )
    percent = flight.parent.flight_end_percent
    sold = flight.entries.exclude(status=EntryStatus.CANCELLED).count()
    if end.reason == FlightEnd.Reason.SHARE and survivors.count() * 100 > sold * percent:
        raise SimulationError(
            step, f"stopped at the share with {survivors.count()} of {sold} left ({percent} %)"
        )


def bags_check(flight: Tournament, *, step: str, confirmed: bool = False) -> None:
    """Every chip of every bag comes from this flight: each bag is a survivor's and
    holds that survivor's chips when play stopped, numbered 1, 2, ... without a gap;
    `confirmed`: every survivor has a bag, the director confirmed them, and they add up
    to the chips in play or to the difference confirmed (the bags miscounted by that
    difference, no more)."""
    end = FlightEnd.objects.get(flight=flight)
    bags = list(
        Bag.objects.filter(flight=flight).values_list(
            "number", "chips", "entry__tournament_id", "entry__status", "entry__chips"
        )
    )
    strangers = [number for number, _c, tournament, _s, _e in bags if tournament != flight.pk]
    if strangers:
        raise SimulationError(step, f"bags {strangers[:5]} hold another event's entry's chips")
    busted = [number for number, _c, _t, status, _e in bags if status != EntryStatus.ACTIVE]
    if busted:
        raise SimulationError(step, f"bags {busted[:5]} belong to entries no longer in")
    if sorted(number for number, *_rest in bags) != list(range(1, len(bags) + 1)):
        raise SimulationError(step, "the bag numbers do not run 1, 2, ... once each")
    bagged = sum(chips for _n, chips, *_rest in bags)
    if not confirmed:
        return
    if end.confirmed_at is None:
        raise SimulationError(step, "the bags are not confirmed")
    survivors = flight.entries.filter(status=EntryStatus.ACTIVE).count()
    if survivors != len(bags):
        raise SimulationError(step, f"{survivors} survivors, {len(bags)} bags")
    difference = end.difference or 0
    if bagged != end.chips_in_play + difference:
        raise SimulationError(
            step,
            f"the bags hold {bagged:,} chips; in play were {end.chips_in_play:,}, "
            f"difference confirmed {difference:+,}",
        )
    miscounted = [n for n, chips, _t, _s, held in bags if chips != held]
    if difference == 0 and miscounted:
        raise SimulationError(step, f"bags {miscounted[:5]} differ from their players' chips")
    off = sum(chips - held for _n, chips, _t, _s, held in bags)
    if off != difference:
        raise SimulationError(
            step, f"the bags differ from their players' chips by {off:+,}, not {difference:+,}"
        )


# --- The satellite and its tickets -------------------------------------------------------


def satellite_check(
    satellite: Tournament, *, step: str, seated: bool = True, balanced: bool = False, **_what
) -> None:
    """A satellite as any event while it plays; once over, its seats are tickets: one
    to each player left, as many as the pool buys, each worth the target's buy-in and
    fee; the players out are placed below the seats, each place once."""
    satellite.refresh_from_db()
    _play_checks(satellite, step=step, seated=seated, balanced=balanced)
    sales_check(satellite, step=step)
    tickets = Ticket.objects.filter(satellite=satellite)
    if satellite.status != TournamentStatus.FINISHED:
        if tickets.exists():
            raise SimulationError(step, "the satellite gave out tickets before its end")
        return
    table = payout_table(satellite)
    left = set(satellite.entries.filter(status=EntryStatus.ACTIVE).values_list("pk", flat=True))
    winners = set(tickets.values_list("won_by_id", flat=True))
    if len(left) != table.seats or winners != left:
        raise SimulationError(
            step,
            f"{table.seats} seats, {len(left)} players left, {len(winners)} tickets won by them",
        )
    target = satellite.satellite_target
    if tickets.exclude(buy_in=target.buy_in, fee=target.fee).exists():
        raise SimulationError(step, "a ticket is not worth the target's buy-in and fee")
    _busted_places_check(satellite, lowest=len(left) + 1, step=step)


def _busted_places_check(tournament: Tournament, *, lowest: int, step: str) -> None:
    """The players out hold places `lowest` to the field's size, each place once."""
    places = finishing_places(tournament.pk)
    busted = set(tournament.entries.filter(status=EntryStatus.BUSTED).values_list("pk", flat=True))
    field = tournament.entries.exclude(
        status__in=[EntryStatus.CANCELLED, EntryStatus.DISQUALIFIED]
    ).count()
    if busted - set(places):
        raise SimulationError(step, f"{len(busted - set(places))} busted entries have no place")
    ranges: dict[tuple[int, int], int] = defaultdict(int)
    for entry in busted:
        ranges[places[entry].shared] += 1
    covered: list[int] = []
    for (first, last), count in ranges.items():
        if count != last - first + 1:
            raise SimulationError(step, f"places {first}-{last} are shared by {count} entries")
        covered.extend(range(first, last + 1))
    if sorted(covered) != list(range(lowest, field + 1)):
        raise SimulationError(step, f"the players out are not placed {lowest}..{field} once each")


def tickets_check(event: Tournament, *, step: str) -> None:
    """Every ticket into the event is used once: a used ticket names an entry of the
    event or of one of its flights, and that entry has exactly one TICKET line for it;
    an unused ticket has no line; no TICKET line without its ticket used by its entry."""
    tickets = list(
        Ticket.objects.filter(target=event).values_list(
            "pk", "status", "used_by_id", "used_by__tournament_id", "used_by__tournament__parent_id"
        )
    )
    lines = defaultdict(list)
    for ticket, entry, tournament in (
        Transaction.objects.filter(kind=TransactionKind.TICKET)
        .filter(UNREVERSED)
        .filter(Q(tournament=event) | Q(tournament__parent=event))
        .values_list("ticket_id", "entry_id", "tournament_id")
    ):
        lines[ticket].append((entry, tournament))
    for ticket, status, entry, tournament, parent in tickets:
        if status == TicketStatus.USED:
            if event.pk not in (tournament, parent):
                raise SimulationError(step, f"ticket {ticket} entered another event")
            if lines.get(ticket) != [(entry, tournament)]:
                raise SimulationError(
                    step, f"ticket {ticket} has {len(lines.get(ticket, []))} lines for its entry"
                )
        elif lines.get(ticket):
            raise SimulationError(step, f"ticket {ticket} is {status} but an entry paid with it")
    unknown = set(lines) - {ticket for ticket, *_rest in tickets}
    if unknown:
        raise SimulationError(step, f"TICKET lines for tickets {sorted(unknown)[:5]} of no event")


# --- Day 2 ------------------------------------------------------------------------------------


def day2_check(
    event: Tournament,
    *,
    step: str,
    seated: bool = True,
    balanced: bool = False,
    finished: bool = False,
    paid: bool = False,
    day2_start: bool = False,
) -> None:
    """Day 2 of the event: its field from the carried bags (`day2_start`: each entry
    still with its bag's chips), the survivor rule, the chips, seats and places as any
    event's, and the event's pool over all its flights."""
    event.refresh_from_db()
    carried_check(event, step=step, day2_start=day2_start)
    day2_chips_check(event, step=step)
    chips_check(event, step=step)  # and the chips in play the deal page reads agree
    if event.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
        over_check(event, step=step)
    else:
        if seated:
            seats_check(event, step=step)
        if balanced:
            tables_check(event, step=step)
    places_check(event, step=step, finished=finished)
    tickets_check(event, step=step)
    pool_check(event, step=step, paid=paid)


def carried_check(event: Tournament, *, step: str, day2_start: bool = False) -> None:
    """Every bag of every flight is carried to Day 2 or forfeited, none left sealed; a
    player has at most one bag carried, the one the house's rule keeps (the larger, the
    first), the others forfeited with their reason; each carried bag is a Day 2 entry of
    its player (at the redraw with its chips); every other Day 2 entry a late entry."""
    bags = list(
        Bag.objects.filter(flight__parent=event)
        .order_by("flight__start_at", "flight_id", "number")
        .values_list(
            "pk",
            "status",
            "chips",
            "forfeit_reason",
            "entry__player_id",
            "day2_entry_id",
            "day2_entry__tournament_id",
            "day2_entry__player_id",
            "day2_entry__chips",
        )
    )
    sealed = [bag for bag, status, *_rest in bags if status == BagStatus.SEALED]
    if sealed:
        raise SimulationError(step, f"{len(sealed)} bags neither carried nor forfeited")
    of_player = defaultdict(list)
    for bag, status, chips, reason, player, entry, tournament, entry_player, held in bags:
        of_player[player].append((bag, status, chips))
        if status == BagStatus.FORFEITED:
            if not reason:
                raise SimulationError(step, f"bag {bag} forfeited without a reason")
            if entry is not None:
                raise SimulationError(step, f"forfeited bag {bag} has a Day 2 entry")
            continue
        if entry is None or tournament != event.pk or entry_player != player:
            raise SimulationError(step, f"carried bag {bag} is not its player's Day 2 entry")
        if day2_start and held != chips:
            raise SimulationError(step, f"bag {bag} holds {chips:,} chips, its entry {held:,}")
    rule = event.survivor_keeps
    for player, own in of_player.items():
        carried = [(bag, chips) for bag, status, chips in own if status == BagStatus.CARRIED]
        if len(carried) != 1:
            raise SimulationError(step, f"player {player} carries {len(carried)} bags to Day 2")
        if len(own) > 1 and rule == SurvivorKeeps.LARGER:
            if carried[0][1] != max(chips for _bag, _status, chips in own):
                raise SimulationError(step, f"player {player} keeps the smaller bag")
        if len(own) > 1 and rule == SurvivorKeeps.FIRST and carried[0][0] != own[0][0]:
            raise SimulationError(step, f"player {player} keeps a later flight's bag")
    day2 = event.entries.exclude(status=EntryStatus.CANCELLED).count()
    carried_count = sum(1 for _bag, status, *_rest in bags if status == BagStatus.CARRIED)
    late = _late_entries(event).count()
    if day2 != carried_count + late:
        raise SimulationError(
            step, f"{day2} Day 2 entries for {carried_count} bags and {late} late entries"
        )


def _late_entries(event: Tournament):
    return (
        event.entries.exclude(status=EntryStatus.CANCELLED)
        .filter(from_bag__isnull=True)
        .exclude(transactions__isnull=True)
    )


def day2_chips_check(event: Tournament, *, step: str) -> None:
    """The Day 2 chips are the carried bags' and the late entries' stacks: every chip in
    play on Day 2 came out of a bag (or was sold on Day 2), and none went missing."""
    bagged = Bag.objects.filter(flight__parent=event, status=BagStatus.CARRIED).aggregate(
        chips=Sum("chips", default=0)
    )["chips"]
    late = _late_entries(event).count() * (event.day2_late_stack or event.starting_stack)
    active = event.entries.filter(status=EntryStatus.ACTIVE)
    held = active.aggregate(chips=Sum("chips", default=0))["chips"]
    if held != bagged + late:
        raise SimulationError(
            step, f"Day 2 holds {held:,} chips; the bags carried {bagged:,}, late entries {late:,}"
        )
    if active.filter(chips__lt=1).exists():
        raise SimulationError(step, "a Day 2 entry in play has no chips")


def pool_check(event: Tournament, *, step: str, paid: bool = False) -> None:
    """The event's pool reconciles to the ledger: the flights' and its own sales at the
    buy-in (a ticket at its full buy-in), plus the guarantee; the ledger's prize shares
    say the same; the payout table pays it out; `paid`: every prize due is paid and
    nothing remains."""
    tournaments = [event.pk, *event.flights.values_list("pk", flat=True)]
    sold = (
        Entry.objects.filter(tournament_id__in=tournaments)
        .exclude(status=EntryStatus.CANCELLED)
        .filter(transactions__kind__in=SALES)
        .distinct()
        .count()
    )
    shares = Transaction.objects.filter(tournament_id__in=tournaments, kind__in=SALES).filter(
        UNREVERSED
    )
    shared = shares.aggregate(total=Sum("prize_share", default=0))["total"]
    if shared != sold * event.buy_in:
        raise SimulationError(
            step, f"the ledger's prize shares are {shared:,} for {sold} sales at {event.buy_in:,}"
        )
    totals = tournament_totals(event)
    pool = totals.prize_pool
    expected = shared + event.guarantee
    if pool.total != expected:
        raise SimulationError(
            step, f"the event's pool is {pool.total:,}; its flights and own sales {expected:,}"
        )
    payouts = -Transaction.objects.filter(
        tournament_id__in=tournaments, kind=TransactionKind.PAYOUT
    ).aggregate(total=Sum("amount", default=0))["total"]
    if payouts != pool.paid_out:
        raise SimulationError(step, f"payments total {payouts:,}, the pool paid {pool.paid_out:,}")
    table = payout_table(event, totals)
    if table.amounts and sum(table.amounts) != pool.total:
        raise SimulationError(
            step, f"the payout lines add up to {sum(table.amounts):,}, the pool is {pool.total:,}"
        )
    if not paid:
        return
    found = results(event, table)
    due = sum(row.prize for row in found.rows)
    if due != pool.total:
        raise SimulationError(step, f"the prizes due add up to {due:,}, the pool is {pool.total:,}")
    unpaid = [row.place for row in found.rows if row.prize and row.paid != row.prize]
    if unpaid:
        raise SimulationError(step, f"places {unpaid[:5]} are not paid their prize")
    paid_total = -Payment.objects.filter(entry__tournament=event).aggregate(
        total=Sum("line__amount", default=0)
    )["total"]
    if paid_total != due or pool.remaining != 0:
        raise SimulationError(
            step, f"paid {paid_total:,} of {due:,}; {pool.remaining:,} left in the pool"
        )

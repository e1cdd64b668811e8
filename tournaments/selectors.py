"""Reads: public shapes of entries and the totals that must reconcile with the ledger."""

from dataclasses import dataclass

from django.db.models import Count, Q, Sum

from tournaments import engine
from tournaments.models import (
    Alternate,
    AlternateStatus,
    Entry,
    EntryStatus,
    Player,
    Ticket,
    TicketStatus,
    Tournament,
    TournamentStatus,
    Transaction,
    TransactionKind,
)


def rules_at(tournament: Tournament, *, level: int) -> engine.Rules:
    """The tournament's deadlines and limits, read against `level`: the level in play,
    which the clock knows to the second (clock.selectors.entry_rules)."""
    return engine.Rules(
        status=tournament.status,
        current_level=level,
        late_reg_until_level=tournament.late_reg_until_level,
        capacity=tournament.capacity,
        reentry_allowed=tournament.reentry_allowed,
        reentry_max=tournament.reentry_max,
        reentry_until_level=tournament.reentry_until_level,
        rebuy_until_level=tournament.rebuy_until_level,
        rebuy_max=tournament.rebuy_max,
        addon_at_break_after_level=tournament.addon_at_break_after_level,
    )


# What an event's copy or template takes of its setup: all but its name, its start and
# the level in play (tournaments.services.TOURNAMENT_FIELDS besides those).
SETUP_FIELDS = (
    "game",
    "currency",
    "buy_in",
    "fee",
    "starting_stack",
    "table_size",
    "capacity",
    "late_reg_until_level",
    "reentry_allowed",
    "reentry_max",
    "reentry_until_level",
    "rebuy_until_level",
    "rebuy_max",
    "rebuy_price",
    "rebuy_fee",
    "rebuy_chips",
    "addon_price",
    "addon_fee",
    "addon_chips",
    "addon_at_break_after_level",
    "guarantee",
    # Festivals (issue 17): the house's settings for flights, Day 2 and tickets.
    "format",
    "flight_end_level",
    "flight_end_percent",
    "flight_reentry",
    "survivor_keeps",
    "day2_late_entry",
    "day2_late_stack",
    "day2_spread_big_stacks",
    "satellite_remainder",
    "tickets_transferable",
    "tickets_refundable",
)


def tournament_setup(tournament: Tournament) -> dict:
    """The event's own settings as plain values (JSON), for a copy or a saved template:
    money, stack, table size, deadlines, re-entries, rebuys, add-on, guarantee."""
    return {name: getattr(tournament, name) for name in SETUP_FIELDS}


def player_public(player) -> dict:
    """What anyone may see of a player: no contact data (email, phone, birth year)."""
    return {
        "id": player.pk,
        "name": player.name,
        "nickname": player.nickname,
        "country": player.country,
    }


def entry_public(entry: Entry) -> dict:
    """What anyone may see of an entry: no contact data. Seats come with seating."""
    return {
        "id": entry.pk,
        "number": entry.number,
        "reentry_number": entry.reentry_number,
        "player": player_public(entry.player),
        "status": entry.status,
        "chips": entry.chips,
        "table": None,
        "seat": None,
    }


def active_entry_count(tournament: Tournament) -> int:
    return tournament.entries.filter(status=EntryStatus.ACTIVE).count()


def waiting_alternates(tournament: Tournament):
    return Alternate.objects.filter(
        tournament=tournament, status=AlternateStatus.WAITING
    ).select_related("player")


@dataclass(frozen=True)
class Totals:
    entries: int
    reentries: int
    rebuys: int
    addons: int
    active: int
    prize_pool: engine.PrizePool
    fees: int
    free_places: int | None
    alternates_waiting: int
    # Entries paid with a ticket (issue 17): counted in `entries`, their buy-in in the
    # prize pool, nothing in the fees or the cash taken.
    tickets: int = 0

    @property
    def total_buy_ins(self) -> int:
        return self.entries + self.reentries


def tournament_totals(tournament: Tournament) -> Totals:
    """Counts and money, all from the ledger: refunded lines do not count. An entry paid
    with a ticket (issue 17) counts as an entry and its buy-in in the prize pool, but
    neither in the cash taken nor in the fees (its TICKET line has no fee share)."""
    lines = Transaction.objects.filter(tournament=tournament)
    unreversed = Q(reversed_by__isnull=True)
    ticket = Q(kind=TransactionKind.TICKET, reverses__isnull=True) & unreversed
    agg = lines.aggregate(
        entries=Count("id", filter=(Q(kind=TransactionKind.BUY_IN) & unreversed) | ticket),
        tickets=Count("id", filter=ticket),
        reentries=Count("id", filter=Q(kind=TransactionKind.REENTRY) & unreversed),
        rebuys=Count("id", filter=Q(kind=TransactionKind.REBUY) & unreversed),
        addons=Count("id", filter=Q(kind=TransactionKind.ADDON) & unreversed),
        collected=Sum("prize_share", filter=~Q(kind=TransactionKind.PAYOUT), default=0),
        paid_out=Sum("amount", filter=Q(kind=TransactionKind.PAYOUT), default=0),
        fees=Sum("fee_share", default=0),
    )
    active = active_entry_count(tournament)
    return Totals(
        entries=agg["entries"],
        reentries=agg["reentries"],
        rebuys=agg["rebuys"],
        addons=agg["addons"],
        active=active,
        prize_pool=engine.PrizePool(
            collected=agg["collected"],
            # Casino §7: a cancelled tournament is refunded, so no guarantee is owed.
            guarantee=0
            if tournament.status == TournamentStatus.CANCELLED
            else tournament.guarantee,
            paid_out=-agg["paid_out"],
        ),
        fees=agg["fees"],
        free_places=engine.free_places(tournament.capacity, active_entries=active),
        alternates_waiting=waiting_alternates(tournament).count(),
        tickets=agg["tickets"],
    )


def entries_search(tournament: Tournament, *, query: str = "", status: str = ""):
    entries = tournament.entries.select_related("player")
    if status:
        entries = entries.filter(status=status)
    if query:
        condition = Q(player__name__icontains=query) | Q(player__nickname__icontains=query)
        if query.isdigit() and len(query) < 10:
            condition |= Q(number=int(query))
        entries = entries.filter(condition)
    return entries


def players_search(*, query: str = ""):
    """Players for staff, by name, nickname or email."""
    players = Player.objects.order_by("name", "id")
    if query:
        players = players.filter(
            Q(name__icontains=query) | Q(nickname__icontains=query) | Q(email__icontains=query)
        )
    return players


# --- Tickets (issue 17) -------------------------------------------------------------


def tickets_of_event(tournament: Tournament, *, status: str = ""):
    """The tickets into an event: issued, used and refunded, with holder, the satellite
    they were won in and the entry that used them, oldest first."""
    tickets = Ticket.objects.filter(target=tournament).select_related(
        "holder", "satellite", "used_by"
    )
    return tickets.filter(status=status) if status else tickets


def tickets_of_player(player: Player):
    """A player's tickets, every event, newest first."""
    return (
        Ticket.objects.filter(holder=player)
        .select_related("target", "satellite", "used_by")
        .order_by("-issued_at", "-id")
    )


def tickets_unused(tournament: Tournament, player_ids) -> dict[int, list[Ticket]]:
    """The unused tickets the desk may take from these players for this event (or the
    event this flight belongs to), by player id: one query."""
    targets = [tournament.pk] + ([tournament.parent_id] if tournament.parent_id else [])
    found: dict[int, list[Ticket]] = {}
    for ticket in Ticket.objects.filter(
        target_id__in=targets, holder_id__in=list(player_ids), status=TicketStatus.ISSUED
    ).order_by("pk"):
        found.setdefault(ticket.holder_id, []).append(ticket)
    return found

"""Reads: public shapes of entries and the totals that must reconcile with the ledger."""

from dataclasses import dataclass

from django.db.models import Count, Q, Sum

from tournaments import engine
from tournaments.engine import flights as flights_engine
from tournaments.models import (
    Alternate,
    AlternateStatus,
    Bag,
    Entry,
    EntryStatus,
    FlightEnd,
    Player,
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

    @property
    def total_buy_ins(self) -> int:
        return self.entries + self.reentries


def tournament_totals(tournament: Tournament) -> Totals:
    """Counts and money, all from the ledger: refunded lines do not count."""
    lines = Transaction.objects.filter(tournament=tournament)
    unreversed = Q(reversed_by__isnull=True)
    agg = lines.aggregate(
        entries=Count("id", filter=Q(kind=TransactionKind.BUY_IN) & unreversed),
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


# --- Flights and their bags (issue 17) --------------------------------------------------


def flight_chips_in_play(flight: Tournament) -> int:
    """The chips in play in a flight: every chip its ledger sold (a stack per buy-in,
    re-entry or ticket, the rebuys' and add-ons' chips; refunded lines do not count) less
    the chips taken out of play (a disqualified player's, TDA 71-D: kept on the entry as it
    left). The sum of its active entries' chips should come to the same."""
    unreversed = Q(reversed_by__isnull=True)
    agg = Transaction.objects.filter(tournament=flight).aggregate(
        buy_ins=Count(
            "id",
            filter=Q(
                kind__in=(TransactionKind.BUY_IN, TransactionKind.REENTRY, TransactionKind.TICKET)
            )
            & unreversed,
        ),
        rebuys=Count("id", filter=Q(kind=TransactionKind.REBUY) & unreversed),
        addons=Count("id", filter=Q(kind=TransactionKind.ADDON) & unreversed),
    )
    sold = flights_engine.chips_sold(
        starting_stack=flight.starting_stack,
        buy_ins=agg["buy_ins"],
        rebuy_chips=flight.rebuy_chips,
        rebuys=agg["rebuys"],
        addon_chips=flight.addon_chips,
        addons=agg["addons"],
    )
    removed = flight.entries.filter(status=EntryStatus.DISQUALIFIED).aggregate(
        removed=Sum("chips", default=0)
    )["removed"]
    return max(0, sold - removed)


@dataclass(frozen=True)
class FlightBagCheck:
    """A stopped flight's bags against its chips in play (casino practice: counted per
    player, checked against the chips the flight had in play)."""

    flight_end: FlightEnd | None
    bags: list[Bag]  # by bag number, with their entries and players
    survivors: list[Entry]  # the active entries, with their players
    without_bag: list[Entry]
    check: flights_engine.BagCheck | None  # None while the flight has not stopped

    @property
    def expected(self) -> int | None:
        return self.check.expected if self.check else None

    @property
    def bagged(self) -> int:
        return sum(bag.chips for bag in self.bags)

    @property
    def difference(self) -> int | None:
        return self.check.difference if self.check else None

    @property
    def confirmed(self) -> bool:
        return bool(self.flight_end and self.flight_end.confirmed_at)


def flight_bag_check(flight: Tournament) -> FlightBagCheck:
    """Expected chips (the FlightEnd's chips in play), the bags counted, the difference
    and the survivors still without a bag. Three queries."""
    flight_end = FlightEnd.objects.filter(flight=flight).first()
    bags = list(
        Bag.objects.filter(flight=flight).select_related("entry__player").order_by("number")
    )
    survivors = list(
        flight.entries.filter(status=EntryStatus.ACTIVE).select_related("player").order_by("number")
    )
    bagged_entries = {bag.entry_id for bag in bags}
    without = [entry for entry in survivors if entry.pk not in bagged_entries]
    check = None
    if flight_end is not None:
        check = flights_engine.BagCheck(
            expected=flight_end.chips_in_play,
            bagged=sum(bag.chips for bag in bags),
            missing=len(without),
        )
    return FlightBagCheck(
        flight_end=flight_end, bags=bags, survivors=survivors, without_bag=without, check=check
    )


def flight_entered_in(tournament: Tournament, player: Player) -> list[str]:
    """The other flights of the same event the player has an entry in (not refunded)."""
    if tournament.parent_id is None:
        return []
    return list(
        Entry.objects.filter(
            tournament__parent_id=tournament.parent_id,
            player=player,
        )
        .exclude(tournament=tournament)
        .exclude(status=EntryStatus.CANCELLED)
        .order_by("tournament__start_at", "tournament_id")
        .values_list("tournament__flight_name", flat=True)
        .distinct()
    )


def flights_of(event: Tournament):
    """The event's flights by start, each with its entries (refunded ones not counted),
    its survivors (active entries) and its end if it stopped. One query."""
    return (
        event.flights.select_related("flight_end")
        .annotate(
            entries_count=Count("entries", filter=~Q(entries__status=EntryStatus.CANCELLED)),
            survivors_count=Count("entries", filter=Q(entries__status=EntryStatus.ACTIVE)),
        )
        .order_by("start_at", "id")
    )

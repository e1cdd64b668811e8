"""Reads: public shapes of entries and the totals that must reconcile with the ledger."""

from dataclasses import dataclass

from django.db.models import Count, Exists, OuterRef, Q, Subquery, Sum
from django.db.models.functions import Coalesce

from tournaments import engine
from tournaments.models import (
    Alternate,
    AlternateStatus,
    Bag,
    BagStatus,
    Entry,
    EntryStatus,
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


# --- An event with flights, as a whole (issue 17) ---------------------------------------

# How many of the biggest bags the lobby and the API show as Day 2's chip leaders.
CHIP_LEADERS = 10
IN_PLAY = ~Q(status=EntryStatus.CANCELLED)  # refunded entries never count
BAGS_KEPT = (BagStatus.SEALED, BagStatus.CARRIED)  # a forfeited bag plays no Day 2


def _per_flight(model, link: str, condition: Q):
    """The rows of `model` of each flight, counted in one subquery per column."""
    rows = (
        model.objects.filter(condition, **{link: OuterRef("pk")})
        .order_by()
        .values(link)
        .annotate(count=Count("pk"))
        .values("count")
    )
    return Coalesce(Subquery(rows), 0)


def event_overview(event: Tournament, *, leaders: int = CHIP_LEADERS) -> dict | None:
    """An event with flights as a whole: each flight (its name, start, status, entries and
    survivors: the entries still in while it plays, its bags once the director has
    confirmed them), the entries of all flights and the late entries into Day 2, the
    survivors in all (forfeited bags not counted: the player plays Day 2 with one bag),
    Day 2's chip leaders from the bags (sealed or carried, biggest first), and once Day 2
    has begun its players. None for an event without flights. At most three queries,
    however many flights and players."""
    flights = list(
        Tournament.objects.filter(parent=event)
        .select_related("flight_end")
        .annotate(
            entries_n=_per_flight(Entry, "tournament", IN_PLAY),
            active_n=_per_flight(Entry, "tournament", Q(status=EntryStatus.ACTIVE)),
            bags_n=_per_flight(Bag, "flight", Q()),
            forfeited_n=_per_flight(Bag, "flight", Q(status=BagStatus.FORFEITED)),
        )
        .order_by("start_at", "flight_name", "pk")
    )
    if not flights:
        return None
    rows = [_flight_row(flight) for flight in flights]
    own = Entry.objects.filter(IN_PLAY, tournament=event).aggregate(
        from_bags=Count("pk", filter=Q(from_bag__isnull=False)),
        late=Count("pk", filter=Q(from_bag__isnull=True)),
        active=Count("pk", filter=Q(status=EntryStatus.ACTIVE)),
    )
    flight_entries = sum(row["entries"] for row in rows)
    forfeited = sum(f.forfeited_n for f in flights if _bags_confirmed(f))
    started = own["from_bags"] > 0  # Day 2 has seated the bags
    return {
        "event": {"id": event.pk, "name": event.name, "status": event.status},
        "flights": rows,
        "flight_entries": flight_entries,
        "day2_late_entries": own["late"],
        "entries": flight_entries + own["late"],
        "survivors": sum(row["survivors"] for row in rows) - forfeited,
        "chip_leaders": chip_leaders(event, limit=leaders)
        if leaders and any(f.bags_n for f in flights)
        else [],
        "day2": {"started": True, "players": own["active"]} if started else None,
    }


def flights_flagged(tournaments):
    """The tournaments with `has_flights`, in the same query: a busy public page then
    asks nothing more of an event without flights."""
    return tournaments.annotate(
        has_flights=Exists(Tournament.objects.filter(parent=OuterRef("pk")))
    )


def _bags_confirmed(flight: Tournament) -> bool:
    end = getattr(flight, "flight_end", None)
    return end is not None and end.confirmed_at is not None


def _flight_row(flight: Tournament) -> dict:
    confirmed = _bags_confirmed(flight)
    return {
        "id": flight.pk,
        "name": flight.flight_name,
        "start_at": flight.start_at,
        "status": flight.status,
        "entries": flight.entries_n,
        # While it plays the players still in; once bagged and confirmed, its bags.
        "survivors": flight.bags_n if confirmed else flight.active_n,
        "stopped": getattr(flight, "flight_end", None) is not None,
        "bags": flight.bags_n,
        "bags_confirmed": confirmed,
    }


def chip_leaders(event: Tournament, *, limit: int = CHIP_LEADERS) -> list[dict]:
    """The biggest bags of the event's flights (Day 2's chip counts), forfeited bags left
    out; equal stacks in the order of the flights, then of the bag numbers."""
    bags = (
        Bag.objects.filter(flight__parent=event, status__in=BAGS_KEPT)
        .select_related("entry__player", "flight")
        .order_by("-chips", "flight__start_at", "flight__flight_name", "number")[:limit]
    )
    return [
        {
            "bag": bag.number,
            "flight": bag.flight.flight_name,
            "chips": bag.chips,
            "status": bag.status,
            "player": player_public(bag.entry.player),
        }
        for bag in bags
    ]


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

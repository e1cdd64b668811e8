"""Reads: public shapes of entries and the totals that must reconcile with the ledger."""

from dataclasses import dataclass, field

from django.db.models import Count, Exists, Func, IntegerField, OuterRef, Q, Subquery, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

from floorman.names import name_keys
from tournaments import engine, house
from tournaments.engine import day2 as day2_engine
from tournaments.engine import flights as flights_engine
from tournaments.engine import ledger as ledger_engine
from tournaments.engine import removals as removals_engine
from tournaments.models import (
    Alternate,
    AlternateStatus,
    Bag,
    BagStatus,
    ChipCount,
    ChipRemoval,
    Entry,
    EntryStatus,
    FlightEnd,
    LedgerTotals,
    Player,
    PlayerLink,
    Ticket,
    TicketStatus,
    Tournament,
    TournamentStatus,
    Transaction,
    TransactionKind,
    Venue,
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
    # Bounties, RP-22 and chip counts (issue 18).
    "bounty_format",
    "bounty",
    "bounty_cash_percent",
    "mystery_start",
    "mystery_prizes",
    "non_betting_items",
    "chip_counts_public",
)


def house_settings(tournament: Tournament) -> house.HouseSettings:
    """The event's house settings: where the rule books disagree, the reading it follows
    (`tournaments.house`). Services read it and pass the reading to the engines."""
    venue = tournament.venue if tournament.venue_id else default_venue()
    return house.resolve(venue.house_settings if venue else None, tournament.house_settings)


def default_venue() -> Venue | None:
    """The venue an event without one follows: the one marked default, else the first."""
    return Venue.objects.order_by("-is_default", "name", "pk").first()


def venue_house_settings(venue: Venue | None) -> house.HouseSettings:
    return house.resolve(venue.house_settings if venue else None)


def tournament_setup(tournament: Tournament) -> dict:
    """The event's own settings as plain values (JSON), for a copy or a saved template:
    money, stack, table size, deadlines, re-entries, rebuys, add-on, guarantee, the
    festival's settings, the bounties (issue 18) and the house's RP-22 and chip counts
    policies."""
    setup = {name: getattr(tournament, name) for name in SETUP_FIELDS}
    setup["mystery_prizes"] = [dict(prize) for prize in tournament.mystery_prizes]
    # Issue 19: the venue it follows and its own readings where the books disagree.
    setup["venue_id"] = tournament.venue_id
    setup["house_settings"] = dict(tournament.house_settings)
    return setup


def bounty_due(tournament: Tournament) -> int:
    """The bounty sold with each buy-in and re-entry (issue 18): the event's bounty in an
    event with bounties, 0 otherwise. Rebuys and add-ons carry none."""
    return tournament.bounty if tournament.bounty_format else 0


def mystery_list_total(tournament: Tournament) -> int:
    """The published mystery bounty list's money: each prize's amount times its count."""
    return sum(int(p["amount"]) * int(p["count"]) for p in tournament.mystery_prizes or [])


def player_public(player) -> dict:
    """What anyone may see of a player: no contact data (email, phone, birth year)."""
    return {
        "id": player.pk,
        "name": player.name,
        "nickname": player.nickname,
        "country": player.country,
    }


def entry_public(entry: Entry, *, chips: bool = True) -> dict:
    """What anyone may see of an entry: no contact data, and its chips only where the
    house publishes counts (`chips`: issue 18). Seats come with seating."""
    return {
        "id": entry.pk,
        "number": entry.number,
        "reentry_number": entry.reentry_number,
        "player": player_public(entry.player),
        "status": entry.status,
        "chips": entry.chips if chips else None,
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


def active_entries_upto(tournament_id: int, most: int) -> int:
    """The entries in play, counted no further than `most`: whether a bust left a winner
    or two players heads-up is told without counting the whole field (issue 20: at
    10,000 entries a full count took 2 ms on every bust)."""
    in_play = Entry.objects.filter(tournament_id=tournament_id, status=EntryStatus.ACTIVE)
    return in_play.order_by()[:most].count()


def waiting_alternates(tournament: Tournament):
    return Alternate.objects.filter(
        tournament=tournament, status=AlternateStatus.WAITING
    ).select_related("player")


@dataclass(frozen=True)
class BountyMoney:
    """An event's bounty money (issue 18), kept apart from the prize pool: the bounty part
    of the buy-ins and re-entries (refunds taken off), the bounties paid at the cage
    (BOUNTY lines, their reversals taken off) and what is left (bounties still on heads,
    mystery bounties still in the draw, a PKO winner's own)."""

    collected: int = 0
    paid_out: int = 0

    @property
    def left(self) -> int:
        return self.collected - self.paid_out


def _bounty_sums() -> dict:
    is_bounty = Q(kind=TransactionKind.BOUNTY)
    return {
        "bounty_in": Sum("bounty_share", filter=~is_bounty, default=0),
        "bounty_out": Sum("bounty_share", filter=is_bounty, default=0),
    }


def bounty_money(tournament: Tournament) -> BountyMoney:
    """The whole bounty money of an event: its own lines and, for an event with flights,
    its flights' (`event_lines`). One query."""
    agg = Transaction.objects.filter(event_lines(tournament)).aggregate(**_bounty_sums())
    return BountyMoney(collected=agg["bounty_in"], paid_out=-agg["bounty_out"])


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
    # Lines of the event's flights among these (issue 17): 0 for any other event.
    flight_lines: int = 0
    # Entries paid with a ticket (issue 17): counted in `entries`, their buy-in in the
    # prize pool, nothing in the fees or the cash taken.
    tickets: int = 0
    # The bounty money (issue 18): never part of the prize pool.
    bounty: BountyMoney = field(default_factory=BountyMoney)

    @property
    def total_buy_ins(self) -> int:
        return self.entries + self.reentries


def tournament_totals(tournament: Tournament) -> Totals:
    """Counts and money, all from the ledger: refunded lines do not count. An event with
    flights counts its flights' lines with its own (issue 17: one pool, `event_lines`). An
    entry paid with a ticket (issue 17) counts as an entry and its buy-in in the prize
    pool, but neither in the cash taken nor in the fees (its TICKET line has no fee share).
    The bounty part of each line (issue 18) is counted apart (`Totals.bounty`): the prize
    pool is the prize shares alone, and BOUNTY lines pay out of the bounty money only.

    The ledger's figures are its running totals (issue 20: `LedgerTotals`, equal to
    `ledger_recount`), read with the active entries and the waiting alternates in one
    query, however long the ledger."""
    active = tournament.entries.filter(status=EntryStatus.ACTIVE).order_by()
    waiting = waiting_alternates(tournament).select_related(None).order_by()
    row = (
        Tournament.objects.filter(pk=tournament.pk)
        .annotate(active_count=count_of(active), waiting_count=count_of(waiting))
        .values(
            "active_count",
            "waiting_count",
            *(f"ledger_totals__{name}" for name in ledger_engine.FIELDS),
        )
        .get()
    )
    # No line yet, no row: zeros.
    agg = {name: row[f"ledger_totals__{name}"] or 0 for name in ledger_engine.FIELDS}
    return Totals(
        entries=agg["entries"],
        reentries=agg["reentries"],
        rebuys=agg["rebuys"],
        addons=agg["addons"],
        active=row["active_count"],
        prize_pool=engine.PrizePool(
            collected=agg["collected"],
            # Casino §7: a cancelled tournament is refunded, so no guarantee is owed.
            guarantee=0
            if tournament.status == TournamentStatus.CANCELLED
            else tournament.guarantee,
            paid_out=-agg["paid_out"],
        ),
        fees=agg["fees"],
        free_places=engine.free_places(tournament.capacity, active_entries=row["active_count"]),
        alternates_waiting=row["waiting_count"],
        flight_lines=agg["flight_lines"],
        tickets=agg["tickets"],
        bounty=BountyMoney(collected=agg["bounty_in"], paid_out=-agg["bounty_out"]),
    )


def count_of(queryset) -> Coalesce:
    """COUNT(*) of `queryset` as a scalar subquery (0 when it is empty). COUNT(*), not of
    a column: PostgreSQL may then count an index alone (an index-only scan)."""
    counted = queryset.annotate(n=Func(template="COUNT(*)", output_field=IntegerField()))
    counted = counted.values("n")
    return Coalesce(Subquery(counted), 0)


def ledger_recount(tournament: Tournament) -> dict[str, int]:
    """The ledger's figures summed afresh over every line of the event and its flights
    (`event_lines`), with the names of `LedgerTotals`: what the running totals must
    equal (`ledger_totals_check`; the migration that made them filled them with it)."""
    unreversed = Q(reversed_by__isnull=True)
    ticket = Q(kind=TransactionKind.TICKET, reverses__isnull=True) & unreversed
    return Transaction.objects.filter(event_lines(tournament)).aggregate(
        entries=Count("id", filter=(Q(kind=TransactionKind.BUY_IN) & unreversed) | ticket),
        tickets=Count("id", filter=ticket),
        reentries=Count("id", filter=Q(kind=TransactionKind.REENTRY) & unreversed),
        rebuys=Count("id", filter=Q(kind=TransactionKind.REBUY) & unreversed),
        addons=Count("id", filter=Q(kind=TransactionKind.ADDON) & unreversed),
        collected=Sum("prize_share", filter=~Q(kind=TransactionKind.PAYOUT), default=0),
        paid_out=Sum("amount", filter=Q(kind=TransactionKind.PAYOUT), default=0),
        fees=Sum("fee_share", default=0),
        flight_lines=Count("id", filter=~Q(tournament=tournament)),
        **_bounty_sums(),
    )


def ledger_totals_check(tournament: Tournament) -> dict[str, tuple[int, int]]:
    """Where the running totals differ from a fresh sum over the ledger: {figure: (running,
    recounted)}, empty when they agree (as they must: a line written past
    `tournaments.services.ledger` would not be in them)."""
    running = LedgerTotals.objects.filter(tournament=tournament).values(*ledger_engine.FIELDS)
    running = running.first() or dict.fromkeys(ledger_engine.FIELDS, 0)
    fresh = ledger_recount(tournament)
    return {
        name: (running[name], fresh[name])
        for name in ledger_engine.FIELDS
        if running[name] != fresh[name]
    }


def event_lines(tournament: Tournament) -> Q:
    """The ledger lines of an event (issue 17): its own and, for an event with flights,
    every flight's, so the prize pool is the flights' pools plus the Day 2 late entries
    (the guarantee counted once, the event's) and the places paid follow the entries
    across the flights. A flight's own lines stay its own. No extra query: a join."""
    return Q(tournament=tournament) | Q(tournament__parent=tournament)


# --- Day 2 of an event with flights (issue 17) --------------------------------------------


def day2_started(event: Tournament) -> bool:
    """Day 2 has begun: its bags went on to Day 2 (tournaments.services.day2)."""
    return Bag.objects.filter(flight__parent=event, status=BagStatus.CARRIED).exists()


def day2_late_sale(tournament: Tournament) -> tuple[str | None, int | None]:
    """For a sale at the desk: (a refusal code or None, the stack to sell or None for
    the starting stack). A sale in an event with flights is a late entry straight into
    Day 2 (TDA 8-A) with the house's Day 2 stack, where the house allows it and Day 2 has
    begun. One query for an event that is no flight; none for a flight."""
    if tournament.parent_id is not None:
        return None, None
    flags = Tournament.objects.filter(pk=tournament.pk).aggregate(
        flight_count=Count("flights", distinct=True),
        carried_count=Count("flights__bags", filter=Q(flights__bags__status=BagStatus.CARRIED)),
    )
    refusal = day2_engine.late_entry_refusal(
        has_flights=flags["flight_count"] > 0,
        allowed=tournament.day2_late_entry,
        started=flags["carried_count"] > 0,
    )
    if flags["flight_count"] == 0 or refusal:
        return refusal, None
    return None, tournament.day2_late_stack or tournament.starting_stack


def day2_chips_sold(event: Tournament) -> int:
    """The chips an event with flights brought into Day 2 and sold there: the bags
    carried, the late entries with the Day 2 stack (for cash or a ticket), and the
    event's own rebuys and add-ons (a flight's are in its bags). Two queries."""
    bags = Bag.objects.filter(flight__parent=event, status=BagStatus.CARRIED).aggregate(
        chips=Sum("chips", default=0)
    )["chips"]
    unreversed = Q(reversed_by__isnull=True)
    own = Transaction.objects.filter(tournament=event).aggregate(
        late=Count(
            "id",
            filter=Q(
                kind__in=[TransactionKind.BUY_IN, TransactionKind.REENTRY, TransactionKind.TICKET]
            )
            & unreversed
            & Q(reverses__isnull=True),  # a ticket's line is taken back by a TICKET line
        ),
        rebuys=Count("id", filter=Q(kind=TransactionKind.REBUY) & unreversed),
        addons=Count("id", filter=Q(kind=TransactionKind.ADDON) & unreversed),
    )
    return (
        bags
        + own["late"] * (event.day2_late_stack or event.starting_stack)
        + own["rebuys"] * event.rebuy_chips
        + own["addons"] * event.addon_chips
    )


@dataclass
class FlightDay2:
    """A flight on the Day 2 page: its end of day, its survivors and their bags."""

    flight: Tournament
    order: int
    survivors: int
    bags: list[Bag] = field(default_factory=list)

    @property
    def end(self) -> FlightEnd | None:
        return getattr(self.flight, "flight_end", None)

    @property
    def stopped(self) -> bool:
        return self.end is not None

    @property
    def confirmed(self) -> bool:
        return self.end is not None and self.end.confirmed_at is not None

    @property
    def chips(self) -> int:
        return sum(b.chips for b in self.bags if b.status != BagStatus.FORFEITED)

    def ready(self) -> day2_engine.FlightReady:
        return flight_ready(self.flight)


def flight_ready(flight: Tournament) -> day2_engine.FlightReady:
    """A flight as Day 2's start sees it: stopped, its bags confirmed (its `flight_end`
    read with it)."""
    end = getattr(flight, "flight_end", None)
    return day2_engine.FlightReady(
        name=flight.flight_name or flight.name,
        cancelled=flight.status == TournamentStatus.CANCELLED,
        stopped=end is not None,
        confirmed=end is not None and end.confirmed_at is not None,
    )


@dataclass
class DoubleSurvivor:
    """A player who survived two flights or more, their bags (first flight first) and
    the one that plays Day 2: None while they must still choose."""

    player: Player
    bags: list[Bag]
    kept: Bag | None
    must_choose: bool


@dataclass
class Day2State:
    event: Tournament
    flights: list[FlightDay2]
    doubles: list[DoubleSurvivor]
    outcome: day2_engine.Outcome
    started: bool
    refusal: tuple[str, dict] | None
    field: list[Bag]  # the bags that play (or will play) Day 2, biggest first

    @property
    def ready(self) -> bool:
        return self.refusal is None

    @property
    def field_chips(self) -> int:
        return sum(b.chips for b in self.field)

    @property
    def clock_level(self) -> int | None:
        """The level Day 2's clock starts at: where the flights stopped."""
        return day2_engine.clock_level([r.end.resume_level for r in self.flights if r.stopped])

    def flight_of(self, bag: Bag) -> Tournament:
        return next(f.flight for f in self.flights if f.flight.pk == bag.flight_id)


def bag_label(flight: Tournament, bag: Bag) -> str:
    """A bag's tag: its flight and number, "1B-7"."""
    return f"{flight.flight_name or flight.pk}-{bag.number}"


def day2_state(event: Tournament) -> Day2State:
    """Day 2 as the director sees it before and after its start (issue 17): each
    flight's end of day and bags, the players in two flights and which bag they keep by
    the house rule (tournaments.engine.day2), the Day 2 field and why it cannot start
    yet. Two queries, however many flights and bags."""
    flights = list(
        Tournament.objects.filter(parent=event)
        .select_related("flight_end")
        .annotate(left=Count("entries", filter=Q(entries__status=EntryStatus.ACTIVE)))
        .order_by("start_at", "pk")
    )
    rows = [FlightDay2(flight=f, order=i, survivors=f.left) for i, f in enumerate(flights)]
    by_flight = {row.flight.pk: row for row in rows}
    bags = list(
        Bag.objects.filter(flight__parent=event)
        .select_related("entry__player")
        .order_by("flight_id", "number")
    )
    for bag in bags:
        by_flight[bag.flight_id].bags.append(bag)
    started = any(b.status == BagStatus.CARRIED for b in bags)
    live = [b for b in bags if b.status != BagStatus.FORFEITED]
    outcome = day2_engine.survivors(
        [
            day2_engine.BagView(b.pk, b.entry.player_id, b.chips, by_flight[b.flight_id].order)
            for b in live
        ],
        event.survivor_keeps,
    )
    by_player: dict[int, list[Bag]] = {}
    for bag in bags:
        by_player.setdefault(bag.entry.player_id, []).append(bag)
    carried = set(outcome.carried)
    doubles = [
        DoubleSurvivor(
            player=own[0].entry.player,
            bags=sorted(own, key=lambda b: (by_flight[b.flight_id].order, b.number)),
            kept=next((b for b in own if b.pk in carried), None),
            must_choose=player in outcome.choosing,
        )
        for player, own in by_player.items()
        if len(own) > 1
    ]
    doubles.sort(key=lambda d: d.player.name)
    day2_field = sorted((b for b in bags if b.pk in carried), key=lambda b: (-b.chips, b.pk))
    refusal = day2_engine.start_refusal(
        [row.ready() for row in rows],
        outcome,
        started=started,
        closed=event.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED),
    )
    return Day2State(
        event=event,
        flights=rows,
        doubles=doubles,
        outcome=outcome,
        started=started,
        refusal=refusal,
        field=day2_field,
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


def chips_sold(tournament: Tournament, totals: Totals | None = None) -> int:
    """Every chip the event sold. An event with flights: what Day 2 brought and sold
    there (`day2_chips_sold`). Any other event, a flight too: a stack per buy-in,
    re-entry or ticket, the rebuys' and add-ons' chips (refunded lines do not count).
    With the event's `totals` (read already) no query for an event without flights."""
    if totals is not None:
        has_flights = totals.flight_lines > 0
    else:
        has_flights = Tournament.objects.filter(parent=tournament).exists()
    if has_flights:
        return day2_chips_sold(tournament)
    if totals is None:
        unreversed = Q(reversed_by__isnull=True)
        agg = Transaction.objects.filter(tournament=tournament).aggregate(
            buy_ins=Count(
                "id",
                filter=Q(
                    kind__in=(
                        TransactionKind.BUY_IN,
                        TransactionKind.REENTRY,
                        TransactionKind.TICKET,
                    )
                )
                & unreversed
                & Q(reverses__isnull=True),  # a ticket's line is taken back by a TICKET line
            ),
            rebuys=Count("id", filter=Q(kind=TransactionKind.REBUY) & unreversed),
            addons=Count("id", filter=Q(kind=TransactionKind.ADDON) & unreversed),
        )
        buy_ins, rebuys, addons = agg["buy_ins"], agg["rebuys"], agg["addons"]
    else:
        buy_ins, rebuys, addons = totals.total_buy_ins, totals.rebuys, totals.addons
    return flights_engine.chips_sold(
        starting_stack=tournament.starting_stack,
        buy_ins=buy_ins,
        rebuy_chips=tournament.rebuy_chips,
        rebuys=rebuys,
        addon_chips=tournament.addon_chips,
        addons=addons,
    )


def chips_removed(tournament: Tournament) -> int:
    """The one home of the chips taken out of play in an event: a disqualified player's
    stack (TDA 71-D; kept on the entry as it left, and on their penalty as
    `rulings.Penalty.chips_removed`: the same chips, counted once here) and the floor's
    removals (`ChipRemoval`: a stack forfeited for a re-entry, TDA 8-B; chips out of view
    or in transit, TDA 63; lost and found chips without an owner, TDA 64). One query."""
    disqualified = (
        Entry.objects.filter(tournament=OuterRef("pk"), status=EntryStatus.DISQUALIFIED)
        .values("tournament")
        .annotate(total=Sum("chips"))
        .values("total")
    )
    removals = (
        ChipRemoval.objects.filter(tournament=OuterRef("pk"))
        .values("tournament")
        .annotate(total=Sum("amount"))
        .values("total")
    )
    row = (
        Tournament.objects.filter(pk=tournament.pk)
        .annotate(
            disqualified=Coalesce(Subquery(disqualified), 0),
            removals=Coalesce(Subquery(removals), 0),
        )
        .values("disqualified", "removals")
        .first()
    )
    return (row["disqualified"] + row["removals"]) if row else 0


def chips_in_play(tournament: Tournament, totals: Totals | None = None) -> int:
    """The chips in play: sold less removed (`chips_sold` less `chips_removed`). Every
    figure of the chips in play reads it: the count check (`count_check`), a flight's
    end and its bag check (`tournaments.services.bags`), a deal's chip counts, the
    lobby's average stack and the live feed. Busted players' chips are with the players
    left, so the stacks in play should come to the same."""
    return max(0, chips_sold(tournament, totals) - chips_removed(tournament))


def removal_public(removal: ChipRemoval) -> dict:
    """A removal as the floor's page, the API and the audit show it."""
    entry = removal.entry
    return {
        "id": removal.pk,
        "amount": removal.amount,
        "reason": removal.reason,
        "rule": removals_engine.RULES[removal.reason],
        "entry": entry.pk if entry else None,
        "number": entry.number if entry else None,
        "name": entry.player.name if entry else "",
        "note": removal.note,
        "removed_by": removal.removed_by.get_username() if removal.removed_by else "",
        "removed_at": removal.removed_at,
    }


def chips_removed_list(tournament: Tournament) -> list[ChipRemoval]:
    """The floor's removals of chips from play (TDA 8-B, 63, 64), newest first, each with
    its player and who removed them. One query whatever their number."""
    return list(
        ChipRemoval.objects.filter(tournament=tournament)
        .select_related("entry__player", "removed_by")
        .order_by("-removed_at", "-id")
    )


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


# --- Series (issue 17) ----------------------------------------------------------------


@dataclass(frozen=True)
class ScheduleRow:
    """One line of a series' schedule: an event, or a flight of one."""

    tournament: Tournament
    number: int | None  # the event's number; a flight's, its event's
    flight: str  # "1B"; empty for an event
    label: str  # "Event #3", "Flight 1B of Event #3"

    @property
    def bounty(self) -> int:
        return bounty_due(self.tournament)

    @property
    def total_buy_in(self) -> int:
        """What the player pays: buy-in, fee and, with bounties, the bounty (issue 18)."""
        return self.tournament.buy_in + self.tournament.fee + bounty_due(self.tournament)

    @property
    def day(self):
        """The day it starts, in the house's time zone (a schedule groups by it)."""
        return timezone.localtime(self.tournament.start_at).date()


def series_schedule(series) -> list[ScheduleRow]:
    """The series' events and their flights by start time, in one query: each with its
    start, buy-in and fee, game, format and status; a flight named with its event
    ("Flight 1B of Event #3"). A flight is in its event's series whether or not its own
    row names the series."""
    events = (
        Tournament.objects.filter(Q(series=series) | Q(parent__series=series))
        .select_related("parent")
        .order_by("start_at", "series_number", "id")
    )
    rows = []
    for event in events:
        if event.parent_id is not None:
            number = event.parent.series_number
            of = (
                _("Event #%(number)s") % {"number": number}
                if number is not None
                else event.parent.name
            )
            label = _("Flight %(flight)s of %(event)s") % {
                "flight": event.flight_name or event.pk,
                "event": of,
            }
            rows.append(ScheduleRow(event, number, event.flight_name, label))
        else:
            number = event.series_number
            label = _("Event #%(number)s") % {"number": number} if number is not None else ""
            rows.append(ScheduleRow(event, number, "", label))
    return rows


# --- Chip counts and leaders during play (issue 18) -----------------------------------------


@dataclass(frozen=True)
class Standing:
    """One active entry's place in the chip counts: its chips now (`Entry.chips`, which
    the hands, the counts and the sales keep), and when and at which level it was last
    counted (None before its first count)."""

    rank: int
    entry_id: int
    number: int
    player: dict
    chips: int
    counted_at: object = None
    counted_level: int | None = None


@dataclass(frozen=True)
class ChipStandings:
    leaders: list[Standing]
    players_left: int
    chips: int  # the active entries' chips together

    @property
    def average(self) -> int:
        return self.chips // self.players_left if self.players_left else 0


def latest_counts(tournament: Tournament, entry_ids=None) -> dict[int, ChipCount]:
    """Each entry's latest count (the last one recorded), by entry id."""
    counts = ChipCount.objects.filter(tournament=tournament)
    if entry_ids is not None:
        counts = counts.filter(entry_id__in=list(entry_ids))
    last = ChipCount.objects.filter(entry=OuterRef("entry")).order_by("-counted_at", "-id")
    latest = counts.filter(pk=Subquery(last.values("pk")[:1]))
    return {count.entry_id: count for count in latest}


def _standings_order(entries):
    # Biggest stack first; equal stacks by entry number, so the order is stable.
    return entries.order_by("-chips", "number")


def chip_standings(tournament: Tournament, *, limit: int = CHIP_LEADERS) -> ChipStandings:
    """The chip leaders (top `limit`), the players left and their chips together: three
    queries whatever the field's size."""
    active = Entry.objects.filter(tournament=tournament, status=EntryStatus.ACTIVE)
    totals = active.aggregate(left=Count("id"), chips=Sum("chips", default=0))
    top = list(_standings_order(active).select_related("player")[:limit])
    counted = latest_counts(tournament, [entry.pk for entry in top])
    leaders = [
        Standing(
            rank=rank,
            entry_id=entry.pk,
            number=entry.number,
            player=player_public(entry.player),
            chips=entry.chips,
            counted_at=counted[entry.pk].counted_at if entry.pk in counted else None,
            counted_level=counted[entry.pk].level if entry.pk in counted else None,
        )
        for rank, entry in enumerate(top, start=1)
    ]
    return ChipStandings(leaders=leaders, players_left=totals["left"], chips=totals["chips"])


def entry_rank(entry: Entry) -> int | None:
    """An active entry's rank by chips among the players left (1 the chip leader; equal
    stacks ranked by entry number, as `chip_standings` lists them); None once out."""
    if entry.status != EntryStatus.ACTIVE:
        return None
    ahead = Entry.objects.filter(
        Q(chips__gt=entry.chips) | Q(chips=entry.chips, number__lt=entry.number),
        tournament_id=entry.tournament_id,
        status=EntryStatus.ACTIVE,
    ).count()
    return ahead + 1


@dataclass(frozen=True)
class CountRow:
    """A player still in, with their latest count (None before the first) and their
    stack now (which a hand may have changed since the count)."""

    entry: Entry
    count: ChipCount | None
    # Chips taken off the player's stack since that count (TDA 8-B, 63: `ChipRemoval`).
    removed_since: int = 0

    @property
    def chips(self) -> int:
        """What the check adds up: the latest count less the chips the floor took off the
        stack since, or the stack for one never counted."""
        if self.count is None:
            return self.entry.chips
        return self.count.chips - self.removed_since


@dataclass(frozen=True)
class CountCheck:
    """Issue 18: the sum of the latest counts against the chips in play, as the flight's
    bag check does (casino practice: a difference is looked for, not hidden)."""

    rows: list[CountRow]  # the players still in, biggest latest count first
    expected: int
    uncounted: int  # players never counted: their stack stands in

    @property
    def counted(self) -> int:
        return sum(row.chips for row in self.rows)

    @property
    def difference(self) -> int:
        """What the counts hold more (positive) or less (negative) than expected."""
        return self.counted - self.expected


def count_check(tournament: Tournament) -> CountCheck:
    """The floor's counts page: every player still in with their latest count, and the
    check. A handful of queries whatever the field's size."""
    entries = list(
        Entry.objects.filter(tournament=tournament, status=EntryStatus.ACTIVE)
        .select_related("player")
        .order_by("number")
    )
    latest = latest_counts(tournament, [entry.pk for entry in entries])
    since: dict[int, int] = {}
    removals = ChipRemoval.objects.filter(
        tournament=tournament, count_before__in=[count.pk for count in latest.values()]
    ).values_list("entry_id", "amount")
    for entry_id, amount in removals:
        since[entry_id] = since.get(entry_id, 0) + amount
    rows = [
        CountRow(entry=entry, count=latest.get(entry.pk), removed_since=since.get(entry.pk, 0))
        for entry in entries
    ]
    rows.sort(key=lambda row: (-row.chips, row.entry.number))
    return CountCheck(
        rows=rows,
        expected=chips_in_play(tournament),
        uncounted=sum(1 for row in rows if row.count is None),
    )


def entry_count_history(entry: Entry) -> list[ChipCount]:
    """A player's counts in the order they were taken (the chart on their page)."""
    return list(ChipCount.objects.filter(entry=entry).order_by("counted_at", "id"))


# --- Players of another program's file (issue 22) -----------------------------------------


@dataclass(frozen=True)
class PlayerProposal:
    """The player a file's person is proposed to be: found by the link from an earlier
    import (`how` "link"), by the same name (accents and case aside: "name"), or none
    ("new")."""

    file_id: str
    player: object | None  # a Player, or None for a new one
    how: str


def player_proposals(people, *, source: str = "td3") -> list[PlayerProposal]:
    """Who each of a file's people is, in two queries whatever their number: their link
    first, then a player of the same name. One player is never proposed for two people
    of one file (the second becomes a new player)."""
    links = {
        link.external_id: link.player
        for link in PlayerLink.objects.filter(
            source=source, external_id__in=[p.file_id for p in people]
        ).select_related("player")
    }
    plain = {p.file_id: name_keys(p.name)[1] for p in people}
    condition = Q()
    for key in set(plain.values()):
        condition |= Q(name_plain__startswith=key)
    by_name: dict[str, list] = {}
    if condition:
        for player in Player.objects.filter(condition).order_by("id"):
            by_name.setdefault(name_keys(player.name)[1], []).append(player)
    used: set[int] = set()
    proposals = []
    for person in people:
        player, how = links.get(person.file_id), "link"
        if player is None or player.pk in used:
            candidates = [c for c in by_name.get(plain[person.file_id], []) if c.pk not in used]
            player, how = (candidates[0], "name") if candidates else (None, "new")
        if player is not None:
            used.add(player.pk)
        proposals.append(PlayerProposal(person.file_id, player, how))
    return proposals

"""Reads: public shapes of entries and the totals that must reconcile with the ledger."""

from dataclasses import dataclass

from django.db.models import Count, Q, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import engine
from tournaments.models import (
    Alternate,
    AlternateStatus,
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


# --- Series (issue 17) ----------------------------------------------------------------


@dataclass(frozen=True)
class ScheduleRow:
    """One line of a series' schedule: an event, or a flight of one."""

    tournament: Tournament
    number: int | None  # the event's number; a flight's, its event's
    flight: str  # "1B"; empty for an event
    label: str  # "Event #3", "Flight 1B of Event #3"

    @property
    def total_buy_in(self) -> int:
        return self.tournament.buy_in + self.tournament.fee

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

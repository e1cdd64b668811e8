"""Tournaments, players, entries, alternates and the money ledger.

Money is in integer minor units (cents) of the tournament's currency; chips are
integers. Invariants that two cashiers could break at once are database constraints.
"""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from floorman.names import name_keys, validate_visible_name

MAX_MONEY = 10**12  # ten billion in major units: far beyond any buy-in, still fits bigint
MAX_CHIPS = 10**12


class Game(models.TextChoices):
    NLHE = "nlhe", _("No-limit hold'em")
    PLO = "plo", _("Pot-limit Omaha")
    LHE = "lhe", _("Limit hold'em")
    STUD = "stud", _("Seven-card stud")
    MIXED = "mixed", _("Mixed rotation")
    # Issue 19: the other stud games of a mixed rotation (HORSE), by level or event.
    STUD8 = "stud8", _("Seven-card stud eight or better")
    RAZZ = "razz", _("Razz")


class TournamentStatus(models.TextChoices):
    PLANNED = "planned", _("Planned")
    REGISTERING = "registering", _("Registering")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")
    CANCELLED = "cancelled", _("Cancelled")


class Series(models.Model):
    """A festival: the events a room runs under one name over some days (issue 17). Its
    schedule is its events, each with its start, buy-in and format."""

    name = models.CharField(_("name"), max_length=120, validators=[validate_visible_name])
    slug = models.SlugField(
        _("short name"), max_length=60, unique=True, help_text=_("In the public address.")
    )
    venue = models.CharField(_("venue"), max_length=120, blank=True)
    starts_on = models.DateField(_("first day"))
    ends_on = models.DateField(_("last day"))
    public = models.BooleanField(
        _("schedule public"), default=True, help_text=_("Anyone may open the schedule page.")
    )
    # The lobby's rotation through the series' running events.
    rotate_seconds = models.PositiveSmallIntegerField(_("lobby rotation (seconds)"), default=20)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["-starts_on", "-id"]
        verbose_name = _("series")
        verbose_name_plural = _("series")
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__gte=models.F("starts_on")), name="series_ends_after_start"
            ),
            models.CheckConstraint(
                condition=Q(rotate_seconds__gte=5), name="series_rotation_at_least_5s"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Venue(models.Model):
    """A card room. Its house settings (`tournaments.house`) are what its events follow
    where the rule books disagree, unless an event chooses otherwise; its rule book
    (`rulings.HouseRule`) is the house's own text. One is the default: an event without a
    venue follows it."""

    name = models.CharField(_("name"), max_length=120, unique=True)
    is_default = models.BooleanField(_("default venue"), default=False)
    # {setting: reading}, checked against `tournaments.house`; what it leaves out is the TDA.
    house_settings = models.JSONField(_("house settings"), default=dict, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        # The table was made by the rulings app, which held venues until issue 19.
        db_table = "rulings_venue"
        ordering = ["name"]
        verbose_name = _("venue")
        verbose_name_plural = _("venues")
        constraints = [
            models.UniqueConstraint(
                fields=["is_default"], condition=Q(is_default=True), name="one_default_venue"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class SurvivorKeeps(models.TextChoices):
    """A player who survives two flights plays Day 2 with one bag (house setting)."""

    LARGER = "larger", _("The larger stack")
    FIRST = "first", _("The first flight's stack")
    CHOOSE = "choose", _("The player chooses before Day 2")


class SatelliteRemainder(models.TextChoices):
    """What a satellite's pool has left after the seats it buys (house setting)."""

    NEXT_PLACE = "next_place", _("Paid to the next place")
    SHARED = "shared", _("Shared among the seat winners")


class BountyFormat(models.TextChoices):
    """How an event pays for eliminations (issue 18); the bounty is kept apart from the
    prize pool in the ledger (`Transaction.bounty_share`)."""

    NONE = "", _("No bounties")
    KNOCKOUT = "knockout", _("Knockout")
    PROGRESSIVE = "pko", _("Progressive knockout")
    MYSTERY = "mystery", _("Mystery bounty")


class MysteryStart(models.TextChoices):
    """From which point an elimination draws a mystery bounty."""

    START = "start", _("From the start")
    DAY2 = "day2", _("From Day 2")
    MONEY = "money", _("From the money")


class NonBettingItems(models.TextChoices):
    """RP-22: what a bet made with an item of no value (a bounty chip, a clock token) is
    taken to be; the house decides, else the TD rules on it (TDA 1)."""

    FLOOR = "floor", _("The floor decides (TDA 1)")
    CALL = "call", _("A call")
    ALL_IN = "all_in", _("All in")


class Tournament(models.Model):
    name = models.CharField(_("name"), max_length=120, validators=[validate_visible_name])
    game = models.CharField(_("game"), max_length=10, choices=Game.choices, default=Game.NLHE)
    currency = models.CharField(_("currency"), max_length=3, default="EUR")
    buy_in = models.BigIntegerField(_("buy-in (prize pool)"), help_text=_("In cents."))
    fee = models.BigIntegerField(_("fee"), default=0, help_text=_("In cents; not prize money."))
    starting_stack = models.BigIntegerField(_("starting stack"))
    table_size = models.PositiveSmallIntegerField(_("players per table"), default=9)
    capacity = models.PositiveIntegerField(_("capacity"), null=True, blank=True)
    start_at = models.DateTimeField(_("start time"))
    late_reg_until_level = models.PositiveSmallIntegerField(
        _("late registration until end of level"), null=True, blank=True
    )
    reentry_allowed = models.BooleanField(_("re-entries allowed"), default=False)
    reentry_max = models.PositiveSmallIntegerField(
        _("max re-entries per player"), null=True, blank=True
    )
    reentry_until_level = models.PositiveSmallIntegerField(
        _("re-entry until end of level"), null=True, blank=True
    )
    rebuy_until_level = models.PositiveSmallIntegerField(
        _("rebuys until end of level"), null=True, blank=True
    )
    rebuy_max = models.PositiveSmallIntegerField(_("max rebuys per entry"), null=True, blank=True)
    rebuy_price = models.BigIntegerField(_("rebuy price (prize pool)"), default=0)
    rebuy_fee = models.BigIntegerField(_("rebuy fee"), default=0, help_text=_("Not prize money."))
    rebuy_chips = models.BigIntegerField(_("rebuy chips"), default=0)
    addon_price = models.BigIntegerField(_("add-on price (prize pool)"), default=0)
    addon_fee = models.BigIntegerField(_("add-on fee"), default=0, help_text=_("Not prize money."))
    addon_chips = models.BigIntegerField(_("add-on chips"), default=0)
    addon_at_break_after_level = models.PositiveSmallIntegerField(
        _("add-on at the break after level"), null=True, blank=True
    )
    guarantee = models.BigIntegerField(_("guarantee"), default=0)
    # --- Festivals (issue 17) ---
    series = models.ForeignKey(
        Series,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="events",
        verbose_name=_("series"),
    )
    series_number = models.PositiveSmallIntegerField(_("event number"), null=True, blank=True)
    format = models.CharField(
        _("format"), max_length=60, blank=True, help_text=_("Freezeout, re-entry, turbo, …")
    )
    # A flight is a tournament of its own whose survivors play Day 2 of its parent event.
    parent = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="flights",
        verbose_name=_("flight of"),
    )
    flight_name = models.CharField(_("flight"), max_length=20, blank=True)
    # The event's house settings for its flights (read on the parent).
    flight_end_level = models.PositiveSmallIntegerField(
        _("flights stop after level"), null=True, blank=True
    )
    flight_end_percent = models.PositiveSmallIntegerField(
        _("flights stop when this share of entries is left (%)"), null=True, blank=True
    )
    flight_reentry = models.BooleanField(_("a player may enter a later flight"), default=True)
    survivor_keeps = models.CharField(
        _("a player surviving two flights keeps"),
        max_length=10,
        choices=SurvivorKeeps.choices,
        default=SurvivorKeeps.LARGER,
    )
    day2_late_entry = models.BooleanField(_("late entry into Day 2"), default=False)
    day2_late_stack = models.BigIntegerField(_("Day 2 late entry stack"), null=True, blank=True)
    day2_spread_big_stacks = models.BooleanField(
        _("spread the big stacks over the Day 2 tables"), default=False
    )
    # A satellite wins seats (tickets) in its target event.
    satellite_target = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="satellites",
        verbose_name=_("satellite for"),
    )
    satellite_remainder = models.CharField(
        _("what the seats leave"),
        max_length=10,
        choices=SatelliteRemainder.choices,
        default=SatelliteRemainder.NEXT_PLACE,
    )
    # The event's house settings for the tickets that enter it.
    tickets_transferable = models.BooleanField(_("tickets may go to another player"), default=False)
    tickets_refundable = models.BooleanField(_("tickets may be refunded as cash"), default=False)
    # --- Bounties (issue 18) ---
    bounty_format = models.CharField(
        _("bounties"), max_length=10, choices=BountyFormat.choices, default="", blank=True
    )
    bounty = models.BigIntegerField(
        _("bounty per entry"),
        default=0,
        help_text=_("In cents; paid with the buy-in, kept apart from the prize pool."),
    )
    bounty_cash_percent = models.PositiveSmallIntegerField(
        _("share of a progressive bounty paid in cash (%)"), default=50
    )
    mystery_start = models.CharField(
        _("mystery bounties drawn"),
        max_length=10,
        choices=MysteryStart.choices,
        default=MysteryStart.MONEY,
    )
    # The published list of sealed prizes: [{"amount": cents, "count": n}, …].
    mystery_prizes = models.JSONField(_("mystery bounty prizes"), default=list, blank=True)
    # The seed of the mystery draws, set by the first draw; each draw replays from it.
    mystery_seed = models.CharField(max_length=32, blank=True, editable=False)
    non_betting_items = models.CharField(
        _("a bet with a bounty chip or token counts as (RP-22)"),
        max_length=10,
        choices=NonBettingItems.choices,
        default=NonBettingItems.FLOOR,
    )
    # --- Chip counts (issue 18) ---
    chip_counts_public = models.BooleanField(_("publish chip counts"), default=True)
    venue = models.ForeignKey(
        Venue,
        verbose_name=_("venue"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="events",
        help_text=_("Empty: the default venue."),
    )
    # The event's own choices where the rule books disagree ({setting: reading}, checked
    # against `tournaments.house`); what it leaves out follows its venue, then the TDA.
    house_settings = models.JSONField(_("house settings"), default=dict, blank=True)
    # The level in play: the clock moves it (clock.services), the director may set it
    # on the edit form, and registration deadlines are checked against it.
    current_level = models.PositiveSmallIntegerField(_("current level"), default=1)
    status = models.CharField(
        _("status"),
        max_length=12,
        choices=TournamentStatus.choices,
        default=TournamentStatus.PLANNED,
        db_index=True,
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    # Bumped by every change the public seat lookup shows (seating.lookup).
    lookup_version = models.BigIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["-start_at", "-id"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(
                condition=Q(table_size__gte=2, table_size__lte=10), name="table_size_2_to_10"
            ),
            models.CheckConstraint(
                condition=Q(buy_in__gte=0, fee__gte=0), name="money_not_negative"
            ),
            models.CheckConstraint(
                condition=Q(rebuy_price__gte=0, rebuy_fee__gte=0, addon_price__gte=0)
                & Q(addon_fee__gte=0),
                name="rebuy_addon_money_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(starting_stack__gt=0), name="starting_stack_positive"
            ),
            models.CheckConstraint(
                condition=Q(bounty__gte=0, bounty_cash_percent__lte=100),
                name="bounty_money_valid",
            ),
            models.CheckConstraint(
                condition=Q(capacity__isnull=True) | Q(capacity__gt=0), name="capacity_positive"
            ),
            models.CheckConstraint(
                condition=Q(parent__isnull=True) | Q(satellite_target__isnull=True),
                name="flight_is_no_satellite",
            ),
            models.CheckConstraint(
                condition=Q(parent__isnull=True) | ~Q(parent=models.F("id")),
                name="flight_not_its_own_parent",
            ),
            models.CheckConstraint(
                condition=Q(flight_end_percent__isnull=True)
                | Q(flight_end_percent__gte=1, flight_end_percent__lte=99),
                name="flight_end_percent_1_to_99",
            ),
            models.CheckConstraint(
                condition=Q(day2_late_stack__isnull=True) | Q(day2_late_stack__gt=0),
                name="day2_late_stack_positive",
            ),
            models.UniqueConstraint(
                fields=["parent", "flight_name"],
                condition=Q(parent__isnull=False),
                name="flight_name_unique",
            ),
            models.UniqueConstraint(
                fields=["series", "series_number"],
                condition=Q(series__isnull=False, series_number__isnull=False),
                name="series_number_unique",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def rebuys_offered(self) -> bool:
        return self.rebuy_until_level is not None

    @property
    def addon_offered(self) -> bool:
        return self.addon_at_break_after_level is not None

    @property
    def is_flight(self) -> bool:
        return self.parent_id is not None

    @property
    def is_satellite(self) -> bool:
        return self.satellite_target_id is not None


START_YEARS = (2000, 2100)


def start_at_plausible(value) -> None:
    """A start time from 2000 to 2100: far-off years are typing errors, and before
    standard time (1893 in Vienna) the local offset has seconds, which the API's
    ISO 8601 date-times cannot carry."""
    if value is not None and not START_YEARS[0] <= value.year <= START_YEARS[1]:
        raise ValidationError(
            _("Give a start time between %(first)s and %(last)s."),
            code="out_of_range",
            params={"first": START_YEARS[0], "last": START_YEARS[1]},
        )


def birth_year_not_future(year: int | None) -> None:
    if year is not None and year > timezone.now().year:
        raise ValidationError(_("The birth year lies in the future."), code="future")


class Player(models.Model):
    """A person. Contact data is private: never on public pages, screens or events."""

    # Shown on public screens: a name must show something (issue 15).
    name = models.CharField(_("name"), max_length=120, validators=[validate_visible_name])
    nickname = models.CharField(
        _("nickname"), max_length=60, blank=True, validators=[validate_visible_name]
    )
    country = models.CharField(_("country"), max_length=2, blank=True, help_text=_("ISO code"))
    birth_year = models.PositiveSmallIntegerField(
        _("birth year"), null=True, blank=True, validators=[birth_year_not_future]
    )
    email = models.EmailField(_("email"), blank=True)
    phone = models.CharField(_("phone"), max_length=40, blank=True)
    # TDA 4: players must be identifiable; casino §9: ID check at each day's restart.
    id_checked_at = models.DateTimeField(_("ID checked"), null=True, blank=True)
    accessible_seat = models.BooleanField(
        _("needs an accessible seat"), default=False, help_text=_("TDA 9: special needs.")
    )
    # The name as the seat lookup searches it (Müller: "mueller" and "muller"); kept by save().
    name_key = models.CharField(max_length=240, blank=True, editable=False)
    name_plain = models.CharField(max_length=240, blank=True, editable=False)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            # Duplicate detection as constraints, so two desks cannot create one person twice.
            models.UniqueConstraint(
                Lower("email"), condition=~Q(email=""), name="player_email_unique"
            ),
            models.UniqueConstraint(
                Lower("name"),
                "birth_year",
                condition=Q(birth_year__isnull=False),
                name="player_name_birth_year_unique",
            ),
        ]
        indexes = [models.Index(Lower("name"), name="player_name_lower")]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        self.name_key, self.name_plain = name_keys(f"{self.name} {self.nickname}".strip())
        if kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = {*kwargs["update_fields"], "name_key", "name_plain"}
        super().save(*args, **kwargs)


class PlayerLink(models.Model):
    """A player as another program knows them (issue 22): the id a Tournament Director
    file gives them, so the next file from that program finds the same person. One
    player per outside id; written by tournaments.services.imports."""

    class Source(models.TextChoices):
        TD3 = "td3", _("The Tournament Director")

    source = models.CharField(_("source"), max_length=10, choices=Source.choices)
    external_id = models.CharField(_("id in the source"), max_length=64)
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="links", verbose_name=_("player")
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("player link")
        verbose_name_plural = _("player links")
        constraints = [
            models.UniqueConstraint(fields=["source", "external_id"], name="player_link_unique")
        ]

    def __str__(self) -> str:
        return f"{self.source}:{self.external_id} → {self.player_id}"


class EntryStatus(models.TextChoices):
    ACTIVE = "active", _("Active")
    BUSTED = "busted", _("Busted")
    DISQUALIFIED = "disqualified", _("Disqualified")
    CANCELLED = "cancelled", _("Cancelled (refunded)")


class Entry(models.Model):
    """One buy-in. A re-entry is a new Entry with the next `reentry_number` (TDA 8-A)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="entries", verbose_name=_("tournament")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="entries", verbose_name=_("player")
    )
    number = models.PositiveIntegerField(_("entry number"))
    reentry_number = models.PositiveSmallIntegerField(
        _("entry of player"),
        default=1,
        help_text=_("1 for the first entry, 2 for the first re-entry…"),
    )
    status = models.CharField(
        _("status"), max_length=12, choices=EntryStatus.choices, default=EntryStatus.ACTIVE
    )
    chips = models.BigIntegerField(_("chips"))
    rebuys = models.PositiveSmallIntegerField(_("rebuys"), default=0)
    addon = models.BooleanField(_("add-on taken"), default=False)
    registered_at = models.DateTimeField(_("registered"), auto_now_add=True)
    registered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    busted_at = models.DateTimeField(_("busted"), null=True, blank=True)

    class Meta:
        ordering = ["number"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="entry_number_unique"),
            # Cancelled (refunded) entries do not count: the next buy-in takes their number.
            models.UniqueConstraint(
                fields=["tournament", "player", "reentry_number"],
                condition=~Q(status="cancelled"),
                name="entry_reentry_unique",
            ),
            # A player never holds two active entries in one tournament.
            models.UniqueConstraint(
                fields=["tournament", "player"],
                condition=Q(status="active"),
                name="one_active_entry_per_player",
            ),
            models.CheckConstraint(condition=Q(chips__gte=0), name="entry_chips_not_negative"),
        ]
        indexes = [models.Index(fields=["tournament", "status"])]

    def __str__(self) -> str:
        return f"#{self.number} {self.player}"

    @property
    def is_reentry(self) -> bool:
        return self.reentry_number > 1


class AlternateStatus(models.TextChoices):
    WAITING = "waiting", _("Waiting")
    SEATED = "seated", _("Entered")
    WITHDRAWN = "withdrawn", _("Withdrawn")


class Alternate(models.Model):
    """A player waiting for a place in a sold-out tournament (casino §8b), in order."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="alternates",
        verbose_name=_("tournament"),
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("player")
    )
    position = models.PositiveIntegerField(_("position"))
    reentry = models.BooleanField(_("re-entry"), default=False)
    status = models.CharField(
        _("status"), max_length=10, choices=AlternateStatus.choices, default=AlternateStatus.WAITING
    )
    entry = models.OneToOneField(
        Entry, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    # The ticket won in a satellite the player came to pay with (issue 17): it pays
    # when they are let in, as it would have at the desk.
    ticket = models.ForeignKey(
        "Ticket",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("ticket"),
    )
    added_at = models.DateTimeField(_("added"), auto_now_add=True)

    class Meta:
        ordering = ["position"]
        verbose_name = _("alternate")
        verbose_name_plural = _("alternates")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "position"], name="alternate_position_unique"
            ),
            models.UniqueConstraint(
                fields=["tournament", "player"],
                condition=Q(status="waiting"),
                name="alternate_waiting_once",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.position}. {self.player}"


class TransactionKind(models.TextChoices):
    BUY_IN = "buy_in", _("Buy-in")
    REENTRY = "reentry", _("Re-entry")
    REBUY = "rebuy", _("Rebuy")
    ADDON = "addon", _("Add-on")
    REFUND = "refund", _("Refund")
    PAYOUT = "payout", _("Payout")
    # A seat won in a satellite, used to enter: no cash moves (issue 17).
    TICKET = "ticket", _("Ticket")
    # A bounty paid at the cage (issue 18): out of the bounty money, not the prize pool.
    BOUNTY = "bounty", _("Bounty")


class Transaction(models.Model):
    """A line of the money ledger. Never edited or deleted: a refund reverses a line."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.PROTECT,
        related_name="transactions",
        verbose_name=_("tournament"),
    )
    entry = models.ForeignKey(
        Entry,
        on_delete=models.PROTECT,
        null=True,
        related_name="transactions",
        verbose_name=_("entry"),
    )
    kind = models.CharField(_("kind"), max_length=10, choices=TransactionKind.choices)
    # amount = prize_share + fee_share + bounty_share; money paid in is positive, money
    # paid out negative. The bounty part of a buy-in is kept apart from the prize pool.
    amount = models.BigIntegerField(_("amount"))
    prize_share = models.BigIntegerField(_("prize pool share"))
    fee_share = models.BigIntegerField(_("fee share"))
    bounty_share = models.BigIntegerField(_("bounty share"), default=0)
    reverses = models.OneToOneField(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="reversed_by"
    )
    ticket = models.ForeignKey(
        "Ticket", on_delete=models.PROTECT, null=True, blank=True, related_name="lines"
    )
    cashier = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(_("time"), auto_now_add=True)

    class Meta:
        ordering = ["at", "id"]
        verbose_name = _("transaction")
        verbose_name_plural = _("transactions")
        constraints = [
            models.CheckConstraint(
                condition=Q(
                    amount=models.F("prize_share")
                    + models.F("fee_share")
                    + models.F("bounty_share")
                ),
                name="transaction_shares_add_up",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.amount}"


class LedgerTotals(models.Model):
    """The running totals of an event's ledger (issue 20): what a fresh sum over every
    line of the event and its flights gives (`tournaments.selectors.ledger_recount`),
    kept up to date by the one writer of lines (`tournaments.services.ledger`) in the
    line's own transaction, so the totals cost one row's read at any size of field. A
    flight's line adds to the flight's row and to its event's."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, primary_key=True, related_name="ledger_totals"
    )
    # Lines not reversed: entries (buy-ins and entries paid with a ticket), tickets,
    # re-entries, rebuys, add-ons (tournaments.engine.ledger.line_counts).
    entries = models.IntegerField(default=0)
    tickets = models.IntegerField(default=0)
    reentries = models.IntegerField(default=0)
    rebuys = models.IntegerField(default=0)
    addons = models.IntegerField(default=0)
    # Money, reversals included: prize shares of every line but payouts, payouts (<= 0),
    # fee shares, bounty shares in (every line but BOUNTY) and out (BOUNTY, <= 0).
    collected = models.BigIntegerField(default=0)
    paid_out = models.BigIntegerField(default=0)
    fees = models.BigIntegerField(default=0)
    bounty_in = models.BigIntegerField(default=0)
    bounty_out = models.BigIntegerField(default=0)
    flight_lines = models.IntegerField(default=0)  # lines of the event's flights among these

    class Meta:
        verbose_name = _("ledger totals")
        verbose_name_plural = _("ledger totals")

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.entries} entries, {self.collected} collected"


class FlightEnd(models.Model):
    """The end of a flight's day (issue 17): when and why play stopped, the chips in play
    then (sold less removed), and the director's word on the bags counted against them."""

    class Reason(models.TextChoices):
        LEVEL = "level", _("The last level of the day was played")
        SHARE = "share", _("The set share of entries is left")
        DIRECTOR = "director", _("The director stopped play")

    flight = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="flight_end", verbose_name=_("flight")
    )
    reason = models.CharField(_("reason"), max_length=10, choices=Reason.choices)
    stopped_at = models.DateTimeField(_("play stopped"), auto_now_add=True)
    chips_in_play = models.BigIntegerField(_("chips in play"))
    # Where Day 2's clock resumes (tournaments.engine.flights.resume_level).
    resume_level = models.PositiveSmallIntegerField(_("Day 2 resumes at level"), default=1)
    confirmed_at = models.DateTimeField(_("bags confirmed"), null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    # What the bags held more (positive) or less than the chips in play when confirmed.
    difference = models.BigIntegerField(_("difference"), null=True, blank=True)
    note = models.CharField(_("note"), max_length=300, blank=True)

    class Meta:
        verbose_name = _("end of a flight")
        verbose_name_plural = _("ends of flights")
        constraints = [
            models.CheckConstraint(
                condition=Q(chips_in_play__gte=0), name="flight_end_chips_not_negative"
            )
        ]

    def __str__(self) -> str:
        return f"{self.flight} ({self.reason})"


class BagStatus(models.TextChoices):
    SEALED = "sealed", _("Bagged")
    CARRIED = "carried", _("On to Day 2")
    FORFEITED = "forfeited", _("Forfeited")


class Bag(models.Model):
    """A flight survivor's chips, counted and bagged at the end of the day (issue 17).
    Its number goes on the bag's tag; Day 2 seats the player with these chips."""

    flight = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="bags", verbose_name=_("flight")
    )
    entry = models.OneToOneField(
        Entry, on_delete=models.PROTECT, related_name="bag", verbose_name=_("entry")
    )
    number = models.PositiveIntegerField(_("bag number"))
    chips = models.BigIntegerField(_("chips"))
    status = models.CharField(
        _("status"), max_length=10, choices=BagStatus.choices, default=BagStatus.SEALED
    )
    # Why a bag was forfeited: the player survived another flight (recorded, never deleted).
    forfeit_reason = models.CharField(_("forfeited because"), max_length=200, blank=True)
    day2_entry = models.OneToOneField(
        Entry,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="from_bag",
        verbose_name=_("Day 2 entry"),
    )
    counted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    counted_at = models.DateTimeField(_("counted"), auto_now=True)

    class Meta:
        ordering = ["flight", "number"]
        verbose_name = _("bag")
        verbose_name_plural = _("bags")
        constraints = [
            models.UniqueConstraint(fields=["flight", "number"], name="bag_number_unique"),
            models.CheckConstraint(condition=Q(chips__gt=0), name="bag_chips_positive"),
            models.CheckConstraint(
                condition=Q(day2_entry__isnull=True) | Q(status="carried"),
                name="bag_day2_entry_only_carried",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.flight.flight_name or self.flight_id}-{self.number}"


class TicketStatus(models.TextChoices):
    ISSUED = "issued", _("Issued")
    USED = "used", _("Used")
    REFUNDED = "refunded", _("Refunded")


class Ticket(models.Model):
    """A seat in an event, won in a satellite (issue 17): entering with it costs no
    money, and the event's prize pool counts it at its full buy-in. Used once."""

    target = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="tickets", verbose_name=_("event")
    )
    satellite = models.ForeignKey(
        Tournament,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tickets_won",
        verbose_name=_("won in"),
    )
    won_by = models.ForeignKey(
        Entry, on_delete=models.PROTECT, null=True, blank=True, related_name="tickets_won"
    )
    holder = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="tickets", verbose_name=_("holder")
    )
    # The target's buy-in, fee and bounty when the ticket was issued: what it is worth.
    buy_in = models.BigIntegerField(_("buy-in"))
    fee = models.BigIntegerField(_("fee"))
    bounty = models.BigIntegerField(_("bounty"), default=0)
    status = models.CharField(
        _("status"), max_length=10, choices=TicketStatus.choices, default=TicketStatus.ISSUED
    )
    used_by = models.OneToOneField(
        Entry,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="ticket",
        verbose_name=_("entry"),
    )
    issued_at = models.DateTimeField(_("issued"), auto_now_add=True)
    closed_at = models.DateTimeField(_("used or refunded"), null=True, blank=True)

    class Meta:
        ordering = ["issued_at", "id"]
        verbose_name = _("ticket")
        verbose_name_plural = _("tickets")
        constraints = [
            models.CheckConstraint(
                condition=Q(buy_in__gte=0, fee__gte=0), name="ticket_value_not_negative"
            ),
            # Used once: a used ticket names its entry, an unused one none.
            models.CheckConstraint(
                condition=Q(status="used", used_by__isnull=False)
                | (~Q(status="used") & Q(used_by__isnull=True)),
                name="ticket_used_names_entry",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.target} ({self.holder})"

    @property
    def value(self) -> int:
        return self.buy_in + self.fee + self.bounty


class TicketTransfer(models.Model):
    """A ticket given to another player, where the house allows it (kept, never edited)."""

    ticket = models.ForeignKey(Ticket, on_delete=models.PROTECT, related_name="transfers")
    from_player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    to_player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"{self.ticket_id}: {self.from_player_id} → {self.to_player_id}"


class CountSweep(models.Model):
    """A count of every table at once (issue 18), usually at a break: which tables have
    reported their players' chips since it began. One open sweep per event."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="count_sweeps"
    )
    level = models.PositiveSmallIntegerField(_("level"))
    started_at = models.DateTimeField(_("started"), default=timezone.now)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)

    class Meta:
        ordering = ["started_at", "id"]
        verbose_name = _("count sweep")
        verbose_name_plural = _("count sweeps")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament"], condition=Q(closed_at__isnull=True), name="one_open_sweep"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id}: level {self.level}"


class CountSource(models.TextChoices):
    TABLET = "tablet", _("Table's tablet")
    FLOOR = "floor", _("Floor")


class ChipCount(models.Model):
    """A player's chips as counted during play (issue 18), stamped with the level and the
    time; kept, never edited: a recount is a new count. The latest one is the player's
    count (`tournaments.selectors.latest_counts`)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="chip_counts")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="chip_counts")
    chips = models.BigIntegerField(_("chips"))
    level = models.PositiveSmallIntegerField(_("level"))
    table_number = models.PositiveIntegerField(_("table"), null=True, blank=True)
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    sweep = models.ForeignKey(
        CountSweep, on_delete=models.SET_NULL, null=True, blank=True, related_name="counts"
    )
    source = models.CharField(_("counted by"), max_length=8, choices=CountSource.choices)
    counted_at = models.DateTimeField(_("counted"), default=timezone.now)
    counted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )

    class Meta:
        ordering = ["counted_at", "id"]
        verbose_name = _("chip count")
        verbose_name_plural = _("chip counts")
        constraints = [
            models.CheckConstraint(condition=Q(chips__gte=0), name="chip_count_not_negative"),
        ]
        indexes = [
            models.Index(fields=["tournament", "counted_at"]),
            models.Index(fields=["entry", "counted_at"]),
        ]

    def __str__(self) -> str:
        return f"{self.entry_id}: {self.chips} (level {self.level})"


class RemovalReason(models.TextChoices):
    """Why the floor took chips out of play (issue 19). The first two come off a player's
    stack, the third belongs to nobody."""

    REENTRY_FORFEIT = "reentry_forfeit", _("A stack forfeited for a re-entry (TDA 8-B)")
    OUT_OF_VIEW = "out_of_view", _("Chips held or carried out of view (TDA 63)")
    LOST_AND_FOUND = "lost_and_found", _("Lost and found chips without an owner (TDA 64)")


class ChipRemoval(models.Model):
    """Chips the floor took out of play (issue 19: TDA 8-B, 63, 64): kept, never edited.
    With an entry, the chips came off that player's stack; without, they were nobody's
    (lost and found). Every chips-in-play figure subtracts them
    (`tournaments.selectors.chips_in_play`)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="chip_removals"
    )
    entry = models.ForeignKey(
        Entry,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="chip_removals",
        verbose_name=_("from the stack of"),
    )
    amount = models.BigIntegerField(_("chips"))
    reason = models.CharField(_("reason"), max_length=16, choices=RemovalReason.choices)
    note = models.CharField(_("note"), max_length=300, blank=True)
    # The player's latest count when the chips came off their stack: the count check
    # takes them off that count too (a later count already leaves them out).
    count_before = models.ForeignKey(
        ChipCount, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    removed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    removed_at = models.DateTimeField(_("removed"), default=timezone.now)

    class Meta:
        ordering = ["removed_at", "id"]
        verbose_name = _("chips removed from play")
        verbose_name_plural = _("chips removed from play")
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="chip_removal_positive"),
            # TDA 8-B and 63 take a player's chips; TDA 64's have no owner.
            models.CheckConstraint(
                condition=Q(reason="lost_and_found", entry__isnull=True)
                | (~Q(reason="lost_and_found") & Q(entry__isnull=False)),
                name="chip_removal_owner",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.amount} ({self.reason})"


# How many of a tournament's latest lookup versions the change log keeps (one row each, a
# ring: version v in slot v % LOOKUP_CHANGES_KEPT). A web process further behind rebuilds.
LOOKUP_CHANGES_KEPT = 256


class LookupChange(models.Model):
    """What one `Tournament.lookup_version` changed: the entries whose row in the seat
    lookup may differ (seating.lookup), or None when anything may have (a draw, a rename,
    a cancelled event). Written only with the version, by
    tournaments.services.lookup_changed, in the changing transaction."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="lookup_changes"
    )
    slot = models.PositiveSmallIntegerField()  # version % LOOKUP_CHANGES_KEPT
    version = models.BigIntegerField()
    entries = models.JSONField(null=True)  # entry ids; None: rebuild

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "slot"], name="lookup_change_slot")
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} v{self.version}"

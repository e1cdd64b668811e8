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


class TournamentStatus(models.TextChoices):
    PLANNED = "planned", _("Planned")
    REGISTERING = "registering", _("Registering")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")
    CANCELLED = "cancelled", _("Cancelled")


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
                condition=Q(capacity__isnull=True) | Q(capacity__gt=0), name="capacity_positive"
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
    # amount = prize_share + fee_share; money paid in is positive, money paid out negative.
    amount = models.BigIntegerField(_("amount"))
    prize_share = models.BigIntegerField(_("prize pool share"))
    fee_share = models.BigIntegerField(_("fee share"))
    reverses = models.OneToOneField(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="reversed_by"
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
                condition=Q(amount=models.F("prize_share") + models.F("fee_share")),
                name="transaction_shares_add_up",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.amount}"

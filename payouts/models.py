"""The payout table: how many places are paid and what each gets, its settings, the
house's saved templates and the lines of a frozen table. The floor reads it (the bubble
of hand-for-hand, the end of re-entries once in the money) and so does the prize money
(prizes), which pays from it.

The tables were made by the tournaments app and keep their names (db_table): the models
moved, first to prizes and then here, the data did not.
"""

from decimal import Decimal

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models import Tournament


class PlacesMode(models.TextChoices):
    PERCENT = "percent", _("Share of the entries")
    FIXED = "fixed", _("Fixed number")


class PayoutSettings(models.Model):
    """How a payout table is made: places paid, the curve's ends, the house unit; or a
    house table of shares per place. Shared by a tournament's structure and templates."""

    places_mode = models.CharField(
        _("places paid"), max_length=8, choices=PlacesMode.choices, default=PlacesMode.PERCENT
    )
    places_percent = models.DecimalField(
        _("places paid (percent of the entries)"),
        max_digits=5,
        decimal_places=2,
        default=Decimal(15),
    )
    places_fixed = models.PositiveIntegerField(_("places paid, fixed"), null=True, blank=True)
    winner_share = models.DecimalField(
        _("winner’s share (percent of the pool)"),
        max_digits=5,
        decimal_places=2,
        null=True,
        blank=True,
        help_text=_("Empty: chosen by the number of places paid."),
    )
    min_cash_multiple = models.DecimalField(
        _("min-cash, times the buy-in"), max_digits=5, decimal_places=2, default=Decimal(2)
    )
    unit = models.PositiveIntegerField(
        _("rounding unit"), default=100, help_text=_("In cents: 100 rounds to whole units.")
    )
    # A house table: basis points (1/100 %) per place, best first. Empty: the generator.
    shares = models.JSONField(_("shares per place"), null=True, blank=True)

    SETTINGS = (
        "places_mode",
        "places_percent",
        "places_fixed",
        "winner_share",
        "min_cash_multiple",
        "unit",
        "shares",
    )

    class Meta:
        abstract = True
        constraints = [
            models.CheckConstraint(
                condition=Q(places_percent__gt=0, places_percent__lte=100),
                name="%(class)s_percent_range",
            ),
            models.CheckConstraint(
                condition=Q(places_fixed__isnull=True) | Q(places_fixed__gte=1),
                name="%(class)s_fixed_positive",
            ),
            models.CheckConstraint(
                condition=Q(winner_share__isnull=True)
                | Q(winner_share__gt=0, winner_share__lte=100),
                name="%(class)s_winner_share_range",
            ),
            models.CheckConstraint(
                condition=Q(min_cash_multiple__gte=0), name="%(class)s_min_cash_not_negative"
            ),
            models.CheckConstraint(condition=Q(unit__gte=1), name="%(class)s_unit_positive"),
        ]

    def settings_dict(self) -> dict:
        return {name: getattr(self, name) for name in self.SETTINGS}


class PayoutLock(models.TextChoices):
    # Auto: the table follows the prize pool until registration closes, then holds.
    AUTO = "auto", _("Follows the prize pool until registration closes")
    LOCKED = "locked", _("Locked")
    UNLOCKED = "unlocked", _("Unlocked by the director")


class PayoutStructure(PayoutSettings):
    """A tournament's payout settings. While it follows the pool its lines are worked out
    when read; once frozen (locked, edited or paid from) they are stored as Payout rows."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="payout_structure"
    )
    lock = models.CharField(
        _("lock"), max_length=8, choices=PayoutLock.choices, default=PayoutLock.AUTO
    )
    edited = models.BooleanField(_("edited by hand"), default=False)
    updated_at = models.DateTimeField(_("changed"), auto_now=True)

    class Meta(PayoutSettings.Meta):
        db_table = "tournaments_payoutstructure"
        verbose_name = _("payout structure")
        verbose_name_plural = _("payout structures")

    def __str__(self) -> str:
        return f"{self.tournament}: payouts"

    @property
    def frozen(self) -> bool:
        return self.lock == PayoutLock.LOCKED


class PayoutTemplate(PayoutSettings):
    """Saved settings the house reuses for its tournaments."""

    name = models.CharField(_("name"), max_length=80, unique=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta(PayoutSettings.Meta):
        db_table = "tournaments_payouttemplate"
        ordering = ["name"]
        verbose_name = _("payout template")
        verbose_name_plural = _("payout templates")

    def __str__(self) -> str:
        return self.name


class Payout(models.Model):
    """One line of a frozen payout table: what a finishing place wins."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="payouts", verbose_name=_("tournament")
    )
    place = models.PositiveIntegerField(_("place"))
    amount = models.BigIntegerField(_("amount"))

    class Meta:
        db_table = "tournaments_payout"
        ordering = ["place"]
        verbose_name = _("payout")
        verbose_name_plural = _("payouts")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "place"], name="payout_place_unique"),
            models.CheckConstraint(condition=Q(place__gte=1), name="payout_place_positive"),
            models.CheckConstraint(condition=Q(amount__gte=0), name="payout_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.place}: {self.amount}"

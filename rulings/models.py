"""Rulings: the house's own rules, the floor's incidents and decisions, and penalties.

The TDA index itself is data in code (rulings/rulebook_data.py); only what a house adds
lives here.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from hands.models import Away
from tournaments.models import Entry, Tournament, Venue


class HouseRuleKind(models.TextChoices):
    OVERRIDE = "override", _("Replaces a TDA rule")
    ADDITION = "addition", _("Adds to a TDA rule")
    OWN = "own", _("A house rule of its own")


class HouseRule(models.Model):
    """One rule of the house: over a TDA rule (`tda` set) or of its own. Rule books the
    house imports become rules like these, one per section, in their order."""

    venue = models.ForeignKey(Venue, on_delete=models.CASCADE, related_name="rules")
    kind = models.CharField(_("kind"), max_length=10, choices=HouseRuleKind.choices)
    tda = models.CharField(_("TDA rule"), max_length=8, blank=True, help_text=_("e.g. 29 or RP-8"))
    number = models.CharField(_("house number"), max_length=20, blank=True)
    title = models.CharField(_("title"), max_length=200)
    text = models.TextField(_("text"))
    position = models.PositiveIntegerField(_("position"), default=0)
    imported = models.BooleanField(_("from an imported rule book"), default=False)

    class Meta:
        ordering = ["venue", "position", "id"]
        verbose_name = _("house rule")
        verbose_name_plural = _("house rules")
        constraints = [
            models.CheckConstraint(
                condition=Q(kind="own") | ~Q(tda=""), name="house_rule_over_a_tda_rule"
            ),
        ]

    def __str__(self) -> str:
        return self.title


class Category(models.TextChoices):
    BETTING = "betting", _("Betting and raises")
    SHOWDOWN = "showdown", _("Showdown and disputed pots")
    DEALING = "dealing", _("Dealing, misdeals and exposed cards")
    CLOCK = "clock", _("Clock called on a player")
    SEATING = "seating", _("Seating and table changes")
    CHIPS = "chips", _("Chips: counts, colour-up, lost chips")
    ETIQUETTE = "etiquette", _("Etiquette and conduct")
    DEVICES = "devices", _("Electronic devices")
    OTHER = "other", _("Other")


class Dispute(models.TextChoices):
    # TDA 22: how long the decision may still be disputed.
    NONE = "", _("No disputed pot")
    READING = "reading", _("A hand read wrongly: until the next hand starts")
    ACCOUNTING = "accounting", _("Pot miscounted: until substantial action on the next hand")
    BREAK = "break", _("Hand ended at a break: one minute after the pot is awarded")


class Incident(models.Model):
    """A floor call: what happened at which table and hand, who was involved, the rules
    cited and the decision, who decided and when."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="incidents")
    table_number = models.PositiveIntegerField(_("table"), null=True, blank=True)
    hand_number = models.PositiveIntegerField(_("hand"), null=True, blank=True)
    category = models.CharField(_("category"), max_length=10, choices=Category.choices)
    description = models.TextField(_("what happened"))
    rules = models.JSONField(_("rules cited"), default=list, blank=True)
    decision = models.TextField(_("decision"))
    dispute = models.CharField(
        _("dispute window"), max_length=10, choices=Dispute.choices, default="", blank=True
    )
    pot_awarded_at = models.DateTimeField(_("pot awarded"), null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(_("time"), auto_now_add=True, db_index=True)
    entries = models.ManyToManyField(Entry, related_name="incidents", blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("incident")
        verbose_name_plural = _("incidents")

    def __str__(self) -> str:
        return f"{self.get_category_display()} {self.at:%H:%M}"


class PenaltyKind(models.TextChoices):
    WARNING = "warning", _("Verbal warning")
    MISSED_HANDS = "missed_hands", _("Missed hands")
    MISSED_ROUNDS = "missed_rounds", _("Missed rounds")
    DISQUALIFICATION = "disqualification", _("Disqualification")


class PenaltyStatus(models.TextChoices):
    SERVING = "serving", _("Being served")
    SERVED = "served", _("Served")
    CANCELLED = "cancelled", _("Cancelled")


class Penalty(models.Model):
    """TDA 71 (casino §49). A missed-hands penalty starts with the next hand at the
    player's table (TDA 68) and is served away from the table (71-C): the hands app
    keeps the count in the penalty's away record (hands.Away), and the status, the hands
    served and the end are read from it. Warnings and disqualifications have no away
    record: they are over once given. A disqualification removes the entry and its chips
    from play (71-D)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="penalties")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="penalties")
    incident = models.ForeignKey(
        Incident, on_delete=models.SET_NULL, null=True, blank=True, related_name="penalties"
    )
    kind = models.CharField(_("penalty"), max_length=16, choices=PenaltyKind.choices)
    rounds = models.PositiveSmallIntegerField(_("rounds"), null=True, blank=True)
    hands = models.PositiveIntegerField(_("hands to miss"), default=0)
    players_at_table = models.PositiveSmallIntegerField(
        _("players at the table when given"), null=True, blank=True
    )
    table_number = models.PositiveIntegerField(_("table"), null=True, blank=True)
    # The hand being played at the table when it was given: the penalty starts after it.
    after_hand = models.PositiveIntegerField(_("after hand"), null=True, blank=True)
    # The hands the player sits out, counted by the hands app (missed hands and rounds).
    away = models.OneToOneField(
        Away,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="penalty",
        verbose_name=_("hands sat out"),
    )
    chips_removed = models.BigIntegerField(_("chips removed from play"), default=0)
    reason = models.TextField(_("reason"), blank=True)
    rules = models.JSONField(_("rules cited"), default=list, blank=True)
    given_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(_("given"), auto_now_add=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")
        constraints = [
            models.CheckConstraint(
                condition=~Q(kind="missed_rounds") | Q(rounds__gte=1),
                name="penalty_rounds_given",
            ),
            models.CheckConstraint(condition=Q(chips_removed__gte=0), name="penalty_chips_removed"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.entry}"

    # Read from the away record, whose one writer is the hands app: being served while
    # the player is away, served once every hand is missed (or at once without one).

    @property
    def status(self) -> str:
        if self.away is None:
            return PenaltyStatus.SERVED
        if self.away.cancelled:
            return PenaltyStatus.CANCELLED
        return PenaltyStatus.SERVING if self.away.ended_at is None else PenaltyStatus.SERVED

    def get_status_display(self) -> str:
        return PenaltyStatus(self.status).label

    @property
    def hands_served(self) -> int:
        return self.away.hands_missed if self.away is not None else 0

    @property
    def hands_left(self) -> int:
        return self.away.hands_left if self.away is not None else 0

    @property
    def ended_at(self):
        return self.away.ended_at if self.away is not None else self.at

"""Chip sets, blind structures, the clock of each tournament, player clocks, announcements.

The clock row holds only (status, position, milliseconds left at the anchor, anchor,
version); the time on any screen is derived from it (clock.engine). Nothing ticks.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clock import engine

MAX_CHIPS = 10**12


class ChipSet(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("chip set")
        verbose_name_plural = _("chip sets")

    def __str__(self) -> str:
        return self.name


class Chip(models.Model):
    chip_set = models.ForeignKey(ChipSet, on_delete=models.CASCADE, related_name="chips")
    value = models.BigIntegerField(_("value"))
    color = models.CharField(_("colour"), max_length=40)

    class Meta:
        ordering = ["chip_set", "value"]
        constraints = [
            models.UniqueConstraint(fields=["chip_set", "value"], name="chip_value_unique"),
            models.CheckConstraint(condition=Q(value__gt=0), name="chip_value_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.value} ({self.color})"


class Structure(models.Model):
    """A blind structure. Templates are copied into each tournament, never shared."""

    name = models.CharField(_("name"), max_length=120)
    is_template = models.BooleanField(_("template"), default=False)
    chip_set = models.ForeignKey(
        ChipSet, on_delete=models.PROTECT, null=True, blank=True, verbose_name=_("chip set")
    )
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        ordering = ["-is_template", "name", "id"]
        verbose_name = _("blind structure")
        verbose_name_plural = _("blind structures")

    def __str__(self) -> str:
        return self.name


class StepKind(models.TextChoices):
    LEVEL = engine.LEVEL, _("Level")
    BREAK = engine.BREAK, _("Break")


class AnteType(models.TextChoices):
    NONE = engine.ANTE_NONE, _("No ante")
    ANTE = engine.ANTE_TRADITIONAL, _("Ante")
    BBA = engine.ANTE_BIG_BLIND, _("Big blind ante")


class StructureStep(models.Model):
    structure = models.ForeignKey(Structure, on_delete=models.CASCADE, related_name="steps")
    position = models.PositiveSmallIntegerField(_("position"))
    kind = models.CharField(_("kind"), max_length=5, choices=StepKind.choices)
    minutes = models.PositiveSmallIntegerField(_("minutes"))
    small_blind = models.BigIntegerField(_("small blind"), default=0)
    big_blind = models.BigIntegerField(_("big blind"), default=0)
    ante = models.BigIntegerField(_("ante"), default=0)
    ante_type = models.CharField(
        _("ante type"), max_length=4, choices=AnteType.choices, default=AnteType.NONE
    )
    small_bet = models.BigIntegerField(_("small bet"), default=0)
    big_bet = models.BigIntegerField(_("big bet"), default=0)
    # Stud (RP-10 E, TDA 30); 0: the stud hand's bring-in is the small blind column.
    bring_in = models.BigIntegerField(_("bring-in"), default=0)
    game = models.CharField(_("game"), max_length=10, blank=True)
    label = models.CharField(_("label"), max_length=60, blank=True)
    color_up = models.JSONField(_("colour-up"), default=list, blank=True)
    addon = models.BooleanField(_("add-on window"), default=False)

    class Meta:
        ordering = ["structure", "position"]
        constraints = [
            models.UniqueConstraint(fields=["structure", "position"], name="step_position_unique"),
            models.CheckConstraint(condition=Q(minutes__gt=0), name="step_minutes_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.structure_id}#{self.position}"

    def as_step(self) -> engine.Step:
        return engine.Step(
            kind=self.kind,
            minutes=self.minutes,
            small_blind=self.small_blind,
            big_blind=self.big_blind,
            ante=self.ante,
            ante_type=self.ante_type,
            small_bet=self.small_bet,
            bring_in=self.bring_in,
            big_bet=self.big_bet,
            game=self.game,
            label=self.label,
            color_up=tuple(self.color_up or ()),
            addon=self.addon,
        )


class ClockStatus(models.TextChoices):
    NOT_STARTED = engine.NOT_STARTED, _("Not started")
    RUNNING = engine.RUNNING, _("Running")
    PAUSED = engine.PAUSED, _("Paused")
    FINISHED = engine.FINISHED, _("Finished")


class Clock(models.Model):
    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.CASCADE, primary_key=True, related_name="clock"
    )
    structure = models.ForeignKey(
        Structure, on_delete=models.PROTECT, null=True, blank=True, related_name="clocks"
    )
    status = models.CharField(
        _("status"), max_length=11, choices=ClockStatus.choices, default=ClockStatus.NOT_STARTED
    )
    position = models.PositiveSmallIntegerField(_("step"), default=1)
    left_ms = models.BigIntegerField(_("milliseconds left at the anchor"), default=0)
    anchor_at = models.DateTimeField(_("anchor"), null=True, blank=True)
    halved_from = models.PositiveSmallIntegerField(null=True, blank=True)
    # Bumped by every change; timed announcements carry it and do nothing once stale.
    version = models.PositiveIntegerField(default=1)
    # The last announcement sent (engine.Announcement.seq); claimed by conditional update.
    announced_seq = models.PositiveIntegerField(default=0)

    # House settings.
    warning_seconds = models.PositiveSmallIntegerField(
        _("warning before a level change (seconds)"), default=90, help_text=_("RP-7")
    )
    turbo = models.BooleanField(
        _("turbo event"),
        default=False,
        help_text=_(
            "Casino §27: where the house follows it, a player on the clock in a turbo event "
            "has 30 seconds with a 5-second countdown."
        ),
    )

    # The rest of the clock's house rules are the event's house settings
    # (tournaments.house: player_clock, clock_expired_no_bet, heads_up_level, day_end_draw).
    SETTINGS = ("warning_seconds", "turbo")

    # Casino §28: end of the day, so many hands remain at every table.
    day_end_hands = models.PositiveSmallIntegerField(null=True, blank=True)
    day_end_seed = models.CharField(max_length=40, blank=True)
    day_end_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("clock")
        verbose_name_plural = _("clocks")
        constraints = [
            models.CheckConstraint(condition=Q(left_ms__gte=0), name="clock_time_not_negative"),
            models.CheckConstraint(
                condition=Q(day_end_hands__isnull=True)
                | Q(day_end_hands__gte=3, day_end_hands__lte=7),
                name="day_end_hands_3_to_7",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} clock"

    def as_state(self) -> engine.Clock:
        return engine.Clock(
            status=self.status,
            position=self.position,
            left_ms=self.left_ms,
            anchor=self.anchor_at,
            halved_from=self.halved_from,
        )


class PlayerClock(models.Model):
    """TDA 29: the floor put a player on the clock. Its time and what happens when it runs
    out are the house's readings at the call (`player_clock`, `clock_expired_no_bet`),
    kept here so that a change of setting leaves a running clock as it was called."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="player_clocks"
    )
    table = models.PositiveSmallIntegerField(_("table"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    facing_bet = models.BooleanField(_("facing a bet"))
    seconds = models.PositiveSmallIntegerField(_("seconds"))
    countdown = models.PositiveSmallIntegerField(_("countdown"))
    time_reading = models.CharField(max_length=10, default=engine.TDA)  # player_clock
    no_bet = models.CharField(max_length=10, default=engine.TDA)  # clock_expired_no_bet
    started_at = models.DateTimeField(_("started"))
    stopped_at = models.DateTimeField(_("stopped"), null=True, blank=True)
    called_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )

    class Meta:
        ordering = ["-started_at", "-id"]
        constraints = [
            # One running clock per seat.
            models.UniqueConstraint(
                fields=["tournament", "table", "seat"],
                condition=Q(stopped_at__isnull=True),
                name="one_player_clock_per_seat",
            ),
        ]

    def __str__(self) -> str:
        return f"table {self.table} seat {self.seat}"


class Announcement(models.Model):
    """A message the director posts on the lobby screens."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="announcements"
    )
    text = models.CharField(_("text"), max_length=280)
    created_at = models.DateTimeField(_("posted"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    active = models.BooleanField(_("shown"), default=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.text[:60]

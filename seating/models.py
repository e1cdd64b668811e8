"""The venue's tables, each tournament's tables and seats, and every seating action.

Who sits where is `Seat.entry`: a seat holds at most one entry and an entry sits in at
most one seat (both enforced by the database). Every draw, late seat, move, balance,
break and final-table draw is a `SeatingAction` with its random seed and its `Move`s,
so any draw can be replayed and the last one undone.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from seating import engine
from tournaments.models import Entry, Tournament

MIN_SEATS, MAX_SEATS = 2, 10


class VenueTable(models.Model):
    """A physical table of the card room, lent to one tournament at a time."""

    number = models.PositiveSmallIntegerField(_("table number"), unique=True)
    seats = models.PositiveSmallIntegerField(_("seats"), default=9)
    accessible_seats = models.CharField(
        _("accessible seats"),
        max_length=40,
        blank=True,
        help_text=_("Seat numbers a wheelchair can reach, e.g. “1,9” (TDA 9)."),
    )

    class Meta:
        ordering = ["number"]
        verbose_name = _("venue table")
        verbose_name_plural = _("venue tables")
        constraints = [
            models.CheckConstraint(
                condition=Q(seats__gte=MIN_SEATS, seats__lte=MAX_SEATS),
                name="venue_table_seats_2_to_10",
            ),
        ]

    def __str__(self) -> str:
        return str(self.number)


class SourceRule(models.TextChoices):
    """TDA 11-C: which table a balancing player comes from, decided before play."""

    MOST_PLAYERS = engine.SOURCE_MOST_PLAYERS, _("The table with the most players")
    BREAK_ORDER = engine.SOURCE_BREAK_ORDER, _("The next table in the break order")


class FinalDraw(models.TextChoices):
    RANDOM = engine.FINAL_RANDOM, _("Random seats")
    BLIND_POSITION = engine.FINAL_BY_POSITION, _("Seat cards by blind position (casino §30)")


class Seating(models.Model):
    """A tournament's seating house settings. Saved when first changed; until then
    `seating.selectors.seating_settings` reads the defaults."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, primary_key=True, related_name="seating"
    )
    balance_threshold = models.PositiveSmallIntegerField(
        _("balance when tables differ by"),
        default=2,
        help_text=_("TDA 11-A: 2 by default; 1 balances as tightly as possible."),
    )
    source_rule = models.CharField(
        _("balancing player comes from"),
        max_length=12,
        choices=SourceRule.choices,
        default=SourceRule.MOST_PLAYERS,
    )
    break_headroom = models.PositiveSmallIntegerField(
        _("free seats to keep when breaking"),
        default=0,
        help_text=_("Break a table only when the others still have this many seats free."),
    )
    final_table_size = models.PositiveSmallIntegerField(
        _("final table size"),
        null=True,
        blank=True,
        help_text=_(
            "Empty: the house setting (TDA RP-9: 9 for 8- and 9-handed, 7 for 6- and "
            "7-handed; casino §30: ten)."
        ),
    )
    final_draw = models.CharField(
        _("final table draw"), max_length=10, choices=FinalDraw.choices, default=FinalDraw.RANDOM
    )
    draw_starts = models.BooleanField(
        _("the seat draw starts the tournament"),
        default=False,
        help_text=_(
            "Off: the tournament starts with the clock. On: the seat draw already starts it."
        ),
    )
    stud_positions = models.BooleanField(
        _("move by position (stud)"),
        default=False,
        help_text=_("TDA 11-A: stud-only events fill the last open seat."),
    )

    SETTINGS = (
        "balance_threshold",
        "source_rule",
        "break_headroom",
        "final_table_size",
        "final_draw",
        "stud_positions",
    )

    class Meta:
        verbose_name = _("seating settings")
        verbose_name_plural = _("seating settings")
        constraints = [
            models.CheckConstraint(
                condition=Q(balance_threshold__gte=1, balance_threshold__lte=5),
                name="seating_threshold_1_to_5",
            ),
        ]

    def __str__(self) -> str:
        return str(self.tournament)


class Table(models.Model):
    """A table in play in one tournament (broken tables stay, with `broken_at`)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="tables", verbose_name=_("tournament")
    )
    venue_table = models.ForeignKey(
        VenueTable, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    number = models.PositiveSmallIntegerField(_("table number"))
    seats = models.PositiveSmallIntegerField(_("seats"))
    break_order = models.PositiveIntegerField(
        _("break order"), help_text=_("1 breaks first (casino §8: tables added last break first).")
    )
    halt_waived = models.BooleanField(_("halt waived"), default=False)
    added_at = models.DateTimeField(_("added"), auto_now_add=True)
    broken_at = models.DateTimeField(_("broken"), null=True, blank=True)

    class Meta:
        ordering = ["number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="table_number_unique"),
            # A venue table serves one tournament at a time.
            models.UniqueConstraint(
                fields=["venue_table"],
                condition=Q(broken_at__isnull=True, venue_table__isnull=False),
                name="venue_table_in_one_tournament",
            ),
            models.CheckConstraint(
                condition=Q(seats__gte=MIN_SEATS, seats__lte=MAX_SEATS),
                name="table_seats_2_to_10",
            ),
        ]

    def __str__(self) -> str:
        return str(self.number)

    @property
    def is_open(self) -> bool:
        return self.broken_at is None


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seat_set")
    number = models.PositiveSmallIntegerField(_("seat"))
    accessible = models.BooleanField(_("accessible"), default=False)
    blocked = models.BooleanField(_("blocked"), default=False)
    # The database keeps one entry to a seat and one seat to an entry.
    entry = models.OneToOneField(
        Entry, on_delete=models.PROTECT, null=True, blank=True, related_name="seat"
    )
    wait_for_button = models.BooleanField(
        _("dealt in after the button passes"),
        default=False,
        help_text=_("TDA 8-A, 10-A: seated between the small blind and the button."),
    )
    seated_at = models.DateTimeField(_("seated"), null=True, blank=True)

    class Meta:
        ordering = ["table", "number"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_number_unique"),
            models.CheckConstraint(
                condition=Q(entry__isnull=True) | Q(blocked=False), name="blocked_seat_empty"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table.number}-{self.number}"


class TableState(models.Model):
    """A table's button and blinds: last hand's seats, or before the first hand the seat
    that won the draw for the button (IFP 2.1). The blinds engine (seating.engine.blinds)
    works out the next hand from these and who sits at the table now, and so which
    player is due the big blind next, the one balancing moves (TDA 11-A).

    The table's, so seating reads it; the hands services write it (the button draw, the
    button set by the dealer, each hand dealt, and so `dealt_at`). Its database table
    kept the name it had when the hands app owned it."""

    table = models.OneToOneField(
        Table, on_delete=models.CASCADE, primary_key=True, related_name="state"
    )
    button = models.PositiveSmallIntegerField(_("button"), null=True, blank=True)
    small_blind_seat = models.PositiveSmallIntegerField(
        _("small blind seat"), null=True, blank=True
    )
    big_blind = models.PositiveSmallIntegerField(_("big blind"), null=True, blank=True)
    hands_played = models.PositiveIntegerField(_("hands played"), default=0)
    # The draw for the button: its seed (secrets) and the card each seat got.
    draw_seed = models.BigIntegerField(null=True, blank=True)
    draw_cards = models.JSONField(default=dict, blank=True)
    # Entries dealt the last hand here: anyone else seated is new to the table (TDA 10-A).
    last_dealt = models.JSONField(default=list, blank=True)
    # When the last hand here was dealt: a seating action that touched the table is
    # undone only before it (seating.services.seating_undo).
    dealt_at = models.DateTimeField(_("last hand dealt"), null=True, blank=True)

    class Meta:
        db_table = "hands_tablestate"
        verbose_name = _("table state")
        verbose_name_plural = _("table states")

    def __str__(self) -> str:
        return f"table {self.table_id}: button {self.button}"


class ActionKind(models.TextChoices):
    DRAW = "draw", _("Initial draw")
    LATE = "late", _("Late seat")
    MOVE = "move", _("Seat change")
    BALANCE = "balance", _("Balancing")
    BREAK = "break", _("Table break")
    FINAL = "final", _("Final table draw")


class SeatingAction(models.Model):
    """One draw, move, balance or break: the seed it used and the moves it made."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="seating_actions"
    )
    kind = models.CharField(_("kind"), max_length=8, choices=ActionKind.choices)
    seed = models.CharField(_("random seed"), max_length=64, blank=True)
    params = models.JSONField(_("parameters"), default=dict)
    at = models.DateTimeField(_("time"), auto_now_add=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    undone_at = models.DateTimeField(_("undone"), null=True, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("seating action")
        verbose_name_plural = _("seating actions")
        indexes = [models.Index(fields=["tournament", "-id"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.pk}"


class Move(models.Model):
    """One entry taking a seat: from nowhere (a draw) or from another seat."""

    action = models.ForeignKey(SeatingAction, on_delete=models.CASCADE, related_name="moves")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="seat_moves")
    from_table = models.PositiveSmallIntegerField(null=True)
    from_seat = models.PositiveSmallIntegerField(null=True)
    to_table = models.PositiveSmallIntegerField()
    to_seat = models.PositiveSmallIntegerField()
    reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["entry", "-id"])]

    def __str__(self) -> str:
        where = f"{self.from_table}-{self.from_seat} → " if self.from_table else ""
        return f"{where}{self.to_table}-{self.to_seat}"

"""Hands at the tables: each hand dealt, the hands a player sits out (TDA 71-C), the
bust-outs and their places, and hand-for-hand on the bubble (RP-8). Where the button is
belongs to the table (seating.models.TableState); the hands services write it."""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from seating.models import Table
from tournaments.models import Entry, Tournament


class HandStatus(models.TextChoices):
    PLAYING = "playing", _("Playing")
    HELD = "held", _("All-in, waiting to show down")  # RP-8 F, hand-for-hand
    FINISHED = "finished", _("Finished")


class NonBettingItem(models.TextChoices):
    """RP-22: what a player put forward instead of chips: an item of no value (hands.engine
    .items). It is a note beside the action it was ruled to be, never chips."""

    BOUNTY_CHIP = "bounty_chip", _("Bounty chip")
    CLOCK_TOKEN = "clock_token", _("Clock token")
    OTHER = "other", _("Other item")


class Hand(models.Model):
    """One hand at one table: the level it was dealt in, the button and blinds, and who
    was dealt in with what (TDA 23: a new level applies from the next hand)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="hands")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField(_("hand"))
    level = models.PositiveSmallIntegerField(_("level"))
    game = models.CharField(_("game"), max_length=10)
    small_blind_amount = models.BigIntegerField(default=0)
    big_blind_amount = models.BigIntegerField(default=0)
    ante_amount = models.BigIntegerField(default=0)
    ante_type = models.CharField(max_length=8, default="none")
    small_bet = models.BigIntegerField(default=0)
    big_bet = models.BigIntegerField(default=0)
    button = models.PositiveSmallIntegerField(_("button"))
    small_blind_seat = models.PositiveSmallIntegerField()
    small_blind = models.PositiveSmallIntegerField(_("small blind"), null=True, blank=True)
    big_blind = models.PositiveSmallIntegerField(_("big blind"))
    status = models.CharField(max_length=10, choices=HandStatus.choices, default=HandStatus.PLAYING)
    board = models.JSONField(default=list, blank=True)  # community cards, when logged
    h4h_round = models.PositiveIntegerField(null=True, blank=True)  # hand-for-hand round
    # The event was down to its last two players when this hand was dealt: TDA 48 lifts
    # the cap on raises in limit (the hand keeps it, so its action log replays alike).
    heads_up = models.BooleanField(default=False)
    # The house settings in force when the hand was dealt (issue 19, `tournaments.house`):
    # the hand is ruled, and its action log replayed, by the readings it was dealt under.
    house_settings = models.JSONField(default=dict, blank=True)
    # Stud, stud/8, razz (hands.engine.stud): the bring-in of the level; the open pair
    # on fourth street is read from `house_settings` (RP-10 F or casino §38).
    bring_in_amount = models.BigIntegerField(default=0)
    # RP-22: an item of no value the player to act put forward, waiting for the floor's
    # ruling (the house leaves it to the floor); the hand's betting holds until then.
    item_pending = models.CharField(
        max_length=12, choices=NonBettingItem.choices, blank=True, default=""
    )
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # TDA 23; casino §25, §32: what started the hand, as the dealer marked it before the
    # deal (HandStartMark), and when; blank: nothing was marked, the deal started it.
    start_event = models.CharField(_("started by"), max_length=10, blank=True, default="")
    start_marked_at = models.DateTimeField(_("start marked"), null=True, blank=True)

    class Meta:
        ordering = ["table", "number"]
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="hand_number_unique"),
            # A table deals one hand at a time.
            models.UniqueConstraint(
                fields=["table"], condition=~Q(status="finished"), name="one_hand_in_play"
            ),
        ]

    def __str__(self) -> str:
        return f"table {self.table_id} hand {self.number}"


class HandPlayer(models.Model):
    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="players")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="+")
    seat = models.PositiveSmallIntegerField()
    stack = models.BigIntegerField(help_text=_("Chips at the start of the hand."))
    end_stack = models.BigIntegerField(null=True, blank=True)
    cards = models.JSONField(default=list, blank=True)
    # Stud: the upcards as the dealer entered them, street by street (the door card
    # first); they decide the bring-in and who acts first (RP-10 D, E).
    upcards = models.JSONField(default=list, blank=True)
    # TDA 71-C: a player on penalty, dealt in with blinds and antes posted and the hand
    # dead from the deal. Decided when the hand is dealt (TDA 68: a penalty given during
    # a hand starts with the next), kept so the action log replays the same.
    dead = models.BooleanField(
        _("dead hand"),
        default=False,
        help_text=_("On penalty: dealt in and posted, the hand dead from the deal (TDA 71-C)."),
    )
    # Older TDA 22: blinds the player dodged, made up at the deal as dead money (in the
    # pot, never in the player's bet), up to the stack; a stack too short for its blind
    # and this posts the blind first (hands.engine.betting.start_hand). Kept with the
    # hand so its action log replays alike.
    dead_money = models.BigIntegerField(
        _("dead money"),
        default=0,
        help_text=_("Dodged blinds made up as dead money in this hand (older TDA 22)."),
    )

    class Meta:
        ordering = ["hand", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "seat"], name="hand_player_seat_unique"),
            models.UniqueConstraint(fields=["hand", "entry"], name="hand_player_entry_unique"),
            models.CheckConstraint(
                condition=Q(stack__gte=0), name="hand_player_stack_not_negative"
            ),
            models.CheckConstraint(
                condition=Q(dead_money__gte=0), name="hand_player_dead_money_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.hand} seat {self.seat}"


class OutOfTurn(models.TextChoices):
    """TDA 53 (hands.engine.out_of_turn): how a line of the action log was made; and a
    hand killed during play, whoever's turn it was (TDA 65-A, 66; hands.engine.killed)."""

    ACTION = "action", _("Action out of turn (TDA 53-A)")
    RULING = "ruling", _("Floor ruling on a skipped hand (TDA 53-B)")
    KILLED = "killed", _("Hand killed (TDA 65-A, 66)")


class HandAction(models.Model):
    """One action of the optional action log, checked by the betting engine. `item` notes
    an action made by putting forward an item of no value (RP-22): the action is what it
    was ruled to be (a call, a check, all-in), so the log replays as any other.
    `out_of_turn` marks an action made out of turn, held until the action reaches the
    seat (TDA 53-A), the floor's ruling on a skipped hand, its kind "dead" or
    "limited" (TDA 53-B), and a hand killed during play, its kind the reason (TDA 65-A,
    66: "mistake", "fouled", "upcards"); the betting engine replays each in its place."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="actions")
    sequence = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=8)
    amount = models.BigIntegerField(null=True, blank=True)
    street = models.CharField(max_length=8)
    item = models.CharField(max_length=12, choices=NonBettingItem.choices, blank=True, default="")
    out_of_turn = models.CharField(max_length=8, choices=OutOfTurn.choices, blank=True, default="")

    class Meta:
        ordering = ["hand", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "sequence"], name="hand_action_sequence_unique")
        ]

    def __str__(self) -> str:
        return f"{self.hand} #{self.sequence} seat {self.seat} {self.kind}"


class Away(models.Model):
    """Hands a player sits out at the table, dealt in with a dead hand (TDA 71-C): a
    missed-hands penalty being served. Counting starts after the hand in play when it was
    given, at the same table (TDA 68); a hand the player is dealt at any table after that
    counts. It ends when every hand is missed, or earlier when it is cancelled.

    The hands services are its one writer (hands.services.away); a ruling that sends a
    player away (rulings.Penalty) points to it and reads its counts."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="+")
    table_number = models.PositiveIntegerField(_("table"))
    # The hand in play at the table when the player was sent away: counting starts after it.
    after_hand = models.PositiveIntegerField(_("after hand"), null=True, blank=True)
    hands = models.PositiveIntegerField(_("hands to miss"))
    hands_missed = models.PositiveIntegerField(_("hands missed"), default=0)
    started_at = models.DateTimeField(_("started"), default=timezone.now)
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)  # None while away
    cancelled = models.BooleanField(_("cancelled"), default=False)

    class Meta:
        ordering = ["started_at", "id"]
        verbose_name = _("hands sat out")
        verbose_name_plural = _("hands sat out")
        constraints = [
            models.CheckConstraint(
                condition=Q(hands_missed__lte=models.F("hands")), name="away_missed_at_most"
            ),
            models.CheckConstraint(
                condition=Q(cancelled=False) | Q(ended_at__isnull=False),
                name="away_cancelled_has_ended",
            ),
        ]
        indexes = [
            # What the tablet reads at each deal: who is away now.
            models.Index(
                fields=["tournament", "entry"], condition=Q(ended_at__isnull=True), name="away_open"
            ),
        ]

    def __str__(self) -> str:
        return f"entry {self.entry_id} away {self.hands_missed}/{self.hands}"

    @property
    def hands_left(self) -> int:
        return max(0, self.hands - self.hands_missed)


class DeadBlinds(models.Model):
    """Blinds a player dodged, owed as dead money into the player's next pot (older TDA
    22, where the house reads `dodged_blinds` so). Written when the floor rules
    (rulings.services.blinds_dodged_rule); the deal of the next hand the player is dealt
    into posts them and keeps that hand here (hands.services.dead_blinds). A player owes
    one such debt at a time."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="+")
    table_number = models.PositiveIntegerField(_("table"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    level = models.PositiveIntegerField(_("level"))
    small_blind = models.BigIntegerField(_("small blind dodged"), default=0)
    big_blind = models.BigIntegerField(_("big blind dodged"), default=0)
    # The hand that posted them; None while they are owed.
    hand = models.ForeignKey(
        Hand, on_delete=models.PROTECT, null=True, blank=True, related_name="dead_blinds"
    )
    at = models.DateTimeField(_("ruled"), auto_now_add=True)

    class Meta:
        ordering = ["at", "id"]
        verbose_name = _("dodged blinds owed")
        verbose_name_plural = _("dodged blinds owed")
        constraints = [
            models.UniqueConstraint(
                fields=["entry"], condition=Q(hand__isnull=True), name="dead_blinds_one_owed"
            ),
            models.CheckConstraint(
                condition=Q(small_blind__gte=0, big_blind__gte=0)
                & (Q(small_blind__gt=0) | Q(big_blind__gt=0)),
                name="dead_blinds_something_owed",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entry} owes {self.amount}"

    @property
    def amount(self) -> int:
        return self.small_blind + self.big_blind


class Elimination(models.Model):
    """A bust-out: which hand, and the stack the player started it with, which decides
    the place among players busting in the same hand (IFP 4.27, casino §29)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="eliminations"
    )
    entry = models.OneToOneField(Entry, on_delete=models.CASCADE, related_name="elimination")
    hand = models.ForeignKey(
        Hand, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # Busts with the same key share a hand: "h<hand id>", or "r<round>" hand-for-hand
    # across tables (RP-8 A), "t<table>-<random>" for players a table busts together
    # without their hand (IFP 4.27), or "e<entry>" for a bust entered alone without it.
    hand_key = models.CharField(max_length=24)
    table_number = models.PositiveSmallIntegerField(null=True, blank=True)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    stack = models.BigIntegerField(default=0)
    recorded_at = models.DateTimeField(auto_now_add=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )

    class Meta:
        ordering = ["tournament", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(stack__gte=0), name="elimination_stack_not_negative")
        ]
        # A payment reads the busts of one hand and counts those before it by these
        # (hands.selectors.places_window, issue 20), not by reading every bust.
        indexes = [
            models.Index(fields=["tournament", "id"], name="elimination_order"),
            models.Index(fields=["tournament", "hand_key", "id"], name="elimination_hand"),
        ]

    def __str__(self) -> str:
        return f"entry {self.entry_id} out ({self.hand_key})"


class HandForHand(models.Model):
    """Hand-for-hand on the bubble (RP-8, casino §29) and its house settings."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, primary_key=True, related_name="hand_for_hand"
    )
    active = models.BooleanField(default=False)
    round = models.PositiveIntegerField(default=0)  # 0: the hand in play when announced
    round_started_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    seconds_per_hand = models.PositiveSmallIntegerField(
        _("seconds off the clock per hand"),
        default=120,
        help_text=_("RP-8: two minutes a hand, at most three."),
    )
    margin = models.PositiveSmallIntegerField(
        _("suggest with this many players to the money"),
        default=1,
        help_text=_(
            "Hand-for-hand is suggested when the players left are at most the places "
            "paid plus this."
        ),
    )
    alert_minutes = models.PositiveSmallIntegerField(
        _("alert the floor after (minutes)"),
        default=4,
        help_text=_("A table that has not finished its hand by then is flagged."),
    )
    places_paid = models.PositiveIntegerField(_("places paid"), null=True, blank=True)
    alerted_round = models.IntegerField(default=-1)  # the last round the floor was alerted of
    paused_clock = models.BooleanField(default=False)  # resume it when hand-for-hand ends

    # The house settings an event's copy or template takes. Not the places paid set by
    # hand: the next field may be of another size (the payout settings come along).
    HOUSE_SETTINGS = ("seconds_per_hand", "margin", "alert_minutes")

    class Meta:
        verbose_name = _("hand-for-hand")
        constraints = [
            models.CheckConstraint(
                condition=Q(seconds_per_hand__lte=180), name="h4h_at_most_three_minutes"
            ),
            models.CheckConstraint(condition=Q(margin__gte=1), name="h4h_margin_positive"),
        ]

    def __str__(self) -> str:
        return f"hand-for-hand round {self.round}"


class HandForHandReport(models.Model):
    """A table's report in one hand-for-hand round: finished, or all-in and holding."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    round = models.PositiveIntegerField()
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    held = models.BooleanField(default=False)  # all-in and call: cards down (RP-8 F)
    reported_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["tournament", "round", "reported_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "round", "table"], name="h4h_one_report_per_table"
            )
        ]

    def __str__(self) -> str:
        return f"round {self.round} table {self.table_id}"


def new_tablet_token() -> str:
    return secrets.token_urlsafe(24)


class TabletLink(models.Model):
    """A per-table link for the dealer's tablet, without an account; the floor revokes it."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="tablet_links")
    token = models.CharField(max_length=64, unique=True, default=new_tablet_token)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"tablet link for table {self.table_id}"


class KnockoutSource(models.TextChoices):
    HAND = "hand", _("From the logged hand")
    FLOOR = "floor", _("Named by the floor")
    WINNER = "winner", _("The winner's own bounty")
    # Issue 22: the eliminator a Tournament Director file names (HitmanUUID); no bounty.
    IMPORT = "import", _("Imported from a file")


class Knockout(models.Model):
    """One eliminator's share of one busted entry's bounty (issue 18): the cash it pays
    and, in a progressive knockout, what it adds to the eliminator's own bounty. The
    winner's own bounty at the end is a knockout of themselves (source WINNER). Kept,
    never edited: a correction reverses it (`reversed_at`) and records the right one."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    busted = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="+")
    winner = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="knockouts")
    hand = models.ForeignKey(
        Hand, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    cash = models.BigIntegerField(_("bounty"))
    added = models.BigIntegerField(_("added to own bounty"), default=0)
    # A mystery bounty: the number of the draw (1, 2, …), replayable from the event's seed;
    # eliminators sharing one prize share its draw.
    draw = models.PositiveIntegerField(_("draw"), null=True, blank=True)
    source = models.CharField(max_length=8, choices=KnockoutSource.choices)
    recorded_at = models.DateTimeField(auto_now_add=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    reversed_at = models.DateTimeField(null=True, blank=True)
    reversed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )

    class Meta:
        ordering = ["recorded_at", "id"]
        verbose_name = _("knockout")
        verbose_name_plural = _("knockouts")
        constraints = [
            models.CheckConstraint(
                condition=Q(cash__gte=0, added__gte=0), name="knockout_not_negative"
            ),
            models.UniqueConstraint(
                fields=["busted", "winner"],
                condition=Q(reversed_at__isnull=True),
                name="knockout_once",
            ),
        ]
        indexes = [models.Index(fields=["tournament", "winner"])]

    def __str__(self) -> str:
        return f"{self.winner_id} knocked out {self.busted_id}: {self.cash}"


class StartEvent(models.TextChoices):
    """What starts a hand (house setting `hand_starts`): TDA 23 the first riffle, the
    shuffling machine's button or the dealer push; casino §25, §32 the cut."""

    RIFFLE = "riffle", _("First riffle")
    SHUFFLER = "shuffler", _("Shuffler button")
    PUSH = "push", _("Dealer push")
    CUT = "cut", _("Cut of the cards")


class HandStartMark(models.Model):
    """The dealer marked the start of a table's next hand before dealing it (TDA 23;
    casino §25, §32): the level in play at that moment is the hand's level, even if the
    cards come after the clock's change. The deal takes it over (Hand.start_event) and
    removes it; one per table at a time. Its one writer: hands.services.levels."""

    table = models.OneToOneField(
        Table, on_delete=models.CASCADE, primary_key=True, related_name="start_mark"
    )
    event = models.CharField(_("started by"), max_length=10, choices=StartEvent.choices)
    level = models.PositiveSmallIntegerField(_("level"))
    position = models.PositiveSmallIntegerField(null=True, blank=True)  # its clock step
    marked_at = models.DateTimeField(_("marked"), default=timezone.now)

    class Meta:
        verbose_name = _("hand start mark")
        verbose_name_plural = _("hand start marks")

    def __str__(self) -> str:
        return f"table {self.table_id}: {self.event} at level {self.level}"

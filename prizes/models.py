"""Prize money: entered places, payments and deals. The payout table they pay from is
the payouts app's. And the house's saved events, to start new ones from (EventTemplate).

The tables were made by the tournaments app and keep their names (db_table): the models
moved, the data did not.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from floorman.names import validate_visible_name
from tournaments.models import Entry, Tournament, Transaction


class PlaceEntered(models.Model):
    """A finishing place the director entered, over what the bust-outs give. Entries
    given the same place share it and the places after it (RP-8 A)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    entry = models.OneToOneField(Entry, on_delete=models.CASCADE, related_name="place_entered")
    place = models.PositiveIntegerField(_("place"))

    class Meta:
        db_table = "tournaments_placeentered"
        verbose_name = _("entered place")
        verbose_name_plural = _("entered places")
        constraints = [
            models.CheckConstraint(condition=Q(place__gte=1), name="place_entered_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.entry}: {self.place}"


class Payment(models.Model):
    """The prize paid to an entry: its ledger line. One per entry, so nobody is paid twice;
    taking a payment back reverses the line and removes this row."""

    entry = models.OneToOneField(Entry, on_delete=models.PROTECT, related_name="payment")
    line = models.OneToOneField(Transaction, on_delete=models.PROTECT, related_name="payment")

    class Meta:
        db_table = "tournaments_payment"
        verbose_name = _("payment")
        verbose_name_plural = _("payments")

    def __str__(self) -> str:
        return f"{self.entry}: {-self.line.amount}"


class BountyPayment(models.Model):
    """A knockout's bounty paid at the cage (issue 18): its ledger line (BOUNTY). One per
    knockout; taking it back reverses the line and removes this row."""

    knockout = models.OneToOneField(
        "hands.Knockout", on_delete=models.PROTECT, related_name="payment"
    )
    line = models.OneToOneField(Transaction, on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("bounty payment")
        verbose_name_plural = _("bounty payments")

    def __str__(self) -> str:
        return f"{self.knockout_id}: {-self.line.amount}"


class DealMethod(models.TextChoices):
    ICM = "icm", _("ICM")
    CHIP_CHOP = "chip_chop", _("Chip chop")
    SAVE = "save", _("Leave an amount for the winner")
    CUSTOM = "custom", _("Agreed amounts")


class Deal(models.Model):
    """Casino §6: the players left agree to share the prizes still to be won. What is
    left to play for (`left_to_play`) goes to whoever wins if play continues."""

    tournament = models.OneToOneField(Tournament, on_delete=models.PROTECT, related_name="deal")
    method = models.CharField(_("method"), max_length=10, choices=DealMethod.choices)
    prizes = models.JSONField(_("prizes shared"))  # the unpaid places' prizes, best first
    left_to_play = models.BigIntegerField(_("left to play for"), default=0)
    ends_tournament = models.BooleanField(_("ends the tournament"), default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(_("agreed"), auto_now_add=True)

    class Meta:
        db_table = "tournaments_deal"
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        constraints = [
            models.CheckConstraint(condition=Q(left_to_play__gte=0), name="deal_left_not_negative"),
            models.CheckConstraint(
                condition=Q(ends_tournament=False) | Q(left_to_play=0),
                name="deal_ending_leaves_nothing",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.get_method_display()}"


class DealShare(models.Model):
    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="shares")
    entry = models.OneToOneField(Entry, on_delete=models.PROTECT, related_name="deal_share")
    chips = models.BigIntegerField(_("chips"))
    amount = models.BigIntegerField(_("amount"))
    calculated = models.BigIntegerField(_("calculated"), null=True)  # the method's figure

    class Meta:
        db_table = "tournaments_dealshare"
        ordering = ["-chips", "entry_id"]
        verbose_name = _("deal share")
        verbose_name_plural = _("deal shares")
        constraints = [
            models.CheckConstraint(condition=Q(chips__gte=1), name="deal_chips_positive"),
            models.CheckConstraint(condition=Q(amount__gte=0), name="deal_amount_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.entry}: {self.amount}"


class EventTemplate(models.Model):
    """An event the director saved under a name, to start the next ones from
    (prizes.services.events). Its setup is kept as the apps read it (JSON): the event's
    settings, its blind structure's steps, the payout, seating and hand-for-hand settings
    and the table layout. It keeps no link to the event: changing or deleting that event
    later changes nothing here. Never entries, players, hands, payments or results."""

    name = models.CharField(
        _("name"), max_length=120, unique=True, validators=[validate_visible_name]
    )
    setup = models.JSONField(_("setup"))
    saved_from = models.CharField(_("saved from"), max_length=120, blank=True)
    saved_at = models.DateTimeField(_("saved"), auto_now=True)
    saved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("event template")
        verbose_name_plural = _("event templates")

    def __str__(self) -> str:
        return self.name


class Td3Import(models.Model):
    """A Tournament Director save file imported (issue 22): as history (the finished
    event it made), as an event template, or both. One row per file, by its SHA-256:
    the same file a second time changes nothing. The league and season stay here, as
    Floorman keeps no leagues."""

    sha256 = models.CharField(_("SHA-256"), max_length=64, unique=True)
    file_name = models.CharField(_("file"), max_length=255)
    version = models.CharField(_("version"), max_length=20, blank=True)
    # The file's own tournament id: a later save of an event imported as history is
    # that event again (refused by the constraint below), not a second one.
    file_tournament_id = models.CharField(_("tournament id in the file"), max_length=64, blank=True)
    title = models.CharField(_("title"), max_length=120, blank=True)
    league = models.CharField(_("league"), max_length=120, blank=True)
    season = models.CharField(_("season"), max_length=120, blank=True)
    tournament = models.OneToOneField(
        Tournament,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="td3_import",
        verbose_name=_("event"),
    )
    template = models.ForeignKey(
        EventTemplate,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("event template"),
    )
    counts = models.JSONField(_("counts"), default=dict, blank=True)
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    imported_at = models.DateTimeField(_("imported"), auto_now_add=True)

    class Meta:
        ordering = ["-imported_at", "-id"]
        verbose_name = _("Tournament Director import")
        verbose_name_plural = _("Tournament Director imports")
        constraints = [
            models.UniqueConstraint(
                fields=["file_tournament_id"],
                condition=Q(tournament__isnull=False) & ~Q(file_tournament_id=""),
                name="td3_import_event_once",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.file_name} ({self.sha256[:12]})"


class Td3Draft(models.Model):
    """A file uploaded for import and waiting on its review page (issue 22): the bytes
    are kept here, so the confirmation reads the file again and never trusts what a
    form posts back. Removed once imported; those older than a day go with the next
    upload."""

    data = models.BinaryField()
    file_name = models.CharField(max_length=255)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    uploaded_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.file_name

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class AuditEntry(models.Model):
    """One state change made by a service: who, when, what, and the data before/after.

    The log is append-only and chained (floorman.audit): the database refuses to change or
    delete an entry (floorman.database.guard), and each entry carries the hash of the one
    before it (floorman.engine.audit_chain). The tournament and the staff member are kept
    by id without a database constraint: the log outlives what it records, and appending
    to it takes no lock on a tournament or a user (the chain lock is the last lock).
    """

    tournament = models.ForeignKey(
        "tournaments.Tournament",
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        null=True,
        blank=True,
        related_name="audit_entries",
        verbose_name=_("tournament"),
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    at = models.DateTimeField(_("time"), default=timezone.now, db_index=True)
    action = models.CharField(_("action"), max_length=64, db_index=True)
    object_type = models.CharField(_("object type"), max_length=64)
    object_id = models.CharField(_("object id"), max_length=64)
    object_repr = models.CharField(_("object"), max_length=200)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    # The chain: numbered without gaps, each entry hashed with the hash of the one before.
    seq = models.PositiveBigIntegerField(_("number"), unique=True)
    prev_hash = models.CharField(_("previous hash"), max_length=64)
    hash = models.CharField(_("hash"), max_length=64)

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["tournament", "-at"])]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.action} {self.object_repr}"

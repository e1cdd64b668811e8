import hashlib

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


class ApiKeyScope(models.TextChoices):
    """What a key may do, lowest first: each scope may do what the one before it may."""

    PUBLIC = "public", _("Public data, read only")
    READ = "read", _("Read everything")
    FLOOR = "floor", _("Floor actions")
    DIRECTOR = "director", _("Director")


class ApiKey(models.Model):
    """A key another tool sends instead of a person's token (floorman.keys).

    The key is `<prefix>.<secret>`: the prefix finds the row, and only the SHA-256 digest
    of the secret is kept, so the key itself is shown once, when it is made. The key acts
    as its own account (`user`: inactive, no password, no groups), so that the audit log
    and the desk say that the key did it; what it may do comes from its scope, never more
    than the director who made it may do now.
    """

    name = models.CharField(_("name"), max_length=100)
    scope = models.CharField(_("scope"), max_length=16, choices=ApiKeyScope.choices)
    prefix = models.CharField(_("key id"), max_length=16, unique=True)
    digest = models.CharField(_("digest"), max_length=64)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="api_key",
        verbose_name=_("acts as"),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires"), null=True, blank=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("revoked by"),
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("API key")
        verbose_name_plural = _("API keys")

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix})"

    @staticmethod
    def digest_of(secret: str) -> str:
        """What is kept of a key's secret. A plain digest is enough: the secret is 256
        random bits, not a password a person chose, and a slow password hasher would
        cost every API request a tenth of a second."""
        return hashlib.sha256(secret.encode()).hexdigest()


class TokenUse(models.Model):
    """When a staff member's API token was last used. The token expires API_TOKEN_TTL
    after that (floorman.tokens); DRF's Token keeps only when it was made."""

    token = models.OneToOneField(
        "authtoken.Token",
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="use",
        verbose_name=_("token"),
    )
    used_at = models.DateTimeField(_("last used"))

    class Meta:
        verbose_name = _("API token use")
        verbose_name_plural = _("API token uses")

    def __str__(self) -> str:
        return f"{self.used_at:%Y-%m-%d %H:%M:%S}"  # never the token: it is the secret

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class AuditEntry(models.Model):
    """One state change made by a service: who, when, what, and the data before/after."""

    tournament = models.ForeignKey(
        "tournaments.Tournament",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="audit_entries",
        verbose_name=_("tournament"),
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    at = models.DateTimeField(_("time"), auto_now_add=True, db_index=True)
    action = models.CharField(_("action"), max_length=64, db_index=True)
    object_type = models.CharField(_("object type"), max_length=64)
    object_id = models.CharField(_("object id"), max_length=64)
    object_repr = models.CharField(_("object"), max_length=200)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["tournament", "-at"])]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.action} {self.object_repr}"


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

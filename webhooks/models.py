"""Outbound webhooks (issue 22): the endpoints directors register and each message sent
to them (webhooks.services writes both)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models import Tournament, Venue
from webhooks.engine.addresses import URL_MAX_LENGTH


class Endpoint(models.Model):
    """A receiver's URL, for one venue's events or one event's (with its flights).

    `secret` signs every message (Standard Webhooks, `whsec_…`): it must be kept to
    sign, so it is stored; pages and the API show it once, when made or rotated."""

    venue = models.ForeignKey(
        Venue,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="webhook_endpoints",
        verbose_name=_("venue"),
    )
    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="webhook_endpoints",
        verbose_name=_("event"),
    )
    url = models.CharField(_("URL"), max_length=URL_MAX_LENGTH)
    description = models.CharField(_("description"), max_length=200, blank=True)
    event_types = models.JSONField(_("event types"), default=list)
    active = models.BooleanField(_("active"), default=True)
    secret = models.CharField(_("secret"), max_length=100)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    # Switched off after repeated failure (settings.WEBHOOK_DISABLE_AFTER): when and why.
    disabled_at = models.DateTimeField(_("switched off at"), null=True, blank=True)
    disabled_reason = models.CharField(_("why switched off"), max_length=300, blank=True)
    dead_in_row = models.PositiveIntegerField(default=0)  # dead letters since the last success

    class Meta:
        ordering = ["pk"]
        verbose_name = _("webhook endpoint")
        verbose_name_plural = _("webhook endpoints")
        constraints = [
            models.CheckConstraint(
                condition=Q(venue__isnull=True, tournament__isnull=False)
                | Q(venue__isnull=False, tournament__isnull=True),
                name="webhook_endpoint_venue_or_event",
            )
        ]
        indexes = [models.Index(fields=["active"], name="webhook_endpoint_active")]

    def __str__(self) -> str:
        return self.url


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", _("Waiting")
    SENDING = "sending", _("Sending")
    FAILED = "failed", _("Failed, will try again")
    DELIVERED = "delivered", _("Delivered")
    DEAD = "dead", _("Given up")


# What a failed try says, in the log's language (the rest, a connection's error as the
# system gives it, is shown as it came).
ERRORS = {
    "timed out": _("No answer in time"),
    "redirect not followed": _("Redirect not followed"),
    "refused: not a public address": _("Refused: not a public address"),
    "the host name does not resolve": _("The host name does not resolve"),
    "the endpoint is switched off": _("The endpoint is switched off"),
    "the URL is not valid": _("The URL is not valid"),
}


class Delivery(models.Model):
    """One message to one endpoint: its id (`msg_…`, the same on every try and on "send
    again", so a receiver can drop duplicates), the payload as it was when the change
    committed, and how its tries went."""

    endpoint = models.ForeignKey(Endpoint, on_delete=models.CASCADE, related_name="deliveries")
    message_id = models.CharField(_("message id"), max_length=40, unique=True)
    event_type = models.CharField(_("event type"), max_length=40)
    payload = models.JSONField()
    audit_entry = models.PositiveBigIntegerField(null=True, blank=True)  # AuditEntry id
    status = models.CharField(
        _("status"), max_length=12, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    attempts = models.PositiveIntegerField(_("attempts"), default=0)  # every try, ever
    tries = models.PositiveIntegerField(default=0)  # tries since it was (re)sent
    claimed_at = models.DateTimeField(null=True, blank=True)  # a worker is sending it
    last_attempt_at = models.DateTimeField(_("last try"), null=True, blank=True)
    next_attempt_at = models.DateTimeField(_("next try"), null=True, blank=True)
    delivered_at = models.DateTimeField(_("delivered at"), null=True, blank=True)
    response_code = models.PositiveSmallIntegerField(_("response code"), null=True, blank=True)
    response_excerpt = models.CharField(_("response"), max_length=500, blank=True)
    error = models.CharField(_("error"), max_length=300, blank=True)
    duration_ms = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["-pk"]
        verbose_name = _("webhook delivery")
        verbose_name_plural = _("webhook deliveries")
        indexes = [
            models.Index(fields=["endpoint", "-id"], name="webhook_delivery_endpoint"),
            models.Index(
                fields=["next_attempt_at"],
                condition=Q(status__in=["pending", "failed", "sending"]),
                name="webhook_delivery_due",
            ),
        ]

    def __str__(self) -> str:
        return self.message_id

    @property
    def error_display(self) -> str:
        return str(ERRORS.get(self.error, self.error))

"""The webhooks' intentions (issue 22): each change a director makes is one service with
one audit entry (never the secret), and a refused request writes nothing. The system's
own work: the deliveries made from committed audit entries (`deliveries_create`) and each
try (`delivery_attempt`, run by the Celery task webhooks.tasks.webhook_deliver).
"""

import logging
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from floorman.audit import audit_record
from floorman.errors import Conflict, Invalid, NotFound
from floorman.models import AuditEntry
from tournaments.models import Tournament, Venue
from webhooks import payloads, selectors, signing, transport
from webhooks.engine import addresses, backoff, events
from webhooks.models import Delivery, DeliveryStatus, Endpoint

log = logging.getLogger(__name__)

DESCRIPTION_MAX_LENGTH = 200
# A try claimed this long ago whose worker never reported died with it: claim it again.
STALE_CLAIM = timedelta(minutes=5)
# A worker's clock may run a little ahead of the one that scheduled the try.
CLOCK_SLACK = timedelta(seconds=1)
WAITING = (DeliveryStatus.PENDING, DeliveryStatus.FAILED)


@dataclass(frozen=True)
class NewSecret:
    endpoint: Endpoint
    secret: str  # shown this once


# --- The director's endpoints ------------------------------------------------------------


def _url_checked(url: str) -> str:
    """The URL, or 400 with the reason: its form, then the addresses its host has now
    (webhooks.engine.addresses). A name that does not resolve yet is accepted; each
    delivery checks the address it connects to."""
    url = (url or "").strip()
    target = addresses.url_parse(url)
    longest = {"count": addresses.URL_MAX_LENGTH}
    messages = {
        addresses.TOO_LONG: _("At most %(count)s characters.") % longest,
        addresses.BAD_PORT: _("The port is not valid."),
        addresses.BAD_SCHEME: _("Only http:// and https:// URLs."),
        addresses.NO_HOST: _("The URL names no host."),
        addresses.CREDENTIALS: _("No user name or password in the URL: use the signature."),
    }
    if isinstance(target, str):
        raise Invalid({"url": messages[target] if url else _("Give the receiver's URL.")})
    found = transport.resolve(target.host, target.port) or []
    if addresses.addresses_refusal(target.host, found, settings.WEBHOOK_ALLOWED_HOSTS):
        raise Invalid(
            {
                "url": _(
                    "This host is on a loopback, private or link-local address. Only a "
                    "host the house allows (WEBHOOK_ALLOWED_HOSTS) may be."
                )
            }
        )
    return url


def _types_checked(types) -> list[str]:
    if not isinstance(types, list | tuple):
        raise Invalid({"event_types": _("Give a list of event types.")})
    chosen, unknown = events.types_clean(types)
    if unknown:
        raise Invalid(
            {"event_types": _("Unknown event types: %(types)s.") % {"types": ", ".join(unknown)}}
        )
    if not chosen:
        raise Invalid({"event_types": _("Choose at least one event type.")})
    return chosen


def _description_checked(description: str) -> str:
    description = " ".join((description or "").replace("\x00", "").split())
    if len(description) > DESCRIPTION_MAX_LENGTH:
        raise Invalid(
            {"description": _("At most %(count)s characters.") % {"count": DESCRIPTION_MAX_LENGTH}}
        )
    return description


def _public(endpoint: Endpoint) -> dict:
    """What the audit log keeps of an endpoint: never its secret."""
    return {
        "url": endpoint.url,
        "description": endpoint.description,
        "event_types": list(endpoint.event_types),
        "active": endpoint.active,
        "venue": endpoint.venue_id,
        "tournament": endpoint.tournament_id,
    }


def _audit(actor, action: str, endpoint: Endpoint, before=None, after=None) -> None:
    audit_record(
        actor=actor,
        action=action,
        obj=endpoint,
        tournament=endpoint.tournament,
        before=before,
        after=after,
    )


@transaction.atomic
def endpoint_create(
    *,
    actor,
    url: str,
    event_types,
    venue_id: int | None = None,
    tournament_id: int | None = None,
    active: bool = True,
    description: str = "",
) -> NewSecret:
    """Register a receiver for a venue's events or one event's (its flights too).

    Steps: the venue or the event (one of them, else 400; missing: 404) → the URL, its
    host's addresses, the types, the description (400 each) → a new secret → saved →
    audit `webhook.create` (never the secret) → the house's flag renewed. Returns the
    endpoint and, this once, its secret."""
    if (venue_id is None) == (tournament_id is None):
        raise Invalid({"venue": _("Choose a venue or an event, not both.")})
    venue = tournament = None
    if venue_id is not None:
        venue = Venue.objects.filter(pk=venue_id).first()
        if venue is None:
            raise NotFound(_("No such venue."))
    else:
        tournament = Tournament.objects.filter(pk=tournament_id).first()
        if tournament is None:
            raise NotFound(_("No such tournament."))
    errors = {}
    checked = {}
    for name, check, value in (
        ("url", _url_checked, url),
        ("event_types", _types_checked, event_types),
        ("description", _description_checked, description),
    ):
        try:
            checked[name] = check(value)
        except Invalid as exc:
            errors.update(exc.fields)
    if errors:
        raise Invalid(errors)
    secret = signing.secret_new()
    endpoint = Endpoint.objects.create(
        venue=venue,
        tournament=tournament,
        url=checked["url"],
        description=checked["description"],
        event_types=checked["event_types"],
        active=bool(active),
        secret=secret,
        created_by=actor if actor is not None and actor.is_authenticated else None,
    )
    _audit(actor, "webhook.create", endpoint, after=_public(endpoint))
    selectors.endpoints_changed()
    return NewSecret(endpoint=endpoint, secret=secret)


def _locked(endpoint_id: int) -> Endpoint:
    endpoint = (
        Endpoint.objects.select_for_update(of=("self",))
        .select_related("venue", "tournament")
        .filter(pk=endpoint_id)
        .first()
    )
    if endpoint is None:
        raise NotFound(_("No such webhook endpoint."))
    return endpoint


@transaction.atomic
def endpoint_update(
    *,
    actor,
    endpoint_id: int,
    url: str | None = None,
    event_types=None,
    active: bool | None = None,
    description: str | None = None,
) -> Endpoint:
    """Change an endpoint's URL, types, description or whether it is active (what is
    None stays). Switched back on, an endpoint switched off for failures starts afresh.

    Steps: lock the endpoint (404) → each value given checked (400) → saved → audit
    `webhook.update` → the house's flag renewed."""
    endpoint = _locked(endpoint_id)
    before = _public(endpoint)
    errors = {}
    for name, check, value in (
        ("url", _url_checked, url),
        ("event_types", _types_checked, event_types),
        ("description", _description_checked, description),
    ):
        if value is None:
            continue
        try:
            setattr(endpoint, name, check(value))
        except Invalid as exc:
            errors.update(exc.fields)
    if errors:
        raise Invalid(errors)
    if active is not None:
        if active and not endpoint.active:
            endpoint.disabled_at, endpoint.disabled_reason, endpoint.dead_in_row = None, "", 0
        endpoint.active = bool(active)
    endpoint.save()
    _audit(actor, "webhook.update", endpoint, before=before, after=_public(endpoint))
    selectors.endpoints_changed()
    return endpoint


@transaction.atomic
def endpoint_delete(*, actor, endpoint_id: int) -> None:
    """Remove an endpoint and its delivery log; deliveries waiting are never sent."""
    endpoint = _locked(endpoint_id)
    _audit(actor, "webhook.delete", endpoint, before=_public(endpoint))
    endpoint.delete()
    selectors.endpoints_changed()


@transaction.atomic
def endpoint_secret_rotate(*, actor, endpoint_id: int) -> NewSecret:
    """A new secret for the endpoint, shown this once; the old one signs nothing more
    (deliveries waiting are signed with the new one at their next try)."""
    endpoint = _locked(endpoint_id)
    secret = signing.secret_new()
    endpoint.secret = secret
    endpoint.save(update_fields=["secret"])
    _audit(actor, "webhook.rotate_secret", endpoint)
    return NewSecret(endpoint=endpoint, secret=secret)


def _send_later(delivery_id: int, countdown: float = 0) -> None:
    """Hand the delivery to a worker once the transaction commits. A broker that is down
    leaves it waiting: sent again when a worker starts (deliveries_resend_due)."""

    def send() -> None:
        from webhooks.tasks import webhook_deliver  # noqa: PLC0415 - the task module imports these services

        try:
            webhook_deliver.apply_async((delivery_id,), countdown=countdown)
        except Exception:  # noqa: BLE001 - the delivery waits in its table
            log.exception("Webhook delivery %s not handed to a worker.", delivery_id)

    transaction.on_commit(send)


@transaction.atomic
def endpoint_test_send(*, actor, endpoint_id: int) -> Delivery:
    """Send the endpoint a `webhook.test` event (even while switched off: to check it
    before switching it on). Steps: lock → a delivery → audit `webhook.test` → sent on
    commit."""
    endpoint = _locked(endpoint_id)
    now = timezone.now()
    delivery = Delivery.objects.create(
        endpoint=endpoint,
        message_id=signing.message_id_new(),
        event_type=events.TEST,
        payload=payloads.envelope(events.TEST, now, payloads.test_data(endpoint)),
        next_attempt_at=now,
    )
    _audit(actor, "webhook.test", endpoint, after={"message_id": delivery.message_id})
    _send_later(delivery.pk)
    return delivery


@transaction.atomic
def delivery_resend(*, actor, endpoint_id: int, delivery_id: int) -> Delivery:
    """Send a delivered or dead message again, with its own message id (the receiver
    drops it if it had it) and the payload as first sent; its tries start over.

    Steps: lock the endpoint (404), then the delivery (404) → not waiting or being sent
    (409) → waiting → audit `webhook.resend` → sent on commit."""
    endpoint = _locked(endpoint_id)
    delivery = (
        Delivery.objects.select_for_update().filter(pk=delivery_id, endpoint=endpoint).first()
    )
    if delivery is None:
        raise NotFound(_("No such delivery."))
    if delivery.status not in (DeliveryStatus.DELIVERED, DeliveryStatus.DEAD):
        raise Conflict(
            _("This delivery is still being sent or waits for its next try."), code="in_flight"
        )
    delivery.status = DeliveryStatus.PENDING
    delivery.tries = 0
    delivery.next_attempt_at = timezone.now()
    delivery.save(update_fields=["status", "tries", "next_attempt_at"])
    _audit(actor, "webhook.resend", endpoint, after={"message_id": delivery.message_id})
    _send_later(delivery.pk)
    return delivery


# --- Deliveries made from the log ----------------------------------------------------------


def deliveries_create(*, entries: list[AuditEntry]) -> list[Delivery]:
    """Once a change committed: one delivery per active endpoint that hears of it and
    wants its type (the event's own, its parent event's for a flight, its venue's), each
    with a message id of its own and the payload as it is now; each handed to a worker.
    No HTTP here: this runs in the request that made the change."""
    made = []
    by_tournament: dict[int, list[AuditEntry]] = {}
    for entry in entries:
        by_tournament.setdefault(entry.tournament_id, []).append(entry)
    for tournament_id, found in by_tournament.items():
        tournament = Tournament.objects.filter(pk=tournament_id).first()
        if tournament is None:
            continue
        endpoints = selectors.endpoints_for(tournament, selectors.venue_of(tournament))
        if not endpoints:
            continue
        is_break = payloads.steps_break(tournament.pk)
        rows = []
        for entry in found:
            change = events.Change(entry.action, entry.before, entry.after)
            event_type = events.event_type(change, is_break=is_break)
            wanted = [e for e in endpoints if event_type and event_type in e.event_types]
            if not wanted:
                continue
            try:
                data = payloads.data_of(event_type, entry, tournament)
            except Exception:  # noqa: BLE001 - one event's reading must not lose the others
                log.exception("Webhook payload of audit entry %s not built.", entry.pk)
                continue
            payload = payloads.envelope(event_type, entry.at, data)
            rows += [
                Delivery(
                    endpoint=endpoint,
                    message_id=signing.message_id_new(),
                    event_type=event_type,
                    payload=payload,
                    audit_entry=entry.pk,
                    next_attempt_at=timezone.now(),
                )
                for endpoint in wanted
            ]
        with transaction.atomic():
            made += Delivery.objects.bulk_create(rows)
            for row in rows:
                _send_later(row.pk)
    return made


# --- One try --------------------------------------------------------------------------------


def _claim(delivery_id: int) -> bool:
    """Only one worker sends a delivery at a time, and not before its next try is due: a
    task run twice, or a copy sent again when a worker started, finds it claimed, done or
    not due yet. A conditional update, one row or none."""
    now = timezone.now()
    due = Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now + CLOCK_SLACK)
    waiting = (Q(status__in=WAITING) & due) | Q(
        status=DeliveryStatus.SENDING, claimed_at__lt=now - STALE_CLAIM
    )
    return bool(
        Delivery.objects.filter(waiting, pk=delivery_id).update(
            status=DeliveryStatus.SENDING, claimed_at=now
        )
    )


def delivery_attempt(*, delivery_id: int) -> str:
    """One try of a delivery; its status after it ("" when another worker has it or it
    is no longer waiting).

    Steps: claim it → sign with the endpoint's secret at this moment (Standard Webhooks)
    → POST outside any transaction, with the connect and read timeouts, no redirects, to
    a checked and pinned address (webhooks.transport) → record the try: delivered; or
    failed, with the next try after the schedule's wait (the same message id), or dead
    after the last → the endpoint's dead letters in a row, and at the limit it is
    switched off (audit `webhook.disable`)."""
    if not _claim(delivery_id):
        return ""
    delivery = Delivery.objects.select_related("endpoint").get(pk=delivery_id)
    endpoint = delivery.endpoint
    if not endpoint.active and delivery.event_type != events.TEST:
        answer = transport.Answer(None, error="the endpoint is switched off")
    else:
        target = addresses.url_parse(endpoint.url)
        if isinstance(target, str):
            answer = transport.Answer(None, error="the URL is not valid")
        else:
            body = signing.body_of(delivery.payload)
            headers = signing.signed_headers(
                secret=endpoint.secret, message_id=delivery.message_id, body=body
            )
            answer = transport.post(
                target,
                body.encode(),
                headers,
                allowed=settings.WEBHOOK_ALLOWED_HOSTS,
                connect_timeout=settings.WEBHOOK_CONNECT_TIMEOUT,
                read_timeout=settings.WEBHOOK_READ_TIMEOUT,
                total_timeout=settings.WEBHOOK_TOTAL_TIMEOUT,
            )
    # An endpoint switched off meanwhile: its message is given up, not counted against it.
    return _attempt_record(delivery_id, answer, active=endpoint.active)


@transaction.atomic
def _attempt_record(delivery_id: int, answer: transport.Answer, *, active: bool) -> str:
    delivery = Delivery.objects.select_for_update().filter(pk=delivery_id).first()
    if delivery is None:  # its endpoint was removed during the try
        return ""
    now = timezone.now()
    delivery.attempts += 1
    delivery.tries += 1
    delivery.last_attempt_at = now
    delivery.claimed_at = None
    delivery.response_code = answer.status
    delivery.response_excerpt = answer.excerpt[: transport.EXCERPT_CHARS]
    delivery.error = answer.error[:300] if not answer.ok else ""
    if answer.status is not None and 300 <= answer.status < 400:
        delivery.error = "redirect not followed"
    delivery.duration_ms = answer.duration_ms
    wait = backoff.retry_wait(settings.WEBHOOK_RETRY_SCHEDULE, delivery.tries) if active else None
    if answer.ok:
        delivery.status = DeliveryStatus.DELIVERED
        delivery.delivered_at, delivery.next_attempt_at = now, None
        Endpoint.objects.filter(pk=delivery.endpoint_id, dead_in_row__gt=0).update(dead_in_row=0)
    elif wait is not None:
        delivery.status = DeliveryStatus.FAILED
        delivery.next_attempt_at = now + timedelta(seconds=wait)
        _send_later(delivery.pk, countdown=wait)
    else:
        delivery.status = DeliveryStatus.DEAD
        delivery.next_attempt_at = None
        if active and delivery.event_type != events.TEST:
            _dead_letter_count(delivery.endpoint_id)
    delivery.save()
    return delivery.status


def _dead_letter_count(endpoint_id: int) -> None:
    """One more dead letter in a row; at settings.WEBHOOK_DISABLE_AFTER the endpoint is
    switched off with the reason, which its page shows."""
    endpoint = Endpoint.objects.select_for_update().get(pk=endpoint_id)
    endpoint.dead_in_row = F("dead_in_row") + 1
    endpoint.save(update_fields=["dead_in_row"])
    endpoint.refresh_from_db(fields=["dead_in_row"])
    limit = settings.WEBHOOK_DISABLE_AFTER
    if not endpoint.active or not backoff.should_disable(endpoint.dead_in_row, limit):
        return
    endpoint.active = False
    endpoint.disabled_at = timezone.now()
    endpoint.disabled_reason = (
        f"{endpoint.dead_in_row} deliveries in a row failed every try (the last was given up "
        f"at {endpoint.disabled_at:%Y-%m-%d %H:%M} UTC)."
    )
    endpoint.save(update_fields=["active", "disabled_at", "disabled_reason"])
    _audit(
        None,
        "webhook.disable",
        endpoint,
        before={"active": True},
        after={"active": False, "dead_in_row": endpoint.dead_in_row},
    )
    selectors.endpoints_changed()


def deliveries_resend_due() -> int:
    """Hand every waiting delivery to a worker again; how many. Run each time a worker
    starts consuming (web.tasks.timers_resend): a worker that crashed takes the tries it
    holds until their time with it, and one handed over while the broker was down never
    got there. The claim in delivery_attempt makes the copies harmless."""
    now = timezone.now()
    due = Delivery.objects.filter(
        Q(status__in=WAITING) | Q(status=DeliveryStatus.SENDING, claimed_at__lt=now - STALE_CLAIM)
    ).values_list("pk", "next_attempt_at")
    count = 0
    for pk, at in due:
        wait = max(0.0, (at - now).total_seconds()) if at else 0.0
        _send_later(pk, countdown=wait)
        count += 1
    return count


__all__ = [
    "DeliveryStatus",
    "NewSecret",
    "delivery_attempt",
    "delivery_resend",
    "deliveries_create",
    "deliveries_resend_due",
    "endpoint_create",
    "endpoint_delete",
    "endpoint_secret_rotate",
    "endpoint_test_send",
    "endpoint_update",
]

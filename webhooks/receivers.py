"""The webhooks listen to the audit log as it commits (floorman.signals.audit_committed,
connected in webhooks.apps).

This runs after every commit, in the request that made the change: with no endpoint
active in the house it must cost no query (the flag in webhooks.selectors.any_active),
and it never makes an HTTP request (the deliveries go to Celery)."""

import logging

from webhooks import selectors, services
from webhooks.engine.events import could_be_event

log = logging.getLogger(__name__)


def audit_entries_committed(sender, entries, **kwargs) -> None:
    candidates = [e for e in entries if e.tournament_id and could_be_event(e.action)]
    if not candidates or not selectors.any_active():
        return
    try:
        services.deliveries_create(entries=candidates)
    except Exception:  # noqa: BLE001 - the change has committed; the webhooks must not fail it
        log.exception("Webhook deliveries of audit entries %s not made.", [e.pk for e in entries])

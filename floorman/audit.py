"""The audit log: every service that changes state records exactly one entry."""

from django.db import models

from floorman.models import AuditEntry


def staff_user(actor):
    """Who to record as having acted: the signed-in user, or None for a player's own
    request, a dealer's table link or the system (timed tasks, commands)."""
    return actor if actor is not None and actor.is_authenticated else None


def audit_record(
    *,
    actor,
    action: str,
    obj: models.Model,
    tournament=None,
    before: dict | None = None,
    after: dict | None = None,
) -> AuditEntry:
    return AuditEntry.objects.create(
        tournament=tournament,
        actor=staff_user(actor),
        action=action,
        object_type=obj._meta.model_name,
        object_id=str(obj.pk),
        object_repr=str(obj)[:200],
        before=before,
        after=after,
    )


def audit_entries(*, tournament, action: str = "", actor_id: int | None = None):
    """Selector for the director's audit page, newest first."""
    entries = AuditEntry.objects.filter(tournament=tournament).select_related("actor")
    if action:
        entries = entries.filter(action=action)
    if actor_id:
        entries = entries.filter(actor_id=actor_id)
    return entries

"""Project-wide Celery tasks. Domain tasks live in each app's tasks.py."""

from datetime import UTC, datetime

from celery import shared_task
from django.core.cache import cache

HEARTBEAT_KEY = "floorman:worker-heartbeat"


@shared_task(ignore_result=True)
def worker_heartbeat() -> None:
    """Record in the cache that a worker ran a task just now (read by floorman.health).

    The cache, not the database: several web processes must see it, and a health check
    must not write rows.
    """
    cache.set(HEARTBEAT_KEY, datetime.now(UTC).isoformat(), timeout=None)


@shared_task(ignore_result=True)
def timers_resend() -> None:
    """Send the timed tasks that are due again: the clock announcements and the
    hand-for-hand alerts. Sent by every worker when it starts consuming (floorman.celery);
    the services' claims make a task that is already waiting, or runs twice, harmless."""
    from clock.services import announcements_resend
    from hands.services import h4h_alerts_resend

    announcements_resend()
    h4h_alerts_resend()

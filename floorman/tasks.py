"""Project-wide Celery tasks. Domain tasks live in each app's tasks.py; those over
several apps in web.tasks."""

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

"""Health check for load balancers, docker-compose and monitoring: GET /health/.

200 when the database and the cache answer, 503 otherwise. `worker_seen` is when a
Celery worker last ran the heartbeat task (ISO time, UTC) or null if never; each check
asks for a fresh heartbeat (at most one per HEARTBEAT_INTERVAL), so a stale time means
no worker is consuming tasks. A missing worker does not turn the check red: the web
process itself is healthy, and monitoring can alert on the age of `worker_seen`.
"""

import logging

from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from floorman.tasks import HEARTBEAT_KEY, worker_heartbeat

logger = logging.getLogger(__name__)

HEARTBEAT_INTERVAL = 10  # seconds between heartbeat requests, however often we are polled
_REQUESTED_KEY = "floorman:worker-heartbeat-requested"
_PROBE_KEY = "floorman:health-probe"


def _database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except Exception:  # any failure means unhealthy; the log says which
        logger.exception("Health check: the database does not answer.")
        return False


def _cache_ok() -> bool:
    try:
        cache.set(_PROBE_KEY, 1, timeout=60)
        return cache.get(_PROBE_KEY) == 1
    except Exception:  # the Redis client raises its own exception types
        logger.exception("Health check: the cache does not answer.")
        return False


def _heartbeat_request() -> None:
    # cache.add is atomic, so many web processes polled at once send one task.
    if not cache.add(_REQUESTED_KEY, 1, timeout=HEARTBEAT_INTERVAL):
        return
    try:
        worker_heartbeat.apply_async(retry=False)
    except Exception:  # a broker outage must not break the health answer
        logger.exception("Health check: could not send the worker heartbeat task.")


@never_cache
@require_safe
def health(request: HttpRequest) -> JsonResponse:
    database = _database_ok()
    cache_ok = _cache_ok()
    worker_seen = None
    if cache_ok:
        worker_seen = cache.get(HEARTBEAT_KEY)
        _heartbeat_request()
    return JsonResponse(
        {"database": database, "cache": cache_ok, "worker_seen": worker_seen},
        status=200 if database and cache_ok else 503,
    )


@require_safe
@never_cache
def live(request: HttpRequest) -> JsonResponse:
    """GET /health/live/: the process answers (a liveness probe; touches nothing else)."""
    return JsonResponse({"status": "ok"})

"""Rate limits on the public doors: the login form and the seat lookup (django-ratelimit).

Counts live in the cache "ratelimit" (settings.CACHES: Redis in production, shared by
every process, see floorman/cache.py; in embedded mode the one process's memory). A
rate is a setting such as "10/m"; "" turns that limit off. Over the limit the page
answers 429 with templates/429.html, which says how long to wait, and a Retry-After
header. When the cache cannot be reached the request is served uncounted (logged): the
lookup must not go down with Redis.

The client's address: in production the reverse proxy (deploy/nginx.conf) is the only
way in and sets X-Real-IP to the address it saw, overwriting whatever the client sent,
just as its X-Forwarded-Proto is trusted; without the proxy (embedded mode) the
connection's own address. IPv6 clients are counted per /64, which one device can
otherwise walk through.
"""

import ipaddress
import logging
import unicodedata
from functools import wraps

from django.conf import settings
from django.shortcuts import render
from django_ratelimit.core import get_usage
from rest_framework.throttling import BaseThrottle

logger = logging.getLogger(__name__)


def client_ip(group: str, request) -> str:
    address = ""
    if not settings.EMBEDDED:
        address = request.META.get("HTTP_X_REAL_IP", "").strip()
    address = address or request.META.get("REMOTE_ADDR", "")
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 6:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False).network_address)
    return str(ip)


def posted_username(group: str, request) -> str:
    """The username tried, as the login form compares it (NFKC), in any case."""
    return unicodedata.normalize("NFKC", request.POST.get("username", "")).strip().casefold()


def too_many(request, seconds: int):
    seconds = max(1, seconds)
    response = render(request, "429.html", {"seconds": seconds}, status=429)
    response["Retry-After"] = str(seconds)
    return response


def wait_needed(request, group: str, rate_setting: str, keys) -> int | None:
    """Count this request once under every key in `keys` (functions of (group, request));
    the seconds to wait when any key is over the rate named by `rate_setting`, else None."""
    rate = getattr(settings, rate_setting)
    if not rate:
        return None
    for key in keys:
        try:
            usage = get_usage(request, group=group, key=key, rate=rate, increment=True)
        except Exception:  # the cache is down: serve rather than refuse
            logger.warning("rate limit %s not counted", group, exc_info=True)
            return None
        if usage is not None and usage["should_limit"]:
            return max(1, usage["time_left"])
    return None


def rate_limited(group: str, rate_setting: str, keys, counts):
    """A page that answers 429 (templates/429.html) once the requests for which
    `counts(request)` holds go over the rate (see `wait_needed`)."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            if counts(request):
                seconds = wait_needed(request, group, rate_setting, keys)
                if seconds is not None:
                    return too_many(request, seconds)
            return view(request, *args, **kwargs)

        return wrapper

    return decorator


class LookupThrottle(BaseThrottle):
    """The JSON seat lookup counts with the lookup page, per address: a phone or a script
    gets the same number of searches through either door (DRF answers 429, Retry-After)."""

    def allow_request(self, request, view) -> bool:
        if not request.query_params.get("q"):
            return True
        self.seconds = wait_needed(
            request._request, "seat-lookup", "FLOORMAN_RATE_LOOKUP", (client_ip,)
        )
        return self.seconds is None

    def wait(self) -> int | None:
        return self.seconds

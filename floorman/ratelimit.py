"""Rate limits on the public doors (django-ratelimit): sign-in, the seat lookup and the
live screens' websockets; and on the one page where a signed-in person types their
password again, the password change.

Each limit is one `Limit`: a counting group, the setting that holds its rate and the
keys it counts by. A page and an API endpoint that open the same door use the same
`Limit`, so they share one count: the login page and the API's token endpoint
(`LOGIN`: per address and per username), the lookup page and its JSON twin (`LOOKUP`:
per address). Websocket handshakes count per address (`WEBSOCKET`), and the sockets an
address holds open are counted too (`socket_open`, `socket_close`). The password page
counts its tries per account and per address (`PASSWORD`): a browser left signed in must
not become a way to guess the password behind it.

Counts live in the cache "ratelimit" (settings.CACHES: Redis in production, shared by
every process, see floorman/cache.py; in embedded mode the one process's memory). A
rate is a setting such as "10/m"; "" turns that limit off. Over the limit a page
answers 429 with templates/429.html, which says how long to wait, the API 429 in JSON
(DRF's "Request was throttled"), both with a Retry-After header; a websocket handshake
is refused (close code 4429 before it is accepted: the browser sees HTTP 403). When the
cache cannot be reached every limit lets the request through uncounted and logs a
warning: sign-in, the lookup and the screens must not go down with Redis.

The client's address: in production the reverse proxy (deploy/nginx.conf) is the only
way in and sets X-Real-IP to the address it saw, overwriting whatever the client sent,
just as its X-Forwarded-Proto is trusted; without the proxy (embedded mode) the
connection's own address. IPv6 clients are counted per /64, which one device can
otherwise walk through.
"""

import ipaddress
import logging
import time
import unicodedata
from dataclasses import dataclass
from functools import wraps
from types import SimpleNamespace

from django.conf import settings
from django.core.cache import caches
from django.shortcuts import render
from django_ratelimit import core
from django_ratelimit.core import get_usage
from rest_framework.throttling import BaseThrottle

from floorman.cache import CounterCache

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
    """The username tried, as the login form compares it (NFKC), in any case: from the
    login form's POST, or from the API's parsed body (JSON or a form)."""
    data = getattr(request, "data", None)  # a REST framework request: its parsed body
    if data is None:
        data = request.POST
    value = data.get("username", "") if hasattr(data, "get") else ""
    if not isinstance(value, str):
        value = str(value)
    return unicodedata.normalize("NFKC", value).strip().casefold()


def signed_in_account(group: str, request) -> str:
    """The account signed in on this request."""
    return f"account-{request.user.pk}"


@dataclass(frozen=True)
class Limit:
    group: str  # the count's name: two doors with one group share one count
    rate_setting: str  # the setting that holds the rate, e.g. "10/m"; "" is no limit
    keys: tuple  # functions of (group, request); each key is counted on its own


# At most FLOORMAN_RATE_LOGIN sign-in attempts from one address, and on one username,
# whichever door they use: the login page or the API's token endpoint.
LOGIN = Limit("login", "FLOORMAN_RATE_LOGIN", (client_ip, posted_username))
# Searches per address, page and API together (a room of phones may share one address).
LOOKUP = Limit("seat-lookup", "FLOORMAN_RATE_LOOKUP", (client_ip,))
# Reads of the live-reporting feed per address (issue 18): its JSON, its Atom feed and the
# results export together. A reporting site polls; a proxy or a CDN in front answers most.
FEED = Limit("feed", "FLOORMAN_RATE_FEED", (client_ip,))
# Websocket handshakes per address (live screens, phones and tablets).
WEBSOCKET = Limit("websocket", "FLOORMAN_RATE_WEBSOCKET", (client_ip,))
# Tries of one's own current password on the password page, per account and per address.
# Each try is counted before the password is checked, right or wrong: tries sent all at
# once cannot slip past the count while the first ones are still being checked.
PASSWORD = Limit("password-change", "FLOORMAN_RATE_PASSWORD", (client_ip, signed_in_account))


def too_many(request, seconds: int):
    seconds = max(1, seconds)
    response = render(request, "429.html", {"seconds": seconds}, status=429)
    response["Retry-After"] = str(seconds)
    return response


def usage(request, group: str, value: str, rate: str) -> dict | None:
    """This request counted under `value` in `group` at `rate`: django-ratelimit's usage
    (`should_limit`, `time_left`), None when it counts nothing (RATELIMIT_ENABLE off).

    django-ratelimit's `get_usage` counts in two round trips, `add` and then `incr`. In
    Redis (floorman.cache.CounterCache) the count takes one: the library's own key and
    window (its `_make_cache_key`, `_get_window`), incremented by one script: a sync
    worker idles through each round trip, and on the seat lookup the limiter's waits
    cost more than all the rest (issue 20). Any other cache (the one process's memory)
    counts through `get_usage`."""
    cache = caches[settings.RATELIMIT_USE_CACHE]
    if not isinstance(cache, CounterCache):
        return get_usage(
            request, group=group, key=lambda group, request: value, rate=rate, increment=True
        )
    if not getattr(settings, "RATELIMIT_ENABLE", True):
        return None
    most, period = core._split_rate(rate)
    window = core._get_window(value, period)
    key = core._make_cache_key(group, window, rate, value, core.ALL)
    count = cache.count(key, period + core.EXPIRATION_FUDGE)
    return {
        "count": count,
        "limit": most,
        "should_limit": count > most,
        "time_left": window - int(core.time.time()),
    }


def wait_needed(request, limit: Limit) -> int | None:
    """Count this request once under every key of `limit`; the seconds to wait when any
    key is over the limit's rate, else None. None too when the cache cannot count."""
    rate = getattr(settings, limit.rate_setting)
    if not rate:
        return None
    for key in limit.keys:
        value = key(limit.group, request)
        try:
            used = usage(request, limit.group, value, rate)
        except Exception:  # the cache is down: serve rather than refuse
            logger.warning("rate limit %s not counted", limit.group, exc_info=True)
            return None
        if used is not None and used["should_limit"]:
            return max(1, used["time_left"])
    return None


def rate_limited(limit: Limit, counts):
    """A page that answers 429 (templates/429.html) once the requests for which
    `counts(request)` holds go over the limit (see `wait_needed`)."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            if counts(request):
                seconds = wait_needed(request, limit)
                if seconds is not None:
                    return too_many(request, seconds)
            return view(request, *args, **kwargs)

        return wrapper

    return decorator


class RateThrottle(BaseThrottle):
    """A REST framework throttle that counts with the pages (`limit`, `wait_needed`):
    DRF answers 429 in JSON with Retry-After. Throttles of DRF's own (AnonRateThrottle
    and kin) are not used: they fail with a 500 when the cache is down."""

    limit: Limit

    def counts(self, request) -> bool:
        return True

    def allow_request(self, request, view) -> bool:
        self.seconds = wait_needed(request, self.limit) if self.counts(request) else None
        return self.seconds is None

    def wait(self) -> int | None:
        return self.seconds


class LoginThrottle(RateThrottle):
    """The API's token endpoint counts with the login page (`LOGIN`)."""

    limit = LOGIN

    def counts(self, request) -> bool:
        if request.method != "POST":
            return False
        request.data  # noqa: B018 - a body that cannot be parsed is a 400, not a cache error
        return True


class LookupThrottle(RateThrottle):
    """The JSON seat lookup counts with the lookup page, per address: a phone or a script
    gets the same number of searches through either door."""

    limit = LOOKUP

    def counts(self, request) -> bool:
        return bool(request.query_params.get("q"))


class FeedThrottle(RateThrottle):
    """The feed's JSON counts with its Atom feed and the results export (`FEED`)."""

    limit = FEED


# --- Websockets ------------------------------------------------------------------------

# An open socket counts against its address for at most this long: the count is kept in
# buckets of SOCKET_BUCKET seconds, each forgotten SOCKET_MEMORY seconds after it began,
# so a process that dies with its sockets open leaves no count behind for longer. Lobby
# screens stay connected for hours: the proxy's limit_conn counts those (deploy/nginx.conf).
SOCKET_BUCKET = 600
SOCKET_MEMORY = 3600


def scope_request(scope) -> SimpleNamespace:
    """A websocket's handshake as the limits' keys read a request: its META."""
    client = scope.get("client") or ("", 0)
    meta = {"REMOTE_ADDR": client[0] or ""}
    for name, value in scope.get("headers", ()):
        if name == b"x-real-ip":
            meta["HTTP_X_REAL_IP"] = value.decode("latin-1")
    return SimpleNamespace(META=meta)


def _socket_buckets(address: str) -> list[str]:
    """The count's keys for `address`, the current bucket last."""
    now = int(time.time()) // SOCKET_BUCKET
    return [
        f"websocket-open:{address}:{bucket}"
        for bucket in range(now - SOCKET_MEMORY // SOCKET_BUCKET + 1, now + 1)
    ]


def socket_open(request) -> tuple[bool, str]:
    """A websocket handshake from `request` (see `scope_request`): counted against
    FLOORMAN_RATE_WEBSOCKET, then, when it may go on, counted among the sockets its
    address holds open (FLOORMAN_WEBSOCKETS_PER_ADDRESS). Returns (admitted, counted):
    `counted` is the key to give `socket_close` when the socket ends, "" if none."""
    if wait_needed(request, WEBSOCKET) is not None:
        return False, ""
    most = settings.FLOORMAN_WEBSOCKETS_PER_ADDRESS
    if not most:
        return True, ""
    cache = caches[settings.RATELIMIT_USE_CACHE]
    *earlier, current = _socket_buckets(client_ip(WEBSOCKET.group, request))
    try:
        cache.add(current, 0, SOCKET_MEMORY)
        held = cache.incr(current) + sum(cache.get_many(earlier).values())
        if held > most:
            cache.decr(current)
            return False, ""
    except Exception:  # the cache is down: serve rather than refuse
        logger.warning("rate limit %s not counted", WEBSOCKET.group, exc_info=True)
        return True, ""
    return True, current


def socket_close(counted: str) -> None:
    """The socket counted under `counted` (`socket_open`) has closed."""
    if not counted:
        return
    try:
        caches[settings.RATELIMIT_USE_CACHE].decr(counted)
    except ValueError:
        pass  # its bucket is already forgotten
    except Exception:
        logger.warning("rate limit %s not counted", WEBSOCKET.group, exc_info=True)

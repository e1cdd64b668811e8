"""What a public screen shows, rendered once per version of the state and shared by every
process (issue 20): the lobby's numbers, the seating board's pages, the seating lists.

A tournament's screen version is a token in the cache (Redis in production, so every
web process sees the same one). Every service that changes the tournament takes its lock
(`tournaments.services.tournament_lock`), which calls `screens_changed`: a new token at
once and another as the transaction commits. A screen reads the token first, then the
state, and files what it built under that token: a page built from rows read before the
commit is filed under a token the commit has already replaced, so nobody is served it.

A cache that cannot be reached costs the cache, never the page: it is built uncached.
`CACHE_SECONDS` bounds how long a value stays at all.

A part of the state that changes without the tournament's lock, or far more often than
the rest, keeps a version of its own: its `kind` (the clock's row, `clock.cache`).
"""

import logging
import secrets
from collections.abc import Callable, Iterable
from typing import TypeVar

from django.core.cache import caches
from django.db import transaction

log = logging.getLogger(__name__)

CACHE = "screens"  # settings.CACHES: Redis with one client per process when REDIS_URL is set
CACHE_SECONDS = 600
VERSION_SECONDS = 86400  # a version lasts a day at most: the read after makes a new one (a miss)
# Keys of one database's tournaments: a test that rolls back may reuse a tournament's id
# (SQLite), so the tests give each test a namespace of its own (conftest.py).
NAMESPACE = "db"


SCREENS = "screens"  # the kind renewed by every change of the tournament


def _key(name: str) -> str:
    return f"screens:{NAMESPACE}:{name}"


def keys(key: str, tournament_id: int, kind: str = SCREENS) -> tuple[str, str]:
    """The cache keys of the tournament's version of `kind` and of the value `key`."""
    return _key(f"version:{kind}:{tournament_id}"), _key(key)


T = TypeVar("T")


def _new_versions(tournament_ids: list[int], kind: str) -> None:
    try:
        caches[CACHE].set_many(
            {keys("", pk, kind)[0]: secrets.token_hex(8) for pk in tournament_ids},
            VERSION_SECONDS,
        )
    except Exception:  # noqa: BLE001 - a cache that is down must not fail the change
        log.warning("screen versions of %s not renewed", tournament_ids, exc_info=True)


def screens_changed(tournament_ids: Iterable[int], kind: str = SCREENS) -> None:
    """The tournaments' screens (or their part `kind`) are out of date: new versions now,
    for the transaction's own reads, and on commit, for everyone's."""
    ids = sorted({pk for pk in tournament_ids if pk is not None})
    if not ids:
        return
    _new_versions(ids, kind)
    transaction.on_commit(lambda: _new_versions(ids, kind))


def screen_cached(
    key: str,
    tournament_id: int,
    build: Callable[[], T],
    *,
    kind: str = SCREENS,
    seconds: int = CACHE_SECONDS,
) -> T:
    """The tournament's value filed under `key`, built (and filed) when missing or older
    than the tournament's screen version. One round trip when filed: the version and the
    value come in one MGET, and the value holds the version it was built at. `key` names
    everything else the value depends on (the language, the page)."""
    cache = caches[CACHE]
    version_key, value_key = keys(key, tournament_id, kind)
    try:
        found = cache.get_many([version_key, value_key])
        version = found.get(version_key)
        filed = found.get(value_key)
        if version is not None and filed is not None and filed[0] == version:
            return filed[1]
        if version is None:
            cache.add(version_key, secrets.token_hex(8), VERSION_SECONDS)
            version = cache.get(version_key)
    except Exception:  # noqa: BLE001 - served uncached
        log.warning("screen cache not read", exc_info=True)
        return build()
    # Read before the rows: a value built from rows older than a change is filed under
    # the version that change has replaced, and never served.
    value = build()
    if value is not None and version is not None:
        try:
            cache.set(value_key, (version, value), seconds)
        except Exception:  # noqa: BLE001 - served uncached
            log.warning("screen cache not written", exc_info=True)
    return value


def screen_version(tournament_id: int, kind: str = SCREENS) -> str | None:
    """The tournament's version of `kind` (made when missing), for a value filed under a
    key that names it (`pages_cached`); None when the cache cannot be reached: then
    build uncached, since nothing filed now could be told from a later state's value.
    Read it before the rows, as `screen_cached` does."""
    cache = caches[CACHE]
    version_key = keys("", tournament_id, kind)[0]
    try:
        version = cache.get(version_key)
        if version is None:
            cache.add(version_key, secrets.token_hex(8), VERSION_SECONDS)
            version = cache.get(version_key)
    except Exception:  # noqa: BLE001 - served uncached
        log.warning("screen version not read", exc_info=True)
        return None
    return version


def pages_cached(key: str, page: int, build: Callable[[], list]) -> tuple[object, int, int]:
    """Page `page` (from 1; past the last, the last) of what `build` cuts into pages,
    with its number and the number of pages. `key` names the state's version and the
    page size: the first request builds every page and files them all, so the other
    pages, and every other process, are served from the cache."""
    cache = caches[CACHE]
    page = max(page, 1)
    wanted, first = _key(f"{key}:{page}"), _key(f"{key}:1")
    try:
        found = cache.get_many([wanted, first])
        if wanted in found:
            return found[wanted]
        if first in found:  # filed, and `page` is past the last page
            last = cache.get(_key(f"{key}:{found[first][2]}"))
            if last is not None:
                return last
    except Exception:  # noqa: BLE001 - served uncached
        log.warning("screen cache not read", exc_info=True)
    built = build() or [[]]
    pages = len(built)
    filed = {_key(f"{key}:{n}"): (value, n, pages) for n, value in enumerate(built, 1)}
    try:
        cache.set_many(filed, CACHE_SECONDS)
    except Exception:  # noqa: BLE001 - served uncached
        log.warning("screen cache not written", exc_info=True)
    return filed[_key(f"{key}:{min(page, pages)}")]


def cut(rows: list, size: int) -> list[list]:
    """`rows` in pages of `size`: at least one page, an empty one for no rows."""
    return [rows[i : i + size] for i in range(0, len(rows), size)] or [[]]

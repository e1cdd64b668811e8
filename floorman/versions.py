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
the rest, keeps a version of its own: its `kind` (the clock's row, `clock.cache`). A value
built from several parts depends on each part's version (the lobby's numbers, which hold
the clock's row: the screens' and the clock's), read together in one MGET.
"""

import logging
import secrets
import threading
from collections import OrderedDict
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


def version_key(tournament_id: int, kind: str = SCREENS) -> str:
    """The cache key of the tournament's version of `kind`."""
    return _key(f"version:{kind}:{tournament_id}")


def keys(
    key: str, tournament_id: int, kinds: tuple[str, ...] = (SCREENS,)
) -> tuple[list[str], str]:
    """The cache keys of the tournament's versions of `kinds` and of the value `key`."""
    return [version_key(tournament_id, kind) for kind in kinds], _key(key)


T = TypeVar("T")


def _new_versions(tournament_ids: list[int], kind: str) -> None:
    try:
        caches[CACHE].set_many(
            {version_key(pk, kind): secrets.token_hex(8) for pk in tournament_ids},
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


def _versions_made(cache, version_keys: list[str], found: dict) -> tuple[str, ...]:
    """The versions of `version_keys` (`found` holds those read), each missing one made:
    `add`, so that two processes that both miss agree on the one filed first."""
    missing = [key for key in version_keys if found.get(key) is None]
    for key in missing:
        cache.add(key, secrets.token_hex(8), VERSION_SECONDS)
    if missing:
        found = {**found, **cache.get_many(missing)}
    return tuple(found.get(key) for key in version_keys)


class _Copies:
    """The values this process has read or built, by key, each with the versions it is
    filed at: a value read again at the same versions needs no transfer from the cache,
    only its versions (issue 20: a lobby's numbers and page at every screen's resync).
    The `LOCAL_MAX` used last are kept. Values are shared by every request of the
    process: never change one."""

    def __init__(self, size: int):
        self.size = size
        self._values: OrderedDict[str, tuple[tuple, object]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> tuple[tuple, object] | None:
        with self._lock:
            found = self._values.get(key)
            if found is not None:
                self._values.move_to_end(key)
            return found

    def put(self, key: str, versions: tuple, value) -> None:
        with self._lock:
            self._values[key] = (versions, value)
            self._values.move_to_end(key)
            while len(self._values) > self.size:
                self._values.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._values.clear()


LOCAL_MAX = 256
copies = _Copies(LOCAL_MAX)


def screen_cached(
    key: str,
    tournament_id: int,
    build: Callable[[], T],
    *,
    kinds: tuple[str, ...] = (SCREENS,),
    seconds: int = CACHE_SECONDS,
) -> T:
    """The tournament's value filed under `key`, built (and filed) when missing or older
    than any of the tournament's versions of `kinds` (the screens' by default; a value
    built from the clock's row too depends on the clock's, `clock.cache.KIND`). `key`
    names everything else the value depends on (the language, the page)."""
    return screen_cached_at(key, tournament_id, build, kinds=kinds, seconds=seconds)[1]


def screen_cached_at(
    key: str,
    tournament_id: int,
    build: Callable[[], T],
    *,
    kinds: tuple[str, ...] = (SCREENS,),
    seconds: int = CACHE_SECONDS,
) -> tuple[tuple[str, ...] | None, T]:
    """As `screen_cached`, with the versions the value is filed at (None: the cache could
    not be read, and the value was built uncached), for what is derived from it.

    One round trip when filed: the versions, and the value with the versions it was
    built at, in one MGET; or, when this process holds a copy, only the versions, and the
    copy if they match (`copies`)."""
    cache = caches[CACHE]
    version_keys, value_key = keys(key, tournament_id, kinds)
    copy = copies.get(value_key)
    try:
        found = cache.get_many(version_keys if copy else [*version_keys, value_key])
        versions = tuple(found.get(k) for k in version_keys)
        if None not in versions:
            if copy is not None and copy[0] == versions:
                return versions, copy[1]
            filed = found.get(value_key) if copy is None else cache.get(value_key)
            if filed is not None and filed[0] == versions:
                copies.put(value_key, versions, filed[1])
                return versions, filed[1]
        versions = _versions_made(cache, version_keys, found)
    except Exception:  # noqa: BLE001 - served uncached
        log.warning("screen cache not read", exc_info=True)
        return None, build()
    # Read before the rows: a value built from rows older than a change is filed under
    # the versions that change has replaced, and never served.
    value = build()
    if value is not None and None not in versions:
        copies.put(value_key, versions, value)
        try:
            cache.set(value_key, (versions, value), seconds)
        except Exception:  # noqa: BLE001 - served uncached
            log.warning("screen cache not written", exc_info=True)
    return (None if None in versions else versions), value


def local_cached(key: str, versions: tuple[str, ...] | None, build: Callable[[], T]) -> T:
    """What `build` derives from values filed at `versions` (screen_cached_at), kept by
    this process only, under `key` and those versions (a rendered page: each process
    renders it once per version). Uncached when `versions` is None (the cache is down)."""
    if versions is None:
        return build()
    local_key = _key(f"local:{key}")
    copy = copies.get(local_key)
    if copy is not None and copy[0] == versions:
        return copy[1]
    value = build()
    copies.put(local_key, versions, value)
    return value


def screen_version(tournament_id: int, kind: str = SCREENS) -> str | None:
    """The tournament's version of `kind` (made when missing), for a value filed under a
    key that names it (`pages_cached`); None when the cache cannot be reached: then
    build uncached, since nothing filed now could be told from a later state's value.
    Read it before the rows, as `screen_cached` does."""
    cache = caches[CACHE]
    found_at = version_key(tournament_id, kind)
    try:
        version = cache.get(found_at)
        if version is None:
            cache.add(found_at, secrets.token_hex(8), VERSION_SECONDS)
            version = cache.get(found_at)
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

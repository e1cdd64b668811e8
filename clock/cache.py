"""The public clock's row, kept in the cache for GET .../clock/ (issue 20).

Every screen resyncs from that read, all at once after each change. What the API answers
depends on the moment (`server_time`, the time left, the level a running clock has rolled
into), so what is kept is what it is derived from: the row of `clock.selectors.clock_row`
(the state with its anchor, the version, the structure's version). The answer is derived
from it at each read, as before; the structure's steps are kept per process, by version
(`clock.selectors._steps_at`). A read found in the cache costs no database query.

The cache is settings CACHES["default"]: Redis in production, shared by every web process;
the process's memory in embedded mode, which is one process.

Never stale after a change: a row is kept with the tournament's *token*, a random value that
every change of the clock replaces (`clock_cache_forget`), and is used only while its token
is the current one. The token is replaced after the commit, so a process that read the row
before the commit and stores it afterwards stores it under a token already gone; and once
within the transaction, so that the transaction's own reads (and tests, which never commit)
see the change. The live event of the change is sent after the token is replaced (the
clock's services forget before they publish): a screen told of a pause reads the pause.

A cache that cannot be reached is read past (the database answers) and logged. If it fails
just when a change commits, a row kept before may be served until it expires: ROW_TIMEOUT.
"""

import logging
import secrets

from django.core.cache import caches
from django.db import transaction

from clock.selectors import ClockRow, clock_row

log = logging.getLogger(__name__)

# The longest a row is kept; only a cache that failed at a change's commit makes it matter.
ROW_TIMEOUT = 60
TOKEN_TIMEOUT = 24 * 3600  # a token gone means a new one: the rows kept before are not used
# Part of every key: a row kept in another shape by an older release is never read.
ROW_FORMAT = 1
NAMESPACE = "clock"  # tests give each test keys of its own (conftest.py)


def _keys(tournament_id: int) -> tuple[str, str]:
    base = f"{NAMESPACE}:{tournament_id}"
    return f"{base}:token", f"{base}:row:{ROW_FORMAT}"


def clock_row_cached(tournament_id: int) -> ClockRow | None:
    """`clock_row(tournament_id)`, from the cache when kept under the current token.

    The token is read (or made) before the database is, so a row read before a change
    committed is always kept under a token that the change replaced afterwards."""
    cache = caches["default"]
    token_key, row_key = _keys(tournament_id)
    try:
        kept = cache.get_many([token_key, row_key])
        token = kept.get(token_key)
        row = kept.get(row_key)
        if token is not None and row is not None and row[0] == token:
            return row[1]
        if token is None:
            token = secrets.token_hex(8)
            if not cache.add(token_key, token, timeout=TOKEN_TIMEOUT):
                token = None  # a change made one meanwhile: serve this read uncached
    except Exception:
        log.warning("clock cache unreachable: the clock is read from the database", exc_info=True)
        return clock_row(tournament_id)
    row = clock_row(tournament_id)
    if row is not None and token is not None:  # no such tournament: nothing kept
        try:
            cache.set(row_key, (token, row), timeout=ROW_TIMEOUT)
        except Exception:
            log.warning("clock cache unreachable: the clock's row not kept", exc_info=True)
    return row


def _token_replace(tournament_id: int) -> None:
    token_key, _row_key = _keys(tournament_id)
    try:
        caches["default"].set(token_key, secrets.token_hex(8), timeout=TOKEN_TIMEOUT)
    except Exception:
        log.error(
            "clock cache unreachable: tournament %s's clock may be served as it was for up to %s s",
            tournament_id,
            ROW_TIMEOUT,
            exc_info=True,
        )


def clock_cache_forget(tournament_id: int) -> None:
    """The clock's public state changes in this transaction: rows kept before are not used,
    now (for the transaction's own reads) and again after the commit (see above). Called by
    the clock's services before they publish the change."""
    _token_replace(tournament_id)
    transaction.on_commit(lambda: _token_replace(tournament_id))

"""Test-wide rules: tests that need PostgreSQL or Redis skip, saying why, when absent.

FLOORMAN_VAR_DIR is set earlier, in floorman/pytest_plugin.py, because pytest-django
loads the settings before this file is imported.
"""

import os
import secrets

import pytest
from channels.layers import channel_layers
from django.conf import settings
from django.core.management.sql import sql_flush as DJANGO_SQL_FLUSH
from django.test import Client
from django.utils import translation
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

from floorman import versions

# Property tests must not depend on how busy the machine is: no per-example deadline and no
# "generation is slow" check (both timed; they failed under load, one run in many), and the
# same examples on every run, so that CI's verdict is the code's, not the draw's.
hypothesis_settings.register_profile(
    "floorman", deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
hypothesis_settings.load_profile("floorman")

NEEDS_POSTGRES = pytest.mark.skip(reason="needs PostgreSQL: set DATABASE_URL")
NEEDS_REDIS = pytest.mark.skip(reason="needs Redis: set REDIS_URL")


# The modules that run longest, heaviest first: `make test` hands whole modules to its
# workers in the order collected (--dist loadfile), and one long module handed out last
# keeps its worker busy long after the others have run out of work.
LONG_FIRST = (  # by the seconds each took in a full run (--durations=0), summed per file
    "floorman/tests/test_api_fuzz.py",
    "floorman/tests/test_permissions.py",
    "simulation/",
    "floorman/tests/test_form_fuzz.py",
    "prizes/tests/test_result_views.py",
    "rulings/tests/test_calculator_views.py",
    "floorman/tests/faults/",
    "floorman/tests/browser/",
    "web/tests/test_tablet.py",
    "web/tests/test_consumers.py",
    "prizes/tests/test_api.py",
    "seating/tests/test_views.py",
    "tournaments/tests/test_api_bad_input.py",
    "seating/tests/test_api.py",
)


def long_first(item: pytest.Item) -> int:
    path = item.nodeid.split("::")[0]
    return next(
        (i for i, prefix in enumerate(LONG_FIRST) if path.startswith(prefix)), len(LONG_FIRST)
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=long_first)  # stable: each module keeps its order inside
    on_postgres = settings.DATABASES["default"]["ENGINE"].endswith("postgresql")
    has_redis = bool(os.environ.get("REDIS_URL", "").strip())
    for item in items:
        if item.get_closest_marker("postgres") and not on_postgres:
            item.add_marker(NEEDS_POSTGRES)
        if item.get_closest_marker("redis") and not has_redis:
            item.add_marker(NEEDS_REDIS)


# Production settings (DATABASE_URL set, as in CI) redirect plain HTTP to HTTPS. Browsers
# reach the app through the proxy that terminates TLS and says so in this header.
BEHIND_TLS_PROXY = {"HTTP_X_FORWARDED_PROTO": "https", "HTTP_HOST": "testserver"}


@pytest.fixture(autouse=True)
def english_after_each_test():
    """A request in German leaves German active in the thread; the next test starts over."""
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def screens_cache_of_this_test(monkeypatch):
    """The screens' shared cache (floorman.versions) under keys of this test's own: a
    rolled-back test's tournament id comes again on SQLite, and must not find its pages."""
    monkeypatch.setattr(versions, "NAMESPACE", secrets.token_hex(8))


@pytest.fixture(autouse=True)
def no_webhooks_yet(screens_cache_of_this_test):
    """The house's "is any webhook active?" (webhooks.selectors.any_active, issue 22)
    filed as no in this test's fresh cache namespace, as a running process holds it:
    else the first audit entry of each test would read it from the database, one query
    that a warm process never makes, above what the query-count guards count. A test
    that registers an endpoint through its service renews it."""
    from webhooks.selectors import ACTIVE_KEY, HOUSE, KIND

    versions.screen_cached(ACTIVE_KEY, HOUSE, lambda: False, kinds=(KIND,))


@pytest.fixture(autouse=True)
def channel_layer_of_this_test():
    """A channel layer of each test's own. channels_redis keeps a lock per channel in its
    layer, released by a cleanup task on the event loop that took it; an async test's loop
    that closed before that task ran left the lock held and bound to it, and a later test's
    receive failed on it ("bound to a different event loop"), one run in many."""
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Staff accounts are made in most tests; the real hasher costs ~0.1 s each."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def seat_lookup_always_fresh(settings):
    """Tests check that each change shows in the next search; seating/tests/test_lookup.py
    tests the short window in which production may answer from the index it has."""
    settings.SEAT_LOOKUP_MAX_AGE = 0


@pytest.fixture(autouse=True)
def rate_limits_off(settings):
    """Tests sign in, search, change passwords and connect screens faster than any person,
    and share one address; the rate limits are tested in floorman/tests/test_rate_limits.py
    and web/tests/test_consumers.py, with the rates set there."""
    settings.FLOORMAN_RATE_LOGIN = ""
    settings.FLOORMAN_RATE_LOOKUP = ""
    settings.FLOORMAN_RATE_FEED = ""
    settings.FLOORMAN_RATE_WEBSOCKET = ""
    settings.FLOORMAN_RATE_PASSWORD = ""
    settings.FLOORMAN_WEBSOCKETS_PER_ADDRESS = 0


@pytest.fixture
def client() -> Client:
    """A browser, as it reaches the app in production: through the TLS proxy."""
    return Client(**BEHIND_TLS_PROXY)


@pytest.fixture(autouse=True)
def announcements_sent(monkeypatch):
    """Clock announcements are recorded, not queued: no test leaves tasks in a broker.

    Tests that run a real worker take the original back with `announcements_sent.undo()`.
    """
    from clock.tasks import clock_announce

    class Sent(list):
        undo = staticmethod(monkeypatch.undo)

    sent = Sent()

    def record(args=None, kwargs=None, eta=None, **options):
        sent.append({"args": tuple(args or ()), "eta": eta})

    monkeypatch.setattr(clock_announce, "apply_async", record)
    return sent


@pytest.fixture(scope="session", autouse=True)
def _close_connections_of_async_tests(django_db_setup, django_db_blocker):
    """Async tests and consumers reach the database from asgiref's one sync thread; its
    connection would outlive the tests and block dropping the test database."""
    yield
    from asgiref.sync import SyncToAsync
    from django.db import connections

    with django_db_blocker.unblock():
        SyncToAsync.single_thread_executor.submit(connections.close_all).result(timeout=10)


def sql_flush_of_tables_with_rows(style, connection, reset_sequences=True, allow_cascade=False):
    """Django's flush between transactional tests, emptying only the tables that have rows.

    Django TRUNCATEs all of the project's 64 tables after each transactional test: ~1 s on
    PostgreSQL however few rows a test wrote. DELETE of the few tables a test wrote
    leaves the same empty tables (Django's foreign keys are deferred to the commit, so
    the order does not matter; sequences go on in both cases). It still runs through the
    project's flush (floorman/database/hooks.py: one transaction, the audit guard
    lifted), and post_migrate re-creates the content types and permissions as before."""
    if connection.vendor != "postgresql":
        return DJANGO_SQL_FLUSH(style, connection, reset_sequences, allow_cascade)
    tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            " UNION ALL ".join(
                f"SELECT %s WHERE EXISTS (SELECT 1 FROM {quote(table)})" for table in tables
            ),
            tables,
        )
        with_rows = [row[0] for row in cursor.fetchall()]
    return [f"DELETE FROM {quote(table)};" for table in with_rows]


@pytest.fixture(scope="session", autouse=True)
def quick_flush_after_transactional_tests():
    """Only the flush pytest-django runs after a `transactional_db` test, not a test's
    own call_command("flush") (floorman/tests/test_audit_chain.py tests that one)."""
    from django.core.management.commands import flush
    from django.test import TransactionTestCase

    original = TransactionTestCase._fixture_teardown

    def fixture_teardown(self):
        flush.sql_flush = sql_flush_of_tables_with_rows
        try:
            original(self)
        finally:
            flush.sql_flush = DJANGO_SQL_FLUSH

    TransactionTestCase._fixture_teardown = fixture_teardown
    yield
    TransactionTestCase._fixture_teardown = original

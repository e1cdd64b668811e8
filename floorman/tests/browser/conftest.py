"""Browser tests (issue 8): Floorman's real server, driven by Debian's Chromium.

One `manage.py serve` per test process (in-memory channel layer, embedded Celery worker),
against this run's PostgreSQL test database; started by the first browser test a process
runs (~3-6 s), not again for every module. It sees committed data only, so the tests
use `transactional_db`, which empties the tables after each test; the server keeps
running in between and simply finds the next test's rows. Each person in a story (the
director, a player's phone, the lobby TV, a dealer) is a browser context of their own.
"""

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from floorman.tests import servers
from floorman.tests.browsers import LAPTOP, chromium  # noqa: F401
from tournaments.tests.factories import STAFF_PASSWORD as PASSWORD

WAIT = 10_000  # ms: a live update arrives well within this, even on a busy CI machine


@pytest.fixture
def fast_password_hashing():
    """Overrides the project-wide fixture: the server process checks passwords with the
    real hashers, which cannot read the fast MD5 hashes the test process would write."""


@pytest.fixture(scope="session")
def server(django_db_setup, django_db_blocker) -> Iterator[servers.Process]:
    with django_db_blocker.unblock():
        process = servers.web_server().start()
    yield process
    process.close()


@pytest.fixture
def live(server, transactional_db, chromium, monkeypatch) -> Iterator[servers.Process]:  # noqa: F811
    """The running server, for a test whose data it must see (committed, not rolled back).

    Setup through the services in this process would also publish live events here, where
    no screen listens (the browsers watch the server's own channel layer), and Playwright's
    event loop makes each attempt log an error: they are dropped instead.

    Afterwards, before transactional_db empties the tables: every person's screen is
    closed and the server has finished what they asked, so that emptying the tables never
    meets one of the server's transactions half-way (the two would deadlock)."""
    monkeypatch.setattr("floorman.live._send", lambda tournament_id, message: None)
    yield server
    for context in chromium.contexts:
        context.close()
    servers.database_quiet()


def open_page(browser: Browser, server: servers.Process, size=LAPTOP, **options) -> Page:
    """A new person at their own device: a fresh context (own cookies) of the given size."""
    context: BrowserContext = browser.new_context(base_url=server.url, viewport=size, **options)
    context.set_default_timeout(WAIT)
    return context.new_page()


def log_in(page: Page, username: str, password: str = PASSWORD) -> None:
    page.goto("/login/")
    page.locator("input[name=username]").fill(username)
    page.locator("input[name=password]").fill(password)
    page.locator("main button[type=submit]").click()
    expect(page).not_to_have_url(re.compile("/login/"))


def mark_as_loaded(page: Page) -> None:
    """Leave a marker in the page's window: it is gone after any reload or navigation."""
    page.evaluate("window.__floormanMarker = 'still here'")


def assert_not_reloaded(page: Page) -> None:
    assert page.evaluate("window.__floormanMarker") == "still here", "the page was reloaded"


def press(tablet: Page, name: str) -> None:
    """Press a tablet button and wait until htmx has swapped in the page that answers it.
    Playwright is quicker than any dealer: it would click into the page being replaced."""
    tablet.evaluate(
        "window.__swapped = false;"
        "document.addEventListener('htmx:afterSettle', () => { window.__swapped = true; },"
        " {once: true})"
    )
    tablet.get_by_role("button", name=name).click()
    tablet.wait_for_function("() => window.__swapped")

"""Debian's Chromium, driven by Playwright, for the browser and fault tests (issue 8).

Playwright's own browser download is not used: CI installs the `chromium` package
(`.ci/run`). Where it is missing, the tests that need it skip and say so.
"""

import shutil
from collections.abc import Iterator

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
NEEDS_CHROMIUM = pytest.mark.skipif(
    CHROMIUM is None, reason="needs Chromium: apt-get install chromium (.ci/run does)"
)

# As root in a container, without a GPU, and without the background connections that
# this machine's closed network refuses.
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
TABLET = {"width": 800, "height": 1280}  # a 10" tablet held upright at the table
TV = {"width": 1920, "height": 1080}


@pytest.fixture(scope="module")
def chromium() -> Iterator:
    """One browser for a test module; each test opens its own contexts (people)."""
    if CHROMIUM is None:
        pytest.skip("needs Chromium: apt-get install chromium (.ci/run does)")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop in this thread, so Django would refuse the
    # tests' own ORM calls (SynchronousOnlyOperation), which never run inside that loop.
    # Allowed only while the browser is open, and never passed to the servers.
    with pytest.MonkeyPatch.context() as patch, sync_playwright() as playwright:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()

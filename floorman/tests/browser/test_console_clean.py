"""A night's screens leave nothing missing in the browser's console (issue 16, item 12):
74 "404 (Not Found)" lines in one night were the site's icon, asked for by every page.
Each screen names the icon, and /favicon.ico answers for the pages that do not (the
admin, the API's pages)."""

import pytest
from playwright.sync_api import Page, expect

from floorman.tests.browser.conftest import log_in, open_page
from floorman.tests.browser.test_dealer_tablet import event_in_play
from floorman.tests.browsers import LAPTOP, NEEDS_CHROMIUM, PHONE, TABLET, TV
from tournaments.tests import factories

pytestmark = [pytest.mark.postgres, NEEDS_CHROMIUM]


def watch(page: Page) -> list[str]:
    """Every answer of 400 or more this page gets, and every console error."""
    failures: list[str] = []
    page.on("response", lambda r: r.status >= 400 and failures.append(f"{r.status} {r.url}"))
    page.on("console", lambda m: m.type == "error" and failures.append(f"console: {m.text}"))
    return failures


def icon_of(page: Page) -> str:
    """The icon the page names, checked to be an image the server answers."""
    href = page.locator("link[rel=icon]").get_attribute("href")
    assert href, "the page names no icon"
    answer = page.request.get(href)
    assert answer.status == 200 and answer.headers["content-type"].startswith("image/"), href
    return href


def test_a_nights_screens_find_their_icon(live, chromium):
    event, entries = event_in_play()
    factories.staff("director", "td-maria")
    factories.staff("dealer", "dealer-dana")
    t = event.pk
    screens = [
        (open_page(chromium, live, TV), None, [f"/lobby/{t}/", f"/lobby/{t}/seating/"]),
        (open_page(chromium, live, PHONE), None, [f"/seat/{t}/?q=anna", f"/results/{t}/"]),
        (open_page(chromium, live, TABLET), "dealer-dana", [f"/tournaments/{t}/tables/1/tablet/"]),
        (
            open_page(chromium, live, LAPTOP),
            "td-maria",
            [f"/tournaments/{t}/desk/", f"/tournaments/{t}/seating/", f"/tournaments/{t}/clock/"],
        ),
    ]
    failures = []
    for page, user, paths in screens:
        failures += watch(page)
        if user:
            log_in(page, user)
        for path in paths:
            page.goto(path)
            expect(page.locator("body")).not_to_be_empty()
            icon_of(page)
            page.wait_for_load_state("networkidle")

    # A page without a link to the icon: the browser asks for /favicon.ico.
    admin = open_page(chromium, live, LAPTOP)
    failures += watch(admin)
    admin.goto("/admin/login/")
    answer = admin.request.get("/favicon.ico")
    assert answer.status == 200 and answer.headers["content-type"].startswith("image/")
    assert failures == []

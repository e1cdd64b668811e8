"""Screenshots of the main pages at the sizes they are used at (issue 8): the director's
pages on a laptop (and the floor's seating map on a phone), the lobby on a 1080p TV, the
player's pages on a phone, the dealer's tablet upright.

Each page must fill its width without a sideways scroll bar and show no unfilled
placeholder; the images go to the test's tmp_path. People check them by eye: to refresh
the copies kept in the repository, run with the folder to write to, e.g.

    FLOORMAN_SCREENSHOTS_DIR=docs/screenshots pytest floorman/tests/browser/test_screenshots.py

JPEG at quality 60 and only the visible screen: the whole set stays well under 1.5 MB.
"""

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from clock import services as clock_services
from clock.tests import factories as clock_factories
from floorman.tests.browser.conftest import log_in, open_page
from floorman.tests.browsers import LAPTOP, NEEDS_CHROMIUM, PHONE, TABLET, TV
from hands import services as hands
from hands.services import busts as bust_services
from seating import services as seating
from tournaments.tests import factories

pytestmark = [pytest.mark.postgres, NEEDS_CHROMIUM]

QUALITY = 60
SMALLEST = 8_000  # bytes: a blank or one-colour screen of these sizes compresses below this
# A Django or JS placeholder that was never filled in: "%(name)s", "{{ x }}", "{% y %}".
UNFILLED = re.compile(r"%\(\w+\)s|\{\{|\{%")

NAMES = [
    "Anna Berger",
    "Jörg Müller",
    "Chris Moneymaker",
    "Vanessa Selbst",
    "Erik Seidel",
    "Maria Ho",
    "Fedor Holz",
    "Liv Boeree",
    "Daniel Negreanu",
    "Kristen Foxen",
    "Bertrand Grospellier",
    "Ole Schemion",
    "Dominik Nitsche",
    "Sandra Naujoks",
    "Steve O'Dwyer",
    "Jennifer Tilly",
    "Isaac Haxton",
    "Annette Obrestad",
    "Koray Aldemir",
    "Katharina Hinterberger-Lang",
]


def event_in_play():
    """20 players drawn at three tables of nine, the clock running, one player out, a
    hand in play at table 1 and an announcement on the screens."""
    event = factories.tournament(name="Sunday Main Event", guarantee=500000)
    clock_factories.with_structure(event)
    entries = [factories.register(event, name).entry for name in NAMES]
    for number in (1, 2, 3):
        seating.table_add(actor=None, tournament_id=event.pk, number=number)
    seating.seating_draw(actor=None, tournament_id=event.pk)
    factories.registration_closed(event)
    clock_services.clock_act(actor=None, tournament_id=event.pk, action="start")
    clock_services.announcement_post(
        actor=None, tournament_id=event.pk, text="Dinner break after level 4: 45 minutes."
    )
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=entries[-1].pk)
    hands.button_draw(actor=None, tournament_id=event.pk, number=1)
    hands.hand_start(actor=None, tournament_id=event.pk, number=1)
    return event, entries


def shoot(page: Page, name: str, folders: list[Path]) -> None:
    """Check the page as a person would see it, then keep a picture of the screen."""
    page.wait_for_load_state("networkidle")
    width = page.evaluate("document.documentElement.scrollWidth")
    viewport = page.viewport_size["width"]
    assert width <= viewport, f"{name}: {width} px wide on a {viewport} px screen"
    text = page.locator("body").inner_text()
    assert not UNFILLED.search(text), f"{name}: {UNFILLED.search(text).group()} on the page"
    image = page.screenshot(type="jpeg", quality=QUALITY, animations="disabled")
    assert len(image) > SMALLEST, f"{name}: {len(image)} bytes, the screen looks empty"
    for folder in folders:
        (folder / f"{name}.jpg").write_bytes(image)


def board_fits(page: Page, panel: str) -> None:
    """Every name the seating board shows, and its count line, lies inside `panel`: a row
    cut off at the bottom of a TV is a player who cannot find a seat."""
    box = page.locator(panel).bounding_box()
    bottom = box["y"] + box["height"]
    rows = page.locator(f"{panel} .seat-column tbody tr")
    assert rows.count() > 0
    for part in [*rows.all(), page.locator(f"{panel} .seat-board-count")]:
        seen = part.bounding_box()
        assert seen["y"] + seen["height"] <= bottom + 1, (part.inner_text(), seen, box)


def test_main_pages_at_the_sizes_they_are_used_at(live, chromium, tmp_path):
    event, entries = event_in_play()
    factories.staff("director", "td-maria")
    factories.staff("dealer", "dealer-dana")
    folders = [tmp_path]
    if os.environ.get("FLOORMAN_SCREENSHOTS_DIR"):
        folders.append(Path(os.environ["FLOORMAN_SCREENSHOTS_DIR"]))
        folders[-1].mkdir(parents=True, exist_ok=True)
    jorg = entries[1]
    t = event.pk

    td = open_page(chromium, live, LAPTOP)
    log_in(td, "td-maria")
    td.goto(f"/tournaments/{t}/")
    expect(td.locator("h1")).to_contain_text("Sunday Main Event")
    shoot(td, "td-overview-laptop", folders)
    td.goto(f"/tournaments/{t}/desk/")
    td.locator("#id_name").fill("Sandra")
    expect(td.locator("#desk-matches")).to_contain_text("Sandra Naujoks")
    shoot(td, "td-desk-laptop", folders)
    td.goto(f"/tournaments/{t}/seating/")
    expect(td.locator(".seat-table")).to_have_count(3)
    shoot(td, "td-seating-map-laptop", folders)
    td.goto(f"/tournaments/{t}/clock/")
    expect(td.locator(".clock-status")).to_have_text("Running")
    # The time left reads at a glance; the "time left" controls stay on one line.
    td.wait_for_load_state("networkidle")  # console.js swaps in a fresh console once
    expect(td.locator(".clock-time")).to_be_visible()
    assert td.locator(".clock-time").bounding_box()["height"] >= 48
    minutes = td.get_by_role("spinbutton", name="minutes", exact=True)
    seconds = td.get_by_role("spinbutton", name="seconds", exact=True)
    assert minutes.bounding_box()["y"] == seconds.bounding_box()["y"]
    shoot(td, "td-clock-laptop", folders)

    floor = open_page(chromium, live, PHONE, is_mobile=True, has_touch=True)
    log_in(floor, "td-maria")
    floor.goto(f"/tournaments/{t}/seating/")
    expect(floor.locator(".seat-table")).to_have_count(3)
    # The navigations are one sideways-scrolling line each; the page's own entry shows.
    here = floor.locator('.subnav [aria-current="page"]').bounding_box()
    assert 0 <= here["x"] and here["x"] + here["width"] <= PHONE["width"]
    assert floor.locator(".topbar").bounding_box()["height"] < PHONE["height"] / 5
    shoot(floor, "td-seating-map-phone", folders)

    tv = open_page(chromium, live, TV)
    tv.goto(f"/lobby/{t}/")
    expect(tv.locator("[data-field=players]")).to_have_text("19 left of 20")
    expect(tv.locator("[data-field=announcements]")).to_contain_text("Dinner break")
    # A TV nobody clicks keeps its sound hint: it must not cover the announcements.
    hint = tv.locator("[data-field=sound_hint]").bounding_box()
    news = tv.locator("[data-field=announcements]").bounding_box()
    assert hint["y"] >= news["y"] + news["height"], (hint, news)
    shoot(tv, "lobby-clock-tv", folders)
    tv.goto(f"/lobby/{t}/seating/")
    expect(tv.locator("body")).to_contain_text("Jörg Müller")
    board_fits(tv, ".seat-screen")
    shoot(tv, "lobby-seating-board-tv", folders)
    tv.goto(f"/lobby/{t}/?layout=seating")
    expect(tv.locator(".side.seating")).to_contain_text("Anna Berger")
    board_fits(tv, ".side.seating")
    shoot(tv, "lobby-clock-with-seating-tv", folders)

    phone = open_page(chromium, live, PHONE, is_mobile=True, has_touch=True)
    phone.goto(f"/seat/{t}/?q=mueller")
    expect(phone.locator(".seat-result")).to_contain_text("Jörg Müller")
    shoot(phone, "phone-seat-lookup", folders)
    phone.goto(f"/tournaments/{t}/entries/{jorg.number}/")
    expect(phone.locator("[data-live=status]")).to_have_text("Active")
    shoot(phone, "phone-entry", folders)
    german = open_page(chromium, live, PHONE, locale="de-DE", is_mobile=True, has_touch=True)
    german.goto(f"/tournaments/{t}/entries/{jorg.number}/")
    expect(german.locator("[data-live=status]")).to_have_text("Aktiv")
    shoot(german, "phone-entry-de", folders)

    tablet = open_page(chromium, live, TABLET, has_touch=True)
    log_in(tablet, "dealer-dana")
    tablet.goto(f"/tournaments/{t}/tables/1/tablet/")
    expect(tablet.get_by_role("button", name="Hand 1 done")).to_be_visible()
    shoot(tablet, "dealer-tablet", folders)

    assert sum(f.stat().st_size for f in tmp_path.iterdir()) < 1_500_000

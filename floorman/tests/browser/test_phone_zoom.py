"""A player's pages at 200 % zoom (issue 21): text twice as large must not spill out of
its box nor push the page sideways (WCAG 1.4.4 Resize Text, 1.4.10 Reflow), and the main
menu shows every entry without a hidden sideways scroll.

Zoom is emulated as browsers do it: the same screen with fewer, larger CSS pixels. A
phone (390 x 844) at 200 % is a 195 x 422 viewport at four device pixels each; a laptop
window zoomed to 400 % is the 320 CSS px wide window WCAG 1.4.10 names.
"""

import pytest
from playwright.sync_api import Page, expect

from floorman.tests.browser.conftest import open_page
from floorman.tests.browsers import NEEDS_CHROMIUM, PHONE
from seating import services as seating
from seating.models import Seat
from tournaments.tests import factories

pytestmark = [pytest.mark.postgres, NEEDS_CHROMIUM]

PHONE_ZOOMED = {"width": PHONE["width"] // 2, "height": PHONE["height"] // 2}
LAPTOP_ZOOMED = {"width": 320, "height": 256}
PHONES = {
    "phone": dict(size=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True),
    "phone at 200 %": dict(
        size=PHONE_ZOOMED, device_scale_factor=4, is_mobile=True, has_touch=True
    ),
}
ZOOMED = {
    "phone at 200 %": PHONES["phone at 200 %"],
    "laptop at 400 %": dict(size=LAPTOP_ZOOMED, device_scale_factor=4),
}

# Every shown part of the seat box whose box reaches outside the seat box's own, with
# where it lies (hidden parts have no box and are left out).
OUTSIDE_THE_BOX = """box => {
  const outer = box.getBoundingClientRect();
  return [...box.querySelectorAll("*")]
    .filter(e => e.getClientRects().length)
    .map(e => [e, e.getBoundingClientRect()])
    .filter(([, r]) => r.left < outer.left - .5 || r.right > outer.right + .5
      || r.top < outer.top - .5 || r.bottom > outer.bottom + .5)
    .map(([e, r]) => `${e.tagName.toLowerCase()}.${e.className} "${e.textContent.trim()}"`
      + ` ${Math.round(r.left)}-${Math.round(r.right)} in ${outer.left}-${outer.right}`);
}"""

# The table and seat numbers that wrap onto a second line, digits torn apart ("102" / "4").
BROKEN_NUMBERS = """box => [...box.querySelectorAll("[data-live=where] b")]
  .filter(b => b.getBoundingClientRect().height > 1.5 * parseFloat(getComputedStyle(b).fontSize))
  .map(b => b.textContent)"""


def assert_no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    viewport = page.viewport_size["width"]
    assert width <= viewport, f"{width} px wide on a {viewport} px screen"


def seated_at_the_widest_seat():
    """A player at seat 10 of table 1024: four digits, the most a table number has, and
    a two-digit seat: the widest seat box there is. Every name is long, whoever sits there."""
    event = factories.tournament(name="Sunday Main Event", table_size=10)
    for n in range(1, 11):
        factories.register(event, f"Katharina Hinterberger-Lang {n}")
    seating.table_add(actor=None, tournament_id=event.pk, number=1024, seats=10)
    seating.seating_draw(actor=None, tournament_id=event.pk)
    return event, Seat.objects.select_related("entry").get(table__number=1024, number=10).entry


@pytest.mark.parametrize("zoom", ZOOMED)
def test_the_seat_stays_inside_its_box_when_zoomed(live, chromium, zoom):
    event, entry = seated_at_the_widest_seat()
    phone = open_page(chromium, live, **ZOOMED[zoom])

    phone.goto(f"/tournaments/{event.pk}/entries/{entry.number}/")
    box = phone.locator(".seat-box")
    expect(box.locator("[data-live=where]")).to_have_text("Table 1024 Seat 10")

    # WCAG 1.4.4 / 1.4.10: the table and the seat read whole, inside their box...
    assert box.evaluate(OUTSIDE_THE_BOX) == []
    assert box.evaluate(BROKEN_NUMBERS) == []
    # ... and nothing on the page needs a sideways scroll.
    assert_no_sideways_scroll(phone)


@pytest.mark.parametrize("screen", PHONES)
def test_a_player_sees_every_entry_of_the_main_menu(live, chromium, screen):
    event = factories.tournament(name="Sunday Main Event")
    phone = open_page(chromium, live, **PHONES[screen])

    phone.goto(f"/tournaments/{event.pk}/")

    menu = phone.get_by_role("navigation", name="Main")
    expect(menu.get_by_role("link")).to_have_text(["Tournaments", "Rules"])
    # WCAG 1.4.10: every entry shows whole; none hides behind a sideways scroll.
    for link in menu.get_by_role("link").all():
        expect(link).to_be_in_viewport(ratio=1)
    assert menu.evaluate("nav => nav.scrollWidth <= nav.clientWidth"), "the menu scrolls"

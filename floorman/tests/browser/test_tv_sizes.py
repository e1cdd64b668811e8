"""The seating board beside the clock on TVs of other shapes than 16:9 1080p."""

import pytest
from playwright.sync_api import expect

from floorman.tests.browser.conftest import open_page
from floorman.tests.browser.test_screenshots import board_fits, event_in_play
from floorman.tests.browsers import NEEDS_CHROMIUM, TV

pytestmark = [pytest.mark.postgres, NEEDS_CHROMIUM]

FOUR_BY_THREE = {"width": 1024, "height": 768}
NAMES = ".side.seating td.n"


def names_cut(page) -> int:
    return page.evaluate(
        f"[...document.querySelectorAll('{NAMES}')]"
        ".filter(n => n.scrollWidth > n.clientWidth + 1).length"
    )


@pytest.mark.parametrize(("size", "columns"), [(TV, 2), (FOUR_BY_THREE, 1)])
def test_names_beside_the_clock_stay_readable(live, chromium, size, columns):
    """A 4:3 screen is too narrow for two columns of names beside the clock: the board
    shows one column (and more pages) rather than a column of cut-off names."""
    event, _entries = event_in_play()
    tv = open_page(chromium, live, size)

    tv.goto(f"/lobby/{event.pk}/?layout=seating")

    expect(tv.locator(".side.seating .seat-column")).to_have_count(columns)
    assert names_cut(tv) * 4 <= tv.locator(NAMES).count()
    board_fits(tv, ".side.seating")

"""The keyboard's focus shows clearly (issue 21; WCAG 2.4.7 Focus Visible, 1.4.11 Non-text
Contrast): whatever has the focus is ringed, and a part of the ring stands at 3:1 or more
against what surrounds it, on the page's background and on a card alike. The amber ring
alone reached 1.86:1 and 2.01:1 there; a dark inner ring carries the contrast."""

import re

import pytest
from playwright.sync_api import Page, expect

from floorman.tests.browser.conftest import log_in, open_page
from floorman.tests.browsers import NEEDS_CHROMIUM
from tournaments.tests import factories

pytestmark = [pytest.mark.postgres, NEEDS_CHROMIUM]

NEEDED = 3.0


def rgb(css: str) -> tuple[int, int, int]:
    red, green, blue = (int(part) for part in re.findall(r"\d+", css)[:3])
    return red, green, blue


def luminance(color: tuple[int, int, int]) -> float:
    """WCAG's relative luminance of an sRGB colour."""

    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(channel) for channel in color)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(one, other) -> float:
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_contrast_is_wcags_ratio():
    assert contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21)
    assert contrast((255, 255, 255), (255, 255, 255)) == pytest.approx(1)
    # The amber ring on the page's background: what the audit measured.
    assert contrast((0xF2, 0xA9, 0x00), (0xF5, 0xF6, 0xF8)) == pytest.approx(1.86, abs=0.01)


def ring(page: Page) -> dict:
    """The focused element's ring colours and the background it stands on."""
    return page.evaluate(
        """() => {
            const el = document.activeElement, style = getComputedStyle(el);
            let around = el.parentElement, background = 'rgba(0, 0, 0, 0)';
            while (around && /rgba\\(0, 0, 0, 0\\)|transparent/.test(background)) {
                background = getComputedStyle(around).backgroundColor;
                around = around.parentElement;
            }
            return {outline: style.outlineColor, width: parseFloat(style.outlineWidth),
                    shadow: style.boxShadow, background};
        }"""
    )


def strongest_part(seen: dict) -> float:
    colours = [rgb(seen["outline"])] + [
        rgb(c) for c in re.findall(r"rgba?\([^)]*\)", seen["shadow"])
    ]
    return max(contrast(colour, rgb(seen["background"])) for colour in colours)


def test_the_focus_ring_stands_out_on_the_page_and_on_a_card(live, chromium):
    event = factories.tournament(name="Sunday Main Event")
    factories.staff("director", "td-maria")
    td = open_page(chromium, live)
    log_in(td, "td-maria")
    td.goto(f"/tournaments/{event.pk}/")

    td.keyboard.press("Tab")  # the skip link, on the page
    expect(td.get_by_role("link", name="Skip to content")).to_be_focused()
    on_page = ring(td)
    assert on_page["width"] >= 2
    assert strongest_part(on_page) >= NEEDED, on_page

    td.goto(f"/tournaments/{event.pk}/desk/")
    td.locator("#id_name").focus()  # the desk's name field, on its card
    td.keyboard.press("Tab")
    on_card = ring(td)
    assert on_card["background"] == "rgb(255, 255, 255)", on_card
    assert strongest_part(on_card) >= NEEDED, on_card

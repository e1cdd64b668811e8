"""The clock console for a director who works by keyboard or listens to a screen reader
(issue 21).

- WCAG 2.4.1: the first Tab stop skips the menus to the page's content.
- WCAG 2.4.3: after Start or Pause the console loads again with the focus on the button
  that was used, not at the top of the page.
- WCAG 4.1.3: the ticking time is a timer, not a live region; the one live region speaks
  when the clock's state changes (paused, a new level), never while it runs.
- WCAG 2.1.4: a single key acts only while no control has the focus, and the keys can be
  turned off (and on again) in their list.
"""

import pytest
from playwright.sync_api import Page, expect

from clock.tests import factories as clock_factories
from floorman.tests.browser.conftest import log_in, open_page
from floorman.tests.browsers import NEEDS_CHROMIUM
from tournaments.tests import factories

pytestmark = [pytest.mark.postgres, NEEDS_CHROMIUM]

# Every element whose changes a screen reader reads out by itself.
LIVE = "[aria-live]:not([aria-live=off]), [role=status], [role=alert], [role=log]"
MAX_TABS = 60  # more stops than the console's controls before its Start button


@pytest.fixture
def event(live):
    factories.staff("director", "td-maria")
    event = factories.tournament(name="Saturday Deepstack", status="running")
    clock_factories.with_structure(event)
    return event


def console(chromium, live, event) -> Page:
    td = open_page(chromium, live)
    log_in(td, "td-maria")
    td.goto(f"/tournaments/{event.pk}/clock/")
    expect(td.locator(".clock-level")).to_contain_text("Level 1: 100 / 200")
    td.wait_for_load_state("networkidle")  # console.js has fetched its fresh console
    return td


def tab_to(page: Page, element_id: str) -> None:
    """Tab through the page from where the focus is until the element has it."""
    for _ in range(MAX_TABS):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == element_id:
            return
    raise AssertionError(f"#{element_id} never had the focus in {MAX_TABS} tab stops")


def count_submits(page: Page) -> None:
    """Count the console's posts instead of sending them (a key that acts presses a
    button, which submits its form at once)."""
    page.evaluate(
        "window.__submits = 0;"
        "document.addEventListener('submit', (event) => {"
        " window.__submits += 1; event.preventDefault(); }, true)"
    )


def submits(page: Page) -> int:
    return page.evaluate("window.__submits")


def test_keyboard_alone_skips_to_the_console_starts_and_pauses_the_clock(live, chromium, event):
    td = console(chromium, live, event)

    td.keyboard.press("Tab")
    skip = td.get_by_role("link", name="Skip to content")
    expect(skip).to_be_focused()
    td.keyboard.press("Enter")
    expect(td.locator("main")).to_be_focused()

    tab_to(td, "toggle")
    expect(td.locator("#toggle")).to_have_text("Start the clock")
    with td.expect_navigation():
        td.keyboard.press("Enter")
    expect(td.locator(".clock-status")).to_have_text("Running")
    expect(td.get_by_role("button", name="Pause")).to_be_focused()
    expect(td.locator("#clock-announce")).to_have_text("Running. Level 1: 100 / 200")

    with td.expect_navigation():
        td.keyboard.press("Space")  # the focused Pause button presses itself
    expect(td.locator(".clock-status")).to_have_text("Paused")
    expect(td.get_by_role("button", name="Resume")).to_be_focused()
    expect(td.locator("#clock-announce")).to_have_text("Paused. Level 1: 100 / 200")


def test_the_live_region_stays_silent_while_the_clock_runs(live, chromium, event):
    td = console(chromium, live, event)
    with td.expect_navigation():
        td.get_by_role("button", name="Start the clock").click()
    expect(td.locator(".clock-status")).to_have_text("Running")
    td.wait_for_load_state("networkidle")

    timer = td.get_by_role("timer", name="Time left in the level")
    assert timer.evaluate(f"(el) => el.closest({LIVE!r})") is None, (
        "the time is inside a live region"
    )
    td.evaluate(
        f"window.__spoken = 0;"
        "const heard = new MutationObserver("
        "(changes) => { window.__spoken += changes.length; });"
        f"document.querySelectorAll({LIVE!r}).forEach((region) => heard.observe(region,"
        f" {{childList: true, characterData: true, subtree: true, attributes: true}}));"
    )
    for _ in range(2):  # two ticks of the time shown
        shown = timer.inner_text()
        td.wait_for_function(
            "(shown) => document.querySelector('.clock-time').innerText !== shown", arg=shown
        )
    assert td.evaluate("window.__spoken") == 0

    # Another director pauses: this console follows, and says so once.
    other = console(chromium, live, event)
    with other.expect_navigation():
        other.get_by_role("button", name="Pause").click()
    expect(td.locator(".clock-status")).to_have_text("Paused")
    expect(td.locator("#clock-announce")).to_have_text("Paused. Level 1: 100 / 200")
    assert td.evaluate("window.__spoken") >= 1


def test_single_keys_wait_while_a_control_has_the_focus_and_can_be_turned_off(
    live, chromium, event
):
    td = console(chromium, live, event)
    count_submits(td)

    td.locator("nav.subnav").get_by_role("link", name="Overview").focus()
    for key in ("-", "Space", "n", "+"):
        td.keyboard.press(key)
    assert submits(td) == 0, "a key acted on the clock while a link had the focus"

    td.keyboard.press("Escape")  # off the link: the keys act again
    td.keyboard.press("-")
    assert submits(td) == 1

    # Turned off in their list, the keys stay off on this computer.
    td.keyboard.press("?")
    help_ = td.get_by_role("dialog", name="Keyboard shortcuts")
    help_.get_by_label("Use these keys on this computer").uncheck()
    help_.get_by_role("button", name="Close").click()
    td.reload()
    expect(td.locator(".clock-level")).to_contain_text("Level 1")
    count_submits(td)
    td.keyboard.press("-")
    td.keyboard.press("?")
    assert submits(td) == 0
    expect(help_).to_be_hidden()

    td.get_by_role("button", name="Keyboard shortcuts").click()
    expect(help_.get_by_label("Use these keys on this computer")).not_to_be_checked()
    help_.get_by_label("Use these keys on this computer").check()
    help_.get_by_role("button", name="Close").click()
    td.keyboard.press("Escape")  # off the button that opened the list
    td.keyboard.press("-")
    assert submits(td) == 1

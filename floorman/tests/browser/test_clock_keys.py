"""The clock console's keyboard, as a director drives it from a desktop (issue 16, item 11).

Space starts and pauses, + and − add or take a minute, N and P go to the next and the
previous level (asking first, as the buttons do), A opens the announcement, and ? shows
every key in a dialog that Escape closes, giving the focus back. Keys typed into a
field are only typed.
"""

import pytest
from playwright.sync_api import Page, expect

from clock.tests import factories as clock_factories
from floorman.tests.browser.conftest import log_in, open_page
from floorman.tests.browsers import NEEDS_CHROMIUM
from tournaments.templatetags.floorman_format import mmss
from tournaments.tests import factories

pytestmark = [pytest.mark.postgres, NEEDS_CHROMIUM]


def seconds_shown(page: Page) -> int:
    minutes, seconds = page.locator(".clock-time").inner_text().strip().split(":")
    return int(minutes) * 60 + int(seconds)


def press(page: Page, key: str) -> None:
    """A key that acts: the console posts it as its button would and loads again. Waiting
    for the load means the new console's script runs before the next key."""
    with page.expect_navigation():
        page.keyboard.press(key)


@pytest.fixture
def console(live, chromium) -> Page:
    factories.staff("director", "td-maria")
    event = factories.tournament(name="Saturday Deepstack", status="running")
    clock_factories.with_structure(event)
    td = open_page(chromium, live)
    log_in(td, "td-maria")
    td.goto(f"/tournaments/{event.pk}/clock/")
    expect(td.locator(".clock-level")).to_contain_text("Level 1: 100 / 200")
    return td


def test_question_mark_lists_the_keys_and_escape_gives_the_focus_back(console):
    td = console
    help_ = td.get_by_role("dialog", name="Keyboard shortcuts")
    expect(help_).to_be_hidden()

    td.keyboard.press("?")
    expect(help_).to_be_visible()
    for text in (
        "Start, pause or resume the clock",
        "Add a minute to the level",
        "Take a minute off the level",
        "Next level (asks first)",
        "Previous level (asks first)",
        "Write an announcement for the screens",
    ):
        expect(help_).to_contain_text(text)
    td.keyboard.press("Escape")
    expect(help_).to_be_hidden()

    # Opened from its button, it gives the focus back to that button.
    opener = td.get_by_role("button", name="Keyboard shortcuts")
    opener.click()
    expect(help_).to_be_visible()
    expect(help_.get_by_role("button", name="Close")).to_be_focused()
    td.keyboard.press("Escape")
    expect(help_).to_be_hidden()
    expect(opener).to_be_focused()
    td.keyboard.press("Escape")  # off the button (WCAG 2.1.4): the keys act again

    # While the help is open the console's keys wait: N does not change the level.
    td.keyboard.press("?")
    td.keyboard.press("n")
    expect(help_).to_be_visible()
    help_.get_by_role("button", name="Close").click()
    expect(help_).to_be_hidden()
    expect(td.locator(".clock-level")).to_contain_text("Level 1")


def test_keys_drive_the_clock_as_its_buttons_do(console):
    td = console
    questions = []
    td.on("dialog", lambda dialog: (questions.append(dialog.message), dialog.accept()))

    press(td, " ")
    expect(td.locator(".clock-status")).to_have_text("Running")
    press(td, " ")
    expect(td.locator(".clock-status")).to_have_text("Paused")

    # Paused, the time shown holds still: each minute key moves it by exactly a minute.
    before = seconds_shown(td)
    for key, minutes in (("+", 1), ("-", 0), ("-", -1)):
        press(td, key)
        expect(td.locator(".clock-time")).to_have_text(mmss(before + 60 * minutes))

    # N: the next level, after the same question its button asks.
    press(td, "n")
    expect(td.locator(".clock-level")).to_contain_text("Level 2: 200 / 400")
    assert questions == ["Start the next level now?"]
    # P: back to the previous one.
    press(td, "p")
    expect(td.locator(".clock-level")).to_contain_text("Level 1: 100 / 200")
    assert questions[-1] == "Go back to the previous level? Its full time starts again."


def test_a_writes_an_announcement_and_keys_typed_into_it_are_only_typed(console):
    td = console
    questions = []
    td.on("dialog", lambda dialog: (questions.append(dialog.message), dialog.accept()))

    td.keyboard.press("a")
    field = td.get_by_label("Announcement")
    expect(field).to_be_focused()
    # Every key below is a shortcut outside a field: here they are only letters.
    td.keyboard.type("Dinner break: play resumes at 9 p.m. sharp? Yes + no - ")
    expect(field).to_have_value("Dinner break: play resumes at 9 p.m. sharp? Yes + no - ")
    with td.expect_navigation():
        field.press("Enter")

    expect(td.locator(".announcements")).to_contain_text("Dinner break: play resumes at 9 p.m.")
    expect(td.get_by_role("dialog", name="Keyboard shortcuts")).to_be_hidden()
    expect(td.locator(".clock-status")).to_have_text("Not started")
    expect(td.locator(".clock-level")).to_contain_text("Level 1: 100 / 200")
    assert questions == []

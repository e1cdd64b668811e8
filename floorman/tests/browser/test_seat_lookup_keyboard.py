"""The seat lookup with a keyboard only (issue 21): after each search the answer takes
the focus, so that a player on a screen reader or a keyboard hears and reaches it at once
(WCAG 2.4.3 Focus Order, 4.1.3 Status Messages), and the answer passes axe-core.
"""

import pytest
from playwright.sync_api import Page, expect

from floorman.tests.browser.axe import violations
from floorman.tests.browser.conftest import open_page
from floorman.tests.browsers import NEEDS_CHROMIUM, PHONE
from seating import services as seating
from seating.models import Seat
from tournaments.tests import factories

pytestmark = [pytest.mark.postgres, NEEDS_CHROMIUM]


def drawn(names: list[str]):
    """A tournament with `names` registered and drawn at two tables."""
    event = factories.tournament(name="Friday Deepstack")
    entries = [factories.register(event, name).entry for name in names]
    for number in (1, 2):
        seating.table_add(actor=None, tournament_id=event.pk, number=number)
    seating.seating_draw(actor=None, tournament_id=event.pk)
    return event, entries


def search_by_keyboard(phone: Page, text: str) -> None:
    """Type into the focused search field, replacing what it held, and press Enter."""
    field = phone.get_by_role("searchbox", name="Your name or entry number")
    expect(field).to_be_focused()
    phone.keyboard.press("ControlOrMeta+a")
    phone.keyboard.type(text)
    with phone.expect_navigation():  # a GET form: the answer is a new page
        phone.keyboard.press("Enter")


def test_each_search_moves_the_focus_to_its_answer(live, chromium):
    event, (joerg, _anna) = drawn(["Jörg Müller", "Anna Berger"])
    seat = Seat.objects.select_related("table").get(entry=joerg)
    phone = open_page(chromium, live, PHONE, is_mobile=True, has_touch=True)

    phone.goto(f"/seat/{event.pk}/")
    search_by_keyboard(phone, "muel")  # the field has the focus when the page opens

    # WCAG 2.4.3 / 4.1.3: the focus is in the answer, which shows the table and the seat.
    found = phone.locator(".seat-found")
    expect(found).to_be_focused()
    expect(found).to_contain_text("Jörg Müller")
    expect(found.locator(".seat-result-where")).to_have_text(
        f"Table {seat.table.number} Seat {seat.number}"
    )
    assert violations(phone) == []

    # Back to the field the way a keyboard goes: past the Find button.
    phone.keyboard.press("Shift+Tab")
    expect(phone.get_by_role("button", name="Find")).to_be_focused()
    phone.keyboard.press("Shift+Tab")
    search_by_keyboard(phone, "Nobody")

    nobody = phone.locator(".seat-none")
    expect(nobody).to_be_focused()
    expect(nobody).to_contain_text("Nobody found for “Nobody”")
    assert violations(phone) == []


def test_a_search_the_page_cannot_answer_gets_the_focus_for_its_message(live, chromium):
    event, _ = drawn(["Jörg Müller"])
    phone = open_page(chromium, live, PHONE, is_mobile=True, has_touch=True)

    phone.goto(f"/seat/{event.pk}/")
    search_by_keyboard(phone, "j")  # one letter: too little to search by

    # WCAG 3.3.1 / 4.1.3: the message that says how to search has the focus.
    hint = phone.get_by_role("status")
    expect(hint).to_be_focused()
    expect(hint).to_have_text("Type at least two letters of the name, or the entry number.")

    phone.keyboard.press("Shift+Tab")
    phone.keyboard.press("Shift+Tab")
    search_by_keyboard(phone, "!!")  # no letter, no digit: an error

    error = phone.get_by_role("alert")
    expect(error).to_be_focused()
    expect(error).to_have_text("Type a name or an entry number.")

"""The table map's "Seat late entries" button, as the director sees it (issue 16, item 11).

TDA 8-A: once the field is drawn, a late entry takes a seat as it buys in. Only when no
seat is free does it wait, and only then has the director anybody to seat: the button
shows while somebody waits, and appears on the open map the moment somebody starts
waiting at the desk.
"""

import pytest
from playwright.sync_api import expect

from floorman.tests.browser.conftest import (
    WAIT,
    assert_not_reloaded,
    log_in,
    mark_as_loaded,
    open_page,
)
from floorman.tests.browsers import NEEDS_CHROMIUM
from seating import services as seating
from seating.tests.factories import add_tables, field
from tournaments.tests import factories

pytestmark = [pytest.mark.postgres, NEEDS_CHROMIUM]


def test_seat_late_entries_shows_only_while_somebody_waits_and_appears_live(live, chromium):
    factories.staff("director", "td-maria")
    factories.staff("cashier", "cash-tom")
    event = factories.tournament(name="Saturday Bounty")
    add_tables(event, 1, seats=2)
    field(event, 2)
    seating.seating_draw(actor=None, tournament_id=event.pk)

    td = open_page(chromium, live)
    log_in(td, "td-maria")
    td.goto(f"/tournaments/{event.pk}/seating/")
    actions = td.locator(".seating-actions")
    expect(actions.get_by_role("link", name="Move a player")).to_be_visible()
    # Everybody sits: there is nobody to seat.
    expect(actions.get_by_role("link", name="Seat late entries")).to_have_count(0)
    mark_as_loaded(td)

    # The only table is full, so the next buy-in waits for a seat (TDA 8-A).
    desk = open_page(chromium, live)
    log_in(desk, "cash-tom")
    desk.goto(f"/tournaments/{event.pk}/desk/")
    desk.locator("#id_name").fill("Late Larry")
    desk.locator("#id_name").press("Enter")
    expect(desk.locator(".receipt h2")).to_have_text("Entry #3")

    button = actions.get_by_role("link", name="Seat late entries")
    expect(button).to_be_visible(timeout=WAIT)
    assert_not_reloaded(td)

    # A second table, and the waiting player is seated: the button goes again.
    td.get_by_label("Table number", exact=True).fill("2")
    td.get_by_role("button", name="Add", exact=True).click()
    expect(td.locator(".messages")).to_contain_text("Table 2 added.")
    td.locator(".seating-actions").get_by_role("link", name="Seat late entries").click()
    td.locator("main").get_by_role("button", name="Seat them").click()
    expect(td.locator(".messages")).to_contain_text("1 player seated at random.")
    td.goto(f"/tournaments/{event.pk}/seating/")
    expect(actions.get_by_role("link", name="Move a player")).to_be_visible()
    expect(actions.get_by_role("link", name="Seat late entries")).to_have_count(0)

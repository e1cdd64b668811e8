"""The event's status follows play (issue 16, item 2), as a director runs a night.

The director never presses "Start tournament": starting the clock starts the event, and
the last bust (or the deal the players left agree to) ends it. The tournaments list
then counts nobody left of the field. The deal page, opened too early, offers the start
it waits for instead of a dead end.
"""

import re

import pytest
from playwright.sync_api import Page, expect

from clock.tests import factories as clock_factories
from floorman.tests.browser.conftest import log_in, open_page
from floorman.tests.browsers import NEEDS_CHROMIUM
from prizes import services as prize_services
from tournaments.tests import factories

pytestmark = [pytest.mark.postgres, NEEDS_CHROMIUM]

PLAYERS = ["Anna Berger", "Jörg Müller", "Chris Moneymaker"]


def registering_event():
    """Three players sold at the desk, the house structure and a typed payout table;
    the event is still registering. Set up with the services: the desk is
    test_event_night.py's story."""
    event = factories.tournament(name="Saturday Night", table_size=6)
    clock_factories.with_structure(event)
    entries = [factories.register(event, name).entry for name in PLAYERS]
    prize_services.payouts_update(actor=None, tournament_id=event.pk, lines=[20000, 10000])
    return event, entries


def badge(td: Page, event):
    td.goto(f"/tournaments/{event.pk}/")
    return td.locator("h1 .badge")


def listed_players(td: Page, event):
    td.goto("/tournaments/")
    row = td.locator("tr", has=td.get_by_role("link", name=event.name, exact=True))
    return row.locator("[data-field=players]")


def bust(td: Page, number: int) -> None:
    """The floor's Bust button in the entries list (htmx swaps the row)."""
    row = td.locator(f"#entry-{number}")
    row.get_by_role("button", name="Bust").click()
    expect(td.locator(f"#entry-{number} .badge")).to_have_text("Busted")


def test_the_clock_starts_the_tournament_and_the_last_bust_finishes_it(live, chromium):
    event, entries = registering_event()
    factories.staff("director", "td-maria")
    td = open_page(chromium, live)
    log_in(td, "td-maria")
    expect(badge(td, event)).to_have_text("Registering")

    # Shuffle up and deal: the director starts the clock, and nothing else.
    td.goto(f"/tournaments/{event.pk}/clock/")
    td.get_by_role("button", name="Start the clock").click()
    expect(td.locator(".clock-status")).to_have_text("Running")
    expect(badge(td, event)).to_have_text("Running")
    expect(listed_players(td, event)).to_have_text("3 / 3")

    # Chris, then Jörg: the last bust leaves Anna alone, and no more can come.
    td.goto(f"/tournaments/{event.pk}/entries/")
    bust(td, entries[2].number)
    expect(badge(td, event)).to_have_text("Running")
    td.goto(f"/tournaments/{event.pk}/entries/")
    bust(td, entries[1].number)

    expect(badge(td, event)).to_have_text("Finished")
    expect(listed_players(td, event)).to_have_text("0 / 3")
    td.goto(f"/tournaments/{event.pk}/results/")
    expect(td.locator("main")).to_contain_text("Anna Berger")


def test_the_deal_page_offers_the_start_and_the_deal_ends_the_tournament(live, chromium):
    event, _entries = registering_event()
    factories.staff("director", "td-maria")
    td = open_page(chromium, live)
    log_in(td, "td-maria")

    # Opened before the event runs, the page says why and offers the way on.
    td.goto(f"/tournaments/{event.pk}/deal/")
    expect(td.locator("main")).to_contain_text("A deal is made while the tournament is running")
    td.get_by_role("button", name="Start tournament").click()
    expect(td).to_have_url(re.compile(rf"/tournaments/{event.pk}/deal/$"))
    expect(td.locator(".messages")).to_contain_text("Status: Running.")

    # The three left agree: their stacks are counted, the figures shown, the deal made.
    td.get_by_role("button", name="Calculate").click()
    td.get_by_role("button", name="Record the deal").click()
    expect(td.locator(".messages")).to_contain_text("Deal recorded: the tournament is over")

    expect(badge(td, event)).to_have_text("Finished")
    expect(listed_players(td, event)).to_have_text("0 / 3")

"""Next Saturday's event from last Saturday's, as a director's desktop program makes it
(issue 16, item 11): a copy of the event, or an event template saved once and started
again each week.

The copy takes the setup (settings, its own blind structure, payout and seating settings,
the tables) and nobody of the field: no entries, no seats taken, no money.
"""

import re

import pytest
from django.db import transaction
from playwright.sync_api import Page, expect

from clock.tests.factories import with_structure
from floorman.tests.browser.conftest import log_in, open_page
from floorman.tests.browsers import NEEDS_CHROMIUM
from prizes import services as prizes
from seating import services as seating
from seating.tests.factories import add_tables, field
from tournaments.models import Tournament
from tournaments.tests import factories

pytestmark = [pytest.mark.postgres, NEEDS_CHROMIUM]


def last_saturday() -> Tournament:
    """Played and over: a structure, four places paid, three tables of eight (seat 1
    accessible), a field seated; its tables closed as the event finished."""
    event = factories.tournament(name="Saturday Deepstack", buy_in=5000, fee=500, table_size=8)
    with_structure(event)
    prizes.payouts_update(
        actor=None, tournament_id=event.pk, settings={"places_mode": "fixed", "places_fixed": 4}
    )
    add_tables(event, 3, seats=8, accessible="1")
    field(event, 12)
    seating.seating_draw(actor=None, tournament_id=event.pk)
    Tournament.objects.filter(pk=event.pk).update(status="finished")
    with transaction.atomic():
        seating.tables_close(tournament=event)
    return event


def event_id(page: Page) -> int:
    return int(re.search(r"/tournaments/(\d+)/$", page.url).group(1))


def subnav(page: Page, name: str) -> None:
    page.locator("nav.subnav").get_by_role("link", name=name, exact=True).click()


def test_director_copies_last_saturday_and_the_copy_has_its_setup_and_nobody(live, chromium):
    factories.staff("director", "td-maria")
    source = last_saturday()

    td = open_page(chromium, live)
    log_in(td, "td-maria")
    td.goto(f"/tournaments/{source.pk}/")
    td.get_by_role("link", name="Copy the event…").click()
    expect(td.get_by_label("Name", exact=True)).to_have_value("Saturday Deepstack")
    expect(td.get_by_label("Take the tables too")).to_be_checked()
    td.get_by_label("Name", exact=True).fill("Saturday Deepstack, 12 December")
    td.get_by_label("Start time").fill("2026-12-12T19:30")
    td.get_by_role("button", name="Copy the event").click()

    expect(td.locator(".messages")).to_contain_text(
        "“Saturday Deepstack, 12 December” created as a copy"
    )
    expect(td.locator("h1")).to_contain_text("Saturday Deepstack, 12 December")
    expect(td.locator("h1 .badge")).to_have_text("Planned")
    copy = event_id(td)
    assert copy != source.pk
    expect(td.locator("main")).to_contain_text("€50.00 + €5.00")

    # The field stayed behind: nobody registered, nobody seated.
    subnav(td, "Entries")
    expect(td.locator("main")).not_to_contain_text("Player 0001")
    subnav(td, "Seating")
    for number in (1, 2, 3):
        table = td.locator(f"#table-{number}")
        expect(table.locator(".player-count")).to_have_text("0 / 8")
        expect(table.get_by_label("Accessible seat (TDA 9)")).to_have_count(1)
    expect(td.locator("main")).not_to_contain_text("Player 0001")

    # The blind structure and the payouts came along.
    subnav(td, "Clock")
    expect(td.locator(".clock-level")).to_contain_text("Level 1: 100 / 200")
    expect(td.locator(".clock-status")).to_have_text("Not started")
    subnav(td, "Payouts")
    expect(td.get_by_label("Places paid, fixed number")).to_have_value("4")


def test_director_saves_a_template_and_starts_next_week_from_it(live, chromium):
    factories.staff("director", "td-maria")
    source = last_saturday()
    tonight = factories.tournament(name="Friday Turbo")
    add_tables(tonight, 1)  # table 1 is in play tonight

    td = open_page(chromium, live)
    log_in(td, "td-maria")
    td.goto(f"/tournaments/{source.pk}/copy/")
    td.get_by_label("Template name").fill("Saturday night")
    td.get_by_role("button", name="Save as a template").click()
    expect(td.locator(".messages")).to_contain_text("Event saved as the template “Saturday night”.")
    expect(td.locator("h1")).to_have_text("Event templates")

    # From the tournaments' list, as on any Saturday.
    td.goto("/tournaments/")
    td.get_by_role("link", name="Event templates").click()
    row = td.locator("tr", has_text="Saturday night")
    expect(row).to_contain_text("from Saturday Deepstack")
    row.get_by_role("link", name="Start an event from Saturday night").click()
    td.get_by_label("Name", exact=True).fill("Saturday Deepstack, 19 December")
    td.get_by_label("Start time").fill("2026-12-19T19:30")
    td.get_by_role("button", name="Create tournament").click()

    # Table 1 is tonight's: the director is told, and leaves the tables out.
    expect(td.locator(".errors")).to_contain_text("Tables 1 are in play in another tournament")
    td.get_by_label("Take the tables too").uncheck()
    td.get_by_role("button", name="Create tournament").click()
    expect(td.locator(".messages")).to_contain_text(
        "“Saturday Deepstack, 19 December” created from the template"
    )
    expect(td.locator("h1 .badge")).to_have_text("Planned")
    subnav(td, "Clock")
    expect(td.locator(".clock-level")).to_contain_text("Level 1: 100 / 200")
    subnav(td, "Seating")
    expect(td.locator("main")).to_contain_text("No tables yet")

    # Deleted after asking; the event started from it stays.
    td.goto("/tournaments/templates/")
    td.locator("tr", has_text="Saturday night").get_by_role("link", name="Delete…").click()
    td.get_by_role("button", name="Delete the template").click()
    expect(td.locator(".messages")).to_contain_text("Event template “Saturday night” deleted.")
    expect(td.locator("main")).to_contain_text("No event templates yet.")
    assert Tournament.objects.filter(name="Saturday Deepstack, 19 December").exists()

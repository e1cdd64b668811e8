"""The end of a flight's day at the floor (issue 17, item 3), in German: the director
stops Day 1A, the floor counts each survivor's chips into a bag on the bagging page (one
on the table's tablet), the difference against the chips in play shows, the director
confirms it with a note, and the bag-and-tag sheet has a tag for every bag."""

import pytest
from playwright.sync_api import Page, expect

from floorman.tests.browser.conftest import log_in, open_page
from floorman.tests.browsers import NEEDS_CHROMIUM
from tournaments.tests import factories
from tournaments.tests.flights import main_event, running_flight

pytestmark = [pytest.mark.postgres, NEEDS_CHROMIUM]


def bag_on_the_page(td: Page, name: str, chips: int) -> None:
    row = td.locator("[data-bags] tr", has_text=name)
    row.get_by_role("spinbutton").fill(str(chips))
    row.get_by_role("button", name="Beutel", exact=True).click()
    expect(td.locator(".messages")).to_contain_text(f"{name},")


def test_director_stops_day_1a_and_the_bags_are_counted_checked_and_tagged(live, chromium):
    factories.staff("director", "td-maria")
    factories.staff("dealer", "dealer-jan")
    flight, seats = running_flight(main_event())  # six players, two tables of three

    td = open_page(chromium, live, locale="de-DE")
    log_in(td, "td-maria")
    td.goto(f"/tournaments/{flight.pk}/")
    td.locator("nav.subnav").get_by_role("link", name="Tagesende").click()
    td.get_by_role("button", name="Spiel beenden").click()
    expect(td.locator(".messages")).to_contain_text("Das Spiel ist beendet")
    expect(td.locator("[data-expected]")).to_have_text("120.000")
    expect(td.locator("[data-missing]")).to_have_text("6")

    # The floor counts five bags on the page, one of them 500 short.
    for (table, seat), entry in seats.items():
        if (table, seat) == (2, 3):
            continue
        bag_on_the_page(td, entry.player.name, 19500 if (table, seat) == (1, 2) else 20000)

    # Table 2's dealer bags seat 3 on the tablet.
    dealer = open_page(chromium, live, locale="de-DE")
    log_in(dealer, "dealer-jan")
    dealer.goto(f"/tournaments/{flight.pk}/tables/2/tablet/")
    step = dealer.locator("[data-bag-step]")
    expect(step).to_contain_text("Chips eintüten")
    form = step.locator("form", has_text=seats[(2, 3)].player.name)
    form.get_by_role("spinbutton").fill("20000")
    form.get_by_role("button", name="Beutel", exact=True).click()
    # The tablet swaps its page in with htmx: while the new <main> settles the old one is
    # still there, so the newest (the last) is read.
    expect(dealer.locator("main").last).to_contain_text("Beutel 6: Platz 3, 20.000 Chips.")

    # The difference shows; the director confirms it with a note.
    td.reload()
    expect(td.locator("[data-missing]")).to_have_text("0")
    expect(td.locator("[data-bagged]")).to_have_text("119.500")
    expect(td.locator("[data-difference]")).to_have_text("-500")
    td.get_by_role("button", name="Beutel bestätigen").click()
    expect(td.locator(".errors, .messages")).to_contain_text("Differenz")
    td.get_by_label("Differenz akzeptieren").check()
    td.get_by_label("Notiz").fill("Ein 500er Chip unter Tisch 1 gefunden, nach dem Zählen")
    td.get_by_role("button", name="Beutel bestätigen").click()
    expect(td.locator(".messages")).to_contain_text("Die Beutel des Flights sind bestätigt.")
    expect(td.locator("[data-confirmed]")).to_contain_text("Ein 500er Chip")

    # The bag-and-tag sheet: one tag per bag, numbered, with the player and the chips.
    td.get_by_role("link", name="Bag-&-Tag-Bogen").click()
    tags = td.locator("[data-tags] .tag")
    expect(tags).to_have_count(6)
    first = td.locator('[data-tag="1"]')
    expect(first).to_contain_text("Beutel 1")
    expect(first).to_contain_text("Main Event · Flight Day 1A")
    expect(td.locator('[data-tag="6"]')).to_contain_text(seats[(2, 3)].player.name)
    expect(td.locator('[data-tag="6"]')).to_contain_text("20.000 Chips")
    expect(td.locator('[data-tag="6"]')).to_contain_text("Tisch 2 · Platz 3")

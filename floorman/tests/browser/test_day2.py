"""Day 2 of a festival's main event (issue 17), as the director works it in German: the
Day 2 page shows each flight's bags and the player who survived two flights, the start
redraws the field at random (TDA 7) and the seat list follows; the smaller bag of the
double survivor is forfeited, with its reason, and stays on record."""

import pytest
from playwright.sync_api import expect

from floorman.tests.browser.conftest import log_in, open_page
from floorman.tests.browsers import NEEDS_CHROMIUM
from seating.tests.factories import add_tables
from tournaments.models import Tournament
from tournaments.tests import factories
from tournaments.tests.festival_factories import bagged, enter, event_with_flights, player

pytestmark = [pytest.mark.postgres, NEEDS_CHROMIUM]


def main_event() -> Tournament:
    """Day 1A: Anna (30,000) and Bo (41,000) bagged; Day 1B: Anna again (52,000) and
    Dana (18,000). The house keeps the larger stack; two tables of nine for Day 2."""
    event, (a, b) = event_with_flights("1A", "1B", flight_end_level=8)
    anna, bo, dana = player("Anna Berger"), player("Bo Lindqvist"), player("Dana Weiß")
    bagged(a, {enter(a, anna): 30000, enter(a, bo): 41000})
    bagged(b, {enter(b, anna): 52000, enter(b, dana): 18000})
    add_tables(event, 2)
    return event


def test_the_director_starts_day_2_in_german(live, chromium):
    factories.staff("director", "td-maria")
    event = main_event()

    td = open_page(chromium, live)
    log_in(td, "td-maria")
    td.locator("header.topbar").get_by_role("button", name="Deutsch").click()
    td.goto(f"/tournaments/{event.pk}/")
    td.locator("nav.subnav").get_by_role("link", name="Tag 2", exact=True).click()

    expect(td.locator("#flight-" + str(event.flights.get(flight_name="1A").pk))).to_contain_text(
        "Beutel bestätigt"
    )
    doubles = td.locator("#doubles")
    expect(doubles).to_contain_text("Spieler in zwei Flights")
    expect(doubles).to_contain_text("Anna Berger")
    expect(doubles).to_contain_text("Spielt Beutel 1B-1 (52.000 Chips)")
    expect(td.locator("#field")).to_contain_text("3 Spieler mit 111.000 Chips.")

    td.get_by_role("button", name="Tag 2 starten (Neuauslosung, TDA 7)").click()

    expect(td.locator(".messages")).to_contain_text(
        "Tag 2 hat begonnen: 3 Spieler auf neue Plätze gelost (TDA 7)."
    )
    seats = td.locator("#seats")
    expect(seats).to_contain_text("Plätze an Tag 2")
    for name, chips in (
        ("Anna Berger", "52.000"),
        ("Bo Lindqvist", "41.000"),
        ("Dana Weiß", "18.000"),
    ):
        expect(seats.locator("tr", has_text=name)).to_contain_text(chips)
    # The smaller bag of the double survivor is forfeited, and says why.
    forfeited = td.locator("tr.bag-forfeited")
    expect(forfeited).to_contain_text("1A-1")
    expect(forfeited).to_contain_text("Verfallen: Hat einen weiteren Flight überlebt")
    expect(td.locator("h1 .badge")).to_have_text("Registrierung offen")

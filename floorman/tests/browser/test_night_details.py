"""Details a tournament director met on a full Saturday night (issue 16, item 12): the
TV's average in whole big blinds, counts that agree with their nouns ("1 Re-Entries"),
deal figures in the house's unit (€1, not cents), and a player's accessible seat (TDA 9:
special needs are met where possible) set on the player's page and honoured by the draw.
"""

import re

import pytest
from playwright.sync_api import expect

from clock import services as clock_services
from clock.tests import factories as clock_factories
from floorman.tests.browser.conftest import log_in, open_page
from floorman.tests.browsers import LAPTOP, NEEDS_CHROMIUM, TV
from hands.services import busts as bust_services
from seating import services as seating
from seating.models import Seat
from tournaments.tests import factories

pytestmark = [pytest.mark.postgres, NEEDS_CHROMIUM]


def test_the_tv_counts_a_deep_average_in_whole_big_blinds(live, chromium):
    """83,560 chips at a big blind of 200 is 417.8 big blinds: the TV says 418."""
    event = factories.tournament(name="Deepstack", starting_stack=83560)
    clock_factories.with_structure(event)
    factories.register(event, "Anna Berger")
    clock_services.clock_act(actor=None, tournament_id=event.pk, action="start")
    tv = open_page(chromium, live, TV)

    tv.goto(f"/lobby/{event.pk}/")

    expect(tv.locator("[data-field=blinds]")).to_contain_text("100 / 200")
    expect(tv.locator("[data-field=average]")).to_have_text("83,560 · 418 BB")


def test_counts_agree_with_their_nouns_in_german(live, chromium):
    """One re-entry is "1 Re-Entry" on the director's overview, not "Re-Entries"."""
    event = factories.tournament(name="Deepstack", reentry_allowed=True)
    anna = factories.register(event, "Anna Berger", birth_year=1990).entry
    factories.register(event, "Jörg Müller")
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=anna.pk)
    factories.register(event, "Anna Berger", birth_year=1990, reentry=True)
    factories.staff("director", "td-maria")
    td = open_page(chromium, live, LAPTOP, locale="de-DE")
    log_in(td, "td-maria")

    td.goto(f"/tournaments/{event.pk}/")

    figure = td.locator(".figures div", has=td.locator("dd", has_text=re.compile(r"^1$")))
    expect(figure.first).to_be_visible()
    labels = td.locator(".figures dt").all_inner_texts()
    assert "Re-Entry" in labels and "Re-Entries" not in labels, labels
    assert "Teilnahmen" in labels, labels  # two first entries


def test_deal_figures_come_in_whole_euros(live, chromium):
    """Three players left; the house pays in whole euros, and so does the deal."""
    event = factories.tournament(buy_in=10000, fee=0, starting_stack=1000)
    entries = factories.field(event, 10)
    factories.registration_closed(event)
    factories.bust_in_order(event, *entries[:7])
    factories.staff("director", "td-maria")
    td = open_page(chromium, live, LAPTOP)
    log_in(td, "td-maria")

    td.goto(f"/tournaments/{event.pk}/deal/")
    for entry, chips in zip(entries[7:], (4699, 3101, 2200), strict=True):
        td.get_by_label(f"Chips of entry #{entry.number}").fill(str(chips))
    td.get_by_role("button", name="Calculate").click()

    figures = td.locator(".deal-figures tbody td.figure")
    expect(figures.first).to_be_visible()
    amounts = [re.search(r"€[\d,]+\.\d\d", text).group() for text in figures.all_inner_texts()]
    assert len(amounts) >= 6, amounts  # ICM and chip chop, three players each
    assert all(amount.endswith(".00") for amount in amounts), amounts


def test_an_accessible_seat_set_on_the_players_page_is_honoured_by_the_draw(live, chromium):
    event = factories.tournament(name="Deepstack")
    names = ["Anna Berger", "Jörg Müller", "Chris Moneymaker", "Maria Ho", "Erik Seidel"]
    entries = [factories.register(event, name).entry for name in names]
    seating.table_add(actor=None, tournament_id=event.pk, number=1, seats=9, accessible="9")
    factories.staff("director", "td-maria")
    td = open_page(chromium, live, LAPTOP)
    log_in(td, "td-maria")

    td.goto("/tournaments/players/?q=Maria")
    td.locator("tr", has_text="Maria Ho").get_by_role("link", name="Edit").click()
    td.get_by_label("Needs an accessible seat (TDA 9)").check()
    td.get_by_role("button", name="Save").click()
    expect(td.locator(".messages")).to_contain_text("Player saved.")

    td.goto(f"/tournaments/{event.pk}/seating/draw/")
    td.locator("main").get_by_role("button", name="Draw seats").click()
    expect(td.locator(".messages")).to_contain_text("5 players seated at random.")
    assert Seat.objects.get(entry=entries[3]).number == 9
    td.goto(f"/tournaments/{event.pk}/seating/")
    seat = td.locator("#table-1 .seat", has_text="Maria Ho")
    expect(seat.get_by_label("Accessible seat (TDA 9)")).to_be_visible()

"""German from end to end (issue 8): the director switches the language in the page
header and works the night in German; the lobby TV and a German phone speak it too,
including the texts their scripts write."""

import re

import pytest
from playwright.sync_api import expect

from clock.tests import factories as clock_factories
from floorman.tests.browser.conftest import WAIT, log_in, open_page
from floorman.tests.browsers import NEEDS_CHROMIUM, PHONE, TV
from seating import services as seating
from tournaments.tests import factories

pytestmark = [pytest.mark.postgres, NEEDS_CHROMIUM]


def test_the_night_in_german(live, chromium):
    event = factories.tournament(name="Freitags-Deepstack", table_size=6)
    clock_factories.with_structure(event)
    for name in ("Anna Berger", "Jörg Müller", "Maria Ho"):
        factories.register(event, name)
    seating.table_add(actor=None, tournament_id=event.pk, number=1, seats=6)
    seating.seating_draw(actor=None, tournament_id=event.pk)
    factories.staff("director", "td-maria")

    td = open_page(chromium, live)
    log_in(td, "td-maria")
    td.locator("header.topbar").get_by_role("button", name="Deutsch").click()
    expect(td.locator("html")).to_have_attribute("lang", "de")
    expect(td.locator("h1")).to_have_text("Turniere")
    td.get_by_role("link", name="Freitags-Deepstack").click()
    expect(td.locator("h1 .badge")).to_have_text("Registrierung offen")

    # A late entry at the desk, in German.
    td.locator("nav.subnav").get_by_role("link", name="Registrierungsschalter").click()
    td.locator("#id_name").fill("Karl Österreicher")
    td.locator("#id_name").press("Enter")
    expect(td.locator(".receipt h2")).to_have_text("Teilnahme #4")

    # After the first draw a late entry gets a seat at once (TDA 8-A).
    td.locator("nav.subnav").get_by_role("link", name="Sitzordnung").click()
    expect(td.locator(".seating-summary")).to_contain_text("Spieler mit Platz")
    table = td.locator("#table-1")
    expect(table.locator("h2")).to_have_text("Tisch 1")
    expect(table).to_contain_text("Karl Österreicher")

    td.locator("nav.subnav").get_by_role("link", name="Uhr").click()
    td.get_by_role("button", name="Uhr starten").click()
    expect(td.locator(".clock-status")).to_have_text("Läuft")

    # The lobby TV in the card room: its browser was set to German once.
    lobby = open_page(chromium, live, TV, locale="de-DE")
    lobby.goto(f"/lobby/{event.pk}/")
    expect(lobby.locator(".facts")).to_contain_text("Nächster Level")
    expect(lobby.locator(".facts")).to_contain_text("Durchschnittsstack")
    expect(lobby.locator("[data-field=players]")).to_have_text("4 von 4 im Spiel", timeout=WAIT)
    expect(lobby.locator("[data-field=prize_pool]")).to_have_text(re.compile(r"^400,00\s€$"))
    expect(lobby.locator("[data-field=level_title]")).to_have_text("Level 1")

    # The director's tablet view of table 1.
    td.goto(f"/tournaments/{event.pk}/tables/1/tablet/")
    expect(td.locator("h1")).to_contain_text("Tisch 1")
    expect(td.get_by_role("button", name="Button auslosen")).to_be_visible()

    # Karl's phone is set to German: the seat lookup and his live page answer in German.
    phone = open_page(chromium, live, PHONE, locale="de-DE", is_mobile=True, has_touch=True)
    phone.goto(f"/seat/{event.pk}/")
    expect(phone.locator("h1")).to_have_text("Finden Sie Ihren Platz")
    phone.get_by_label("Ihr Name oder Ihre Teilnahmenummer").fill("oesterreicher")
    phone.get_by_role("button", name="Suchen").click()
    result = phone.locator(".seat-result")
    expect(result).to_contain_text("Karl Österreicher")
    expect(result).to_contain_text("Tisch")
    result.get_by_role("link", name=re.compile("Diesen Platz live verfolgen")).click()
    expect(phone.locator("[data-live=status]")).to_have_text("Aktiv")
    expect(phone.locator("[data-live=where]")).to_contain_text("Tisch")
    expect(phone.locator("[data-live=where]")).to_contain_text("Platz")

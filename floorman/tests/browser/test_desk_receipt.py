"""The desk on a Saturday night (issue 16, item 5): late entries, alternates and
re-entries are seated as they buy in (TDA 8-A), and the receipt says where. It prints
on an 80 mm receipt printer through the browser, QR code and all; the entries list shows
every table and seat and sorts by them.
"""

import re

import pytest
from playwright.sync_api import Page, expect

from floorman.tests.browser.conftest import log_in, open_page
from floorman.tests.browsers import LAPTOP, NEEDS_CHROMIUM
from hands.services import busts as bust_services
from seating import services as seating
from seating.models import Seat
from tournaments.tests import factories

pytestmark = [pytest.mark.postgres, NEEDS_CHROMIUM]

FIELD = ["Anna Berger", "Jörg Müller", "Chris Moneymaker", "Vanessa Selbst", "Erik Seidel"]
MM = 96 / 25.4  # CSS pixels per millimetre


def seat_of(name: str) -> tuple[str, str]:
    seat = Seat.objects.select_related("table").get(entry__player__name=name)
    return str(seat.table.number), str(seat.number)


def receipt_seat(td: Page) -> tuple[str, str]:
    numbers = td.locator(".receipt [data-receipt=seat] strong").all_inner_texts()
    assert len(numbers) == 2, numbers
    return numbers[0], numbers[1]


def register(td: Page, name: str) -> None:
    field = td.locator("#id_name")
    field.fill(name)
    field.press("Enter")


def test_the_receipt_shows_the_seat_and_prints_on_80_mm(live, chromium):
    event = factories.tournament(name="Saturday Night", capacity=6, reentry_allowed=True)
    entries = [factories.register(event, name).entry for name in FIELD]
    for number in (1, 2):
        seating.table_add(actor=None, tournament_id=event.pk, number=number, seats=6)
    seating.seating_draw(actor=None, tournament_id=event.pk)
    factories.staff("cashier", "cash-carla")
    td = open_page(chromium, live, LAPTOP)
    log_in(td, "cash-carla")
    td.goto(f"/tournaments/{event.pk}/desk/")

    # A late entry (TDA 8-A): seated at once, and the receipt says where.
    register(td, "Nina Reinholdt-Kowalczyk")
    expect(td.locator(".receipt h2")).to_have_text("Entry #6")
    assert receipt_seat(td) == seat_of("Nina Reinholdt-Kowalczyk")

    # Sold out: Oskar waits on the alternates list; two players bust, he is called.
    register(td, "Oskar Alt")
    expect(td.locator(".alternate-notice")).to_contain_text("position 1")
    for entry in entries[:2]:
        bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=entry.pk)
    td.goto(f"/tournaments/{event.pk}/alternates/")
    td.get_by_role("button", name="Enter next alternate").click()
    expect(td.locator(".receipt")).to_contain_text("Oskar Alt")
    assert receipt_seat(td) == seat_of("Oskar Alt")

    # Anna buys in again: a re-entry, with a new seat (casino §12).
    td.locator("#id_name").fill("Anna")
    td.locator("#desk-matches button.match", has_text="Anna Berger").click()
    td.get_by_role("button", name="Register as re-entry").click()
    expect(td.locator(".receipt")).to_contain_text("Re-entry 1")
    assert receipt_seat(td) == seat_of("Anna Berger")
    qr = td.locator(".receipt .qr svg")
    expect(qr).to_be_visible()

    # The print button prints (the browser's dialog is not part of the test).
    td.evaluate("window.print = () => { window.__printed = true; }")
    td.get_by_role("button", name=re.compile("Print receipt")).click()
    assert td.evaluate("window.__printed") is True

    # On paper: the receipt alone, within the 72 mm a roll prints, the seat and the code.
    td.emulate_media(media="print")
    off_paper = (".topbar", ".page-head", ".messages", ".desk-form", ".desk-status")
    for hidden in (*off_paper, "[data-print]"):
        expect(td.locator(hidden).first).to_be_hidden()
    expect(td.locator(".receipt [data-receipt=seat]")).to_be_visible()
    expect(qr).to_be_visible()
    receipt = td.locator(".receipt").bounding_box()
    assert receipt["width"] <= 72 * MM + 1, receipt
    code = qr.bounding_box()
    assert 30 * MM <= code["width"] <= receipt["width"], code
    pdf = td.pdf(prefer_css_page_size=True)
    pages = re.findall(rb"/Type\s*/Page\b", pdf)
    box = re.search(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)", pdf)
    assert len(pages) == 1, f"{len(pages)} pages"
    assert box and abs(float(box.group(1)) - 80 * 72 / 25.4) < 1, box  # 80 mm in points


def test_the_entries_list_shows_and_sorts_by_table_and_seat(live, chromium):
    event = factories.tournament(name="Saturday Night")
    for name in FIELD:
        factories.register(event, name)
    for number in (1, 2):
        seating.table_add(actor=None, tournament_id=event.pk, number=number, seats=6)
    seating.seating_draw(actor=None, tournament_id=event.pk)
    factories.staff("floor", "floor-fred")
    floor = open_page(chromium, live, LAPTOP)
    log_in(floor, "floor-fred")

    floor.goto(f"/tournaments/{event.pk}/entries/")
    row = floor.locator("tr", has_text="Jörg Müller")
    expect(row.locator("[data-col=table]")).to_have_text(seat_of("Jörg Müller")[0])
    expect(row.locator("[data-col=seat]")).to_have_text(seat_of("Jörg Müller")[1])

    floor.locator("table.entries thead").get_by_role("link", name="Table").click()
    expect(floor).to_have_url(re.compile(r"sort=seat"))
    shown = [
        (int(t), int(s))
        for t, s in zip(
            floor.locator("tbody [data-col=table]").all_inner_texts(),
            floor.locator("tbody [data-col=seat]").all_inner_texts(),
            strict=True,
        )
    ]
    seats = sorted(tuple(int(n) for n in seat_of(name)) for name in FIELD)
    assert shown == seats  # table by table, seat by seat

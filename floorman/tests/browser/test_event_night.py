"""The start of an event night, as the room sees it (issue 8).

The director logs in, creates the tournament, sells the seats at the desk, draws them and
starts the clock. The lobby TV and a player's phone stay open the whole time in browsers
of their own and follow every change without a reload. Then the director breaks the
player's table (TDA 10-B) and the phone shows the new seat.
"""

import re

import pytest
from playwright.sync_api import Page, expect

from clock.tests import factories as clock_factories
from floorman.tests.browser.conftest import (
    WAIT,
    assert_not_reloaded,
    log_in,
    mark_as_loaded,
    open_page,
)
from floorman.tests.browsers import NEEDS_CHROMIUM, PHONE, TV
from tournaments.tests import factories

pytestmark = [pytest.mark.postgres, NEEDS_CHROMIUM]

PLAYERS = [
    "Anna Berger",
    "Jörg Müller",
    "Chris Moneymaker",
    "Vanessa Selbst",
    "Erik Seidel",
    "Maria Ho",
]


def create_tournament(td: Page) -> int:
    """The director's form, filled as a person would; returns the new tournament's id."""
    td.get_by_role("link", name="New tournament").first.click()
    td.get_by_label("Name", exact=True).fill("Friday Deepstack")
    td.get_by_label("Start time", exact=True).fill("2026-06-12T19:30")
    td.get_by_label("Buy-in (prize pool)", exact=True).fill("100")
    td.get_by_label("Fee", exact=True).fill("10")
    td.get_by_label("Starting stack", exact=True).fill("20000")
    td.get_by_label("Players per table", exact=True).fill("6")
    td.get_by_role("button", name="Create tournament").click()
    expect(td.locator(".messages")).to_contain_text("Tournament created.")
    expect(td.locator("h1")).to_contain_text("Friday Deepstack")
    return int(re.search(r"/tournaments/(\d+)/", td.url).group(1))


def register_at_desk(td: Page, name: str, number: int) -> None:
    """A new player: type the name, Enter (the desk is made for a queue)."""
    field = td.locator("#id_name")
    field.fill(name)
    field.press("Enter")
    receipt = td.locator(".receipt")
    expect(receipt.locator("h2")).to_have_text(f"Entry #{number}")
    expect(receipt).to_contain_text(name)


def test_director_opens_the_night_and_the_room_follows_live(live, chromium):
    factories.staff("director", "td-maria")
    clock_factories.structure("Regular 20")  # the house's template; not part of the story

    td = open_page(chromium, live)
    log_in(td, "td-maria")
    tournament = create_tournament(td)

    # The blind structure: a copy of the house template.
    td.locator("nav.subnav").get_by_role("link", name="Structure").click()
    td.get_by_label("Copy this structure into the tournament").select_option(
        label="Regular 20 (template)"
    )
    td.get_by_role("button", name="Copy into the tournament").click()
    expect(td.locator(".messages")).to_contain_text("The tournament now plays a copy")

    td.locator("nav.subnav").get_by_role("link", name="Overview").click()
    td.get_by_role("button", name="Open registration").click()
    expect(td.locator("h1 .badge")).to_have_text("Registering")

    # The lobby TV is switched on before the doors open and is never touched again.
    lobby = open_page(chromium, live, TV)
    lobby.goto(f"/lobby/{tournament}/")
    expect(lobby.locator("[data-field=status]")).to_have_text("Starts soon")
    expect(lobby.locator("[data-field=players]")).to_have_text("0 left of 0")
    mark_as_loaded(lobby)

    td.locator("nav.subnav").get_by_role("link", name="Registration desk").click()
    for number, name in enumerate(PLAYERS, start=1):
        register_at_desk(td, name, number)

    # The TV counts the field as the desk sells it (TDA 8-A: the same for late entries).
    expect(lobby.locator("[data-field=players]")).to_have_text("6 left of 6", timeout=WAIT)
    expect(lobby.locator("[data-field=prize_pool]")).to_contain_text("600")

    # Jörg finds himself on his phone: "mueller" finds "Müller", as the poster says.
    phone = open_page(chromium, live, PHONE, is_mobile=True, has_touch=True)
    phone.goto(f"/seat/{tournament}/?q=mueller")
    result = phone.locator(".seat-result")
    expect(result).to_contain_text("Jörg Müller")
    expect(result).to_contain_text("not seated yet")
    result.get_by_role("link", name=re.compile("Follow this seat live")).click()
    seat_box = phone.locator("[data-live=box]")
    expect(seat_box).to_contain_text("not seated yet")
    expect(phone.locator("[data-live=where]")).to_be_hidden()
    mark_as_loaded(phone)

    # Two tables of six; the draw spreads the field over both (TDA 7: seats at random).
    td.locator("nav.subnav").get_by_role("link", name="Seating").click()
    td.get_by_label("Table number", exact=True).fill("1")
    td.get_by_label("to table number").fill("2")
    td.get_by_role("button", name="Add", exact=True).click()
    expect(td.locator(".messages")).to_contain_text("Tables added: 1, 2.")
    td.locator(".seating-actions").get_by_role("link", name="Draw seats").click()
    td.get_by_label("Tables to use").fill("2")
    td.locator("main").get_by_role("button", name="Draw seats").click()
    expect(td.locator(".messages")).to_contain_text("6 players seated at random.")

    # The phone shows the drawn seat by itself, with a line saying so.
    expect(phone.locator("[data-live=table]")).to_have_text(re.compile(r"^[12]$"), timeout=WAIT)
    expect(phone.locator("[data-live=note]")).to_contain_text("Your seat has been drawn")
    drawn_table = int(phone.locator("[data-live=table]").inner_text())
    other_table = 3 - drawn_table
    assert_not_reloaded(phone)

    # Shuffle up and deal: the tournament runs and the clock starts.
    td.locator("nav.subnav").get_by_role("link", name="Overview").click()
    td.get_by_role("button", name="Start tournament").click()
    expect(td.locator("h1 .badge")).to_have_text("Running")
    td.locator("nav.subnav").get_by_role("link", name="Clock").click()
    td.get_by_role("button", name="Start the clock").click()
    expect(td.locator(".clock-status")).to_have_text("Running")

    expect(lobby.locator("[data-field=status]")).to_be_hidden(timeout=WAIT)
    expect(lobby.locator("[data-field=level_title]")).to_have_text("Level 1")
    expect(lobby.locator("[data-field=blinds]")).to_contain_text("100 / 200")
    expect(lobby.locator("[data-field=clock]")).to_have_text(re.compile(r"^19:[0-5]\d$"))
    assert_not_reloaded(lobby)

    # TDA 10-B: the director breaks Jörg's table; its players draw seats at the other one.
    td.locator("nav.subnav").get_by_role("link", name="Seating").click()
    td.locator(f"#table-{drawn_table}").get_by_role("link", name="Break…").click()
    expect(td.locator("h1")).to_have_text(f"Break table {drawn_table}?")
    td.get_by_role("button", name="Break the table").click()
    expect(td.locator(".messages")).to_contain_text(f"Table {drawn_table} broken: 3 players moved")
    move = td.locator("table.moves tr", has_text="Jörg Müller")
    new_seat = re.fullmatch(rf"{other_table}-(\d+)", move.locator("strong").inner_text())
    assert new_seat, move.inner_text()

    expect(phone.locator("[data-live=table]")).to_have_text(str(other_table), timeout=WAIT)
    expect(phone.locator("[data-live=seat]")).to_have_text(new_seat.group(1))
    expect(phone.locator("[data-live=note]")).to_contain_text(
        f"You have been moved: from table {drawn_table}"
    )
    assert_not_reloaded(phone)
    assert_not_reloaded(lobby)

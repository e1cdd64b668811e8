"""A Saturday night at the seating map (issue 16): breaking a table that does not fit
at the tables in play, and balancing tables whose tablets already know their blinds.

The room is set up with the services; the director does the rest in the browser, as a
tournament director would.
"""

import re

import pytest
from playwright.sync_api import Page, expect

from floorman.tests.browser.conftest import log_in, open_page
from floorman.tests.browsers import NEEDS_CHROMIUM
from hands import services as hands
from hands.services import busts
from seating import services as seating
from seating.models import Seat, SeatingAction, Table
from tournaments.tests import factories

pytestmark = [pytest.mark.postgres, NEEDS_CHROMIUM]


def seat_players(event, layout: dict[int, range]) -> dict[tuple[int, int], object]:
    """Players by name in exactly the seats of `layout` (table -> seats):
    returns {(table, seat): entry}."""
    places = [(table, seat) for table, seats in layout.items() for seat in seats]
    # Everyone registers before the first seat is taken: after it, the desk would seat
    # each new entry at once (TDA 8-A).
    seated = {
        (table, seat): factories.register(event, f"Player {table}-{seat}").entry
        for table, seat in places
    }
    for (table, seat), entry in seated.items():
        seating.entry_move(
            actor=None, tournament_id=event.pk, entry_id=entry.pk, to_table=table, to_seat=seat
        )
    return seated


def director_at_the_map(chromium, live, event) -> Page:
    factories.staff("director", "td-maria")
    td = open_page(chromium, live)
    log_in(td, "td-maria")
    td.goto(f"/tournaments/{event.pk}/seating/")
    expect(td.locator("h2", has_text="Table 1")).to_be_visible()
    return td


def where(event, table: int, seat: int) -> int | None:
    return Seat.objects.get(table__tournament=event, table__number=table, number=seat).entry_id


def test_a_break_that_needs_a_new_table_says_so_and_does_exactly_what_it_said(live, chromium):
    """Item 1: nine players at table 5, only two open seats at the tables in play, and
    the spare table 6. "Break…" used to promise the other tables and then move all nine
    to table 6 unasked."""
    event = factories.tournament(name="Saturday Deepstack", table_size=9)
    seating.table_add(actor=None, tournament_id=event.pk, number=6)  # the spare
    seating.table_add(actor=None, tournament_id=event.pk, number=5)
    for number in (1, 2):
        seating.table_add(actor=None, tournament_id=event.pk, number=number, seats=10)
    seated = seat_players(event, {1: range(1, 10), 2: range(1, 10), 5: range(1, 10)})

    td = director_at_the_map(chromium, live, event)
    expect(td.locator("#table-5 .break-needs")).to_have_text("opens an empty table")
    td.locator("#table-5").get_by_role("link", name="Break…").click()

    expect(td.locator("h1")).to_have_text("Break table 5 and open table 6?")
    expect(td.locator("main")).to_contain_text(
        "Its 9 players do not fit at the tables in play (open seats: 2): this opens table 6."
    )
    expect(td.locator(".plan-lines li")).to_have_text(["Table 6, opened for them: 9 players"])

    # While the director reads, a player at table 5 busts: what was shown is out of date.
    busts.entry_bust(actor=None, tournament_id=event.pk, entry_id=seated[(5, 1)].pk)
    td.get_by_role("button", name="Open table 6 and break table 5").click()

    expect(td.locator(".errors")).to_contain_text(
        "The tables have changed since the break of table 5 was shown: it was not broken."
    )
    expect(td.locator(".plan-lines li")).to_have_text(["Table 6, opened for them: 8 players"])
    assert Table.objects.get(tournament=event, number=5).broken_at is None
    assert not SeatingAction.objects.filter(kind="break").exists()

    td.get_by_role("button", name="Open table 6 and break table 5").click()

    expect(td.locator(".messages")).to_contain_text(
        "Table 5 broken: 8 players moved (TDA 10-B). Table 6 opened for them."
    )
    moved_to = td.locator("table.moves tr strong").all_inner_texts()
    assert len(moved_to) == 8 and all(re.fullmatch(r"6-\d", seat) for seat in moved_to)


def test_balancing_asks_only_for_the_table_whose_tablet_logged_nothing(live, chromium):
    """Item 3: table 1's dealer has put the button on seat 3 (no hand yet), table 2 has
    dealt a hand; table 3 has logged nothing. The plan takes the big blind next of tables
    1 and 2 from their tablets (TDA 11-A) and asks only about table 3, with a guess that
    says it is one."""
    event = factories.tournament(name="Saturday Deepstack", table_size=9)
    for number in (1, 2, 3):
        seating.table_add(actor=None, tournament_id=event.pk, number=number)
    seated = seat_players(event, {1: range(1, 10), 2: range(1, 10), 3: range(1, 7)})
    hands.button_set(actor=None, tournament_id=event.pk, number=1, button=3)  # blinds 4, 5
    hands.button_set(actor=None, tournament_id=event.pk, number=2, button=1)
    hand = hands.hand_start(actor=None, tournament_id=event.pk, number=2)  # blinds 2, 3
    hands.hand_finish(
        actor=None, tournament_id=event.pk, number=2, hand_number=hand.number, busts=[]
    )

    td = director_at_the_map(chromium, live, event)
    td.locator(".seating-actions").get_by_role("link", name="Balance tables").click()

    logged = td.locator(".logged-blinds li")
    expect(logged).to_have_count(2)
    expect(logged.nth(0)).to_contain_text("Table 1: seat 5 · Player 1-5")
    expect(logged.nth(1)).to_contain_text("Table 2: seat 4 · Player 2-4")
    expect(td.locator("select[name=bb_1], select[name=bb_2]")).to_have_count(0)
    guess = td.get_by_label("Table 3: big blind next at seat")
    expect(guess).to_have_value("2")
    expect(td.locator(".bb-fields")).to_contain_text(
        "A guess: this table's tablet has logged no button and no hand."
    )

    td.get_by_role("button", name="Show who moves where").click()
    preview = td.locator(".balance-preview li")
    expect(preview).to_have_text(
        [
            re.compile(r"Player 2-4 #\d+:\s+table 2, seat 4 → table 3, seat 7"),
            re.compile(r"Player 1-5 #\d+:\s+table 1, seat 5 → table 3, seat 8"),
        ]
    )
    td.get_by_role("button", name="Apply these moves").click()

    expect(td.locator(".messages")).to_contain_text("Tables balanced: 2 players moved")
    assert where(event, 3, 7) == seated[(2, 4)].pk
    assert where(event, 3, 8) == seated[(1, 5)].pk

"""Two tables' tablets open at once (issue 16, items 8 and 12).

The floor keeps the tablets of tables 2 and 5 open in two tabs of one browser. Table 5's
draw for the button reaches the server, but its answer is lost on the way back (the
tablet's wifi drops): the browser's one message store now holds "Seat N drew the high
card". Table 2's tablet, loaded next, used to show that line as its own, although its
cards put the button elsewhere; it now shows its own table's messages only, and table 5's
waits for table 5's page.

A player clock (TDA 29) ends when the final-table draw seats everyone again: it used to
stay on the seat, by then empty or someone else's.
"""

import re

import pytest
from playwright.sync_api import Page, Route, expect

from clock import services as clock_services
from clock.tests import factories as clock_factories
from floorman.tests.browser.conftest import WAIT, log_in, open_page
from floorman.tests.browser.test_dealer_tablet import press
from floorman.tests.browsers import NEEDS_CHROMIUM, TABLET
from seating import services as seating
from tournaments.tests import factories

pytestmark = [pytest.mark.postgres, NEEDS_CHROMIUM]

# Odd seats at table 2, even seats at table 5: their buttons can never share a number.
SEATS = {2: (1, 3, 5, 7), 5: (2, 4, 6, 8)}
DREW = re.compile(r"Seat (\d+) drew the high card and takes the button \(IFP 2\.1\)\.")


def event_in_play(seats: dict[int, tuple[int, ...]]):
    """Players seated by hand at the given tables and seats, the clock running."""
    event = factories.tournament(name="Saturday Night", table_size=9)
    clock_factories.with_structure(event)
    entries = {
        (number, seat): factories.register(event, f"Player {number}-{seat}").entry
        for number, taken in seats.items()
        for seat in taken
    }
    for number in seats:
        seating.table_add(actor=None, tournament_id=event.pk, number=number, seats=9)
    for (number, seat), entry in entries.items():
        seating.entry_move(
            actor=None, tournament_id=event.pk, entry_id=entry.pk, to_table=number, to_seat=seat
        )
    factories.registration_closed(event)
    clock_services.clock_act(actor=None, tournament_id=event.pk, action="start")
    return event, entries


def two_tablets(chromium, live, event) -> tuple[Page, Page]:
    factories.staff("floor", "floor-fay")
    table2 = open_page(chromium, live, TABLET)
    log_in(table2, "floor-fay")
    table2.goto(f"/tournaments/{event.pk}/tables/2/tablet/")
    table5 = table2.context.new_page()  # the same browser: one cookie jar, one message store
    table5.goto(f"/tournaments/{event.pk}/tables/5/tablet/")
    return table2, table5


def draw_with_answer_lost(tablet: Page) -> None:
    """Press "Draw for the button": the server draws and answers, but the answer never
    reaches the page (204: the page stays as it was). Its message is in the browser."""

    def lose_answer(route: Route) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        route.fetch(max_redirects=0)  # the server has drawn; its cookie reaches the browser
        route.fulfill(status=204)

    tablet.route("**/tablet/", lose_answer)
    with tablet.expect_response(lambda response: response.request.method == "POST"):
        tablet.get_by_role("button", name="Draw for the button").click()
    tablet.unroute("**/tablet/")


def drew_messages(tablet: Page) -> list[str]:
    return [m for m in tablet.locator(".messages li").all_inner_texts() if DREW.search(m)]


def test_each_tablet_shows_its_own_tables_draw_only(live, chromium):
    event, _entries = event_in_play(SEATS)
    table2, table5 = two_tablets(chromium, live, event)

    draw_with_answer_lost(table5)
    press(table2, "Draw for the button")

    expect(table2.locator(".draw-cards")).to_be_visible()
    said = drew_messages(table2)
    assert len(said) == 1, said  # table 5's line is not shown here
    assert int(DREW.search(said[0]).group(1)) in SEATS[2]

    table5.reload()  # the dealer at table 5 reloads: the message is there, for this table
    said = drew_messages(table5)
    assert len(said) == 1, said
    assert int(DREW.search(said[0]).group(1)) in SEATS[5]


def test_the_button_draw_leaves_the_tablet_once_the_first_hand_is_dealt(live, chromium):
    """Table 2 drew and deals its first hand while table 5's draw answer is lost: table
    2 shows neither its old cards nor any draw's line, only the hand dealt."""
    event, _entries = event_in_play(SEATS)
    table2, table5 = two_tablets(chromium, live, event)
    press(table2, "Draw for the button")
    expect(table2.locator(".draw-cards")).to_be_visible()

    draw_with_answer_lost(table5)
    press(table2, "Start hand 1")

    expect(table2.locator(".hand-line")).to_contain_text("Hand 1")
    expect(table2.locator(".messages")).to_have_text("Hand 1 is dealt.")
    expect(table2.locator(".draw-cards")).to_have_count(0)
    expect(table2.get_by_text("drew the high card")).to_have_count(0)


def test_the_final_table_draw_ends_a_player_clock(live, chromium):
    """TDA 29: the clock was on the player in seat 3 at table 1; the final-table draw
    seats everyone again, so the clock ends, on the tablet too, without a reload."""
    event, _entries = event_in_play({1: (1, 3, 5), 2: (2, 4)})
    clock_services.player_clock_call(
        actor=None, tournament_id=event.pk, table=1, seat=3, facing_bet=True
    )
    factories.staff("dealer", "dealer-dana")
    factories.staff("floor", "floor-fay")

    tablet = open_page(chromium, live, TABLET, has_touch=True)
    log_in(tablet, "dealer-dana")
    tablet.goto(f"/tournaments/{event.pk}/tables/1/tablet/")
    expect(tablet.locator("[data-player-clock]")).to_contain_text("Clock on seat 3 (TDA 29)")

    td = open_page(chromium, live)
    log_in(td, "floor-fay")
    td.goto(f"/tournaments/{event.pk}/seating/final-table/")
    td.get_by_label("Final table").select_option("1")
    td.get_by_role("button", name="Draw the final table").click()
    expect(td.locator(".messages")).to_contain_text("The final table is drawn (RP-9).")

    expect(tablet.locator(".head-facts")).to_contain_text("5 players", timeout=WAIT)
    expect(tablet.locator("[data-player-clock]")).to_have_count(0)

"""Undo without surprises (issue 16, item 6): every undo names whom it moves, from which
seat to which, before it does it, and says afterwards where everyone sits. A double click
on the seating undo undoes the one action it showed, never an earlier one; a table's
tablet takes back its own last bust while nothing depends on it."""

import re

import pytest
from playwright.sync_api import Page, expect

from clock import services as clock_services
from clock.tests import factories as clock_factories
from floorman.tests.browser.conftest import log_in, open_page
from floorman.tests.browser.test_dealer_tablet import open_section, press
from floorman.tests.browsers import NEEDS_CHROMIUM, TABLET
from hands.services import busts
from seating import services as seating
from seating.models import Seat
from tournaments.tests import factories

pytestmark = [pytest.mark.postgres, NEEDS_CHROMIUM]

SEATED = {
    (1, 2): "Anna Berg",
    (1, 4): "Ben Cole",
    (1, 6): "Chris Dunn",
    (2, 1): "Dora Ek",
    (2, 3): "Emil Falk",
}


def event_seated():
    """Five players seated by hand at tables 1 and 2 (nine seats each)."""
    event = factories.tournament(name="Saturday Night", table_size=9)
    clock_factories.with_structure(event)
    entries = {place: factories.register(event, name).entry for place, name in SEATED.items()}
    for number in (1, 2):
        seating.table_add(actor=None, tournament_id=event.pk, number=number, seats=9)
    for (number, seat), entry in entries.items():
        seating.entry_move(
            actor=None, tournament_id=event.pk, entry_id=entry.pk, to_table=number, to_seat=seat
        )
    return event, {name: entries[place] for place, name in SEATED.items()}


def unseated(page: Page):
    return page.locator(".seating-summary .figures div", has_text="Without a seat").locator("dd")


def test_undo_names_the_move_and_a_second_click_undoes_nothing_more(live, chromium):
    """The director's undo of a move, confirmed twice (a double click, or the page
    still open in another tab): the second is refused. Before, it undid the late seat
    before the move and left Carl without a seat."""
    event, people = event_seated()
    anna = people["Anna Berg"]
    factories.register(event, "Carl Late")  # seated at once (TDA 8-A)
    # The late seat is drawn at random: Anna moves to a seat of table 2 it left free.
    taken = set(
        Seat.objects.filter(
            table__tournament=event, table__number=2, entry__isnull=False
        ).values_list("number", flat=True)
    )
    to_seat = next(seat for seat in (7, 8) if seat not in taken)
    seating.entry_move(
        actor=None, tournament_id=event.pk, entry_id=anna.pk, to_table=2, to_seat=to_seat
    )
    factories.staff("floor", "floor-fay")

    td = open_page(chromium, live)
    log_in(td, "floor-fay")
    td.goto(f"/tournaments/{event.pk}/seating/")
    expect(unseated(td)).to_have_text("0")

    # The map's button names the player and both seats; the page asks first, saying
    # where everyone goes.
    undo = td.locator(".seating-actions").get_by_role("link", name=re.compile("^Undo"))
    expect(undo).to_have_text(
        f"Undo: move of Anna Berg (#{anna.number}) from table 1, seat 2 to table 2, seat {to_seat}"
    )
    undo.click()
    expect(td.locator(".plan-lines")).to_have_text(
        f"Anna Berg (#{anna.number}): from table 2, seat {to_seat} back to table 1, seat 2"
    )
    again = td.context.new_page()  # the same confirmation, sent a second time
    again.goto(td.url)

    td.get_by_role("button", name="Undo it").click()
    messages = td.locator(".messages")
    expect(messages).to_contain_text(
        f"Undone: move of Anna Berg (#{anna.number}) from table 1, seat 2 "
        f"to table 2, seat {to_seat}."
    )
    expect(messages).to_contain_text(f"Anna Berg (#{anna.number}) sits at table 1, seat 2 again.")

    again.get_by_role("button", name="Undo it").click()
    expect(again.locator(".messages")).to_contain_text(
        "That seating action has already been undone: nothing was changed."
    )
    expect(unseated(again)).to_have_text("0")  # Carl keeps his seat
    expect(again.locator("#table-1")).to_contain_text("Anna Berg")


def test_undo_bust_at_the_desk_says_where_the_player_goes_and_sits(live, chromium):
    """Anna's seat was given to Ben after her bust: the button says she gets a new seat,
    and the answer says which."""
    event, people = event_seated()
    anna, ben = people["Anna Berg"], people["Ben Cole"]
    busts.entry_bust(actor=None, tournament_id=event.pk, entry_id=anna.pk)
    seating.entry_move(actor=None, tournament_id=event.pk, entry_id=ben.pk, to_table=1, to_seat=2)
    factories.staff("floor", "floor-fay")

    desk = open_page(chromium, live)
    log_in(desk, "floor-fay")
    desk.goto(f"/tournaments/{event.pk}/entries/")
    row = desk.locator(f"#entry-{anna.number}")
    undo = row.get_by_role("button", name=re.compile("^Undo bust"))
    expect(undo).to_have_text("Undo bust: a new seat (table 1, seat 2 is taken)")

    undo.click()

    notice = desk.locator(f"#entry-{anna.number} .inline-notice")
    expect(notice).to_contain_text("The seat Anna Berg left had been taken: Anna Berg now sits")
    seat = Seat.objects.select_related("table").get(entry=anna)
    expect(notice).to_have_text(
        "The seat Anna Berg left had been taken: Anna Berg now sits at table "
        f"{seat.table.number}, seat {seat.number}."
    )


def test_the_tablet_takes_back_its_last_bust_until_the_next_hand(live, chromium):
    event, people = event_seated()
    chris = people["Chris Dunn"]
    factories.registration_closed(event)
    clock_services.clock_act(actor=None, tournament_id=event.pk, action="start")
    factories.staff("dealer", "dealer-dana")

    tablet = open_page(chromium, live, TABLET, has_touch=True)
    log_in(tablet, "dealer-dana")
    tablet.goto(f"/tournaments/{event.pk}/tables/1/tablet/")

    # Chris is ticked out by mistake: the tablet offers to take it back, saying where.
    open_section(tablet, "Bust a player now")
    tablet.locator(".bust-now .bust-toggle", has_text="Chris Dunn").click()
    press(tablet, "Bust the ticked players")
    expect(tablet.locator(".ring")).not_to_contain_text("Chris Dunn")
    undo = f"Undo last bust: Chris Dunn (#{chris.number}) back to seat 6"
    press(tablet, undo)

    expect(tablet.locator(".messages")).to_have_text(
        f"Bust taken back: Chris Dunn (#{chris.number}) is back in seat 6."
    )
    expect(tablet.locator(".ring")).to_contain_text("Chris Dunn")
    expect(tablet.locator(".busts")).to_have_count(0)

    # Out for real in hand 1: the undo is offered until hand 2 is dealt.
    press(tablet, "Draw for the button")
    press(tablet, "Start hand 1")
    open_section(tablet, "Busts and chip counts")
    tablet.locator(".finish-form .bust-toggle", has_text="Chris Dunn").click()
    press(tablet, "Hand 1 done")
    expect(tablet.get_by_role("button", name=undo)).to_be_visible()
    press(tablet, "Start hand 2")
    expect(tablet.locator(".busts")).to_contain_text("Chris Dunn")
    expect(tablet.get_by_role("button", name=undo)).to_have_count(0)

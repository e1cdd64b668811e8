"""The registration desk by keyboard alone, with its result read out (issue 21, WCAG 4.1.3
Status Messages): after each registration one live region, which stays on the page while
htmx swaps the desk, says the entry and its seat, or the place on the alternates list;
the cursor is back in the name field for the next player in the queue.
"""

import pytest
from playwright.sync_api import Page, expect

from floorman.tests.browser.conftest import log_in, open_page
from floorman.tests.browsers import LAPTOP, NEEDS_CHROMIUM
from seating import services as seating
from seating.models import Seat
from tournaments.models import Entry
from tournaments.tests import factories

pytestmark = [pytest.mark.postgres, NEEDS_CHROMIUM]

FIELD = ["Anna Berger", "Jörg Müller", "Chris Moneymaker"]

# Every element a screen reader treats as a live region (WCAG 4.1.3).
LIVE_REGIONS = "[aria-live], [role=status], [role=alert], [role=log]"


def at_the_desk(chromium, live, event) -> Page:
    factories.staff("cashier", "cash-carla")
    desk = open_page(chromium, live, LAPTOP)
    log_in(desk, "cash-carla")
    desk.goto(f"/tournaments/{event.pk}/desk/")
    # The name field takes the cursor as the page opens: no click needed.
    expect(desk.locator("#id_name")).to_be_focused()
    # WCAG 4.1.3: mark the region, to see that the same node announces every result.
    desk.evaluate("document.getElementById('desk-announce').__stays = true")
    return desk


def register_by_keyboard(desk: Page, name: str) -> None:
    """Type the name and press Enter, as a cashier does with a queue at the desk."""
    desk.keyboard.type(name)
    desk.keyboard.press("Enter")


def announced(desk: Page):
    return desk.locator("#desk-announce")


def assert_the_one_region_says_it(desk: Page, sentence: str, name: str) -> None:
    """The region from before the registration holds the sentence, and no other live
    region on the page speaks of the player (the result is announced once)."""
    expect(announced(desk)).to_have_text(sentence)
    assert desk.evaluate("document.getElementById('desk-announce').__stays") is True, (
        "the live region was replaced: a new region is not reliably announced"
    )
    carriers = desk.eval_on_selector_all(
        LIVE_REGIONS,
        "(regions, name) => regions"
        ".filter(r => r.textContent.includes(name)).map(r => r.id || r.className)",
        name,
    )
    assert carriers == ["desk-announce"], carriers


def seat_sentence(name: str) -> str:
    entry = Entry.objects.get(player__name=name)
    seat = Seat.objects.select_related("table").get(entry=entry)
    return f"Entry #{entry.number}, {name}, table {seat.table.number}, seat {seat.number}"


def test_a_late_entry_is_announced_with_its_seat_and_the_next_player_follows(live, chromium):
    """WCAG 4.1.3 and 2.1.1: two players registered by keyboard alone; each time the one
    live region says the entry's number, table and seat, and the cursor is back in the
    name field."""
    event = factories.tournament(name="Saturday Night", status="running", late_reg_until_level=4)
    for name in FIELD:
        factories.register(event, name)
    for number in (1, 2):
        seating.table_add(actor=None, tournament_id=event.pk, number=number, seats=6)
    seating.seating_draw(actor=None, tournament_id=event.pk)
    desk = at_the_desk(chromium, live, event)
    expect(announced(desk)).to_have_text("")  # nothing to say yet

    register_by_keyboard(desk, "Nina Reinholdt-Kowalczyk")
    expect(desk.locator(".receipt h2")).to_have_text("Entry #4")
    nina = seat_sentence("Nina Reinholdt-Kowalczyk")
    assert_the_one_region_says_it(desk, nina, "Nina Reinholdt-Kowalczyk")
    # The cursor waits in an empty name field for the next player.
    expect(desk.locator("#id_name")).to_be_focused()
    expect(desk.locator("#id_name")).to_have_value("")

    register_by_keyboard(desk, "Oskar Alt")
    expect(desk.locator(".receipt h2")).to_have_text("Entry #5")
    assert_the_one_region_says_it(desk, seat_sentence("Oskar Alt"), "Oskar Alt")
    expect(desk.locator("#id_name")).to_be_focused()


def test_a_player_on_the_alternates_list_hears_the_position(live, chromium):
    """WCAG 4.1.3: sold out, the player goes on the alternates list, and the live
    region says so with the position."""
    event = factories.tournament(
        name="Saturday Night", status="running", late_reg_until_level=4, capacity=3
    )
    for name in FIELD:
        factories.register(event, name)
    seating.table_add(actor=None, tournament_id=event.pk, number=1, seats=6)
    seating.seating_draw(actor=None, tournament_id=event.pk)
    desk = at_the_desk(chromium, live, event)

    register_by_keyboard(desk, "Oskar Alt")
    expect(desk.locator(".alternate-notice h2")).to_have_text("Sold out")
    assert_the_one_region_says_it(
        desk, "Oskar Alt is on the alternates list, position 1.", "Oskar Alt"
    )
    expect(desk.locator("#id_name")).to_be_focused()

    register_by_keyboard(desk, "Nina Reinholdt-Kowalczyk")
    assert_the_one_region_says_it(
        desk, "Nina Reinholdt-Kowalczyk is on the alternates list, position 2.", "Nina"
    )

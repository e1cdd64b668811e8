"""Chip counts and leaders during play (issue 18), as the room sees them.

At a break the dealer of table 1 counts the stacks on the tablet, in one screen. The
lobby TV, switched on once with the chip leaders beside the clock, puts the counted
player on top; the player, who opened their own page from the seat lookup, sees their
count and their rank change, and after a second count the chart of their counts. No
screen is reloaded: the count's live event brings it (counts.updated).
"""

import pytest
from playwright.sync_api import expect

from floorman.tests.browser.conftest import (
    WAIT,
    assert_not_reloaded,
    log_in,
    mark_as_loaded,
    open_page,
    press,
)
from floorman.tests.browser.test_lobby_follows_play import seated_event
from floorman.tests.browsers import NEEDS_CHROMIUM, PHONE, TABLET, TV
from seating.models import Seat
from tournaments.tests import factories

pytestmark = [pytest.mark.postgres, NEEDS_CHROMIUM]


def test_a_tables_count_reaches_the_lobby_and_the_players_phone(live, chromium):
    event, entries = seated_event({1: 3, 2: 3})
    factories.staff("dealer", "dealer-dana")
    counted = (
        Seat.objects.select_related("entry__player")
        .get(table__tournament=event, table__number=1, number=2)
        .entry
    )
    name = counted.player.name

    lobby = open_page(chromium, live, TV)
    lobby.goto(f"/lobby/{event.pk}/?layout=leaders")
    leaders = lobby.locator("#leaders")
    expect(leaders.get_by_role("heading", name="Chip leaders")).to_be_visible()
    expect(leaders.locator(".leaders-lines li")).to_have_count(6)
    expect(leaders.locator("[data-field=leaders_average]")).to_contain_text("20,000")
    mark_as_loaded(lobby)

    phone = open_page(chromium, live, PHONE)
    phone.goto(f"/seat/{event.pk}/?q={counted.number}")
    phone.get_by_role("link", name="Follow this seat live").click()
    own = phone.locator("#entry-count")
    expect(own.get_by_role("heading", name="Your chip count")).to_be_visible()
    expect(own).to_contain_text("not counted yet")
    expect(own.locator("[data-field=count_rank]")).to_have_text(
        f"{entries.index(counted) + 1} of 6"
    )
    mark_as_loaded(phone)

    tablet = open_page(chromium, live, TABLET)
    log_in(tablet, "dealer-dana")
    tablet.goto(f"/tournaments/{event.pk}/tables/1/tablet/")
    tablet.get_by_text("Chip count", exact=True).click()
    stack = tablet.locator("input[name=chips_2]")
    expect(stack).to_have_value("20000")  # prefilled with the player's stack
    stack.fill("55000")
    press(tablet, "Enter the counts")
    expect(tablet.get_by_text("3 counts entered at level 1.")).to_be_visible()

    top = leaders.locator(".leaders-lines li").first
    expect(top).to_contain_text(name, timeout=WAIT)
    expect(top.locator(".chips")).to_have_text("55,000")
    expect(own.locator("[data-field=count_chips]")).to_contain_text("55,000", timeout=WAIT)
    expect(own.locator("[data-field=count_rank]")).to_have_text("1 of 6")
    expect(own).to_contain_text("level 1")

    # A second count: the player's page draws the chart of their counts.
    tablet.get_by_text("Chip count", exact=True).click()
    tablet.locator("input[name=chips_2]").fill("61000")
    press(tablet, "Enter the counts")
    expect(own.locator("svg[role=img] polyline")).to_have_count(1, timeout=WAIT)
    expect(own.locator(".count-table tbody tr")).to_have_count(2)
    expect(top.locator(".chips")).to_have_text("61,000", timeout=WAIT)
    assert_not_reloaded(lobby)
    assert_not_reloaded(phone)

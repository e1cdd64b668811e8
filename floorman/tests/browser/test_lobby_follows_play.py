"""The lobby TV through the end of a night (issue 16, item 4).

The TV is switched on once and never touched. On the bubble the director announces
hand-for-hand (RP-8): the TV says so, with the hand, the tables still playing it and
the bubble, and follows each table's report. Later the tables come down to the final
table (RP-9), and the last bust ends the event: the TV shows the winner and the
results, and no clock that has nothing left to count.
"""

import pytest
from playwright.sync_api import expect

from clock import services as clock_services
from clock.tests import factories as clock_factories
from floorman.tests.browser.conftest import (
    WAIT,
    assert_not_reloaded,
    log_in,
    mark_as_loaded,
    open_page,
    press,
)
from floorman.tests.browsers import NEEDS_CHROMIUM, TABLET, TV
from hands import services as hands
from prizes import services as prize_services
from seating import services as seating
from tournaments.tests import factories

pytestmark = [pytest.mark.postgres, NEEDS_CHROMIUM]

NAMES = [
    "Anna Berger",
    "Jörg Müller",
    "Chris Moneymaker",
    "Vanessa Selbst",
    "Erik Seidel",
    "Maria Ho",
    "Daniel Negreanu",
    "Liv Boeree",
    "Fedor Holz",
]


def seated_event(layout: dict[int, int]):
    """`layout`: table number → players, seated from seat 1; the clock started (which
    starts the event). Set up with the services: the desk and the draw are
    test_event_night.py's story."""
    event = factories.tournament(name="Saturday Night", table_size=6)
    clock_factories.with_structure(event)
    places = [(table, seat) for table, players in layout.items() for seat in range(1, players + 1)]
    # Everyone registers before the first seat is taken: after it, the desk seats them.
    entries = [factories.register(event, name).entry for name in NAMES[: len(places)]]
    for table in layout:
        seating.table_add(actor=None, tournament_id=event.pk, number=table, seats=6)
    for entry, (table, seat) in zip(entries, places, strict=True):
        seating.entry_move(
            actor=None, tournament_id=event.pk, entry_id=entry.pk, to_table=table, to_seat=seat
        )
    clock_services.clock_act(actor=None, tournament_id=event.pk, action="start")
    return event, entries


def test_the_lobby_shows_hand_for_hand_and_follows_the_tables(live, chromium):
    event, _entries = seated_event({1: 3, 2: 3, 3: 3})
    for table in (1, 2, 3):
        hands.button_set(actor=None, tournament_id=event.pk, number=table, button=1)
    hands.h4h_settings_update(actor=None, tournament_id=event.pk, data={"places_paid": 6})
    factories.staff("director", "td-maria")
    factories.staff("dealer", "dealer-dana")

    lobby = open_page(chromium, live, TV)
    lobby.goto(f"/lobby/{event.pk}/")
    expect(lobby.locator("[data-field=level_title]")).to_have_text("Level 1")
    expect(lobby.locator("[data-field=h4h]")).to_be_hidden()
    mark_as_loaded(lobby)

    # RP-8 A: nine left, six paid. The director announces hand-for-hand.
    td = open_page(chromium, live)
    log_in(td, "td-maria")
    td.goto(f"/tournaments/{event.pk}/hand-for-hand/")
    td.get_by_role("button", name="Start hand-for-hand").click()

    status = lobby.locator("[data-field=status]")
    expect(status).to_have_text("Hand-for-hand", timeout=WAIT)  # not just "Clock paused"
    panel = lobby.locator("[data-field=h4h]")
    expect(panel).to_be_visible()
    expect(panel.locator("[data-field=h4h_hand]")).to_have_text("Hand-for-hand hand 1")
    expect(panel.locator("[data-field=h4h_playing]")).to_have_text(
        "Tables still playing the hand: 1, 2, 3"
    )
    expect(panel.locator("[data-field=h4h_bubble]")).to_have_text(
        "The bubble: 9 players left, 6 places paid"
    )

    # Table 1 plays its hand and reports it done; the TV waits for tables 2 and 3.
    tablet = open_page(chromium, live, TABLET, has_touch=True)
    log_in(tablet, "dealer-dana")
    tablet.goto(f"/tournaments/{event.pk}/tables/1/tablet/")
    press(tablet, "Start hand 1")
    press(tablet, "Hand 1 done")

    expect(panel.locator("[data-field=h4h_playing]")).to_have_text(
        "Tables still playing the hand: 2, 3", timeout=WAIT
    )
    assert_not_reloaded(lobby)


def test_the_lobby_shows_the_final_table_then_the_winner_and_no_clock(live, chromium):
    event, entries = seated_event({1: 2, 2: 2})
    prize_services.payouts_update(actor=None, tournament_id=event.pk, lines=[30000, 10000])
    factories.staff("director", "td-maria")

    lobby = open_page(chromium, live, TV)
    lobby.goto(f"/lobby/{event.pk}/")
    expect(lobby.locator("[data-field=level_title]")).to_have_text("Level 1")
    expect(lobby.locator("[data-field=players]")).to_have_text("4 left of 4")
    expect(lobby.locator("[data-field=stage]")).to_be_hidden()
    mark_as_loaded(lobby)

    # RP-9: table 2 breaks and its players join table 1, the final table.
    td = open_page(chromium, live)
    log_in(td, "td-maria")
    td.goto(f"/tournaments/{event.pk}/seating/")
    td.locator("#table-2").get_by_role("link", name="Break…").click()
    td.get_by_role("button", name="Break the table").click()
    expect(td.locator(".messages")).to_contain_text("Table 2 broken")
    expect(lobby.locator("[data-field=stage]")).to_have_text("Final table", timeout=WAIT)

    # The floor busts Vanessa, Chris and Jörg in turn: Anna is left, and no more can come.
    td.goto(f"/tournaments/{event.pk}/entries/")
    for entry in reversed(entries[1:]):
        row = td.locator(f"#entry-{entry.number}")
        row.get_by_role("button", name="Bust").click()
        expect(td.locator(f"#entry-{entry.number} .badge")).to_have_text("Busted")

    expect(lobby.locator("[data-field=winner]")).to_have_text("Winner: Anna Berger", timeout=WAIT)
    expect(lobby.locator("[data-field=status]")).to_have_text("Tournament finished")
    results = lobby.locator("[data-field=results] li")
    expect(results.first).to_contain_text("Anna Berger")
    expect(results.first).to_contain_text("€300.00")
    expect(results.nth(1)).to_contain_text("Jörg Müller")
    # No stale clock, next level, players or average: the event is over.
    expect(lobby.locator(".clock-panel")).to_be_hidden()
    expect(lobby.locator("[data-field=players]")).to_be_hidden()
    expect(lobby.locator("[data-field=stage]")).to_be_hidden()
    assert_not_reloaded(lobby)

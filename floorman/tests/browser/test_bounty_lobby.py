"""The lobby TV of a knockout event (issue 18): the bounty pool stands beside the prize
pool, apart from it, once the screen's script has drawn it."""

import pytest
from playwright.sync_api import expect

from clock.tests import factories as clock_factories
from floorman.tests.browser.conftest import open_page
from floorman.tests.browsers import NEEDS_CHROMIUM, TV
from tournaments.tests import factories

pytestmark = [pytest.mark.postgres, NEEDS_CHROMIUM]


def test_the_lobby_shows_the_bounty_pool_apart_from_the_prize_pool(live, chromium):
    event = factories.tournament(name="Knockout Night", bounty_format="knockout", bounty=5_000)
    clock_factories.with_structure(event)
    factories.register(event, "Anna Berger")

    lobby = open_page(chromium, live, TV)
    lobby.goto(f"/lobby/{event.pk}/")
    expect(lobby.locator(".facts [data-field=prize_pool]")).to_have_text("€100.00")
    expect(lobby.locator(".facts [data-field=bounty_pool]")).to_have_text("€50.00")
    expect(lobby.locator(".facts [data-field=bounty_pool_fact]")).to_be_visible()
    expect(lobby.locator("[data-field=level_title]")).to_have_text("Level 1")  # script ran
    expect(lobby.locator(".facts [data-field=bounty_pool]")).to_have_text("€50.00")


def test_the_lobby_of_an_event_without_bounties_shows_no_bounty_pool(live, chromium):
    event = factories.tournament(name="Freezeout")
    clock_factories.with_structure(event)
    factories.register(event, "Anna Berger")

    lobby = open_page(chromium, live, TV)
    lobby.goto(f"/lobby/{event.pk}/")

    expect(lobby.locator(".facts [data-field=prize_pool]")).to_have_text("€100.00")
    expect(lobby.locator(".facts [data-field=bounty_pool_fact]")).to_be_hidden()

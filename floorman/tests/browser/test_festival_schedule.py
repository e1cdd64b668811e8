"""A festival's public schedule (issue 17, item 1): the director makes a series and puts
events into it with their numbers; a player's phone opens the schedule without logging
in, in German, and sees each event with its status; when an event starts, the phone
shows it running without a reload (the series' socket)."""

from datetime import datetime, time, timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from floorman.tests.browser.conftest import assert_not_reloaded, log_in, mark_as_loaded, open_page
from floorman.tests.browsers import NEEDS_CHROMIUM, PHONE
from tournaments.tests import factories

pytestmark = [pytest.mark.postgres, NEEDS_CHROMIUM]


def day(offset: int, hour: int) -> datetime:
    """`offset` days from today at `hour`, in the house's time zone."""
    moment = datetime.combine(timezone.localdate() + timedelta(days=offset), time(hour))
    return timezone.make_aware(moment)


def test_a_director_builds_the_schedule_and_a_phone_follows_an_event_starting(live, chromium):
    opening = factories.tournament(name="Opening Deepstack", start_at=day(1, 18))
    for name in ("Anna Berger", "Jörg Müller"):
        factories.register(opening, name)
    main = factories.tournament(name="Main Event", start_at=day(3, 12), status="planned")
    factories.staff("director", "td-maria")

    td = open_page(chromium, live)
    log_in(td, "td-maria")
    td.locator("nav.mainnav").get_by_role("link", name="Series", exact=True).click()
    td.get_by_role("link", name="New series").click()
    td.get_by_label("Name", exact=True).fill("Spring Festival")
    td.get_by_label("Short name").fill("spring")
    td.get_by_label("Venue").fill("Casino Wien")
    td.get_by_label("First day").fill(str(timezone.localdate()))
    td.get_by_label("Last day").fill(str(timezone.localdate() + timedelta(days=6)))
    td.get_by_role("button", name="Save").click()
    expect(td.locator(".messages")).to_contain_text("Series created.")

    for event, number in ((opening, "1"), (main, "3")):
        td.get_by_label("Event", exact=True).select_option(str(event.pk))
        td.get_by_label("Event number").fill(number)
        td.get_by_role("button", name="Put into the series").click()
        expect(td.locator(".messages")).to_contain_text("The event is in the series.")
    expect(td.locator("main table")).to_contain_text("Event #1")
    expect(td.locator("main table")).to_contain_text("Event #3")

    # A player's phone, in German, nobody logged in.
    phone = open_page(chromium, live, size=PHONE, locale="de-DE")
    phone.goto("/schedule/spring/")
    expect(phone.locator("h1")).to_have_text("Spring Festival")
    expect(phone.locator(".kicker")).to_have_text("Spielplan")
    first = phone.locator(f'[data-tournament="{opening.pk}"]')
    later = phone.locator(f'[data-tournament="{main.pk}"]')
    expect(first).to_contain_text("Event #1")
    expect(first.locator("[data-field=status]")).to_have_text("Registrierung offen")
    expect(later).to_contain_text("Event #3")
    expect(later.locator("[data-field=status]")).to_have_text("Geplant")
    expect(first).to_contain_text("110,00")  # buy-in with its fee, German money
    mark_as_loaded(phone)

    # The director starts the opening event; the phone sees it running, no reload.
    td.get_by_role("link", name="Opening Deepstack").click()
    td.get_by_role("button", name="Start tournament").click()
    expect(td.locator("h1 .badge")).to_have_text("Running")

    expect(first.locator("[data-field=status]")).to_have_text("Läuft")
    expect(later.locator("[data-field=status]")).to_have_text("Geplant")
    assert_not_reloaded(phone)

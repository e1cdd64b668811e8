"""Every page kind, scanned by axe-core in English and German (issue 21).

The places the scans visit: an evening in play (test_screenshots' event: three tables, a
hand dealt, a player out), a knockout event with a bounty won, a festival's main event
with two flights bagged and a series with its schedule. Shared by the staff scan and the
public scan (test_accessibility_staff.py, test_accessibility_public.py).
"""

from dataclasses import dataclass
from datetime import timedelta

from django.utils import timezone

from floorman.tests.browser.axe import violations
from floorman.tests.browser.conftest import log_in, open_page
from floorman.tests.browser.test_screenshots import event_in_play
from hands.services.busts import entry_bust
from hands.services.tables import tablet_link_create
from seating import services as seating
from seating.tests.factories import add_tables
from tournaments.services import series as series_services
from tournaments.tests import factories
from tournaments.tests.festival_factories import bagged, enter, event_with_flights, player

LANGUAGES = ("en-GB", "de-DE")


@dataclass
class Places:
    event: int  # the evening in play
    entry: int  # the number of one of its entries still in
    player: int
    knockout: int  # the knockout event, one bounty won
    festival: int  # the main event with flights 1A and 1B
    flight: int  # its Day 1A, over and bagged
    series: int
    series_slug: str
    tablet_token: str
    director: int


def places() -> Places:
    event, entries = event_in_play()
    director = factories.staff("director", "td-maria")
    knockout = factories.tournament(name="Knockout Night", bounty_format="knockout", bounty=5_000)
    anna, bo = (factories.register(knockout, name).entry for name in ("Anna Berger", "Bo Lind"))
    add_tables(knockout, 1, first=10)  # the room numbers its tables across events
    seating.seating_draw(actor=None, tournament_id=knockout.pk)
    entry_bust(actor=None, tournament_id=knockout.pk, entry_id=bo.pk, eliminators=[anna.pk])
    festival, (day_a, day_b) = event_with_flights("1A", "1B", flight_end_level=8)
    bagged(day_a, {enter(day_a, player("Dana Weiß")): 30_000})
    bagged(day_b, {enter(day_b, player("Eli Cohen")): 52_000})
    series = series_services.series_add(
        actor=None,
        data={
            "name": "Spring Festival",
            "slug": "spring",
            "venue": "Casino Wien",
            "starts_on": timezone.localdate(),
            "ends_on": timezone.localdate() + timedelta(days=6),
        },
    )
    series_services.series_event_set(
        actor=None, tournament_id=event.pk, series_id=series.pk, series_number=1
    )
    link = tablet_link_create(actor=None, tournament_id=event.pk, number=1)
    return Places(
        event=event.pk,
        entry=entries[1].number,
        player=entries[0].player_id,
        knockout=knockout.pk,
        festival=festival.pk,
        flight=day_a.pk,
        series=series.pk,
        series_slug=series.slug,
        tablet_token=link.token,
        director=director.pk,
    )


def scan(browser, server, paths, *, size, username=None, **options) -> list[str]:
    """Each path in English and in German, as a person with that language in their
    browser (signed in as `username`, if given): the serious and critical violations."""
    found = []
    for locale in LANGUAGES:
        page = open_page(browser, server, size, locale=locale, **options)
        if username:
            log_in(page, username)
        for path in paths:
            page.goto(path)
            found += [f"{locale} {path}: {line}" for line in violations(page)]
        page.context.close()
    return found

"""Issue 8, faults: the web process restarts while the clock runs. Lobby screens
reconnect by themselves and show the same time as the clock, within a second."""

import json
import signal
import urllib.request

import pytest

from clock.services import clock_act
from clock.tests.factories import with_structure
from floorman.tests import servers
from floorman.tests.browsers import NEEDS_CHROMIUM, TV, chromium  # noqa: F401 - fixture
from tournaments.tests.factories import tournament

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True), NEEDS_CHROMIUM]

RECONNECT_TIMEOUT = 15.0  # seconds: a restart plus live.js's backoff (up to 4 s by then)


def clock_seconds_left(web: servers.Process, tournament_id: int) -> int:
    url = f"{web.url}/api/v1/tournaments/{tournament_id}/clock/"
    with urllib.request.urlopen(url, timeout=5) as response:
        return json.load(response)["seconds_left"]


def shown_seconds(page) -> int:
    """The lobby's big clock, "19:58" or "1:05:00", in seconds."""
    text = page.locator('[data-field="clock"]').text_content(timeout=5000).strip()
    seconds = 0
    for part in text.split(":"):
        seconds = seconds * 60 + int(part)
    return seconds


def screen_agrees(page, web: servers.Process, tournament_id: int) -> bool:
    return abs(shown_seconds(page) - clock_seconds_left(web, tournament_id)) <= 1


def offline_banner_shown(page) -> bool:
    return page.locator('[data-field="offline"]').is_visible()


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGKILL], ids=["restart", "crash"])
def test_lobby_screen_reconnects_after_a_web_restart_and_shows_the_clock(
    chromium,  # noqa: F811 - the fixture
    started,
    stop,
):
    event = tournament(status="running")
    with_structure(event)
    clock_act(actor=None, tournament_id=event.pk, action="start")
    web = started(servers.web_server())
    screen = chromium.new_context(viewport=TV).new_page()
    screen.goto(f"{web.url}/lobby/{event.pk}/")
    servers.wait_until(
        lambda: screen_agrees(screen, web, event.pk), 5, "the screen did not show the clock"
    )

    web.stop(stop)
    servers.wait_until(
        lambda: offline_banner_shown(screen), 5, "the screen did not notice the lost connection"
    )
    # While the web process is down the director adds a minute from another process
    # (another web worker, the admin): the screen misses that event and must catch up.
    clock_act(actor=None, tournament_id=event.pk, action="adjust", seconds=60)
    web.start()

    servers.wait_until(
        lambda: not offline_banner_shown(screen),
        RECONNECT_TIMEOUT,
        "the screen did not reconnect",
    )
    servers.wait_until(
        lambda: screen_agrees(screen, web, event.pk),
        2,
        "the reconnected screen did not catch up with the clock",
    )
    # The clock still runs on the screen, and stays in step with the server.
    screen.wait_for_timeout(1500)
    assert abs(shown_seconds(screen) - clock_seconds_left(web, event.pk)) <= 1
    screen.context.close()

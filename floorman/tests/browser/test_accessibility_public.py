"""The pages players and the room see pass axe-core's WCAG 2.2 AA scan, in English and
German (issue 21): the lobby screens in each layout, the phone pages, the public results,
the festival's schedule, the login and the page for a wrong address."""

import pytest

from floorman.tests.browser.accessibility import places, scan
from floorman.tests.browsers import LAPTOP, NEEDS_CHROMIUM, PHONE, TV

pytestmark = [pytest.mark.postgres, NEEDS_CHROMIUM, pytest.mark.timeout(600)]


def test_every_lobby_layout_passes_the_scan(live, chromium):
    p = places()
    t = p.event
    screens = [
        f"/lobby/{t}/",
        f"/lobby/{t}/?layout=payouts",
        f"/lobby/{t}/?layout=seating",
        f"/lobby/{t}/?layout=leaders",
        f"/lobby/{t}/seating/",
        f"/lobby/{p.knockout}/",
        f"/lobby/{p.festival}/",
        f"/lobby/?t={t},{p.knockout}",
        f"/lobby/series/{p.series_slug}/",
        f"/schedule/{p.series_slug}/tv/",
    ]
    assert scan(chromium, live, screens, size=TV) == []


def test_every_phone_page_passes_the_scan(live, chromium):
    p = places()
    t = p.event
    phone = [
        f"/seat/{t}/",
        f"/seat/{t}/?q=mueller",
        f"/seat/{t}/?q=nobody-of-that-name",
        f"/tournaments/{t}/entries/{p.entry}/",
        f"/results/{t}/",
        f"/results/{p.knockout}/",
        f"/schedule/{p.series_slug}/",
        "/rules/",
        "/rules/11/",
        "/tournaments/",
        "/no-such-page/",
    ]
    assert scan(chromium, live, phone, size=PHONE, is_mobile=True, has_touch=True) == []
    assert scan(chromium, live, ["/login/", f"/results/{t}/"], size=LAPTOP) == []

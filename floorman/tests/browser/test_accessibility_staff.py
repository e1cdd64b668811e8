"""The staff's pages of an event pass axe-core's WCAG 2.2 AA scan, in English and German (issue 21):
no serious or critical violation on any page of an event a director, the floor, the desk
or the cage opens, the dealer's tablet among them. The house's own pages (structures, rules,
staff, series): test_accessibility_house.py."""

import pytest

from floorman.tests.browser.accessibility import places, scan
from floorman.tests.browsers import LAPTOP, NEEDS_CHROMIUM, TABLET

pytestmark = [pytest.mark.postgres, NEEDS_CHROMIUM, pytest.mark.timeout(600)]


def event_pages(p) -> list[str]:
    """A tournament's own pages, and those of a knockout event and a festival's."""
    t, f = p.event, p.festival
    event = f"/tournaments/{t}"
    return [
        "/tournaments/",
        "/tournaments/new/",
        "/tournaments/players/",
        "/tournaments/templates/",
        "/tournaments/import/td3/",  # issue 22
        f"/tournaments/players/{p.player}/history/",
        f"{event}/",
        f"{event}/edit/",
        f"{event}/desk/",
        f"{event}/entries/",
        f"{event}/alternates/",
        f"{event}/payouts/",
        f"{event}/results/",
        f"{event}/webhooks/",
        f"{event}/deal/",
        f"{event}/copy/",
        f"{event}/house-settings/",
        f"{event}/clock/",
        f"{event}/structure/",
        f"{event}/seating/",
        f"{event}/seating/balance/",
        f"{event}/seating/move/",
        f"{event}/seating/settings/",
        f"{event}/seating/break-order/",
        f"{event}/seating/tables/1/seats/1/",
        f"{event}/seating/print/seat-cards/",
        f"{event}/seating/print/by-name/",
        f"{event}/seating/print/by-table/",
        f"{event}/counts/",
        f"{event}/hand-for-hand/",
        f"{event}/floor/",
        f"{event}/audit/",
        f"{event}/tables/1/tablet/links/",
        f"/tournaments/{p.knockout}/bounties/",
        f"/tournaments/{p.knockout}/entries/",
        f"/tournaments/{f}/flights/",
        f"/tournaments/{f}/day2/",
        f"/tournaments/{p.flight}/flight-end/",
        f"/tournaments/{p.flight}/flight-end/tags/",
    ]


def test_every_page_of_an_event_passes_the_scan(live, chromium):
    p = places()
    assert scan(chromium, live, event_pages(p), size=LAPTOP, username="td-maria") == []


def test_the_dealers_tablet_passes_the_scan(live, chromium):
    p = places()
    tablet = [f"/tournaments/{p.event}/tables/1/tablet/", f"/tablet/{p.tablet_token}/"]
    assert scan(chromium, live, tablet, size=TABLET, username="td-maria", has_touch=True) == []

"""The house's pages pass axe-core's WCAG 2.2 AA scan, in English and German (issue 21):
the blind structures and chip sets, the rules and calculators, the house's settings, a
player's record, the series, the staff and the API keys. An event's own pages:
test_accessibility_staff.py."""

import pytest

from floorman.tests.browser.accessibility import places, scan
from floorman.tests.browsers import LAPTOP, NEEDS_CHROMIUM

pytestmark = [pytest.mark.postgres, NEEDS_CHROMIUM, pytest.mark.timeout(600)]


def house_pages(p) -> list[str]:
    return [
        "/structures/",
        "/structures/new/",
        "/structures/generate/",
        "/structures/import/",
        "/chipsets/",
        "/chipsets/new/",
        "/rules/",
        "/rules/calculators/",
        "/rules/house/",
        "/rules/house-settings/",
        "/rules/11/",
        f"/players/{p.player}/record/",
        "/series/",
        "/series/new/",
        f"/series/{p.series}/",
        "/staff/",
        "/staff/new/",
        f"/staff/{p.director}/",
        "/account/password/",
        "/keys/",
    ]


def test_every_page_of_the_house_passes_the_scan(live, chromium):
    p = places()
    assert scan(chromium, live, house_pages(p), size=LAPTOP, username="td-maria") == []

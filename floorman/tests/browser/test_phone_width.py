"""Every page fits a phone's width: the floor works from phones (issue 7), and a page
that scrolls sideways hides its buttons off the screen.

A director opens every page of the security world (security_world.py) on a phone. Wide
tables scroll sideways inside their own box (.table-scroll), the page around them stays
put; the test fails for any page wider than the screen and names what sticks out.
"""

import pytest

from floorman.tests.browser.conftest import log_in, open_page
from floorman.tests.browsers import NEEDS_CHROMIUM, PHONE
from floorman.tests.security_world import build_world, routes, staff_user

pytestmark = [pytest.mark.postgres, NEEDS_CHROMIUM]

NOT_PAGES = ("/api/", "/admin/", "/static/", "/ws/", "/logout/")

# What reaches past the right edge without a box around it that scrolls or clips (an
# absolutely placed element may escape its box, so it is always named).
STICKING_OUT = """() => {
  const boxed = e => {
    if (getComputedStyle(e).position === "absolute") return false;  // may escape its box
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== "visible") return true;
    }
    return false;
  };
  return [...document.body.querySelectorAll("*")]
    .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1 && !boxed(e))
    .slice(0, 3)
    .map(e => `${e.tagName.toLowerCase()}.${e.className}`);
}"""


# German words run longer than English ones: a page that fits in German fits in English.
@pytest.mark.parametrize("language", ["de-DE"])
def test_no_page_scrolls_sideways_on_a_phone(live, chromium, language):
    world = build_world()
    phone = open_page(chromium, live, PHONE, locale=language)
    log_in(phone, staff_user(world, "director").username)
    wide, pages = [], 0

    for route in routes(world.ids):
        if route.path.startswith(NOT_PAGES):
            continue
        response = phone.request.get(route.path, max_redirects=0)
        if response.status != 200 or "<html" not in response.text():
            continue  # not a page: JSON, a file, or a piece another page loads (htmx)
        phone.goto(route.path, wait_until="load")
        assert phone.locator("html").get_attribute("lang") == language[:2], route.path
        pages += 1
        width = phone.evaluate("document.documentElement.scrollWidth")
        if width > PHONE["width"]:
            wide.append(f"{route.path}: {width} px, {phone.evaluate(STICKING_OUT)}")

    assert pages > 50, f"only {pages} pages opened: did the world lose its pages?"
    assert not wide, "\n".join(wide)

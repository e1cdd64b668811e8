"""Full names where staff need them (issue 16, item 7): the dealer's tablet, the table
map and the lobby TV's seating board showed "Nina Rei…" and "Wolfgang Sch…", the board
with half its panel empty. A name wraps, takes a smaller size, or the room the panel
has; it is never cut off or ended with an ellipsis.

And (issue 15) a name with direction controls is isolated wherever staff screens show
it, so that it cannot turn the text beside it: in an element that isolates it (<bdi>,
or a cell that is a paragraph of its own), or between FSI and PDI where no element can
hold it (an <option>).
"""

import pytest
from playwright.sync_api import Page, expect

from clock import services as clock_services
from clock.tests import factories as clock_factories
from floorman.tests.browser.conftest import log_in, open_page
from floorman.tests.browser.test_screenshots import board_fits
from floorman.tests.browsers import LAPTOP, NEEDS_CHROMIUM, TABLET, TV
from hands.services import busts as bust_services
from seating import services as seating
from tournaments.tests import factories

pytestmark = [pytest.mark.postgres, NEEDS_CHROMIUM]

# Names of a real field: long ones, double-barrelled ones.
LONG_NAMES = [
    "Nina Reinholdt-Kowalczyk",
    "Wolfgang Schwarzenberger",
    "Maximiliane Hinterberger-Lang",
    "Bartholomäus Oberndorfer",
    "Krzysztof Wojciechowski",
    "Alexandra Papadopoulou",
    "Oluwaseun Adebayo-Okonkwo",
    "Jörg Müller",
    "Anna Berger",
]
# A right-to-left override at the start of a name: unisolated, it would turn the seat
# number and the text after it around.
TURNING = "\u202eSara Levi"


def event_with(*tables: list[str], table_size: int = 9):
    """Tables 1, 2, ... of `table_size`, each with its players in seats 1, 2, ... in the
    order given; the clock running."""
    event = factories.tournament(name="Saturday Night Deepstack", table_size=table_size)
    clock_factories.with_structure(event)
    # Everyone registers first: a table in play would give each a late seat (TDA 8-A).
    entries = [[factories.register(event, name).entry for name in names] for names in tables]
    for number, at_table in enumerate(entries, start=1):
        seating.table_add(actor=None, tournament_id=event.pk, number=number, seats=table_size)
        for seat, entry in enumerate(at_table, start=1):
            seating.entry_move(
                actor=None, tournament_id=event.pk, entry_id=entry.pk, to_table=number, to_seat=seat
            )
    factories.registration_closed(event)
    clock_services.clock_act(actor=None, tournament_id=event.pk, action="start")
    return event, [entry for at_table in entries for entry in at_table]


# The elements matching `selector` whose text does not fit: wider than their box (cut,
# or ended with an ellipsis), or reaching past a box around them that clips.
CUT = """(selector) => {
  const cut = [];
  for (const e of document.querySelectorAll(selector)) {
    const text = e.textContent.trim();
    if (e.scrollWidth > e.clientWidth + 1) { cut.push(text); continue; }
    const right = e.getBoundingClientRect().right;
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      const clips = getComputedStyle(a).overflowX !== "visible";
      if (clips && right > a.getBoundingClientRect().right + 1) {
        cut.push(text); break;
      }
    }
  }
  return cut;
}"""


def names_cut(page: Page, selector: str) -> list[str]:
    assert page.locator(selector).count() > 0, f"nothing matches {selector}"
    return page.evaluate(CUT, selector)


# Where `name` is shown: the innermost elements holding its text, each as [tag, whether
# it or an element just around the name isolates it, the element's whole text].
ISOLATION = """(name) => {
  const isolating = (e) => ["isolate", "plaintext", "isolate-override"]
    .includes(getComputedStyle(e).unicodeBidi);
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.data.includes(name)) continue;
    const e = node.parentElement;
    if (e.tagName === "OPTION" || e.tagName === "SCRIPT") continue;  // text only: FSI/PDI
    found.push([e.tagName, isolating(e) && e.textContent.trim() === name, e.textContent.trim()]);
  }
  return found;
}"""


def assert_isolated(page: Page, name: str, where: str) -> int:
    """Every place `page` shows `name` isolates it; returns how many there are."""
    found = page.evaluate(ISOLATION, name)
    assert found, f"{where}: {name!r} is not shown"
    loose = [f for f in found if not f[1]]
    assert not loose, f"{where}: not isolated: {loose}"
    return len(found)


def test_full_names_on_the_dealer_tablet(live, chromium):
    event, _entries = event_with(LONG_NAMES)
    factories.staff("dealer", "dealer-dana")
    tablet = open_page(chromium, live, TABLET, has_touch=True)
    log_in(tablet, "dealer-dana")

    tablet.goto(f"/tournaments/{event.pk}/tables/1/tablet/")

    expect(tablet.locator(".ring")).to_contain_text("Nina Reinholdt-Kowalczyk")
    assert names_cut(tablet, ".ring-name") == []
    tablet.get_by_text("Bust a player now", exact=True).click()
    expect(tablet.locator(".bust-toggle").first).to_be_visible()
    assert names_cut(tablet, ".bust-toggle .result-name") == []


@pytest.mark.parametrize("size", [LAPTOP, TABLET, TV], ids=["laptop", "tablet", "tv"])
def test_full_names_on_the_table_map(live, chromium, size):
    event, _entries = event_with(LONG_NAMES)
    factories.staff("director", "td-maria")
    td = open_page(chromium, live, size)
    log_in(td, "td-maria")

    td.goto(f"/tournaments/{event.pk}/seating/")

    expect(td.locator("#table-1")).to_contain_text("Wolfgang Schwarzenberger")
    assert names_cut(td, ".seat.taken .who") == []


SHORT_NAMES = [
    "Ada Ek",
    "Ben Ho",
    "Cem Oz",
    "Dora Li",
    "Eli Sun",
    "Fay Wu",
    "Gil Ng",
    "Hal Ito",
    "Ida Roy",
    "Jan Lund",
    "Kai Ma",
    "Lea Paz",
    "Mo Chen",
    "Ned Fox",
    "Ola Berg",
]


@pytest.mark.parametrize("layout", ["?layout=seating", "seating/"])
def test_full_names_on_the_tv_seating_board(live, chromium, layout):
    """Twenty players, five of them with long names: too few cut off for the board to
    give up a column, so those five were cut ("Wolfgang Sch…"). Now each fits."""
    names = SHORT_NAMES + LONG_NAMES[:5]
    event, _entries = event_with(names[:10], names[10:], table_size=10)
    tv = open_page(chromium, live, TV)

    tv.goto(f"/lobby/{event.pk}/{layout}")

    expect(tv.locator(".seat-column td.n")).to_have_count(len(names))
    expect(tv.locator(".seat-column td.n", has_text="Wolfgang Schwarzenberger")).to_be_visible()
    assert names_cut(tv, ".seat-column td.n") == []
    board_fits(tv, ".side.seating" if "layout" in layout else ".seat-screen")


def test_a_full_board_of_long_names_on_the_tv(live, chromium):
    """Thirty long names beside the clock: each fits, in a smaller size or in the space
    of one column, and the rows stay on the screen."""
    names = [f"{name} {n}" for n in range(1, 5) for name in LONG_NAMES[:8]]
    event, _entries = event_with(names[:10], names[10:20], names[20:30], table_size=10)
    tv = open_page(chromium, live, TV)

    tv.goto(f"/lobby/{event.pk}/?layout=seating")

    expect(tv.locator(".side.seating td.n").first).to_be_visible()
    assert names_cut(tv, ".side.seating td.n") == []
    board_fits(tv, ".side.seating")


def test_names_that_turn_text_are_isolated_on_staff_screens(live, chromium):
    """Sara's name starts with a right-to-left override. Every staff screen that shows it
    keeps it in an isolating element: the tablet, the table map, the seat page, the move
    and the print sheets; the tablet's "Players in and out", written by its script from
    a live event, too."""
    event, entries = event_with(["Anna Berger", TURNING, "Jörg Müller"], table_size=6)
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=entries[2].pk)
    factories.staff("director", "td-maria")
    factories.staff("dealer", "dealer-dana")
    t = event.pk

    tablet = open_page(chromium, live, TABLET, has_touch=True)
    log_in(tablet, "dealer-dana")
    tablet.goto(f"/tournaments/{t}/tables/1/tablet/")
    expect(tablet.locator(".ring")).to_contain_text("Sara Levi")
    # The ring and the bust buttons; Jörg in the busts list.
    assert assert_isolated(tablet, TURNING, "tablet") >= 2
    assert assert_isolated(tablet, "Jörg Müller", "tablet, busts") >= 1
    options = tablet.locator("select[name=button] option").all_text_contents()
    assert any(o.endswith("\u2068\u202eSara Levi\u2069") for o in options), options

    td = open_page(chromium, live, LAPTOP)
    log_in(td, "td-maria")
    for path in (
        f"/tournaments/{t}/seating/",
        f"/tournaments/{t}/seating/tables/1/seats/2/",
        f"/tournaments/{t}/seating/print/by-name/",
        f"/tournaments/{t}/seating/print/by-table/",
        f"/tournaments/{t}/seating/print/seat-cards/",
    ):
        td.goto(path)
        assert_isolated(td, TURNING, path)

    # The TD moves Sara to seat 5: the tablet's script lists the move from the live event.
    td.goto(f"/tournaments/{t}/seating/move/?entry={entries[1].number}")
    td.get_by_label("To seat").select_option("1-5")
    td.locator("main").get_by_role("button", name="Move", exact=True).click()
    expect(td.locator("table.moves")).to_contain_text("1-5")
    assert_isolated(td, TURNING, "the move's page")
    td.get_by_role("link", name="Move slips").click()
    expect(td.locator(".slip")).to_have_count(1)
    assert_isolated(td, TURNING, "move slips")

    changes = tablet.locator("[data-tablet=change_list]")
    expect(changes).to_contain_text("Sara Levi")
    assert_isolated(tablet, TURNING, "tablet after the move")

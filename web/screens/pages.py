"""A lobby page's parts: one event's board and the screen's config, and one event's lobby
rendered once per version (issue 20): the page this process rendered at the versions of
its numbers and at the clock's state, the moment's values put in at each request
(`lobby_shared`)."""

import json
import re
import secrets

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from clock.selectors import clock_public_of
from floorman.versions import local_cached
from tournaments.models import Tournament
from web.screens.numbers import LobbyNumbers, lobby_numbers, lobby_numbers_at, lobby_with_clock
from web.screens.texts import first_paint, moment_texts, screen_strings

LAYOUTS = ("clock", "payouts", "seating", "bounties", "leaders")
# TDA 23: how long a screen says that the new level applies from the next hand.
NEW_LEVEL_NOTICE_SECONDS = 60
# As django.utils.html.json_script escapes JSON in a script element.
JSON_SCRIPT_ESCAPES = {ord(">"): "\\u003E", ord("<"): "\\u003C", ord("&"): "\\u0026"}


# --- Pages ---------------------------------------------------------------------------


def board_data(tournament: Tournament) -> dict:
    """One tournament on a screen: its state, and where to resync it from."""
    found = lobby_numbers(tournament.pk)
    if found is None:  # gone since the caller read it
        raise Http404(_("No such tournament."))
    return board_of(tournament.pk, found, clock_public_of(found.row))


def board_of(tournament_id: int, found: LobbyNumbers, clock: dict) -> dict:
    """board_data from the tournament's numbers and its clock at this moment."""
    return {
        "id": tournament_id,
        "clock": clock,
        "lobby": lobby_with_clock(found.numbers, clock),
        "urls": {
            "clock": reverse("clock", kwargs={"tournament_pk": tournament_id}) + "?steps=1",
            "data": reverse("screens:data", kwargs={"tournament_id": tournament_id}),
            "socket": f"/ws/tournaments/{tournament_id}/",  # web.asgi routes it
        },
    }


def layout_of(request) -> str:
    layout = request.GET.get("layout", "")
    return layout if layout in LAYOUTS else "clock"


def screen_render(
    request, template: str, boards: list[dict], *, every: int | None, extra: dict | None = None
):
    return render(request, template, screen_context(request, boards, every=every, extra=extra))


def screen_context(
    request, boards: list[dict], *, every: int | None, extra: dict | None = None
) -> dict:
    config = screen_config(request, boards, every=every, extra=extra)
    return {
        "config": config,
        "layout": config["layout"],
        "board": boards[0],
        "lobby": boards[0]["lobby"],
        "text": first_paint(boards[0], config["strings"]),
        "count": len(boards),
        **(extra or {}),
    }


def screen_config(
    request, boards: list[dict], *, every: int | None, extra: dict | None = None
) -> dict:
    """What clock.js starts from (the page's "lobby-config")."""
    layout = layout_of(request)
    if layout == "leaders" and not (extra or {}).get("leaders"):
        layout = "clock"  # the leaders show on one event's screen, not a rotating one
    return {
        "boards": boards,
        "every": every,
        "layout": layout,
        "notice_seconds": NEW_LEVEL_NOTICE_SECONDS,
        "strings": screen_strings(),
    }


# --- One event's lobby, rendered once per version (issue 20) --------------------------

# The layouts that show nothing but the event's numbers and clock: their page is rendered
# once per version of both and per state of the clock (its status and level), by each
# process, and only the moment's values are put in at each request (`MOMENT`).
SHARED_LAYOUTS = ("clock", "payouts", "bounties")
# The clock's values that change with every second, in the state clock.js starts from.
CLOCK_MOMENT = ("seconds_left", "ms_left", "ends_at", "seconds_to_break", "server_time")
# Stand-ins for the moment's values in the rendered page: the texts of the time left and
# of the time to the break, and CLOCK_MOMENT. Random: no name a director types holds one.
MOMENT_TEXTS = ("clock", "to_break")
MOMENT = {name: f"moment-{name}-{secrets.token_hex(16)}" for name in (*MOMENT_TEXTS, *CLOCK_MOMENT)}


def clock_state(clock: dict) -> str:
    """What a page shows of the clock beyond the moment's values: its status and the
    level in play (which a running clock rolls into by itself, with no new version)."""
    return f"{clock['status']}:{(clock['level'] or {}).get('position')}"


def lobby_shared(request, tournament_id: int) -> HttpResponse | None:
    """The lobby page of an event that stands alone, in a layout of SHARED_LAYOUTS: the
    page this process rendered at the versions of its numbers and at the clock's state,
    with the moment's values put in; no query when both are kept. None: not such an event
    (the caller renders the page whole). Never stale: a change renews a version
    (floorman.versions), and a new level or a pause changes the clock's state; either
    names another page."""
    versions, found = lobby_numbers_at(tournament_id)
    if found is None:
        raise Http404(_("No such tournament."))
    if not found.alone:
        return None
    now = timezone.now()  # one reading: the page's state is the moment's
    clock = clock_public_of(found.row, now, steps=False)
    key = f"lobby-page:{tournament_id}:{get_language()}:{layout_of(request)}:{clock_state(clock)}"
    parts = local_cached(
        key, versions, lambda: _page_with_stand_ins(request, tournament_id, found, now)
    )
    return HttpResponse(_moment_put(parts, clock))


def _page_with_stand_ins(
    request, tournament_id: int, found: LobbyNumbers, now
) -> tuple[list[str], list[str]]:
    """The lobby page cut where the moment's values go (MOMENT): its parts between them,
    and which value goes after each part but the last."""
    clock = clock_public_of(found.row, now)
    stood = {**clock, **{name: MOMENT[name] for name in CLOCK_MOMENT}}
    context = screen_context(
        request, [board_of(tournament_id, found, clock)], every=None, extra={"festival": None}
    )
    context["text"] = {**context["text"], "clock": MOMENT["clock"], "to_break": MOMENT["to_break"]}
    context["config"] = screen_config(request, [board_of(tournament_id, found, stood)], every=None)
    page = render_to_string("clock/lobby.html", context, request)
    # JSON writes a stand-in as a string: its quotes go with it.
    found_at = re.compile(
        "|".join(f'"{MOMENT[name]}"' for name in CLOCK_MOMENT)
        + "|"
        + "|".join(MOMENT[name] for name in MOMENT_TEXTS)
    )
    by_stand_in = {value: name for name, value in MOMENT.items()}
    parts, names = [], []
    start = 0
    for match in found_at.finditer(page):
        parts.append(page[start : match.start()])
        names.append(by_stand_in[match.group(0).strip('"')])
        start = match.end()
    parts.append(page[start:])
    return parts, names


def _moment_put(parts: tuple[list[str], list[str]], clock: dict) -> str:
    """The page with the moment's values put in: the texts as the template escapes them,
    the clock's values as json_script writes them."""
    texts, names = parts
    values = {name: escape(text) for name, text in moment_texts(clock).items()}
    for name in CLOCK_MOMENT:
        values[name] = json.dumps(clock[name]).translate(JSON_SCRIPT_ESCAPES)
    out = [texts[0]]
    for name, text in zip(names, texts[1:], strict=True):
        out += (values[name], text)
    return "".join(out)

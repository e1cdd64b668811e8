"""Public seating pages: the seat lookup for phones, the seating board for lobby screens,
and the live seat on a player's own page (the receipt's QR code).

Public and read-only: no login, no contact data, a couple of light queries per request
(a lobby full of phones asks at the same moment when a table breaks). Pages embed their
state so they read right before any script runs; static/js/seats.js then applies the
"seating.updated" deltas the seating services publish, and fetches the full state once
whenever its socket (re)connects.
"""

from functools import lru_cache

import segno
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from floorman.inputs import search_text
from floorman.names import name_isolated
from floorman.ratelimit import LOOKUP, rate_limited
from floorman.versions import cut, pages_cached
from seating.models import Seat
from seating.selectors import board_rows, entry_seat, lookup_version, seat_lookup, seating_version
from tournaments.models import Entry, EntryStatus, Tournament
from tournaments.selectors import flights_flagged

LOOKUP_MAX_LENGTH = 60  # longer than any name a player types on a phone
LOOKUP_LIMIT = 20
NAME_MIN_LENGTH = 2  # one letter would match half the field
NUMBER_MAX_DIGITS = 9  # entry numbers never get longer; longer input matches nothing

# The full-screen board: (least, most, default). Sized for a 1080p TV read from 5 m.
BOARD_COLUMNS = (1, 6, 3)
BOARD_ROWS = (5, 40, 15)
BOARD_EVERY = (5, 120, 12)  # seconds per page
# The board beside the clock on the lobby screen (web.screens, ?layout=seating).
SIDE_COLUMNS, SIDE_ROWS, SIDE_EVERY = 2, 16, 10


def _tournament(tournament_id: int) -> Tournament:
    # A flight names its event, an event with flights lists them (issue 17): known here.
    fields = ("pk", "name", "status", "lookup_version", "created_at", "parent", "flight_name")
    return get_object_or_404(flights_flagged(Tournament.objects.only(*fields)), pk=tournament_id)


# --- Reads (public fields only) --------------------------------------------------------


# --- The seat lookup (phones, works without JS) ---------------------------------------


def lookup_query(raw: str) -> tuple[str, str, str]:
    """The search text from ?q=, and an error (the request is wrong: 400) or a hint
    (the search cannot be answered well: say how to ask)."""
    if len(raw) > LOOKUP_MAX_LENGTH:
        error = _("That is too long. Type a name (up to %(max)s characters) or an entry number.")
        return "", error % {"max": LOOKUP_MAX_LENGTH}, ""
    text = "".join(c for c in search_text(raw, max_length=LOOKUP_MAX_LENGTH) if c.isprintable())
    bare = text.lstrip("#").strip()
    if not text:
        return "", "", ""
    if not any(c.isalnum() for c in bare):
        return text, _("Type a name or an entry number."), ""
    if not bare.isdecimal() and len(bare) < NAME_MIN_LENGTH:
        return text, "", _("Type at least two letters of the name, or the entry number.")
    return text, "", ""


def _result(tournament_id: int, row: dict) -> dict:
    if row["status"] == EntryStatus.ACTIVE:
        state = "seated" if row["table"] is not None else "waiting"
    else:
        state = row["status"]  # busted or disqualified: no seat any more
    return {
        **row,
        "state": state,
        "status_label": EntryStatus(row["status"]).label,
        "url": reverse("tournaments:entry-public", args=[tournament_id, row["number"]]),
    }


@never_cache
@require_safe
@rate_limited(LOOKUP, counts=lambda request: bool(request.GET.get("q")))  # searches only
def lookup(request, tournament_id: int):
    """Where do I sit? /seat/<tournament>/?q=<name or entry number>"""
    tournament = _tournament(tournament_id)
    query, error, hint = lookup_query(request.GET.get("q", ""))
    results, more = [], False
    searchable = query and not error and not hint
    bare = query.lstrip("#").strip()
    if searchable and not (bare.isdecimal() and len(bare) > NUMBER_MAX_DIGITS):
        found = seat_lookup(
            tournament.pk, query, limit=LOOKUP_LIMIT + 1, version=lookup_version(tournament)
        )
        more = len(found) > LOOKUP_LIMIT
        results = [_result(tournament.pk, row) for row in found[:LOOKUP_LIMIT]]
    context = {
        "tournament": tournament,
        "query": query,
        "error": error,
        "hint": hint,
        "searched": bool(searchable),
        "results": results,
        "more": more,
        "limit": LOOKUP_LIMIT,
        "max_length": LOOKUP_MAX_LENGTH,
    }
    return render(request, "seating/public/lookup.html", context, status=400 if error else 200)


# --- A player's own page: the live seat --------------------------------------------


def entry_live_strings() -> dict[str, str]:
    """Every text the player's page shows when its seat changes, translated."""
    return {
        "not_seated": _("not seated yet"),
        "moved": _(
            "You have been moved: from table %(from_table)s, seat %(from_seat)s. "
            "Take all your chips to your new seat."
        ),
        "seated": _("Your seat has been drawn: table %(table)s, seat %(seat)s."),
        "freed": _("Your seat is no longer held."),
        "sound_on": _("Sound and vibration are on for seat changes."),
        "title_moved": _("Moved: table %(table)s, seat %(seat)s"),
        "statuses": {value: str(label) for value, label in EntryStatus.choices},
    }


def entry_socket(tournament_id: int, entry_id: int) -> str:
    """A player's page hears its entry's seat and status here (web.asgi routes it)."""
    return f"/ws/tournaments/{tournament_id}/entries/{entry_id}/"


def entry_live(entry: Entry) -> dict:
    """The seat of an entry and what its page's script needs to keep it live."""
    seat = (
        Seat.objects.filter(entry_id=entry.pk)
        .values_list("table__number", "number", "wait_for_button")
        .first()
    )
    table, number, wait = seat or (None, None, False)
    return {
        "entry": entry.pk,
        "number": entry.number,
        "state": {"status": entry.status, "table": table, "seat": number, "wait_for_button": wait},
        "urls": {
            "data": reverse(
                "seats:entry-data",
                kwargs={"tournament_id": entry.tournament_id, "number": entry.number},
            ),
            # Its own entry's socket (web.consumers.EntryConsumer), not the tournament's.
            "socket": entry_socket(entry.tournament_id, entry.pk),
        },
        "strings": entry_live_strings(),
    }


@never_cache
@require_safe
def entry_data(request, tournament_id: int, number: int):
    """The player's page resyncs from here after its socket reconnects (public JSON)."""
    row = entry_seat(tournament_id, number)
    if row is None:
        return JsonResponse({"error": "not_found"}, status=404)
    return JsonResponse(row)


# --- The seating board (lobby screens) ----------------------------------------------


def board_strings() -> dict[str, str]:
    """Every text the board's script shows, translated; %(name)s filled in there."""
    return {
        "page": _("Page %(page)s of %(pages)s"),
        "range": _("%(first)s – %(last)s"),
        "empty": _("The seating board is shown here once the tables are set up."),
        # JS picks the form by number; these two cover English and German.
        "count_one": ngettext("%(count)s player seated", "%(count)s players seated", 1),
        "count_other": ngettext("%(count)s player seated", "%(count)s players seated", 2),
        "name": _("Name"),
        "table": _("Table"),
        "seat": _("Seat"),
    }


def _count_text(strings: dict, count: int) -> str:
    return strings["count_one" if count == 1 else "count_other"] % {"count": count}


def board_page(tournament: Tournament, *, per_page: int, page: int) -> dict:
    """One page of the board (`per_page` seated players, alphabetically): its rows, the
    field's count and the number of pages. The first request at a seating version reads
    the field once and files every page of that size in the shared cache: the other
    pages, and every other process, take theirs from there (issue 20)."""

    def build() -> list:
        seats = board_rows(tournament.pk)
        return [(len(seats), rows) for rows in cut(seats, per_page)]

    key = f"board:{seating_version(tournament)}:{per_page}"
    (count, seats), page, pages = pages_cached(key, page, build)
    return {"page": page, "pages": pages, "count": count, "seats": seats}


def seating_board(
    tournament: Tournament, *, columns: int, rows: int, every: int, page: int = 1
) -> dict:
    """The board as a page shows it before its script runs (`page` of the alphabet, in
    columns), and the script's config: that page's seated players, the sizes, the texts.
    The script turns the pages by asking the server for each (board_data): a page holds
    what one screen shows, never the whole field (issue 20)."""
    strings = board_strings()
    per_page = columns * rows
    found = board_page(tournament, per_page=per_page, page=page)
    shown, pages, count = found["seats"], found["pages"], found["count"]
    page = found["page"]
    return {
        "columns": [shown[i : i + rows] for i in range(0, len(shown), rows)],
        "count": count,
        "count_text": _count_text(strings, count),
        "page_text": strings["page"] % {"page": page, "pages": pages} if pages > 1 else "",
        "range_text": (
            strings["range"]
            % {"first": name_isolated(shown[0]["name"]), "last": name_isolated(shown[-1]["name"])}
            if pages > 1 and shown
            else ""
        ),
        "strings": strings,
        # The columns this field needs (as seats.js usedColumns): a small field's names
        # get the panel's width rather than half of it (issue 16).
        "style": f"--columns: {max(1, min(columns, -(-count // rows)))}; --rows: {rows}",
        "config": {
            "id": tournament.pk,
            "seats": shown,
            "count": count,
            "columns": columns,
            "rows": rows,
            "every": every,
            "page": page,
            "strings": strings,
            "urls": {
                "data": reverse("seats:board-data", kwargs={"tournament_id": tournament.pk}),
                "socket": f"/ws/tournaments/{tournament.pk}/",
            },
        },
    }


def _bounded(query, name: str, bounds: tuple[int, int, int]) -> int:
    least, most, default = bounds
    raw = query.get(name, "").strip()
    if not raw:
        return default
    if not (raw.isascii() and raw.isdigit() and least <= int(raw) <= most):
        raise ValueError(
            _("%(name)s runs from %(least)s to %(most)s: &%(name)s=%(default)s")
            % {"name": name, "least": least, "most": most, "default": default}
        )
    return int(raw)


def board_query(query) -> tuple[int, int, int]:
    """?columns=3&rows=15&every=12 → (3, 15, 12); ValueError with the reason otherwise."""
    return (
        _bounded(query, "columns", BOARD_COLUMNS),
        _bounded(query, "rows", BOARD_ROWS),
        _bounded(query, "every", BOARD_EVERY),
    )


def side_board(tournament: Tournament, query) -> dict:
    """The board beside the clock on the lobby screen (web.screens, ?layout=seating).
    It takes ?columns=&rows=&every= as the full board does; a wrong value falls back to
    the default, since the clock beside it must show whatever the address says."""
    sizes = []
    for name, bounds, default in (
        ("columns", BOARD_COLUMNS, SIDE_COLUMNS),
        ("rows", BOARD_ROWS, SIDE_ROWS),
        ("every", BOARD_EVERY, SIDE_EVERY),
    ):
        try:
            sizes.append(_bounded(query, name, bounds) if query.get(name) else default)
        except ValueError:
            sizes.append(default)
    columns, rows, every = sizes
    return seating_board(tournament, columns=columns, rows=rows, every=every)


def _page(query) -> int:
    raw = query.get("page", "")
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 6 else 1


@never_cache
@require_safe
def board(request, tournament_id: int):
    """The seating board for a lobby TV: /lobby/<tournament>/seating/
    (?columns=3&rows=15&every=12; ?page=2 shows that page first)."""
    tournament = _tournament(tournament_id)
    try:
        columns, rows, every = board_query(request.GET)
    except ValueError as error:
        context = {"tournament": tournament, "error": str(error)}
        return render(request, "seating/public/board.html", context, status=400)
    seating = seating_board(
        tournament, columns=columns, rows=rows, every=every, page=_page(request.GET)
    )
    context = {
        "tournament": tournament,
        "seating": seating,
        "lookup": _lookup_link(request, tournament.pk),
    }
    return render(request, "seating/public/board.html", context)


def _lookup_link(request, tournament_id: int) -> dict:
    """The seat lookup's address for the board's corner: a QR code and short text."""
    url = request.build_absolute_uri(
        reverse("seats:lookup", kwargs={"tournament_id": tournament_id})
    )
    return {"url": url, "text": url.split("://", 1)[-1], "qr": mark_safe(_qr_svg(url))}


@lru_cache(maxsize=64)
def _qr_svg(url: str) -> str:
    """The QR code of an address, drawn once per process (it cost more than the rest of
    a board's page; issue 20). Dark on white with a quiet zone, so phones read it off a
    dark screen."""
    return segno.make(url, error="m").svg_inline(scale=4, border=2, light="#fff", omitsize=True)


# A page of the board's data holds at most what the largest board shows.
BOARD_PER_PAGE = (1, BOARD_COLUMNS[1] * BOARD_ROWS[1], BOARD_COLUMNS[2] * BOARD_ROWS[2])


@never_cache
@require_safe
def board_data(request, tournament_id: int):
    """A page of the board, for a screen that turns to it or resyncs (public JSON:
    ?page=2&per=45; one query, and one more for the first at a seating version)."""
    tournament = _tournament(tournament_id)
    try:
        per_page = _bounded(request.GET, "per", BOARD_PER_PAGE)
    except ValueError as error:
        return JsonResponse({"error": "invalid", "detail": str(error)}, status=400)
    found = board_page(tournament, per_page=per_page, page=_page(request.GET))
    return JsonResponse({"id": tournament.pk, "name": tournament.name, **found})

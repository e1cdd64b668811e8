"""Public lobby screens: the clock, the numbers and the director's announcements;
hand-for-hand on the bubble (RP-8), the final table (RP-9), and once the event is over
its winner and results instead of a clock (issue 16).

A page embeds the full state (the clock and the lobby's numbers) so that it is right
before its websocket connects; static/js/clock.js then derives the countdown on every
frame from that state and the offset to server time, rolls over into the next levels
by itself, and resyncs from the API whenever its socket (re)connects. Nothing here
ticks. Public and read-only: no contact data, ever.

Issue 20: one event's lobby and its data answer from what is kept at the versions of its
numbers (`lobby_numbers_at`), with no query: the page is rendered once per version and
state of the clock by each process, and the moment's values are put in at each request
(`lobby_shared`).
"""

from django.db.models import Q
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from clock.selectors import clock_public_of
from floorman.versions import local_cached
from seating.views.public import side_board
from tournaments.models import Series, Tournament, TournamentStatus
from tournaments.selectors import flights_flagged
from tournaments.templatetags.festival import festival_view
from web.screens.leaders import leaders_data
from web.screens.numbers import lobby_numbers_at, lobby_with_clock
from web.screens.pages import (
    SHARED_LAYOUTS,
    board_data,
    clock_state,
    layout_of,
    lobby_shared,
    screen_render,
)

ROTATE_MAX = 12
LEADERS_LOBBY = 10  # the chip leaders a TV shows beside the clock
EVERY_MIN, EVERY_MAX, EVERY_DEFAULT = 10, 300, 20  # seconds per tournament
ID_DIGITS = 18  # as the "id" path converter


# --- An event with flights (issue 17) -------------------------------------------------

# What changes the event's counts, heard on the event's socket: its flights' changes come
# as "overview.changed" (floorman.live), its own are Day 2's entries. A flight's lobby
# listens there too: the event's total changes with every flight.
EVENT_CHANGES = "overview.changed entry.registered entry.updated"


def festival_lobby(tournament: Tournament, *, rotation: bool = False) -> dict | None:
    """A flight's lobby names its event and shows the flight's entries and the event's in
    all; an event's lobby, until Day 2 begins, its flights (entries, survivors) and the
    chip leaders from the bags. Where the screen fetches it again when told
    (static/js/festival.js: one fetch, no polling). On a rotating screen (`rotation`)
    each event's part has an id of its own and shows with its clock (clock.js)."""
    festival = festival_view(tournament, event_totals=True)
    if festival is None:
        return None
    overview = festival.get("overview")
    if overview is not None and overview["day2"] is not None:
        return None  # Day 2's lobby is the event's own: the clock and its field
    event_id = tournament.parent_id or tournament.pk
    url = reverse("screens:festival", kwargs={"tournament_id": tournament.pk})
    return {
        **festival,
        "part": f"festival-{tournament.pk}" if rotation else "festival",
        "rotation_of": tournament.pk if rotation else None,
        "url": url + "?rotation=1" if rotation else url,
        "socket": f"/ws/tournaments/{event_id}/",  # web.asgi routes it
        "kinds": EVENT_CHANGES,
    }


def festivals_rotating(tournaments: list[Tournament]) -> list[dict]:
    """The flights panels of a rotating screen's events with flights (`has_flights`
    annotated: nothing asked of the others), each hidden until its clock shows."""
    festivals = []
    for index, tournament in enumerate(tournaments):
        if tournament.parent_id is not None:
            continue  # a flight's own part names its event: the single lobby's
        festival = festival_lobby(tournament, rotation=True)
        if festival is not None:
            festivals.append({**festival, "hidden": index > 0})
    return festivals


@never_cache
@require_safe
def lobby_festival(request, tournament_id: int):
    """The lobby's festival part again, for its screen to swap in (public HTML)."""
    tournament = get_object_or_404(flights_flagged(Tournament.objects.all()), pk=tournament_id)
    festival = festival_lobby(tournament, rotation=request.GET.get("rotation") == "1")
    return render(request, "clock/_festival.html", {"festival": festival})


@never_cache
@require_safe
def lobby(request, tournament_id: int):
    """One tournament, full screen; ?layout=clock|payouts|seating. The seating layout
    shows the seating board beside the clock (static/js/seats.js keeps it live). A flight
    names its event; an event with flights shows them beside the clock (issue 17)."""
    if layout_of(request) in SHARED_LAYOUTS:
        page = lobby_shared(request, tournament_id)
        if page is not None:
            return page
    # Whether it has flights comes with the row: no query more for an event without.
    tournament = get_object_or_404(flights_flagged(Tournament.objects.all()), pk=tournament_id)
    extra = {"festival": festival_lobby(tournament)}
    if layout_of(request) == "seating":  # ?columns=2&rows=16&every=10 size the board
        extra["seatings"] = [side_board(tournament, request.GET)]
    if layout_of(request) == "leaders":  # issue 18: the chip leaders beside the clock
        extra["leaders"] = leaders_lobby(tournament)
    return screen_render(
        request, "clock/lobby.html", [board_data(tournament)], every=None, extra=extra
    )


# --- Chip leaders (issue 18) ----------------------------------------------------------

# What changes the leaders, heard on the tournament's socket: a count, a bust or a sale,
# a hand's result (its table's event), a new level (the big blinds).
LEADERS_CHANGES = "counts.updated entry.updated entry.registered table.updated clock.level"


def leaders_lobby(tournament: Tournament) -> dict:
    """The lobby's chip leaders part (static/js/festival.js fetches it again when told);
    a house that keeps its counts private shows that it does, and no counts."""
    if not tournament.chip_counts_public:
        return {"private": True}
    return {**leaders_data(tournament, limit=LEADERS_LOBBY), "kinds": LEADERS_CHANGES}


@never_cache
@require_safe
def lobby_leaders(request, tournament_id: int):
    """The lobby's chip leaders part again, for its screen to swap in (public HTML)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    return render(request, "clock/_leaders.html", {"leaders": leaders_lobby(tournament)})


@never_cache
@require_safe
def lobby_data_view(request, tournament_id: int):
    """What the lobby shows beyond the clock, for a screen's resync (public JSON): from
    the shared cache, no query, while the tournament is unchanged (issue 20)."""
    versions, found = lobby_numbers_at(tournament_id)
    if found is None:
        raise Http404(_("No such tournament."))
    clock = clock_public_of(found.row, steps=False)
    # Nothing in it changes with the moment: its JSON is written once per version and
    # state of the clock (the average's big blind is the level's), by each process.
    key = f"lobby-data:{tournament_id}:{get_language()}:{clock_state(clock)}"
    body = local_cached(
        key, versions, lambda: JsonResponse(lobby_with_clock(found.numbers, clock)).content
    )
    return HttpResponse(body, content_type="application/json")


def rotation_query(query) -> tuple[list[int], int]:
    """?t=1,2,3&every=20 → ([1, 2, 3], 20); ValueError with the reason when malformed."""
    parts = [p.strip() for p in query.get("t", "").split(",")]
    if parts == [""]:
        raise ValueError(_("Say which tournaments to show: ?t=1,2,3"))
    if len(parts) > ROTATE_MAX:
        raise ValueError(_("At most %(max)s tournaments per screen.") % {"max": ROTATE_MAX})
    if not all(p.isascii() and p.isdigit() and len(p) <= ID_DIGITS for p in parts):
        raise ValueError(_("Tournaments are given by their numbers: ?t=1,2,3"))
    ids = list(dict.fromkeys(int(p) for p in parts))  # each once, in the order given
    every = query.get("every", "").strip() or str(EVERY_DEFAULT)
    if not (every.isascii() and every.isdigit() and EVERY_MIN <= int(every) <= EVERY_MAX):
        raise ValueError(
            _("Show each tournament for %(min)s to %(max)s seconds: &every=20")
            % {"min": EVERY_MIN, "max": EVERY_MAX}
        )
    return ids, int(every)


@never_cache
@require_safe
def rotate(request):
    """One screen for several tournaments in turn: ?t=1,2,3&every=20 (&layout=...)."""
    try:
        ids, every = rotation_query(request.GET)
    except ValueError as error:
        return render(request, "clock/rotate.html", {"error": str(error)}, status=400)
    # Whether each has flights comes with the rows: no query more for events without.
    found = flights_flagged(Tournament.objects.all()).in_bulk(ids)
    if len(found) != len(ids):
        raise Http404(_("No such tournament."))
    boards = [board_data(found[pk]) for pk in ids]
    extra = {}
    if layout_of(request) == "seating":  # each tournament's board shows in its turn
        extra["seatings"] = [side_board(found[pk], request.GET) for pk in ids]
    else:  # an event's flights show with its clock (issue 17)
        extra["festivals"] = festivals_rotating([found[pk] for pk in ids])
    return screen_render(request, "clock/rotate.html", boards, every=every, extra=extra)


@never_cache
@require_safe
def series_lobby(request, slug: str):
    """A series' running events in turn (issue 17), each shown for the series' rotation
    seconds: the rotating screen with its events. With none running, a page that says
    so. Either reloads once the set of running events changes (static/js/series-lobby.js,
    on the series' socket)."""
    series = Series.objects.filter(slug=slug, public=True).first()
    if series is None:
        raise Http404(_("No such series."))
    running = list(
        flights_flagged(Tournament.objects.all())
        .filter(Q(series=series) | Q(parent__series=series), status=TournamentStatus.RUNNING)
        .order_by("start_at", "id")[:ROTATE_MAX]
    )
    watch = {
        "socket": f"/ws/series/{series.pk}/",  # web.asgi routes it
        "running": [tournament.pk for tournament in running],
    }
    if not running:
        context = {"series": series, "watch": watch}
        return render(request, "clock/series_idle.html", context)
    boards = [board_data(tournament) for tournament in running]
    extra = {"series": series, "watch": watch}
    if layout_of(request) != "seating":  # an event's flights show with its clock (issue 17)
        extra["festivals"] = festivals_rotating(running)
    return screen_render(
        request, "clock/series_lobby.html", boards, every=series.rotate_seconds, extra=extra
    )

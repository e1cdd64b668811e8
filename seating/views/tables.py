"""The TD's seating pages: the table map, tables and seats, the draw, moves, balancing
(TDA 11), breaking (TDA 10-B), the final table (RP-9), undo, printouts and the house
settings. Thin views: each POST calls one service through `floorman.pages.service_call`;
whatever harms play (breaking, removing, undoing, the final table, balancing) is asked
again on a page of its own first, so every page works without JavaScript.
"""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.formats import time_format
from django.utils.timezone import localtime
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from floorman.errors import Conflict
from floorman.names import name_isolated
from floorman.pages import role_required, safe_next, service_call
from floorman.roles import MANAGE_TOURNAMENTS, SEATING, user_has_role
from floorman.versions import cut, pages_cached, screen_version
from seating import engine, services
from seating.engine import PLAN_KEY_MAX
from seating.engine.breaking import BreakPlan, BreakShare
from seating.forms import (
    BalanceForm,
    BreakOrderForm,
    DrawForm,
    FinalTableForm,
    HaltWaiveForm,
    MoveForm,
    SeatingSettingsForm,
    SeatSetForm,
    TableAddForm,
    UndoForm,
)
from seating.messages import refusal_message, undo_line, undo_summary, undone_lines
from seating.models import Move, Seat, SeatingAction, Table
from seating.selectors import (
    HOUSE_KEYS,
    final_size,
    open_tables,
    seating_public,
    seating_settings,
    seating_version,
    undo_moves,
    undo_plan,
    unseated_entries,
)
from tournaments.house import BY_KEY
from tournaments.models import Entry, EntryStatus, Tournament
from tournaments.selectors import house_settings

RECENT_ACTIONS = 8
# Why the map's halted tables halt, by the house setting "halting" (tournaments.house).
HALT_REASONS = {
    engine.HALT_TDA: gettext_lazy(
        "three or more players short of the fullest table (TDA 11-D). Halt once the big "
        "blind reaches an empty seat, until the table is balanced."
    ),
    engine.HALT_SHORT_HANDED: gettext_lazy(
        "two or more players short of the fullest table (TDA 11-D, this house's reading "
        "for 6-handed and turbo events). Halt once the big blind reaches an empty seat, "
        "until the table is balanced."
    ),
    engine.HALT_BELOW_FOUR: gettext_lazy(
        "fewer than four players once registration has closed (casino §14)."
    ),
    engine.HALT_FREE_SEATS: gettext_lazy(
        "three or more free seats while another table has more players (older TDA 25)."
    ),
}


def _tournament(tournament_id: int) -> Tournament:
    return get_object_or_404(Tournament, pk=tournament_id)


def _open_table(tournament: Tournament, number: int) -> Table:
    return get_object_or_404(Table, tournament=tournament, number=number, broken_at=None)


def _map_url(tournament_id: int, number: int | None = None) -> str:
    url = reverse("seating:map", args=[tournament_id])
    return f"{url}?table={number}#table-{number}" if number else url


def _action_url(action: SeatingAction) -> str:
    return reverse("seating:action", args=[action.tournament_id, action.pk])


def _seats(tournament_id: int, *, seated_only: bool = False) -> list[dict]:
    """Every seat of the open tables with its occupant, in one query, table by table."""
    rows = Seat.objects.filter(
        table__tournament_id=tournament_id, table__broken_at__isnull=True
    ).order_by("table__number", "number")
    if seated_only:
        rows = rows.filter(entry__isnull=False)
    fields = ("table", "seat", "blocked", "accessible", "wait", "entry", "number", "name")
    return [
        dict(zip(fields, row, strict=True))
        for row in rows.values_list(
            "table__number",
            "number",
            "blocked",
            "accessible",
            "wait_for_button",
            "entry_id",
            "entry__number",
            "entry__player__name",
        )
    ]


def _seats_by_table(seats: list[dict]) -> dict[int, list[dict]]:
    """The rows of `_seats`, table number -> that table's seats."""
    tables: dict[int, list[dict]] = {}
    for seat in seats:
        tables.setdefault(seat["table"], []).append(seat)
    return tables


def _form_page(request, template: str, tournament: Tournament, form, *, status=None, **context):
    """A seating page around a form: answered with 400 while the form shows errors
    (`status` for a refusal that is not the form's fault, e.g. 409)."""
    return render(
        request,
        template,
        {"tournament": tournament, "here": "seating", "form": form, **context},
        status=status or (400 if form.errors else 200),
    )


# The seating lists in pages (issue 20): a page a screen or a few A4 sheets hold, each
# filed once per seating version (floorman.versions.pages_cached) for every process.
NAMES_PER_PAGE = 250
TABLES_PER_PAGE = 25
MAP_TABLES_PER_PAGE = 20  # the table map's cards


def _page_number(query) -> int:
    raw = query.get("page", "")
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 6 else 1


def pager(request, page: int, pages: int) -> dict:
    """Links to the other pages of a list: previous, next and every page by number."""
    base = request.path

    def link(n: int) -> str:
        return f"{base}?page={n}"

    return {
        "page": page,
        "pages": pages,
        "previous": link(page - 1) if page > 1 else "",
        "next": link(page + 1) if page < pages else "",
        "links": [(n, link(n)) for n in range(1, pages + 1)] if pages > 1 else [],
    }


# --- The table map ---------------------------------------------------------------------


def _planned(moves, people: dict[int, dict]) -> list[dict]:
    """Planned balancing moves with the names of those already known."""
    return [
        {"move": move, "who": people.get(move.entry) if move.entry is not None else None}
        for move in moves
    ]


def _break_needs(players: int, free_elsewhere: int, free_spare: int) -> str:
    """What breaking a table in play takes, told on its card before anyone asks (issue
    16): "" (its players fit at the other tables in play), "a table" (an empty table
    opens for them) or "room" (they fit nowhere). The confirmation names the details."""
    if players <= free_elsewhere:
        return ""
    return "a table" if players <= free_elsewhere + free_spare else "room"


# Numbers no table or seat has: placeholders for `_link_format`.
_SENTINELS = (987654321987654321, 876543210876543210)
TABLE_LINKS = {
    "tablet": "hands:tablet",
    "tablet_link": "hands:tablet-links",
    "break": "seating:table-break",
    "remove": "seating:table-remove",
    "halt": "seating:halt-waive",
}


def _link_format(name: str, tournament_id: int, numbers: int = 1) -> str:
    """The URL `name` of the tournament as a format string of its table number ({0}) and
    seat number ({1}): the map shows a link per seat and several per table, and reversing
    each of them was a third of its time at 1,000 seats (issue 16)."""
    url = reverse(name, args=[tournament_id, *_SENTINELS[:numbers]])
    for index, sentinel in enumerate(_SENTINELS[:numbers]):
        url = url.replace(f"/{sentinel}/", f"/{{{index}}}/")
    return url


def _map_context(tournament: Tournament) -> dict:
    """Everything the table map shows, in a fixed number of queries however many tables."""
    settings = seating_settings(tournament.pk)
    house = house_settings(tournament)
    plan, halted, views = services.balance_state(tournament)
    tables = list(open_tables(tournament.pk).order_by("number"))
    seats = _seats(tournament.pk)
    seat_link = _link_format("seating:seat", tournament.pk, 2)
    table_links = {key: _link_format(name, tournament.pk) for key, name in TABLE_LINKS.items()}
    for seat in seats:
        seat["url"] = seat_link.format(seat["table"], seat["seat"])
        seat["state"] = "blocked" if seat["blocked"] else "taken" if seat["entry"] else "open"
    by_table = _seats_by_table(seats)
    people = {s["entry"]: s for s in seats if s["entry"]}
    counts = {v.number: v.players for v in views}
    halted_rule = dict(halted)
    short = set(engine.short_tables(views, rule=house.table_minimum))  # casino §17
    spread = engine.spread(views) if len(views) > 1 else 0
    imbalanced = spread >= settings.balance_threshold and len(views) > 1
    most = max(counts.values(), default=0)
    fewest = min(counts.values(), default=0)
    candidate = min(views, key=lambda v: v.break_order) if len(views) > 1 else None
    fits = engine.table_to_break(views, headroom=settings.break_headroom) is not None
    final_size = engine.final_table_size(
        tournament.table_size, settings.final_table_size, rule=house.final_table
    )
    free_in_play = sum(len(v.open_seats) for v in views)
    free_spare = sum(
        1 for s in seats if s["table"] not in counts and not s["entry"] and not s["blocked"]
    )
    cards = []
    for table in tables:
        rows = by_table.get(table.number, [])
        players = counts.get(table.number, 0)
        open_seats = sum(1 for s in rows if not s["entry"] and not s["blocked"])
        cards.append(
            {
                "table": table,
                "seats": rows,
                "players": players,
                "open": open_seats,
                "break_needs": _break_needs(players, free_in_play - open_seats, free_spare),
                "halted": halted_rule.get(table.number, ""),
                "short": table.number in short,
                "over": imbalanced and players == most,
                "under": imbalanced and players == fewest,
                "breaks_next": candidate is not None and candidate.number == table.number,
                "links": {key: url.format(table.number) for key, url in table_links.items()},
            }
        )
    free_elsewhere = (
        sum(len(v.open_seats) for v in views if v.number != candidate.number) if candidate else 0
    )
    seated = sum(counts.values())
    actions = list(
        SeatingAction.objects.filter(tournament=tournament).order_by("-id")[:RECENT_ACTIONS]
    )
    return {
        "tournament": tournament,
        "here": "seating",
        "settings": settings,
        "cards": cards,
        "in_play": len(views),
        "seated": seated,
        "open_seats": sum(len(v.open_seats) for v in views),
        "unseated": len(unseated_entries(tournament.pk)),
        "plan": _planned(plan.moves, people),
        "halted": halted,
        "halt_reason": HALT_REASONS.get(house.halting, ""),
        "house": {key: BY_KEY[key].reading(getattr(house, key)) for key in HOUSE_KEYS},
        "short": sorted(short),
        "spread": spread,
        "imbalanced": imbalanced,
        "break_order": [t.number for t in sorted(tables, key=lambda t: t.break_order)],
        "next_break": candidate
        and {
            "number": candidate.number,
            "players": candidate.players,
            "free": free_elsewhere,
            "fits": fits,
        },
        "final": {
            "size": final_size,
            "due": engine.final_table_due(views, final_size),
            "players": seated,
        },
        "actions": actions,
        "undo": _map_undo(undo_plan(tournament.pk)),
        "drawn": any(a.undone_at is None for a in actions),
    }


def _map_pages(tournament: Tournament) -> list[tuple[dict, list[dict]]]:
    """The map cut into pages of MAP_TABLES_PER_PAGE tables' cards, each with the summary
    above them (the whole field's: the plan, the counts, the tables' numbers in order)."""
    context = _map_context(tournament)
    del context["tournament"]  # the request's own, read fresh
    cards = context.pop("cards")
    summary = {**context, "numbers": [card["table"].number for card in cards]}
    return [(summary, part) for part in cut(cards, MAP_TABLES_PER_PAGE)]


def _map_page(tournament: Tournament, page: int, wanted: str) -> tuple[dict, list, int, int]:
    """Page `page` of the map, or the page of table `wanted` when it is in play: its
    summary, its cards, its number and the number of pages.

    The map computes the balance plan (TDA 11) and reads every seat: at 10,000 entries
    that took longer than a request may (issue 20). It is built once per screen version
    and filed, every page, for every process and request (floorman.versions): every
    change of the tournament, a seat, a bust, a break, a balancing move, a hand dealt
    (the big blind's place, TDA 11-A), a setting, takes its lock and so renews the
    version, and the next request builds the map again. Under the language too: the
    house's readings and the undo's words are in it."""
    version = screen_version(tournament.pk)
    if version is None:  # the cache cannot be reached: built for this request alone
        built = _map_pages(tournament)
        page = min(page, len(built))
        return *built[page - 1], page, len(built)
    key = f"map:{tournament.pk}:{version}:{get_language()}:{MAP_TABLES_PER_PAGE}"
    (summary, cards), page, pages = pages_cached(key, page, lambda: _map_pages(tournament))
    numbers = summary["numbers"]
    if wanted.isascii() and wanted.isdigit() and len(wanted) < 10 and int(wanted) in numbers:
        own = numbers.index(int(wanted)) // MAP_TABLES_PER_PAGE + 1  # the table's page
        if own != page:
            (summary, cards), page, pages = pages_cached(key, own, lambda: _map_pages(tournament))
    return summary, cards, page, pages


@role_required(SEATING)
def table_map(
    request, tournament_id: int, *, add_form: TableAddForm | None = None, status: int = 200
):
    tournament = _tournament(tournament_id)
    # Issue 20: the tables' cards in pages of what a screen holds (the summary above
    # them is the whole field's); a table's own link finds its page.
    summary, cards, page, pages = _map_page(
        tournament, _page_number(request.GET), request.GET.get("table", "")
    )
    context = {**summary, "tournament": tournament, "cards": cards}
    context["cards_total"] = len(summary["numbers"])
    context["pager"] = pager(request, page, pages)
    context["refresh_url"] = request.get_full_path()
    context["is_director"] = user_has_role(request.user, MANAGE_TOURNAMENTS)
    context["add_form"] = add_form or TableAddForm(table_size=tournament.table_size)
    if add_form is not None and add_form.errors:
        status = 400
    return render(request, "seating/map.html", context, status=status)


# --- Tables and seats ----------------------------------------------------------------------


@require_POST
@role_required(SEATING)
def table_add(request, tournament_id: int):
    """Add one table, or every table of a run ("1 to 12"): each that can be added is,
    and each refusal is listed."""
    tournament = _tournament(tournament_id)
    form = TableAddForm(request.POST, table_size=tournament.table_size)
    if not form.is_valid():
        return table_map(request, tournament.pk, add_form=form)
    numbers = form.numbers()
    data = {"seats": form.cleaned_data["seats"], "accessible": form.cleaned_data["accessible"]}
    if len(numbers) == 1:
        outcome = service_call(
            request,
            services.table_add,
            form=form,
            field_map={"number": "first"},
            tournament_id=tournament.pk,
            number=numbers[0],
            **data,
        )
        if not outcome.ok:
            return table_map(request, tournament.pk, add_form=form)
        messages.success(request, _("Table %(number)s added.") % {"number": numbers[0]})
        return redirect(_map_url(tournament.pk, numbers[0]))
    added = []
    for number in numbers:
        outcome = service_call(
            request,
            services.table_add,
            flash=False,
            tournament_id=tournament.pk,
            number=number,
            **data,
        )
        if outcome.ok:
            added.append(number)
        else:
            form.add_error(None, outcome.error.message)
    if not added:
        return table_map(request, tournament.pk, add_form=form)
    messages.success(
        request,
        _("Tables added: %(numbers)s.") % {"numbers": ", ".join(map(str, added))},
    )
    for error in form.non_field_errors():
        messages.error(request, error)
    return redirect(_map_url(tournament.pk))


def _confirm(request, tournament: Tournament, *, status: int = 200, **context):
    context.setdefault("back_url", _map_url(tournament.pk))
    return render(
        request, "seating/confirm.html", {"tournament": tournament, **context}, status=status
    )


@role_required(SEATING)
@require_http_methods(["GET", "POST"])
def table_remove(request, tournament_id: int, number: int):
    tournament = _tournament(tournament_id)
    table = _open_table(tournament, number)
    if request.method == "POST":
        outcome = service_call(
            request, services.table_remove, tournament_id=tournament.pk, number=table.number
        )
        if outcome.ok:
            messages.success(request, _("Table %(number)s removed.") % {"number": table.number})
        return redirect(_map_url(tournament.pk))
    return _confirm(
        request,
        tournament,
        title=_("Remove table %(number)s?") % {"number": table.number},
        question=_("The table leaves this tournament and goes back to the venue's pool."),
        confirm_label=_("Remove the table"),
    )


@role_required(SEATING)
@require_http_methods(["GET", "POST"])
def seat_detail(request, tournament_id: int, number: int, seat: int):
    """One seat: block or open it, mark it accessible (TDA 9) or its player to be dealt
    in once the button has passed (TDA 8-A, 10-A), or move its player."""
    tournament = _tournament(tournament_id)
    row = get_object_or_404(
        Seat.objects.select_related("table", "entry__player"),
        table__tournament=tournament,
        table__broken_at=None,
        table__number=number,
        number=seat,
    )
    if request.method == "POST":
        form = SeatSetForm(request.POST)
        if form.is_valid():
            change = {form.cleaned_data["field"]: form.cleaned_data["value"]}
            outcome = service_call(
                request,
                services.seat_set,
                tournament_id=tournament.pk,
                number=number,
                seat=seat,
                **change,
            )
            if outcome.ok:
                messages.success(
                    request, _("Seat %(table)s-%(seat)s saved.") % {"table": number, "seat": seat}
                )
        else:
            messages.error(request, _("Unknown seat setting."))
        return redirect(safe_next(request, _map_url(tournament.pk, number)))
    return render(
        request,
        "seating/seat.html",
        {"tournament": tournament, "here": "seating", "seat": row, "table": row.table},
    )


@require_POST
@role_required(SEATING)
def halt_waive(request, tournament_id: int, number: int):
    """TDA 11-D: the TD may let a short table play on (and take the waiver back)."""
    tournament = _tournament(tournament_id)
    table = _open_table(tournament, number)
    form = HaltWaiveForm(request.POST)
    form.is_valid()
    waived = form.cleaned_data.get("waived", False)
    outcome = service_call(
        request,
        services.halt_waive,
        tournament_id=tournament.pk,
        number=table.number,
        waived=waived,
    )
    if outcome.ok:
        text = (
            _("Table %(number)s plays on: halt waived (TDA 11-D).")
            if waived
            else _("Table %(number)s halts again when short (TDA 11-D).")
        )
        messages.success(request, text % {"number": table.number})
    return redirect(_map_url(tournament.pk, table.number))


@role_required(SEATING)
@require_http_methods(["GET", "POST"])
def break_order(request, tournament_id: int):
    """TDA 11-C, casino §8: the predetermined order in which tables break."""
    tournament = _tournament(tournament_id)
    tables = list(open_tables(tournament.pk).order_by("break_order", "number"))
    form = BreakOrderForm(request.POST if request.method == "POST" else None, tables=tables)
    if request.method == "POST" and form.is_valid():
        outcome = service_call(
            request,
            services.break_order_set,
            form=form,
            tournament_id=tournament.pk,
            numbers=form.order(),
        )
        if outcome.ok:
            messages.success(request, _("Break order saved."))
            return redirect(_map_url(tournament.pk))
    return _form_page(request, "seating/break_order.html", tournament, form, tables=tables)


# --- The draw and moves ----------------------------------------------------------------------


@role_required(SEATING)
@require_http_methods(["GET", "POST"])
def draw(request, tournament_id: int):
    """TDA 7: seat the field at random; later draws seat late entries (TDA 8-A)."""
    tournament = _tournament(tournament_id)
    form = DrawForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        outcome = service_call(
            request,
            services.seating_draw,
            form=form,
            tournament_id=tournament.pk,
            tables=form.cleaned_data["tables"],
            keep_free=form.cleaned_data["keep_free"] or 0,
        )
        if outcome.ok:
            action, assignments = outcome.value
            messages.success(
                request,
                ngettext(
                    "%(count)s player seated at random.",
                    "%(count)s players seated at random.",
                    len(assignments),
                )
                % {"count": len(assignments)},
            )
            return redirect(_action_url(action))
    unseated = len(unseated_entries(tournament.pk))
    tables = list(open_tables(tournament.pk).order_by("-break_order"))
    first = not Seat.objects.filter(
        table__tournament=tournament, table__broken_at=None, entry__isnull=False
    ).exists()
    return _form_page(
        request,
        "seating/draw.html",
        tournament,
        form,
        unseated=unseated,
        tables=tables,
        first=first,
        needed=engine.tables_needed(unseated, tournament.table_size),
    )


def _entry_choices(tournament: Tournament) -> list[tuple[int, str]]:
    rows = (
        Entry.objects.filter(tournament=tournament, status=EntryStatus.ACTIVE)
        .order_by("player__name", "number")
        .values_list("pk", "number", "player__name", "seat__table__number", "seat__number")
    )
    choices = []
    for pk, number, name, table, seat in rows:
        where = (
            _("table %(table)s, seat %(seat)s") % {"table": table, "seat": seat}
            if table
            else _("no seat")
        )
        choices.append((pk, f"{name_isolated(name)} · #{number} · {where}"))  # issue 15
    return choices


def _open_seat_choices(tournament: Tournament) -> list[tuple[str, str]]:
    choices = []
    for seat in _seats(tournament.pk):
        if seat["entry"] or seat["blocked"]:
            continue
        label = _("Table %(table)s, seat %(seat)s") % seat
        if seat["accessible"]:
            label += " · " + _("accessible")
        choices.append((f"{seat['table']}-{seat['seat']}", label))
    return choices


@role_required(SEATING)
@require_http_methods(["GET", "POST"])
def move(request, tournament_id: int):
    """TDA 7: move a player, with the stack, to an open seat (a wrong seat, a manual move)."""
    tournament = _tournament(tournament_id)
    initial = {}
    number = request.GET.get("entry", "")
    if number.isdigit() and len(number) < 10:
        initial["entry"] = (
            Entry.objects.filter(tournament=tournament, number=int(number))
            .values_list("pk", flat=True)
            .first()
        )
    if request.GET.get("to"):
        initial["target"] = request.GET["to"][:12]
    form = MoveForm(
        request.POST or None,
        initial=initial,
        entries=_entry_choices(tournament),
        open_seats=_open_seat_choices(tournament),
    )
    if request.method == "POST" and form.is_valid():
        table, seat = form.cleaned_data["target"]
        outcome = service_call(
            request,
            services.entry_move,
            form=form,
            field_map={"entry_id": "entry"},
            tournament_id=tournament.pk,
            entry_id=form.cleaned_data["entry"],
            to_table=table,
            to_seat=seat,
            reason=form.cleaned_data["reason"],
        )
        if outcome.ok:
            return redirect(_action_url(outcome.value))
    return _form_page(request, "seating/move.html", tournament, form)


# --- Balancing, breaking, the final table ----------------------------------------------------


def _balance_tables(plan, views, people: dict[int, dict]) -> dict[int, list[tuple[int, str]]]:
    """For each table whose next big blind the plan needs: the seats to choose from.
    A table players leave offers its occupied seats; a table they join, every usable one."""
    sources = {m.from_table for m in plan.moves}
    targets = {m.to_table for m in plan.moves}
    by_number = {v.number: v for v in views}
    tables = {}
    for number in sorted(set(plan.needs_big_blind)):
        view = by_number[number]
        only_source = number in sources and number not in targets
        seats = [s for s in view.seats if s in view.occupied] if only_source else list(view.seats)
        tables[number] = [(s, _seat_label(s, view.occupied.get(s), people)) for s in seats]
    return tables


def _seat_label(seat: int, entry: int | None, people: dict[int, dict]) -> str:
    if entry is None:
        return _("Seat %(seat)s (open)") % {"seat": seat}
    who = people.get(entry, {})
    return _("Seat %(seat)s: %(name)s") % {"seat": seat, "name": name_isolated(who.get("name", ""))}


def _logged(plan, people: dict[int, dict]) -> list[dict]:
    """The tables whose seat due the big blind next the tablets logged (TDA 11-A)."""
    at = {(row["table"], row["seat"]): row for row in people.values()}
    return [
        {"table": number, "seat": seat, "who": at.get((number, seat))}
        for number, seat in sorted(plan.big_blind_next.items())
    ]


@role_required(SEATING)
@require_http_methods(["GET", "POST"])
def balance(request, tournament_id: int):
    """TDA 11-A: the seat due the big blind next comes from each table's own button and
    hand log; the TD is asked only about tables that logged neither, each answer
    pre-filled with a guess marked as such. The page shows who moves where; a second
    press applies exactly those moves (issue 16: it echoes their key), or nothing and
    the page shows the moves as they are now."""
    tournament = _tournament(tournament_id)
    plan, halted, views = services.balance_state(tournament)
    people = {s["entry"]: s for s in _seats(tournament.pk, seated_only=True)}
    form = BalanceForm(
        request.POST if request.method == "POST" else None,
        tables=_balance_tables(plan, views, people),
        guesses=dict(plan.guesses),
    )
    preview, chosen, exact, refused = None, [], plan, None
    if not form.table_numbers and plan.moves:
        # Every table involved logged its blinds (or stud, TDA 11-A): the moves are known.
        preview = _planned(plan.moves, people)
    if request.method == "POST" and form.is_valid():
        big_blind_next = form.big_blind_next()
        chosen = [(f"bb_{n}", seat) for n, seat in big_blind_next.items()]
        if request.POST.get("confirm") == "on":
            confirmed = request.POST.get("plan")
            outcome = service_call(
                request,
                services.tables_balance,
                form=form,
                field_map={f"big_blind_next.{n}": f"bb_{n}" for n in form.table_numbers},
                tournament_id=tournament.pk,
                big_blind_next=big_blind_next,
                plan=confirmed[:PLAN_KEY_MAX] if confirmed is not None else None,
            )
            if outcome.ok:
                moved = outcome.value.moves.count()
                messages.success(
                    request,
                    ngettext(
                        "Tables balanced: %(count)s player moved (TDA 11-A).",
                        "Tables balanced: %(count)s players moved (TDA 11-A).",
                        moved,
                    )
                    % {"count": moved},
                )
                return redirect(_action_url(outcome.value))
            refused = outcome.error
        # The moves as they are now: to confirm, or to confirm again after a refusal.
        exact, _halted, _views = services.balance_state(tournament, big_blind_next)
        known = exact.moves and not exact.needs_big_blind
        preview = _planned(exact.moves, people) if known else None
    settings = seating_settings(tournament.pk)
    return _form_page(
        request,
        "seating/balance.html",
        tournament,
        form,
        status=refused.http_status if refused else None,
        plan=_planned(plan.moves, people),
        plan_key=exact.key,
        logged=_logged(plan, people),
        preview=preview,
        chosen=chosen,
        halted=halted,
        settings=settings,
        counts=sorted((v.number, v.players) for v in views),
    )


def _share_text(share: BreakShare) -> str:
    """How many players one table takes: exact where the plan knows it."""
    if share.fewest == share.most:
        count = ngettext("%(count)s player", "%(count)s players", share.most) % {
            "count": share.most
        }
    elif share.fewest == 0:
        count = ngettext("up to %(count)s player", "up to %(count)s players", share.most) % {
            "count": share.most
        }
    else:
        count = _("%(fewest)s or %(most)s players") % {"fewest": share.fewest, "most": share.most}
    if share.opens:
        return _("Table %(table)s, opened for them: %(count)s") % {
            "table": share.table,
            "count": count,
        }
    return _("Table %(table)s: %(count)s") % {"table": share.table, "count": count}


def _break_page(request, tournament: Tournament, number: int, *, error=None):
    """The confirmation of a break names what it will do (issue 16): the tables that take
    the players and how many each, and any empty table it opens; or why it cannot be
    done. Shown again, with the plan as it is now, when a confirmed plan went stale."""
    context = {
        "error": error.message if error else "",
        "note": _("Staff carry the chips of a player who is away from the table (RP-16)."),
    }
    try:
        plan = services.break_preview(tournament_id=tournament.pk, number=number)
    except Conflict as refusal:
        if error and error.message == refusal.message:
            context["error"] = ""  # said once is enough
        return _confirm(
            request,
            tournament,
            status=error.http_status if error else 200,
            title=_("Table %(number)s cannot be broken") % {"number": number},
            question=refusal.message,
            **context,
        )
    title, question, label = _break_words(plan, number)
    return _confirm(
        request,
        tournament,
        status=error.http_status if error else 200,
        title=title,
        question=question,
        lines=[_share_text(share) for share in plan.shares],
        draw=_(
            "Seats are drawn by a 2-step random draw (TDA 10-B): the open seats are "
            "shuffled, then handed out in an order drawn at random. Any seat may come up, "
            "blinds and button included (TDA 10-A)."
        ),
        fields={"plan": plan.key},
        confirm_label=label,
        **context,
    )


def _break_words(plan: BreakPlan, number: int) -> tuple[str, str, str]:
    """Title, summary and button of a break's confirmation: a break that opens a table
    says so in all three."""
    if not plan.opens:
        question = ngettext(
            "Its %(players)s player gets a new seat at the tables in play; no other table opens.",
            "Its %(players)s players get new seats at the tables in play; no other table opens.",
            plan.players,
        ) % {"players": plan.players}
        return _("Break table %(number)s?") % {"number": number}, question, _("Break the table")
    words = {
        "number": number,
        "players": plan.players,
        "free": plan.free,
        "tables": ", ".join(map(str, plan.opens)),
    }
    return (
        _("Break table %(number)s and open table %(tables)s?") % words,
        ngettext(
            "Its %(players)s player does not fit at the tables in play (open seats: "
            "%(free)s): this opens table %(tables)s.",
            "Its %(players)s players do not fit at the tables in play (open seats: "
            "%(free)s): this opens table %(tables)s.",
            plan.players,
        )
        % words,
        _("Open table %(tables)s and break table %(number)s") % words,
    )


@role_required(SEATING)
@require_http_methods(["GET", "POST"])
def table_break(request, tournament_id: int, number: int):
    """TDA 10-B: break a table; its players draw new seats by a 2-step random process.
    The confirmation echoes the plan it showed: the break does exactly that or nothing."""
    tournament = _tournament(tournament_id)
    table = _open_table(tournament, number)
    if request.method == "POST":
        plan = request.POST.get("plan")
        outcome = service_call(
            request,
            services.table_break,
            flash=False,
            tournament_id=tournament.pk,
            number=table.number,
            plan=plan[:PLAN_KEY_MAX] if plan is not None else None,
        )
        if not outcome.ok:
            return _break_page(request, tournament, table.number, error=outcome.error)
        moved = outcome.value.moves.count()
        text = ngettext(
            "Table %(number)s broken: %(count)s player moved (TDA 10-B).",
            "Table %(number)s broken: %(count)s players moved (TDA 10-B).",
            moved,
        ) % {"number": table.number, "count": moved}
        opened = outcome.value.params.get("opens") or []
        if opened:
            text += " " + _("Table %(tables)s opened for them.") % {
                "tables": ", ".join(map(str, opened))
            }
        messages.success(request, text)
        return redirect(_action_url(outcome.value))
    return _break_page(request, tournament, table.number)


def _final_choices(tournament: Tournament):
    seats = _seats(tournament.pk)
    tables: dict[int, int] = {}
    for seat in seats:
        if not seat["blocked"]:
            tables[seat["table"]] = tables.get(seat["table"], 0) + 1
    orders = dict(open_tables(tournament.pk).values_list("number", "break_order"))
    table_choices = [
        (number, _("Table %(number)s (%(seats)s seats)") % {"number": number, "seats": count})
        for number, count in sorted(tables.items(), key=lambda t: -orders.get(t[0], 0))
    ]
    players = [
        (
            s["entry"],
            _("%(name)s · #%(number)s · table %(table)s, seat %(seat)s")
            % {**s, "name": name_isolated(s["name"])},
        )
        for s in seats
        if s["entry"]
    ]
    in_play = len({s["table"] for s in seats if s["entry"]})
    return table_choices, players, in_play


@role_required(SEATING)
@require_http_methods(["GET", "POST"])
def final_table(request, tournament_id: int):
    """RP-9: combine the last tables into the final table with a fresh random draw."""
    tournament = _tournament(tournament_id)
    settings = seating_settings(tournament.pk)
    tables, players, in_play = _final_choices(tournament)
    by_position = settings.final_draw == engine.FINAL_BY_POSITION
    form = FinalTableForm(
        request.POST or None, tables=tables, players=players, by_position=by_position
    )
    if request.method == "POST" and form.is_valid():
        outcome = service_call(
            request,
            services.final_table_draw,
            form=form,
            tournament_id=tournament.pk,
            number=form.cleaned_data["table"],
            positions=form.positions(),
        )
        if outcome.ok:
            messages.success(request, _("The final table is drawn (RP-9)."))
            return redirect(_action_url(outcome.value))
    size = final_size(tournament, settings)
    return _form_page(
        request,
        "seating/final.html",
        tournament,
        form,
        size=size,
        players=len(players),
        tables=in_play,
        by_position=by_position,
    )


def _map_undo(plan) -> dict | None:
    """The map's undo button: the offer without its lines, which only the confirmation
    shows (a draw's are one per entry: 850 KB in every page of the map at 10,000)."""
    offer = _undo_offer(plan)
    return offer and {key: offer[key] for key in ("action", "summary", "refusal")}


def _undo_offer(plan) -> dict | None:
    """The map's undo button and its confirmation page: what the undo will do, by name."""
    if plan is None:
        return None
    return {
        "action": plan.action,
        "summary": undo_summary(plan.action, plan.moves),
        "lines": [undo_line(m) for m in plan.moves],
        "reopens": plan.reopens,
        "refusal": refusal_message(plan.refusal) if plan.refusal else "",
    }


@role_required(SEATING)
@require_http_methods(["GET", "POST"])
def undo(request, tournament_id: int):
    """Undo the last seating action, named with its players before the TD confirms. The
    form carries the action's id: a second click, or an action done meanwhile, is refused
    (409) instead of undoing an earlier action nobody was shown."""
    tournament = _tournament(tournament_id)
    if request.method == "POST":
        form = UndoForm(request.POST)
        if not form.is_valid():
            return _undo_confirm(request, tournament, form=form)
        outcome = service_call(
            request,
            services.seating_undo,
            tournament_id=tournament.pk,
            action_id=form.cleaned_data["action"],
        )
        if not outcome.ok:
            return table_map(request, tournament.pk, status=outcome.error.http_status)
        action = outcome.value
        moves = undo_moves(action)
        messages.success(request, _("Undone: %(what)s.") % {"what": undo_summary(action, moves)})
        for line in undone_lines(moves):
            messages.info(request, line)
        return redirect(_map_url(tournament.pk))
    return _undo_confirm(request, tournament)


def _undo_confirm(request, tournament: Tournament, *, form: UndoForm | None = None):
    """The undo named before it is done: the action, each player's way back, the tables
    that open again; or, when it can no longer be undone, why (and no button)."""
    offer = _undo_offer(undo_plan(tournament.pk))
    if offer is None:
        messages.error(request, _("There is no seating action to undo."))
        return redirect(_map_url(tournament.pk))
    action = offer["action"]
    title = _("Undo: %(what)s?") % {"what": offer["summary"]}
    if offer["refusal"]:
        return _confirm(request, tournament, title=title, question=offer["refusal"])
    reopened = [_("Table %(number)s opens again.") % {"number": n} for n in offer["reopens"]]
    invalid = form is not None and bool(form.errors)
    response = _confirm(
        request,
        tournament,
        title=title,
        question=_("%(kind)s of %(time)s. Where everyone goes:")
        % {"kind": action.get_kind_display(), "time": time_format(localtime(action.at))},
        lines=offer["lines"] + reopened,
        note=_("Say which seating action to undo: confirm on this page.")
        if invalid
        else _("Only while every player it seated still sits in that seat."),
        fields={"action": action.pk},
        confirm_label=_("Undo it"),
    )
    if invalid:
        response.status_code = 400
    return response


# --- Results and printouts ----------------------------------------------------------------


def _action(tournament: Tournament, action_id: int) -> SeatingAction:
    return get_object_or_404(SeatingAction, tournament=tournament, pk=action_id)


def _moves(action: SeatingAction):
    return list(action.moves.select_related("entry__player").order_by("to_table", "to_seat"))


@role_required(SEATING)
def action_detail(request, tournament_id: int, action_id: int):
    """What a draw, move, balance, break or final table did, with its printouts."""
    tournament = _tournament(tournament_id)
    action = _action(tournament, action_id)
    moves = _moves(action)
    return render(
        request,
        "seating/action.html",
        {
            "tournament": tournament,
            "here": "seating",
            "action": action,
            "moves": moves,
            "has_slips": any(m.from_table is not None for m in moves),
        },
    )


@role_required(SEATING)
def move_slips(request, tournament_id: int, action_id: int):
    """One slip per moving player, to hand over at the table (RP-6, RP-16)."""
    tournament = _tournament(tournament_id)
    action = _action(tournament, action_id)
    moves = [m for m in _moves(action) if m.from_table is not None]
    moves.sort(key=lambda m: (m.from_table, m.from_seat))
    return render(
        request,
        "seating/print_slips.html",
        {"tournament": tournament, "action": action, "moves": moves},
    )


@role_required(SEATING)
def seat_cards(request, tournament_id: int):
    """One seat card per seated entry (or per entry of one draw: ?action=<id>)."""
    tournament = _tournament(tournament_id)
    seats = _seats(tournament.pk, seated_only=True)
    action = None
    action_id = request.GET.get("action", "")
    if action_id.isdigit() and len(action_id) < 18:
        action = _action(tournament, int(action_id))
        entries = set(Move.objects.filter(action=action).values_list("entry_id", flat=True))
        seats = [s for s in seats if s["entry"] in entries]
    return render(
        request,
        "seating/print_cards.html",
        {"tournament": tournament, "seats": seats, "action": action},
    )


@role_required(SEATING)
def list_by_name(request, tournament_id: int):
    tournament = _tournament(tournament_id)
    rows, page, pages = pages_cached(
        f"by-name:{seating_version(tournament)}:{NAMES_PER_PAGE}",
        _page_number(request.GET),
        lambda: cut(seating_public(tournament.pk), NAMES_PER_PAGE),
    )
    return render(
        request,
        "seating/print_names.html",
        {"tournament": tournament, "rows": rows, "pager": pager(request, page, pages)},
    )


@role_required(SEATING)
def list_by_table(request, tournament_id: int):
    tournament = _tournament(tournament_id)
    tables, page, pages = pages_cached(
        f"by-table:{seating_version(tournament)}:{TABLES_PER_PAGE}",
        _page_number(request.GET),
        lambda: cut(sorted(_seats_by_table(_seats(tournament.pk)).items()), TABLES_PER_PAGE),
    )
    return render(
        request,
        "seating/print_tables.html",
        {"tournament": tournament, "tables": tables, "pager": pager(request, page, pages)},
    )


# --- House settings -------------------------------------------------------------------------


@role_required(MANAGE_TOURNAMENTS)
@require_http_methods(["GET", "POST"])
def seating_settings_edit(request, tournament_id: int):
    tournament = _tournament(tournament_id)
    form = SeatingSettingsForm(
        request.POST if request.method == "POST" else None, instance=seating_settings(tournament.pk)
    )
    if request.method == "POST" and form.is_valid():
        outcome = service_call(
            request,
            services.settings_update,
            form=form,
            tournament_id=tournament.pk,
            data=form.cleaned_data,
        )
        if outcome.ok:
            messages.success(request, _("Seating settings saved."))
            return redirect(_map_url(tournament.pk))
    return _form_page(request, "seating/settings.html", tournament, form)

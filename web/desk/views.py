"""The desk: the pages that sell entries and take them out of play, the tournament's
page with its status buttons, and its edit page (an edit that closes registration may
end play, hands.services.busts.tournament_edit). They tie tournaments to the intentions above it
(registration and the event's status in seating, busts in hands, deadlines from the
clock, places from the eliminations), so they live at the top of the house
(docs/architecture.md)."""

import segno
from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import Exists, F, OuterRef, Q, Subquery
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from clock.selectors import entry_rules
from floorman.inputs import search_text
from floorman.pages import role_required, safe_next, service_call
from floorman.roles import BUST, MANAGE_TOURNAMENTS, REGISTER
from hands.forms import KnockoutForm
from hands.models import Elimination
from hands.selectors import bounties_won, busts_settlement, entry_bounties, finishing_places
from hands.services import bounties, busts
from seating.models import Seat
from seating.selectors import seats_back
from seating.services import desk as desk_services
from seating.views.public import entry_live
from tournaments import engine, services
from tournaments.forms import DeskForm, EntryFilterForm, TournamentForm
from tournaments.lookups import tournament_or_404
from tournaments.messages import refusal_message
from tournaments.models import (
    Alternate,
    AlternateStatus,
    BountyFormat,
    Entry,
    EntryStatus,
    Player,
    Ticket,
    Tournament,
    TournamentStatus,
    TransactionKind,
)
from tournaments.selectors import (
    active_entry_count,
    bounty_due,
    bounty_money,
    entries_search,
    entry_public,
    mystery_list_total,
    tickets_unused,
    tournament_totals,
    waiting_alternates,
)
from tournaments.templatetags.floorman_format import place_text
from web.screens.leaders import counts_visible, entry_standing, leaders_data

ENTRIES_PER_PAGE = 100


DESK_MATCHES = 8


# The director's buttons on the detail page; cancelling has its own confirmation page.
STATUS_ACTIONS = {
    TournamentStatus.REGISTERING: gettext_lazy("Open registration"),
    TournamentStatus.RUNNING: gettext_lazy("Start tournament"),
    TournamentStatus.FINISHED: gettext_lazy("Finish tournament"),
}


def tournament_detail(request, tournament_id: int):
    tournament = tournament_or_404(tournament_id)
    next_statuses = engine.TRANSITIONS.get(tournament.status, ())
    playing = tournament.status == TournamentStatus.RUNNING
    return render(
        request,
        "tournaments/detail.html",
        {
            "tournament": tournament,
            "totals": tournament_totals(tournament),
            "status_actions": [
                (status, str(label))
                for status, label in STATUS_ACTIONS.items()
                if status in next_statuses
            ],
            "can_cancel": TournamentStatus.CANCELLED in next_statuses,
            "registration_refusal": _registration_refusal(tournament),
            # Issue 18: the chip leaders while it plays, where the house publishes counts.
            "leaders": (
                leaders_data(tournament)
                if playing and counts_visible(tournament, request.user)
                else None
            ),
        },
    )


@role_required(MANAGE_TOURNAMENTS)
def tournament_edit(request, tournament_id: int):
    """The event's setup; an edit that closes registration may end play (hands)."""
    tournament = tournament_or_404(tournament_id)
    form = TournamentForm(
        request.POST or None,
        initial=TournamentForm.initial_from(tournament),
        money_locked=tournament.transactions.exists(),
        editing=True,
    )
    if request.method == "POST" and form.is_valid():
        outcome = service_call(
            request,
            busts.tournament_edit,
            form=form,
            tournament_id=tournament.pk,
            data=form.cleaned_data,
        )
        if outcome.ok:
            messages.success(request, _("Tournament saved."))
            return redirect("tournaments:detail", tournament.pk)
    return render(
        request,
        "tournaments/form.html",
        {"form": form, "tournament": tournament, "mystery_check": mystery_check(tournament)},
    )


def mystery_check(tournament: Tournament) -> dict | None:
    """A mystery bounty event whose published prizes do not add up to the bounty money
    taken (issue 18): both totals, for the director's warning on the edit page. None
    where they agree, or for another format."""
    if tournament.bounty_format != BountyFormat.MYSTERY:
        return None
    listed = mystery_list_total(tournament)
    collected = bounty_money(tournament).collected
    if listed == collected:
        return None
    return {"listed": listed, "collected": collected}


@role_required(MANAGE_TOURNAMENTS)
@require_POST
def tournament_status(request, tournament_id: int):
    tournament = tournament_or_404(tournament_id)
    status = request.POST.get("status", "")
    if status not in STATUS_ACTIONS:
        messages.error(request, _("Unknown status."))
    else:
        outcome = service_call(
            request, desk_services.tournament_status_set, tournament_id=tournament.pk, status=status
        )
        if outcome.ok:
            messages.success(
                request,
                _("Status: %(status)s.") % {"status": outcome.value.get_status_display()},
            )
    # A page that offers the change itself (the deal page's start) takes the director back.
    return redirect(safe_next(request, reverse("tournaments:detail", args=[tournament.pk])))


@role_required(MANAGE_TOURNAMENTS)
@require_http_methods(["GET", "POST"])
def tournament_cancel(request, tournament_id: int):
    """Cancel the tournament after a confirmation page: every payment is refunded."""
    tournament = tournament_or_404(tournament_id)
    if request.method == "POST":
        outcome = service_call(
            request,
            desk_services.tournament_status_set,
            tournament_id=tournament.pk,
            status=TournamentStatus.CANCELLED,
        )
        if outcome.ok:
            messages.success(request, _("The tournament is cancelled; all payments refunded."))
        return redirect("tournaments:detail", tournament.pk)
    return render(
        request,
        "tournaments/confirm.html",
        {
            "tournament": tournament,
            "title": _("Cancel %(name)s?") % {"name": tournament.name},
            "question": _(
                "Every payment still standing is refunded and all active entries are "
                "cancelled. This cannot be undone."
            ),
            "confirm_label": _("Cancel the tournament"),
            "back_url": reverse("tournaments:detail", args=[tournament.pk]),
        },
    )


def _registration_refusal(tournament: Tournament) -> str:
    code = engine.registration_refusal(entry_rules(tournament))
    return refusal_message(code) if code else ""


def desk_matches(tournament: Tournament, query: str) -> list[Player]:
    """Players whose name or nickname contains `query`, with their standing here and
    their unused tickets for this event (`tickets_here`, issue 17)."""
    here = Entry.objects.filter(tournament=tournament, player=OuterRef("pk"))
    waiting = Alternate.objects.filter(
        tournament=tournament, player=OuterRef("pk"), status=AlternateStatus.WAITING
    )
    players = list(
        Player.objects.filter(Q(name__icontains=query) | Q(nickname__icontains=query))
        .annotate(
            active_number=Subquery(here.filter(status=EntryStatus.ACTIVE).values("number")[:1]),
            busted=Exists(here.filter(status=EntryStatus.BUSTED)),
            alternate_position=Subquery(waiting.values("position")[:1]),
        )
        .order_by("name", "id")[:DESK_MATCHES]
    )
    tickets = tickets_unused(tournament, [player.pk for player in players]) if players else {}
    for player in players:
        player.tickets_here = tickets.get(player.pk, [])
    return players


def _qr_svg(url: str) -> str:
    # Dark on white with a quiet zone, so phones read it off a dark screen too.
    return mark_safe(
        segno.make(url, error="m").svg_inline(scale=4, border=2, light="#fff", omitsize=True)
    )


def _receipt(request, entry: Entry) -> dict:
    """What the desk hands the player: the entry, what was paid, the seat it was given
    (TDA 8-A: late entries, re-entries and alternates are seated as they buy in), and
    the QR code of the entry's public page."""
    url = request.build_absolute_uri(
        reverse("tournaments:entry-public", args=[entry.tournament_id, entry.number])
    )
    tournament = entry.tournament
    table, seat, wait = (
        Seat.objects.filter(entry_id=entry.pk)
        .values_list("table__number", "number", "wait_for_button")
        .first()
    ) or (None, None, False)
    ticket = Ticket.objects.filter(used_by_id=entry.pk).select_related("satellite").first()
    return {
        "entry": entry,
        # Issue 18: a buy-in in a bounty event pays the bounty with it.
        "paid": 0 if ticket else tournament.buy_in + tournament.fee + bounty_due(tournament),
        "ticket": ticket,  # paid with a ticket won in a satellite (issue 17)
        "currency": tournament.currency,
        "table": table,
        "seat": seat,
        "wait_for_button": wait,
        "public_url": url,
        "qr": _qr_svg(url),
    }


def _desk_render(request, tournament: Tournament, form: DeskForm, **context):
    name = context.pop("search", "")
    context.update(
        tournament=tournament,
        form=form,
        totals=tournament_totals(tournament),
        registration_refusal=_registration_refusal(tournament),
        matches=desk_matches(tournament, name) if name else None,
    )
    template = "tournaments/_desk.html" if request.htmx else "tournaments/desk.html"
    return render(request, template, context)


@role_required(REGISTER)
@require_http_methods(["GET", "POST"])
def desk(request, tournament_id: int):
    """The cashier's desk, made for a queue: type a name, Enter, next player."""
    tournament = tournament_or_404(tournament_id)
    if request.method == "POST":
        return _desk_register(request, tournament)
    context = {}
    # After a plain POST the browser is redirected here (post/redirect/get):
    # ?entry= shows the receipt, ?alternate= the place on the alternates list.
    number = request.GET.get("entry", "")
    if number.isdigit() and len(number) < 10:
        entry = (
            Entry.objects.select_related("player", "tournament")
            .filter(tournament=tournament, number=int(number))
            .first()
        )
        if entry:
            context["receipt"] = _receipt(request, entry)
    alternate_id = request.GET.get("alternate", "")
    if alternate_id.isdigit() and len(alternate_id) < 18:
        context["alternate"] = (
            Alternate.objects.select_related("player")
            .filter(tournament=tournament, pk=int(alternate_id))
            .first()
        )
    # Without JavaScript the "Search" button sends the typed fields here.
    search = search_text(request.GET.get("name"))
    initial = {name: request.GET.get(name, "") for name in DeskForm.PLAYER_FIELDS}
    return _desk_render(request, tournament, DeskForm(initial=initial), search=search, **context)


def _desk_register(request, tournament: Tournament):
    form = DeskForm(request.POST)
    if not form.is_valid():
        return _desk_render(request, tournament, form)
    player_id = form.cleaned_data["player_id"]
    ticket_id = form.cleaned_data["ticket_id"]
    if ticket_id is not None and player_id is None:  # the ticket's button: its holder
        player_id = Ticket.objects.filter(pk=ticket_id).values_list("holder_id", flat=True).first()
        if player_id is None:
            form.add_error("ticket_id", _("No ticket with this id."))
            return _desk_render(request, tournament, form)
    outcome = service_call(
        request,
        desk_services.entry_register,
        form=form,
        field_map={"player": "name"},
        tournament_id=tournament.pk,
        player_id=player_id,
        player_data=None if player_id else form.player_data(),
        reentry=form.cleaned_data["reentry"],
        ticket_id=ticket_id,
    )
    if outcome.ok:
        registration = outcome.value
        if not request.htmx:
            if registration.entry:
                query = {"entry": registration.entry.number}
            else:
                query = {"alternate": registration.alternate.pk}
            return redirect(
                reverse("tournaments:desk", args=[tournament.pk]) + "?" + urlencode(query)
            )
        context = {"alternate": registration.alternate}
        if registration.entry:
            context["receipt"] = _receipt(request, registration.entry)
        return _desk_render(request, tournament, DeskForm(), **context)
    context = {}
    if outcome.code == "reentry_required":
        context["reentry_confirm"] = _reentry_confirm(form)
    return _desk_render(request, tournament, form, **context)


def _reentry_confirm(form: DeskForm) -> dict:
    """The same registration again, as a re-entry: what the confirm button sends."""
    player_id = form.cleaned_data["player_id"]
    if player_id:
        player = Player.objects.filter(pk=player_id).first()
        return {"fields": {"player_id": player_id}, "name": player.name if player else ""}
    fields = form.player_data()
    return {"fields": fields, "name": fields.get("name", "")}


@role_required(REGISTER)
def desk_search(request, tournament_id: int):
    """htmx: the players matching what is typed at the desk."""
    tournament = tournament_or_404(tournament_id)
    query = search_text(request.GET.get("name"))
    return render(
        request,
        "tournaments/_desk_matches.html",
        {"tournament": tournament, "matches": desk_matches(tournament, query) if query else None},
    )


def entry_public_page(request, tournament_id: int, number: int):
    """What the receipt's QR code opens: public, without contact data."""
    tournament = tournament_or_404(tournament_id)
    entry = get_object_or_404(
        Entry.objects.select_related("player"), tournament=tournament, number=number
    )
    public = entry_public(entry)
    live = entry_live(entry)  # the seat, kept live by static/js/seats.js
    public.update(table=live["state"]["table"], seat=live["state"]["seat"])
    public["bounties"] = entry_bounty_facts(tournament, [entry.pk]).get(entry.pk)
    visible = counts_visible(tournament, request.user)  # issue 18: nothing when private
    return render(
        request,
        "tournaments/entry_public.html",
        {
            "tournament": tournament,
            "entry": public,
            "status_label": EntryStatus(public["status"]).label,
            "live": live,
            "counts_visible": visible,
            "standing": entry_standing(entry) if visible else None,
        },
    )


@never_cache
@require_safe
def entry_count_part(request, tournament_id: int, number: int):
    """A player's count, rank and chart again, for their page to swap in when a count
    is entered (issue 18; public HTML where the house publishes its counts, else 404)."""
    tournament = tournament_or_404(tournament_id)
    if not counts_visible(tournament, request.user):
        raise Http404
    entry = get_object_or_404(
        Entry.objects.select_related("tournament"), tournament=tournament, number=number
    )
    return render(request, "tournaments/_entry_count.html", {"standing": entry_standing(entry)})


def _with_seats(entries):
    """Each entry's table and seat, read in the same query (none once out of play)."""
    return entries.annotate(table_number=F("seat__table__number"), seat_number=F("seat__number"))


# The floor's order: table by table, seat by seat; entries without a seat last.
BY_SEAT = (
    F("table_number").asc(nulls_last=True),
    F("seat_number").asc(nulls_last=True),
    "number",
)


def entry_list(request, tournament_id: int):
    tournament = tournament_or_404(tournament_id)
    filters = EntryFilterForm(request.GET)
    filters.is_valid()  # an unknown status or order is reported on the form, not applied
    entries = _with_seats(
        entries_search(
            tournament,
            query=filters.cleaned_data.get("q", ""),
            status=filters.cleaned_data.get("status", ""),
        )
    )
    if filters.cleaned_data.get("sort") == "seat":
        entries = entries.order_by(*BY_SEAT)
    page = Paginator(entries, ENTRIES_PER_PAGE).get_page(request.GET.get("page"))
    _with_places(tournament, page.object_list)
    _with_seats_back(tournament, page.object_list)
    _with_bounties(tournament, page.object_list)
    _with_knockouts(tournament, page.object_list)
    return render(
        request,
        "tournaments/entries.html",
        {
            "tournament": tournament,
            "filters": filters,
            "page": page,
            "list_url": request.get_full_path(),
            "counts_visible": counts_visible(tournament, request.user),  # issue 18
        },
    )


ENTRY_DONE = {
    "bust": gettext_lazy("Entry #%(number)s busted."),
    "bust-undo": gettext_lazy("Bust of entry #%(number)s undone."),
    "rebuy": gettext_lazy("Rebuy sold to entry #%(number)s."),
    "addon": gettext_lazy("Add-on sold to entry #%(number)s."),
    "cancel": gettext_lazy("Entry #%(number)s cancelled and refunded."),
}


def _with_places(tournament: Tournament, entries) -> None:
    """Each entry's finishing place as the list shows it: "12", or "50–52" when shared
    with players busting in the same hand (IFP 4.27, RP-8 A)."""
    places = finishing_places(tournament.pk)
    for entry in entries:
        place = places.get(entry.pk)
        entry.place_text = ""
        if place is not None:
            entry.place_text = place_text(*place.shared)


def entry_bounty_facts(tournament: Tournament, entry_ids) -> dict[int, dict]:
    """Issue 18, each entry's bounties as its pages show them: the cash its knockouts
    that stand won (a PKO's winner's own too), and the bounty on its head now (knockout
    and progressive knockout, while it plays). Empty for an event without bounties."""
    if not tournament.bounty_format:
        return {}
    entry_ids = list(entry_ids)
    won = bounties_won(tournament, entry_ids)  # only the entries shown, not the field
    heads = entry_bounties(tournament, entry_ids)
    return {
        entry_id: {"won": won.get(entry_id, 0), "head": heads.get(entry_id)}
        for entry_id in entry_ids
    }


def _with_bounties(tournament: Tournament, entries) -> None:
    facts = entry_bounty_facts(tournament, [entry.pk for entry in entries])
    for entry in entries:
        entry.bounties = facts.get(entry.pk)


def _with_seats_back(tournament: Tournament, entries) -> None:
    """For each busted entry, where undoing its bust would seat it, shown on its button:
    the seat it left while that is free, else a new seat (seating.services.seat_restore)."""
    busted = [entry.pk for entry in entries if entry.status == EntryStatus.BUSTED]
    back = seats_back(tournament.pk, busted) if busted else {}
    for entry in entries:
        entry.seat_back = back.get(entry.pk)


def _with_knockouts(tournament: Tournament, entries) -> None:
    """Issue 18, in a bounty event: for each active entry, the players seated at its
    table (the bust form's eliminator); for each busted one, who eliminated it, or
    "eliminator not named". A few queries for the page, none outside bounty events."""
    if not bounties.bounty_event(tournament):
        return
    tables = {entry.table_number for entry in entries if entry.table_number is not None}
    at_table: dict[int, list] = {}
    seats = (
        Seat.objects.filter(table__tournament=tournament, table__number__in=tables)
        .exclude(entry=None)
        .select_related("entry__player", "table")
        .order_by("table__number", "number")
    )
    for seat in seats:
        at_table.setdefault(seat.table.number, []).append(seat)
    busted = [entry.pk for entry in entries if entry.status == EntryStatus.BUSTED]
    settled = busts_settlement(tournament, busted)
    for entry in entries:
        entry.tablemates = [
            seat for seat in at_table.get(entry.table_number, []) if seat.entry_id != entry.pk
        ]
        entry.settlement = settled.get(entry.pk)


def _eliminators_posted(request) -> list[int] | None:
    """The eliminator the desk's bust form named (an entry id), or None; anything but an
    id names nobody who can be in the event, so the service refuses it (400)."""
    value = request.POST.get("eliminator", "")
    if not value:
        return None
    return [int(value)] if value.isascii() and value.isdigit() and len(value) < 19 else [0]


def _seated_again(entry: Entry) -> str:
    """Where a player whose bust was undone sits now, for the desk to say."""
    where = getattr(entry, "seat_restored", None)
    name = entry.player.name
    if where is None:
        return _("%(name)s has no seat yet: no seat is open. Seat them from the table map.") % {
            "name": name
        }
    words = {"name": name, "table": where.table, "seat": where.seat}
    if where.same:
        return _("%(name)s sits at table %(table)s, seat %(seat)s again.") % words
    return (
        _(
            "The seat %(name)s left had been taken: %(name)s now sits at table %(table)s, "
            "seat %(seat)s."
        )
        % words
    )


def _entry_action(request, tournament_id: int, number: int, *, action: str, service, **extra):
    tournament = tournament_or_404(tournament_id)
    entries = _with_seats(Entry.objects.select_related("player"))
    entry = get_object_or_404(entries, tournament=tournament, number=number)
    outcome = service_call(
        request,
        service,
        flash=not request.htmx,
        tournament_id=tournament.pk,
        entry_id=entry.pk,
        **extra,
    )
    notice = _seated_again(outcome.value) if outcome.ok and action == "bust-undo" else ""
    if request.htmx:
        # Swap just this row: the new state, or the old one with the refusal.
        if outcome.ok:  # read again: the service may have freed the seat (a bust)
            entry = entries.get(pk=entry.pk)
        _with_places(tournament, [entry])
        _with_seats_back(tournament, [entry])
        _with_bounties(tournament, [entry])
        _with_knockouts(tournament, [entry])
        return render(
            request,
            "tournaments/_entry_row.html",
            {
                "tournament": tournament,
                "entry": entry,
                "error": outcome.error.message if outcome.error else "",
                "notice": notice,
                "list_url": request.htmx.current_url_abs_path or "",
            },
        )
    if outcome.ok:
        messages.success(request, str(ENTRY_DONE[action]) % {"number": entry.number})
        if notice:
            messages.info(request, notice)
    return redirect(safe_next(request, reverse("tournaments:entries", args=[tournament.pk])))


@role_required(BUST)
@require_POST
def entry_bust(request, tournament_id: int, number: int):
    """The desk busts an entry; in a bounty event with the eliminator the form names
    (a player at the table, issue 18), or none: named later (`entry_knockout`)."""
    return _entry_action(
        request,
        tournament_id,
        number,
        action="bust",
        service=busts.entry_bust,
        eliminators=_eliminators_posted(request),
    )


@role_required(BUST)
@require_http_methods(["GET", "POST"])
def entry_knockout(request, tournament_id: int, number: int):
    """Issue 18: name who eliminated a busted player in a bounty event, or correct it
    (hands.services.bounties.knockout_correct: the standing knockouts reversed and the
    bounty settled to the players named; 409 once paid at the cage)."""
    tournament = tournament_or_404(tournament_id)
    entry = get_object_or_404(
        Entry.objects.select_related("player"), tournament=tournament, number=number
    )
    open_to_name = bounties.bounty_event(tournament) and entry.status == EntryStatus.BUSTED
    back = safe_next(request, reverse("tournaments:entries", args=[tournament.pk]))
    settled = busts_settlement(tournament, [entry.pk]).get(entry.pk)
    candidates = _eliminator_candidates(tournament, entry) if open_to_name else []
    form = KnockoutForm(request.POST or None, candidates=candidates)
    status = 200
    if open_to_name and request.method == "POST" and form.is_valid():
        outcome = service_call(
            request,
            bounties.knockout_correct,
            form=form,
            field_map={"eliminators": "eliminators"},
            tournament_id=tournament.pk,
            busted_entry_id=entry.pk,
            eliminator_ids=form.cleaned_data["eliminators"],
        )
        if outcome.ok:
            messages.success(
                request,
                _("Who eliminated #%(number)s is recorded.") % {"number": entry.number},
            )
            return redirect(back)
        status = outcome.error.http_status
    elif open_to_name and request.method == "POST":
        status = 400
    return render(
        request,
        "tournaments/knockout.html",
        {
            "tournament": tournament,
            "entry": entry,
            "settlement": settled,
            "form": form if open_to_name else None,
            "back_url": back,
        },
        status=status,
    )


def _eliminator_candidates(tournament: Tournament, busted: Entry) -> list[tuple[int, str]]:
    """Who may have eliminated `busted`: the players still in and those out after it
    (the service refuses one out in the same hand), the table's players first."""
    out_at = (
        Elimination.objects.filter(tournament=tournament, entry=busted)
        .values_list("recorded_at", "table_number")
        .first()
    )
    recorded_at, table = out_at or (None, None)
    later = Q(status=EntryStatus.ACTIVE)
    if recorded_at is not None:
        later |= Q(elimination__recorded_at__gt=recorded_at)
    entries = (
        _with_seats(Entry.objects.filter(tournament=tournament).filter(later))
        .exclude(pk=busted.pk)
        .select_related("player")
        .order_by(*BY_SEAT)
    )
    rows = []
    for entry in entries:
        where = ""
        if entry.table_number is not None:
            where = _("table %(table)s, seat %(seat)s: ") % {
                "table": entry.table_number,
                "seat": entry.seat_number,
            }
        label = f"{where}{entry.player.name} #{entry.number}"
        rows.append((entry.table_number != table, entry.pk, label))
    rows.sort(key=lambda row: row[0])  # stable: the bust's table first, then by seat
    return [(pk, label) for _first, pk, label in rows]


@role_required(BUST)
@require_POST
def entry_bust_undo(request, tournament_id: int, number: int):
    return _entry_action(
        request, tournament_id, number, action="bust-undo", service=busts.entry_bust_undo
    )


@role_required(REGISTER)
@require_POST
def entry_rebuy(request, tournament_id: int, number: int):
    return _entry_action(
        request, tournament_id, number, action="rebuy", service=desk_services.entry_rebuy
    )


@role_required(REGISTER)
@require_POST
def entry_addon(request, tournament_id: int, number: int):
    return _entry_action(
        request, tournament_id, number, action="addon", service=desk_services.entry_addon
    )


@role_required(REGISTER)
@require_http_methods(["GET", "POST"])
def entry_cancel(request, tournament_id: int, number: int):
    """Refund an entry sold by mistake, after a confirmation page."""
    if request.method == "POST":
        return _entry_action(
            request, tournament_id, number, action="cancel", service=desk_services.entry_cancel
        )
    tournament = tournament_or_404(tournament_id)
    entry = get_object_or_404(
        Entry.objects.select_related("player"), tournament=tournament, number=number
    )
    standing = entry.transactions.filter(reversed_by__isnull=True, reverses__isnull=True)
    paid = sum(
        standing.exclude(
            kind__in=[TransactionKind.REFUND, TransactionKind.PAYOUT, TransactionKind.TICKET]
        ).values_list("amount", flat=True)
    )
    question = _("The entry is cancelled and the player gets back what was paid:")
    if standing.filter(kind=TransactionKind.TICKET).exists():  # issue 17: no cash for it
        question = _(
            "The entry is cancelled and the player gets the ticket back (no cash), and "
            "what else was paid:"
        )
    back = safe_next(request, reverse("tournaments:entries", args=[tournament.pk]))
    return render(
        request,
        "tournaments/confirm.html",
        {
            "tournament": tournament,
            "title": _("Cancel entry #%(number)s of %(player)s?")
            % {"number": entry.number, "player": entry.player.name},
            "question": question,
            "amount": paid,
            "confirm_label": _("Cancel and refund"),
            "back_url": back,
            "next": back,
        },
    )


def alternate_list(request, tournament_id: int):
    tournament = tournament_or_404(tournament_id)
    alternates = list(waiting_alternates(tournament))
    free = engine.free_places(tournament.capacity, active_entries=active_entry_count(tournament))
    return render(
        request,
        "tournaments/alternates.html",
        {
            "tournament": tournament,
            "alternates": alternates,
            "free_places": free,
            "can_enter_next": bool(alternates) and (free is None or free > 0),
        },
    )


@role_required(REGISTER)
@require_POST
def alternate_enter_next(request, tournament_id: int):
    tournament = tournament_or_404(tournament_id)
    outcome = service_call(request, desk_services.alternate_enter_next, tournament_id=tournament.pk)
    if not outcome.ok:
        return redirect("tournaments:alternates", tournament.pk)
    entry = outcome.value
    messages.success(
        request,
        _("%(player)s entered from the alternates list as entry #%(number)s.")
        % {"player": entry.player.name, "number": entry.number},
    )
    # The desk shows the receipt (with its QR code) to hand to the player.
    desk_url = reverse("tournaments:desk", args=[tournament.pk])
    return redirect(desk_url + "?" + urlencode({"entry": entry.number}))


@role_required(REGISTER)
@require_POST
def alternate_withdraw(request, tournament_id: int, alternate_id: int):
    tournament = tournament_or_404(tournament_id)
    outcome = service_call(
        request, services.alternate_withdraw, tournament_id=tournament.pk, alternate_id=alternate_id
    )
    if outcome.ok:
        messages.success(
            request, _("%(player)s left the alternates list.") % {"player": outcome.value.player}
        )
    return redirect("tournaments:alternates", tournament.pk)

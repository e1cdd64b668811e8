"""The floor's pages: the incidents and penalties of a tournament (floor, director) and
a player's record (floor and director). Views are thin: parse the form, call one service
through `floorman.pages.service_call`, then render or redirect."""

from django.contrib import messages
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format, number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from floorman.pages import role_required, service_call
from floorman.roles import RULINGS
from rulings import selectors, services
from rulings.engine import rulebook
from rulings.forms.floor import (
    IncidentFilterForm,
    IncidentForm,
    PenaltyForm,
)
from rulings.models import (
    Dispute,
    Incident,
    Penalty,
    PenaltyKind,
)
from tournaments.models import Entry, EntryStatus, Player, Tournament

INCIDENTS_PER_PAGE = 30
PENALTIES_SHOWN = 50
RECORD_MAX = 500


# --- The floor: incidents and penalties (floor, director) ------------------------------------


def _tournament(tournament_id: int) -> Tournament:
    return get_object_or_404(Tournament, pk=tournament_id)


def _floor_url(tournament: Tournament, anchor: str = "") -> str:
    url = reverse("rulings:floor", args=[tournament.pk])
    return f"{url}#{anchor}" if anchor else url


def dispute_text(window) -> str:
    """TDA 22, in words: how long the decision on the pot may still be disputed."""
    if window.open:
        if window.kind == Dispute.BREAK and window.until is not None:
            until = date_format(timezone.localtime(window.until), "H:i:s")
            return _("Open until %(time)s") % {"time": until}
        if window.kind == Dispute.READING:
            return _("Open until the next hand starts")
        return _("Open until substantial action on the next hand")
    return {
        "next_hand_started": _("Closed: the next hand has started"),
        "substantial_action": _("Closed: substantial action on the next hand (TDA 36)"),
        "minute_passed": _("Closed: the minute after the pot was awarded has passed"),
    }.get(window.reason, _("Closed"))


def cited_rules(references: list[str]) -> list[dict]:
    """Rule references with a link to the rule book where they name a TDA rule."""
    cited = []
    for reference in references:
        entry = rulebook.entry(reference)
        cited.append({"text": reference, "number": entry.number if entry else None})
    return cited


def _with_details(incidents) -> list[Incident]:
    now = timezone.now()
    for incident in incidents:
        window = selectors.dispute_window(incident, now)
        incident.window = window
        incident.window_text = dispute_text(window) if window else ""
        incident.cited = cited_rules(incident.rules)
    return incidents


def _penalties_with_details(penalties) -> list[Penalty]:
    for penalty in penalties:
        penalty.sum = penalty_sum(penalty)
        penalty.cited = cited_rules(penalty.rules)
    return penalties


def penalty_sum(penalty: Penalty) -> str:
    """How many hands a penalty costs, worked out: "2 rounds × 7 players = 14 hands"."""
    hands = ngettext("%(count)s hand", "%(count)s hands", penalty.hands) % {
        "count": number_format(penalty.hands)
    }
    if penalty.kind != PenaltyKind.MISSED_ROUNDS or not penalty.players_at_table:
        return hands
    rounds = ngettext("%(count)s round", "%(count)s rounds", penalty.rounds) % {
        "count": penalty.rounds
    }
    players = ngettext("%(count)s player", "%(count)s players", penalty.players_at_table) % {
        "count": penalty.players_at_table
    }
    return f"{rounds} × {players} = {hands}"


def _floor_entries(tournament: Tournament) -> list[Entry]:
    """The entries the floor can name, for the pickers' suggestions."""
    return list(
        Entry.objects.filter(tournament=tournament)
        .exclude(status=EntryStatus.CANCELLED)
        .select_related("player", "seat__table")
        .order_by("number")
    )


def _floor_render(
    request,
    tournament: Tournament,
    *,
    incident_form: IncidentForm | None = None,
    penalty_form: PenaltyForm | None = None,
):
    filter_form = IncidentFilterForm(request.GET or None)
    filters = filter_form.filters() if request.GET else {"query": "", "category": "", "table": None}
    found = selectors.incidents_search(tournament.pk, **filters)
    page = Paginator(found, INCIDENTS_PER_PAGE).get_page(request.GET.get("page"))
    _with_details(page.object_list)
    serving = list(selectors.penalties_serving(tournament.pk).order_by("at", "id"))
    given = list(selectors.penalties_given(tournament.pk)[:PENALTIES_SHOWN])
    _penalties_with_details(serving + given)
    return render(
        request,
        "rulings/floor.html",
        {
            "tournament": tournament,
            "incident_form": incident_form or IncidentForm(tournament=tournament),
            "penalty_form": penalty_form or _penalty_form_for(request, tournament),
            "filter_form": filter_form,
            "filtered": any(filters.values()),
            "page": page,
            "serving": serving,
            "given": given,
            "entries": _floor_entries(tournament),
        },
    )


def _penalty_form_for(request, tournament: Tournament) -> PenaltyForm:
    """An empty penalty form; "?incident=<id>" fills in the floor call and its player."""
    initial = {}
    raw = request.GET.get("incident", "")
    if raw.isdigit() and len(raw) < 19:
        incident = Incident.objects.filter(tournament=tournament, pk=int(raw)).first()
        if incident is not None:
            initial["incident"] = incident.pk
            active = [e for e in incident.entries.all() if e.status == EntryStatus.ACTIVE]
            if len(active) == 1:
                initial["player"] = str(active[0].number)
            if incident.rules:
                initial["rules"] = ", ".join(incident.rules)
    return PenaltyForm(tournament=tournament, initial=initial)


@role_required(RULINGS)
def floor(request, tournament_id: int):
    """The floor's page for one tournament: new floor call, incidents, penalties."""
    return _floor_render(request, _tournament(tournament_id))


@role_required(RULINGS)
@require_POST
def incident_create(request, tournament_id: int):
    tournament = _tournament(tournament_id)
    form = IncidentForm(request.POST, tournament=tournament)
    if form.is_valid():
        outcome = service_call(
            request,
            services.incident_record,
            form=form,
            field_map={"entries": "players"},
            tournament_id=tournament.pk,
            data=form.service_data(),
        )
        if outcome.ok:
            messages.success(request, _("Floor call recorded."))
            return redirect(_floor_url(tournament, f"incident-{outcome.value.pk}"))
    return _floor_render(request, tournament, incident_form=form)


@role_required(RULINGS)
@require_POST
def penalty_create(request, tournament_id: int):
    tournament = _tournament(tournament_id)
    form = PenaltyForm(request.POST, tournament=tournament)
    if form.is_valid():
        outcome = service_call(
            request,
            services.penalty_give,
            form=form,
            field_map={"entry": "player"},
            tournament_id=tournament.pk,
            data=form.service_data(),
        )
        if outcome.ok:
            messages.success(request, penalty_given_message(outcome.value))
            return redirect(_floor_url(tournament, "penalties"))
    return _floor_render(request, tournament, penalty_form=form)


def penalty_given_message(penalty: Penalty) -> str:
    player = str(penalty.entry)  # "#12 Anna Berg"
    if penalty.kind == PenaltyKind.WARNING:
        return _("Warning recorded for %(player)s (TDA 71).") % {"player": player}
    if penalty.kind == PenaltyKind.DISQUALIFICATION:
        return _("%(player)s is disqualified; %(chips)s chips leave play (TDA 71-D).") % {
            "player": player,
            "chips": number_format(penalty.chips_removed, force_grouping=True),
        }
    return _(
        "Penalty for %(player)s: %(sum)s (TDA 71-A). The player sits out from the next hand "
        "at table %(table)s (TDA 68, 71-C)."
    ) % {"player": player, "sum": penalty_sum(penalty), "table": penalty.table_number}


@role_required(RULINGS)
@require_POST
def penalty_end(request, tournament_id: int, penalty_id: int):
    tournament = _tournament(tournament_id)
    outcome = service_call(
        request, services.penalty_end, tournament_id=tournament.pk, penalty_id=penalty_id
    )
    if outcome.ok:
        messages.success(
            request,
            _("Penalty ended early: %(player)s may play again.")
            % {"player": str(outcome.value.entry)},
        )
    return redirect(_floor_url(tournament, "penalties"))


# --- A player's record (floor, director) -------------------------------------------------------


@role_required(RULINGS)
def player_record(request, player_id: int):
    """Every floor call and penalty of one person, across tournaments, newest first: what
    the floor weighs when an offence repeats (TDA 71-A)."""
    player = get_object_or_404(Player, pk=player_id)
    incidents, penalties = selectors.player_record(player.pk)
    incidents = _with_details(list(incidents.prefetch_related("entries__player")[:RECORD_MAX]))
    penalties = _penalties_with_details(
        list(penalties.select_related("entry__player", "incident")[:RECORD_MAX])
    )
    timeline = sorted(
        [("incident", incident.at, incident) for incident in incidents]
        + [("penalty", penalty.at, penalty) for penalty in penalties],
        key=lambda row: row[1],
        reverse=True,
    )
    counts: dict[str, int] = {}
    for penalty in penalties:
        label = penalty.get_kind_display()
        counts[label] = counts.get(label, 0) + 1
    return render(
        request,
        "rulings/record.html",
        {
            "player": player,
            "timeline": [{"type": kind, "item": item} for kind, _at, item in timeline],
            "incident_count": len(incidents),
            "penalty_counts": sorted(counts.items()),
        },
    )

"""Rulings pages: the rule book (public), the house rules and imported rule books
(director), the floor's incidents and penalties for a tournament, a player's record
(floor and director). Views are thin: parse the form, call one service through
`floorman.pages.service_call`, then render or redirect."""

from dataclasses import dataclass

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format, number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from floorman.inputs import search_text
from floorman.pages import role_required, service_call
from floorman.roles import MANAGE_TOURNAMENTS, RULINGS
from rulings import selectors, services
from rulings.engine import rulebook
from rulings.forms import (
    HouseRuleForm,
    IncidentFilterForm,
    IncidentForm,
    PenaltyForm,
    RulebookUploadForm,
    VenueForm,
)
from rulings.models import (
    Dispute,
    HouseRule,
    HouseRuleKind,
    Incident,
    Penalty,
    PenaltyKind,
    Venue,
)
from tournaments.models import Entry, EntryStatus, Player, Tournament

INCIDENTS_PER_PAGE = 30
PENALTIES_SHOWN = 50
RECORD_MAX = 500


def _language(request) -> str:
    return rulebook.language_of(getattr(request, "LANGUAGE_CODE", ""))


# --- The rule book (public) -------------------------------------------------------------------


@dataclass(frozen=True)
class RuleRow:
    """A TDA rule as the page shows it, in the page's language, with the house's word."""

    number: str
    label: str
    title: str
    summary: str
    keywords: tuple[str, ...]
    replaced: bool  # a house rule replaces it
    added_to: bool  # a house rule adds to it


def _rule_row(entry, language: str, house: dict[str, set[str]]) -> RuleRow:
    kinds = house.get(entry.number, set())
    return RuleRow(
        number=entry.number,
        label=entry.label(language),
        title=entry.title(language),
        summary=entry.summary(language),
        keywords=entry.keywords(language),
        replaced=HouseRuleKind.OVERRIDE in kinds,
        added_to=HouseRuleKind.ADDITION in kinds,
    )


def _house_kinds(venue: Venue | None) -> dict[str, set[str]]:
    """TDA number → the kinds of house rules on it."""
    kinds: dict[str, set[str]] = {}
    for tda, kind in selectors.house_rules(venue).exclude(tda="").values_list("tda", "kind"):
        kinds.setdefault(tda, set()).add(kind)
    return kinds


def rulebook_index(request):
    """The TDA rules and recommended procedures, searchable in English and German, and
    the default venue's own house rules."""
    language = _language(request)
    query = search_text(request.GET.get("q"))
    venue = selectors.default_venue()
    house = _house_kinds(venue)
    if query:
        found = rulebook.search(query, language=language, limit=100)
        rows = [_rule_row(entry, language, house) for entry in found]
        sections = []
        house_rules = list(selectors.house_rules_search(venue, query)[:200])
    else:
        rows = []
        sections = _by_section(rulebook.entries(), language, house)
        house_rules = list(selectors.house_rules(venue).filter(kind=HouseRuleKind.OWN))
    return render(
        request,
        "rulings/rulebook.html",
        {
            "query": query,
            "rows": rows,
            "sections": sections,
            "venue": venue,
            "house_rules": house_rules,
        },
    )


def _by_section(entries, language: str, house) -> list[tuple[str, list[RuleRow]]]:
    sections: list[tuple[str, list[RuleRow]]] = []
    current = None
    for entry in entries:
        if entry.section != current:
            current = entry.section
            sections.append((entry.section_name(language), []))
        sections[-1][1].append(_rule_row(entry, language, house))
    return sections


def rule_detail(request, number: str):
    """One TDA rule with the default venue's house rules on it."""
    entry = rulebook.entry(number[:20])
    if entry is None:
        raise Http404(_("No such rule."))
    language = _language(request)
    venue = selectors.default_venue()
    house = list(selectors.house_rules(venue, tda=entry.number))
    everything = rulebook.entries()
    at = everything.index(entry)
    return render(
        request,
        "rulings/rule.html",
        {
            "rule": _rule_row(entry, language, _house_kinds_of(house, entry.number)),
            "section": entry.section_name(language),
            "venue": venue,
            "overrides": [rule for rule in house if rule.kind == HouseRuleKind.OVERRIDE],
            "additions": [rule for rule in house if rule.kind == HouseRuleKind.ADDITION],
            "previous": _rule_row(everything[at - 1], language, {}) if at > 0 else None,
            "next": (
                _rule_row(everything[at + 1], language, {}) if at + 1 < len(everything) else None
            ),
        },
    )


def _house_kinds_of(house: list[HouseRule], number: str) -> dict[str, set[str]]:
    return {number: {rule.kind for rule in house}}


# --- House rules (director) -------------------------------------------------------------------


def _venue(venue_id: int) -> Venue:
    return get_object_or_404(Venue, pk=venue_id)


def _chosen_venue(raw: str | None) -> Venue | None:
    if raw and raw.isdigit() and len(raw) < 19:
        venue = Venue.objects.filter(pk=int(raw)).first()
        if venue is not None:
            return venue
    return selectors.default_venue()


def _house_url(venue: Venue | None) -> str:
    url = reverse("rulings:house")
    return f"{url}?venue={venue.pk}" if venue else url


def _house_render(
    request,
    venue: Venue | None,
    *,
    venue_form: VenueForm | None = None,
    new_venue_form: VenueForm | None = None,
    rule_form: HouseRuleForm | None = None,
    upload_form: RulebookUploadForm | None = None,
):
    if venue is not None and venue_form is None:
        venue_form = VenueForm(
            prefix="venue",
            initial={
                "name": venue.name,
                "is_default": venue.is_default,
                "ambiguous_amounts": venue.ambiguous_amounts,
            },
        )
    rules = list(selectors.house_rules(venue)) if venue else []
    return render(
        request,
        "rulings/house.html",
        {
            "venue": venue,
            "venues": Venue.objects.all(),
            "venue_form": venue_form,
            "new_venue_form": new_venue_form
            or VenueForm(prefix="new", initial={"is_default": not Venue.objects.exists()}),
            "rule_form": rule_form or HouseRuleForm(prefix="rule"),
            "upload_form": upload_form or RulebookUploadForm(prefix="book"),
            "rules": rules,
            "imported": sum(1 for rule in rules if rule.imported),
        },
    )


@role_required(MANAGE_TOURNAMENTS)
def house_rules_page(request):
    return _house_render(request, _chosen_venue(request.GET.get("venue")))


@role_required(MANAGE_TOURNAMENTS)
@require_POST
def venue_create(request):
    form = VenueForm(request.POST, prefix="new")
    if form.is_valid():
        outcome = service_call(request, services.venue_save, form=form, **form.cleaned_data)
        if outcome.ok:
            messages.success(request, _("Venue %(name)s created.") % {"name": outcome.value.name})
            return redirect(_house_url(outcome.value))
    return _house_render(request, _chosen_venue(request.GET.get("venue")), new_venue_form=form)


@role_required(MANAGE_TOURNAMENTS)
@require_POST
def venue_update(request, venue_id: int):
    venue = _venue(venue_id)
    form = VenueForm(request.POST, prefix="venue")
    if form.is_valid():
        outcome = service_call(
            request, services.venue_save, form=form, venue_id=venue.pk, **form.cleaned_data
        )
        if outcome.ok:
            messages.success(request, _("Venue saved."))
            return redirect(_house_url(venue))
    return _house_render(request, venue, venue_form=form)


@role_required(MANAGE_TOURNAMENTS)
@require_POST
def house_rule_add(request, venue_id: int):
    venue = _venue(venue_id)
    form = HouseRuleForm(request.POST, prefix="rule")
    if form.is_valid():
        outcome = service_call(
            request, services.house_rule_save, form=form, venue_id=venue.pk, data=form.cleaned_data
        )
        if outcome.ok:
            messages.success(request, _("House rule added."))
            return redirect(_house_url(venue))
    return _house_render(request, venue, rule_form=form)


@role_required(MANAGE_TOURNAMENTS)
@require_http_methods(["GET", "POST"])
def house_rule_edit(request, venue_id: int, rule_id: int):
    venue = _venue(venue_id)
    rule = get_object_or_404(HouseRule, venue=venue, pk=rule_id)
    form = HouseRuleForm(
        request.POST or None,
        initial={
            "kind": rule.kind,
            "tda": rule.tda,
            "number": rule.number,
            "title": rule.title,
            "text": rule.text,
        },
    )
    if request.method == "POST" and form.is_valid():
        outcome = service_call(
            request,
            services.house_rule_save,
            form=form,
            venue_id=venue.pk,
            rule_id=rule.pk,
            data=form.cleaned_data,
        )
        if outcome.ok:
            messages.success(request, _("House rule saved."))
            return redirect(_house_url(venue))
    return render(request, "rulings/house_rule.html", {"venue": venue, "rule": rule, "form": form})


@role_required(MANAGE_TOURNAMENTS)
@require_POST
def house_rule_delete(request, venue_id: int, rule_id: int):
    venue = _venue(venue_id)
    outcome = service_call(request, services.house_rule_delete, venue_id=venue.pk, rule_id=rule_id)
    if outcome.ok:
        messages.success(request, _("House rule deleted."))
    return redirect(_house_url(venue))


@role_required(MANAGE_TOURNAMENTS)
@require_POST
def rulebook_upload(request, venue_id: int):
    """The house's own rule book, cut into house rules (rulings/engine/housebook.py)."""
    venue = _venue(venue_id)
    form = RulebookUploadForm(request.POST, request.FILES, prefix="book")
    if form.is_valid():
        outcome = service_call(
            request,
            services.rulebook_import,
            form=form,
            field_map={"text": "file"},
            venue_id=venue.pk,
            text=form.text,
            source=form.cleaned_data["file"].name or "",
        )
        if outcome.ok:
            count = len(outcome.value)
            messages.success(
                request,
                ngettext(
                    "Imported %(count)d rule from %(file)s.",
                    "Imported %(count)d rules from %(file)s.",
                    count,
                )
                % {"count": count, "file": form.cleaned_data["file"].name},
            )
            return redirect(_house_url(venue))
    return _house_render(request, venue, upload_form=form)


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

"""The rule book pages: the TDA rules (public), the house rules and imported rule books
(director). Views are thin: parse the form, call one service through
`floorman.pages.service_call`, then render or redirect."""

from dataclasses import dataclass

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from floorman.inputs import search_text
from floorman.pages import role_required, service_call
from floorman.roles import MANAGE_TOURNAMENTS
from rulings import selectors, services
from rulings.engine import rulebook
from rulings.forms.rulebook import (
    HouseRuleForm,
    RulebookUploadForm,
    VenueForm,
)
from rulings.models import (
    HouseRule,
    HouseRuleKind,
    Venue,
)
from tournaments.forms import HouseSettingsForm


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


def house_url(venue: Venue | None) -> str:
    url = reverse("rulings:house")
    return f"{url}?venue={venue.pk}" if venue else url


def house_render(
    request,
    venue: Venue | None,
    *,
    venue_form: VenueForm | None = None,
    new_venue_form: VenueForm | None = None,
    rule_form: HouseRuleForm | None = None,
    upload_form: RulebookUploadForm | None = None,
    house_form=None,
):
    if venue is not None and venue_form is None:
        venue_form = VenueForm(
            prefix="venue",
            initial={"name": venue.name, "is_default": venue.is_default},
        )
    if venue is not None and house_form is None:
        house_form = HouseSettingsForm(
            prefix="house", initial=selectors.venue_house_settings(venue).values
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
            "house_form": house_form,
            "rules": rules,
            "imported": sum(1 for rule in rules if rule.imported),
        },
    )


@role_required(MANAGE_TOURNAMENTS)
def house_rules_page(request):
    return house_render(request, _chosen_venue(request.GET.get("venue")))


@role_required(MANAGE_TOURNAMENTS)
@require_POST
def venue_create(request):
    form = VenueForm(request.POST, prefix="new")
    if form.is_valid():
        outcome = service_call(request, services.venue_save, form=form, **form.cleaned_data)
        if outcome.ok:
            messages.success(request, _("Venue %(name)s created.") % {"name": outcome.value.name})
            return redirect(house_url(outcome.value))
    return house_render(request, _chosen_venue(request.GET.get("venue")), new_venue_form=form)


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
            return redirect(house_url(venue))
    return house_render(request, venue, venue_form=form)


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
            return redirect(house_url(venue))
    return house_render(request, venue, rule_form=form)


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
            return redirect(house_url(venue))
    return render(request, "rulings/house_rule.html", {"venue": venue, "rule": rule, "form": form})


@role_required(MANAGE_TOURNAMENTS)
@require_POST
def house_rule_delete(request, venue_id: int, rule_id: int):
    venue = _venue(venue_id)
    outcome = service_call(request, services.house_rule_delete, venue_id=venue.pk, rule_id=rule_id)
    if outcome.ok:
        messages.success(request, _("House rule deleted."))
    return redirect(house_url(venue))


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
            return redirect(house_url(venue))
    return house_render(request, venue, upload_form=form)

"""The house settings (issue 19): the directors' guide to every point where the rule books
disagree (public, as the rule book is), and a venue's choices (director)."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.shortcuts import render as page
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clock import services as clock_services
from floorman.pages import role_required, service_call
from floorman.roles import MANAGE_TOURNAMENTS
from rulings import selectors
from rulings.engine import rulebook
from rulings.views import rulebook as rulebook_views
from tournaments import house
from tournaments import selectors as tournament_selectors
from tournaments.forms import HouseSettingsForm
from tournaments.models import Tournament, Venue


def _tda_number(rule: str) -> str | None:
    """The TDA rule a reading cites, for a link to its page ("TDA 34-A, 36" → "34")."""
    if not rule.startswith("TDA "):
        return None
    first = rule[4:].split(",")[0].strip()
    entry = rulebook.entry(first)
    return entry.number if entry else None


def house_settings_guide(request):
    """Every house setting with the reading of each side, the rule it follows and what that
    rule says; the default venue's choice marked."""
    venue = selectors.default_venue()
    chosen = selectors.venue_house_settings(venue)
    settings = [
        {
            "setting": setting,
            "readings": [
                {
                    "reading": reading,
                    "tda_number": _tda_number(reading.rule),
                    "default": reading.value == setting.default,
                    "chosen": reading.value == getattr(chosen, setting.key),
                }
                for reading in setting.readings
            ],
        }
        for setting in house.SETTINGS
    ]
    return page(
        request,
        "rulings/house_settings.html",
        {"settings": settings, "venue": venue, "agreed": house.AGREED},
    )


def house_settings_form(venue: Venue, data=None) -> HouseSettingsForm:
    readings = selectors.venue_house_settings(venue)
    return HouseSettingsForm(data, prefix="house", initial=readings.values)


@role_required(MANAGE_TOURNAMENTS)
@require_POST
def venue_house_settings(request, venue_id: int):
    venue = get_object_or_404(Venue, pk=venue_id)
    form = house_settings_form(venue, request.POST)
    if form.is_valid():
        outcome = service_call(
            request,
            clock_services.venue_house_settings_save,
            form=form,
            venue_id=venue.pk,
            changes=form.changes(),
        )
        if outcome.ok:
            messages.success(request, _("House settings saved."))
            return redirect(rulebook_views.house_url(venue))
    return rulebook_views.house_render(request, venue, house_form=form)


@role_required(MANAGE_TOURNAMENTS)
def tournament_house_settings(request, tournament_id: int):
    """The event's venue and its own readings where the rule books disagree; each setting
    left to the venue shows what the venue reads. Saved through the clock
    (`clock.services.house_settings_save`), which follows a changed heads-up reading at
    once (casino §31)."""
    tournament = get_object_or_404(Tournament.objects.select_related("venue"), pk=tournament_id)
    venue = tournament.venue or tournament_selectors.default_venue()
    inherited = tournament_selectors.venue_house_settings(venue)
    form = HouseSettingsForm(
        request.POST or None,
        inherited=inherited,
        initial={"venue": tournament.venue_id, **tournament.house_settings},
    )
    if request.method == "POST" and form.is_valid():
        chosen = form.cleaned_data["venue"]
        outcome = service_call(
            request,
            clock_services.house_settings_save,
            form=form,
            tournament_id=tournament.pk,
            venue_id=chosen.pk if chosen else None,
            changes=form.changes(),
        )
        if outcome.ok:
            messages.success(request, _("House settings saved."))
            return redirect("tournaments:house-settings", tournament.pk)
    readings = tournament_selectors.house_settings(tournament)
    rows = [
        {
            "field": form[setting.key],
            "reading": setting.reading(getattr(readings, setting.key)),
            "own": setting.key in tournament.house_settings,
        }
        for setting in house.SETTINGS
    ]
    return page(
        request,
        "tournaments/house_settings.html",
        {"tournament": tournament, "form": form, "venue": venue, "rows": rows},
        status=400 if form.errors else 200,
    )

"""The house settings (issue 19): the directors' guide to every point where the rule books
disagree (public, as the rule book is), and a venue's choices (director)."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.shortcuts import render as page
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from floorman.pages import role_required, service_call
from floorman.roles import MANAGE_TOURNAMENTS
from rulings import selectors
from rulings.engine import rulebook
from rulings.views import rulebook as rulebook_views
from tournaments import house
from tournaments.forms import HouseSettingsForm
from tournaments.models import Venue
from tournaments.services import house as house_services


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
    return page(request, "rulings/house_settings.html", {"settings": settings, "venue": venue})


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
            house_services.venue_house_settings_save,
            form=form,
            venue_id=venue.pk,
            changes=form.changes(),
        )
        if outcome.ok:
            messages.success(request, _("House settings saved."))
            return redirect(rulebook_views.house_url(venue))
    return rulebook_views.house_render(request, venue, house_form=form)

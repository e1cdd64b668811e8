"""Pages of the hands app: the floor's hand-for-hand (RP-8).

The dealer's tablet and its links tie hands to the clock and the rulings: they live at
the top of the house (web.tablet), in the same "hands" URL namespace.

Thin views: each POST calls one service; a refusal is shown on the page with the
service's status (400, 409) and changes nothing; success redirects back (POST/redirect/
GET).
"""

from datetime import timedelta

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from floorman.pages import role_required, service_call
from floorman.roles import HAND_FOR_HAND
from hands import services
from hands.forms import HandForHandActionForm, HandForHandSettingsForm
from hands.selectors import current_round, h4h_public, hand_for_hand
from tournaments.lookups import tournament_or_404
from tournaments.models import Tournament

# --- Hand-for-hand (the floor) -----------------------------------------------------------


def _late_tables(h4h: dict, now=None) -> list[int]:
    """Tables still playing the round after the alert time: the floor goes to look."""
    started = h4h["round_started_at"]
    if not h4h["active"] or started is None:
        return []
    now = now or timezone.now()
    if now - started < timedelta(minutes=h4h["alert_minutes"]):
        return []
    return sorted(h4h["playing"])


def _h4h_initial(settings) -> dict:
    return {
        "places_paid": settings.places_paid,
        "seconds_per_hand": settings.seconds_per_hand,
        "margin": settings.margin,
        "alert_minutes": settings.alert_minutes,
    }


def _h4h_render(request, tournament: Tournament, form=None, *, status: int = 200):
    settings = hand_for_hand(tournament.pk)
    h4h = h4h_public(tournament, settings, current_round(tournament, settings))
    context = {
        "tournament": tournament,
        "here": "hand-for-hand",
        "h4h": h4h,
        "late": _late_tables(h4h),
        "form": form or HandForHandSettingsForm(initial=_h4h_initial(settings)),
        "config": {
            "tournament": tournament.pk,
            "urls": {
                "socket": f"/ws/tournaments/{tournament.pk}/",
                "page": reverse("hands:hand-for-hand", args=[tournament.pk]),
            },
        },
    }
    return render(request, "hands/hand_for_hand.html", context, status=status)


@never_cache
@role_required(HAND_FOR_HAND)
@require_http_methods(["GET", "POST"])
def hand_for_hand_page(request, tournament_id: int):
    """RP-8: the floor's hand-for-hand: its house settings, start and stop, the round."""
    tournament = tournament_or_404(tournament_id)
    here = reverse("hands:hand-for-hand", args=[tournament.pk])
    if request.method != "POST":
        return _h4h_render(request, tournament)
    chosen = HandForHandActionForm(request.POST)
    if not chosen.is_valid():
        messages.error(request, _("Unknown action."))
        return _h4h_render(request, tournament, status=400)
    action = chosen.cleaned_data["action"]
    if action == "settings":
        form = HandForHandSettingsForm(request.POST)
        if not form.is_valid():
            return _h4h_render(request, tournament, form, status=400)
        outcome = service_call(
            request,
            services.h4h_settings_update,
            form=form,
            tournament_id=tournament.pk,
            data=form.cleaned_data,
        )
        if not outcome.ok:
            return _h4h_render(request, tournament, form, status=outcome.error.http_status)
        messages.success(request, _("Hand-for-hand settings saved."))
        return redirect(here)
    service = services.h4h_start if action == "start" else services.h4h_stop
    outcome = service_call(request, service, tournament_id=tournament.pk)
    if not outcome.ok:
        return _h4h_render(request, tournament, status=outcome.error.http_status)
    if action == "start":
        messages.success(
            request,
            _("Hand-for-hand announced: every table finishes its hand and holds (RP-8 A)."),
        )
    else:
        messages.success(request, _("Hand-for-hand is over: tables deal freely again."))
    return redirect(here)

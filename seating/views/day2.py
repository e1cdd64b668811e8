"""The director's Day 2 page of an event with flights (issue 17): each flight's
survivors and bags, the players in two flights and what happens to their bags (with the
choice where the house lets them choose), the Day 2 field with its chips, and the start:
the redraw (TDA 7), then the seat list. Thin: each POST calls one service."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from floorman.pages import role_required, service_call
from floorman.roles import SEATING
from seating.selectors import day2_seats
from seating.services.day2 import day2_start
from tournaments.messages import day2_refusal
from tournaments.models import Bag, Tournament
from tournaments.selectors import bag_label, day2_state
from tournaments.services.day2 import bag_choose


def _event(tournament_id: int) -> Tournament:
    return get_object_or_404(Tournament, pk=tournament_id)


@role_required(SEATING)
@require_http_methods(["GET"])
def day2(request, tournament_id: int):
    """The Day 2 page; a flight's opens its event's."""
    event = _event(tournament_id)
    if event.parent_id is not None:
        return redirect("seating:day2", event.parent_id)
    state = day2_state(event)
    flights = {row.flight.pk: row.flight for row in state.flights}
    labels = {
        bag.pk: bag_label(flights[bag.flight_id], bag) for row in state.flights for bag in row.bags
    }
    return render(
        request,
        "seating/day2.html",
        {
            "tournament": event,
            "here": "day2",
            "state": state,
            "labels": labels,
            "refusal": day2_refusal(state.refusal[0], **state.refusal[1])
            if state.refusal
            else None,
            "seats": day2_seats(event) if state.started else [],
        },
    )


@role_required(SEATING)
@require_POST
def day2_begin(request, tournament_id: int):
    """Start Day 2: the survivor rule, the Day 2 entries, the redraw (TDA 7)."""
    event = _event(tournament_id)
    outcome = service_call(request, day2_start, event_id=event.pk)
    if outcome.ok:
        count = len(outcome.value)
        messages.success(
            request,
            ngettext(
                "Day 2 has started: %(count)s player drawn to a new seat (TDA 7).",
                "Day 2 has started: %(count)s players drawn to new seats (TDA 7).",
                count,
            )
            % {"count": count},
        )
    return redirect(reverse("seating:day2", args=[event.pk]) + "#seats")


@role_required(SEATING)
@require_POST
def day2_choose(request, tournament_id: int, bag_id: int):
    """The player's choice of the bag that plays Day 2, where the house lets them choose."""
    event = _event(tournament_id)
    get_object_or_404(Bag, pk=bag_id, flight__parent=event)
    outcome = service_call(request, bag_choose, bag_id=bag_id)
    if outcome.ok:
        bag = outcome.value
        messages.success(
            request,
            _("Bag %(bag)s plays Day 2; the player's other bags are forfeited.")
            % {"bag": bag_label(bag.flight, bag)},
        )
    return redirect(reverse("seating:day2", args=[event.pk]) + "#doubles")

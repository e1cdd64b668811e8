"""The flight pages: the event's flights with the form to add one (the director's), and
a flight's end at the floor: the director's stop, the bagging page (the survivors by
table and seat, a count for each; the check against the chips in play; the director's
confirmation) and the printable bag-and-tag sheet.

Thin views: parse a form, call one service through `floorman.pages.service_call`, then
redirect (post/redirect/get) or show the page again with the refusal's status."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from clock.services import flight_stop as flight_stop_service
from floorman.pages import role_required, service_call
from floorman.roles import BAGS, MANAGE_TOURNAMENTS
from prizes.services.events import flight_add
from tournaments.lookups import tournament_or_404
from tournaments.models import Tournament
from tournaments.selectors import flight_bag_check, flights_of
from tournaments.services.bags import bag_record, flight_bags_confirm
from tournaments.templatetags.floorman_format import chips as chips_text
from web.flights.forms import BagForm, BagsConfirmForm, FlightAddForm
from web.flights.reads import bag_rows, bag_sheet_rows


def _status(form, outcome=None) -> int:
    if outcome is not None and not outcome.ok:
        return outcome.error.http_status
    return 400 if form.errors else 200


# --- The event's flights ---------------------------------------------------------------------


def _flights_page(request, event: Tournament, *, form=None, status=200):
    return render(
        request,
        "flights/flights.html",
        {
            "tournament": event,
            "here": "flights",
            "flights": list(flights_of(event)) if not event.is_flight else [],
            "form": form or FlightAddForm(initial={"start_at": event.start_at}),
        },
        status=status,
    )


@role_required(MANAGE_TOURNAMENTS)
@require_http_methods(["GET", "POST"])
def flights(request, tournament_id: int):
    """The event's flights (name, start, status, entries, survivors) and a new one."""
    event = tournament_or_404(tournament_id)
    if request.method != "POST":
        return _flights_page(request, event)
    form = FlightAddForm(request.POST)
    outcome = None
    if form.is_valid():
        outcome = service_call(
            request, flight_add, form=form, event_id=event.pk, **form.cleaned_data
        )
        if outcome.ok:
            messages.success(
                request,
                _("Flight “%(name)s” added: give it its tables and open registration.")
                % {"name": outcome.value.name},
            )
            return redirect("tournaments:flights", event.pk)
    return _flights_page(request, event, form=form, status=_status(form, outcome))


# --- A flight's end --------------------------------------------------------------------------


def _end_page(request, flight: Tournament, *, confirm_form=None, bag_error=None, status=200):
    report = flight_bag_check(flight)
    return render(
        request,
        "flights/flight_end.html",
        {
            "tournament": flight,
            "here": "flight-end",
            "report": report,
            "rows": bag_rows(flight, report),
            "bag_error": bag_error,
            "confirm_form": confirm_form or BagsConfirmForm(),
        },
        status=status,
    )


@role_required(BAGS)
@require_safe
def flight_end(request, tournament_id: int):
    """The bagging page: the stop, each survivor's count, the check, the confirmation."""
    return _end_page(request, tournament_or_404(tournament_id))


@role_required(MANAGE_TOURNAMENTS)
@require_POST
def flight_stop(request, tournament_id: int):
    """The director stops play in the flight: its survivors bag their chips."""
    flight = tournament_or_404(tournament_id)
    outcome = service_call(request, flight_stop_service, flash=False, tournament_id=flight.pk)
    if not outcome.ok:
        messages.error(request, outcome.error.message)
        return _end_page(request, flight, status=outcome.error.http_status)
    messages.success(request, _("Play has stopped: count each survivor's chips into a bag."))
    return redirect("tournaments:flight-end", flight.pk)


@role_required(BAGS)
@require_POST
def bag(request, tournament_id: int):
    """One survivor's chips counted into a bag (again: the count corrected)."""
    flight = tournament_or_404(tournament_id)
    form = BagForm(request.POST)
    if not form.is_valid():
        error = {"entry": request.POST.get("entry"), "errors": form.errors.get("chips", [])}
        error["errors"] = error["errors"] or [_("Count the chips: a whole number.")]
        return _end_page(request, flight, bag_error=error, status=400)
    outcome = service_call(
        request,
        bag_record,
        flash=False,
        tournament_id=flight.pk,
        entry_id=form.cleaned_data["entry"],
        chips=form.cleaned_data["chips"],
    )
    if not outcome.ok:
        messages.error(request, outcome.error.message)
        return _end_page(request, flight, status=outcome.error.http_status)
    saved = outcome.value
    messages.success(
        request,
        _("Bag %(number)s: %(name)s, %(chips)s chips.")
        % {
            "number": saved.number,
            "name": saved.entry.player.name,
            "chips": chips_text(saved.chips),
        },
    )
    return redirect("tournaments:flight-end", flight.pk)


@role_required(MANAGE_TOURNAMENTS)
@require_POST
def bags_confirm(request, tournament_id: int):
    """The director confirms the bags against the chips in play."""
    flight = tournament_or_404(tournament_id)
    form = BagsConfirmForm(request.POST)
    outcome = None
    if form.is_valid():
        outcome = service_call(
            request, flight_bags_confirm, form=form, tournament_id=flight.pk, **form.cleaned_data
        )
        if outcome.ok:
            messages.success(request, _("The flight's bags are confirmed."))
            return redirect("tournaments:flight-end", flight.pk)
    return _end_page(request, flight, confirm_form=form, status=_status(form, outcome))


@role_required(BAGS)
@require_safe
def bag_sheet(request, tournament_id: int):
    """The bag-and-tag sheet: one tag per bag, to print."""
    flight = tournament_or_404(tournament_id)
    report = flight_bag_check(flight)
    return render(
        request,
        "flights/bag_sheet.html",
        {"tournament": flight, "tags": bag_sheet_rows(flight, report), "report": report},
    )

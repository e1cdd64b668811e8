"""The floor's chip counts page for an event (issue 18): the count sweep (which tables
have reported, which not, since when), a count for any player, every player's latest
count with its level and time, and the sum of the counts against the chips in play;
the chips the floor takes out of play (issue 19: TDA 8-B, 63, 64) and the list of them.

Thin: each POST calls one service (seating.services.counts); a refusal is shown on the
page with its status (400, 409) and writes nothing; success redirects back."""

from django import forms
from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from floorman.pages import role_required, service_call
from floorman.roles import COUNTS
from seating.selectors import sweep_report
from seating.services import counts as services
from tournaments.lookups import tournament_or_404
from tournaments.models import MAX_CHIPS, Entry, RemovalReason, Tournament
from tournaments.selectors import chips_removed_list, count_check
from tournaments.services.removals import NOTE_MAX, chips_remove
from tournaments.templatetags.floorman_format import chips as chips_text

ACTIONS = ("count", "sweep_start", "sweep_close", "remove")


class CountActionForm(forms.Form):
    action = forms.ChoiceField(
        choices=[(a, a) for a in ACTIONS],
        error_messages={
            "invalid_choice": gettext_lazy("Unknown action."),
            "required": gettext_lazy("Unknown action."),
        },
    )


class EntryCountForm(forms.Form):
    """The floor counts one player, named by their entry number."""

    number = forms.IntegerField(label=gettext_lazy("Entry number"), min_value=1, max_value=10**9)
    chips = forms.IntegerField(label=gettext_lazy("Chips"), min_value=1, max_value=MAX_CHIPS)


class ChipRemovalForm(forms.Form):
    """Chips taken out of play: TDA 8-B and 63 off a player's stack (their entry number),
    TDA 64 off nobody's."""

    reason = forms.ChoiceField(label=gettext_lazy("Why"), choices=RemovalReason.choices)
    amount = forms.IntegerField(label=gettext_lazy("Chips"), min_value=1, max_value=MAX_CHIPS)
    number = forms.IntegerField(
        label=gettext_lazy("From the stack of entry"),
        min_value=1,
        max_value=10**9,
        required=False,
        help_text=gettext_lazy("TDA 8-B and 63: the player's entry number; TDA 64: leave empty."),
    )
    note = forms.CharField(label=gettext_lazy("Note"), max_length=NOTE_MAX, required=False)


def _page(request, tournament: Tournament, *, form=None, removal_form=None, status: int = 200):
    context = {
        "tournament": tournament,
        "report": sweep_report(tournament),
        "check": count_check(tournament),
        "form": form or EntryCountForm(),
        "removal_form": removal_form or ChipRemovalForm(initial=request.GET.dict()),
        "removals": chips_removed_list(tournament),
    }
    return render(request, "seating/counts.html", context, status=status)


def _count(request, tournament: Tournament):
    form = EntryCountForm(request.POST)
    if not form.is_valid():
        return _page(request, tournament, form=form, status=400)
    entry = Entry.objects.filter(tournament=tournament, number=form.cleaned_data["number"]).first()
    if entry is None:
        form.add_error("number", _("No entry with this number in this event."))
        return _page(request, tournament, form=form, status=400)
    outcome = service_call(
        request,
        services.entry_count_record,
        form=form,
        tournament_id=tournament.pk,
        entry_id=entry.pk,
        chips=form.cleaned_data["chips"],
    )
    if not outcome.ok:
        return _page(request, tournament, form=form, status=outcome.error.http_status)
    messages.success(
        request,
        _("#%(number)s counted: %(chips)s chips at level %(level)s.")
        % {
            "number": entry.number,
            "chips": chips_text(outcome.value.chips),
            "level": outcome.value.level,
        },
    )
    return None


def _remove(request, tournament: Tournament):
    form = ChipRemovalForm(request.POST)
    if not form.is_valid():
        return _page(request, tournament, removal_form=form, status=400)
    data = form.cleaned_data
    entry_id = None
    if data["number"] is not None:
        entry = Entry.objects.filter(tournament=tournament, number=data["number"]).first()
        if entry is None:
            form.add_error("number", _("No entry with this number in this event."))
            return _page(request, tournament, removal_form=form, status=400)
        entry_id = entry.pk
    outcome = service_call(
        request,
        chips_remove,
        form=form,
        field_map={"entry": "number"},
        tournament_id=tournament.pk,
        reason=data["reason"],
        amount=data["amount"],
        entry_id=entry_id,
        note=data["note"],
    )
    if not outcome.ok:
        return _page(request, tournament, removal_form=form, status=outcome.error.http_status)
    messages.success(
        request,
        _("%(chips)s chips taken out of play.") % {"chips": chips_text(outcome.value.amount)},
    )
    return None


def _sweep(request, tournament: Tournament, action: str):
    service = services.count_sweep_start if action == "sweep_start" else services.count_sweep_close
    outcome = service_call(request, service, flash=False, tournament_id=tournament.pk)
    if not outcome.ok:
        messages.error(request, outcome.error.message)
        return _page(request, tournament, status=outcome.error.http_status)
    if action == "sweep_start":
        text = _("Count sweep started at level %(level)s: every table reports its counts.")
    else:
        text = _("Count sweep of level %(level)s closed.")
    messages.success(request, text % {"level": outcome.value.level})
    return None


@role_required(COUNTS)
@require_http_methods(["GET", "POST"])
def counts(request, tournament_id: int):
    """The floor's chip counts for the event."""
    tournament = tournament_or_404(tournament_id)
    if request.method != "POST":
        return _page(request, tournament)
    chosen = CountActionForm(request.POST)
    if not chosen.is_valid():
        messages.error(request, _("Unknown action."))
        return _page(request, tournament, status=400)
    action = chosen.cleaned_data["action"]
    if action == "count":
        refused = _count(request, tournament)
    elif action == "remove":
        refused = _remove(request, tournament)
    else:
        refused = _sweep(request, tournament, action)
    if refused is not None:
        return refused
    return redirect(reverse("seating:counts", args=[tournament.pk]))

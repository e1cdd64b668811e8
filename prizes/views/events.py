"""The director's pages for events made from other events: copy an event, save it as an
event template, the list of templates, start an event from one, delete one.

Thin views: parse a form, call one service of prizes.services.events through
`floorman.pages.service_call`, then redirect (post/redirect/get) or show the form again
with its errors and the refusal's status.
"""

from datetime import timedelta

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from floorman.pages import role_required, service_call
from floorman.roles import MANAGE_TOURNAMENTS
from prizes.forms.events import EventNewForm, EventTemplateSaveForm
from prizes.models import EventTemplate
from prizes.services import events
from tournaments.lookups import tournament_or_404
from tournaments.models import Tournament

WEEK = timedelta(days=7)


def _next_week(start_at):
    """The copy's start the form suggests: a week on, and not in the past; the same
    weekday and the same time on the venue's clock (across a change to summer time), as
    a weekly event comes round."""
    start, now = timezone.localtime(start_at) + WEEK, timezone.now()
    while start <= now:
        start += WEEK
    return start


def _status(form, outcome=None) -> int:
    if outcome is not None and not outcome.ok:
        return outcome.error.http_status
    return 400 if form.errors else 200


def _copy_page(request, tournament: Tournament, *, copy_form=None, save_form=None, status=200):
    copy_form = copy_form or EventNewForm(
        initial={"name": tournament.name, "start_at": _next_week(tournament.start_at)}
    )
    return render(
        request,
        "prizes/event_copy.html",
        {
            "tournament": tournament,
            "here": "copy",
            "copy_form": copy_form,
            "save_form": save_form or EventTemplateSaveForm(initial={"name": tournament.name}),
        },
        status=status,
    )


def _made(request, tournament: Tournament, text: str):
    messages.success(request, text % {"name": tournament.name})
    return redirect("tournaments:detail", tournament.pk)


@role_required(MANAGE_TOURNAMENTS)
@require_http_methods(["GET", "POST"])
def event_copy(request, tournament_id: int):
    """Copy this event under a new name and start, or save it as an event template."""
    tournament = tournament_or_404(tournament_id)
    if request.method != "POST":
        return _copy_page(request, tournament)
    form = EventNewForm(request.POST)
    outcome = None
    if form.is_valid():
        outcome = service_call(
            request, events.event_copy, form=form, tournament_id=tournament.pk, **form.cleaned_data
        )
        if outcome.ok:
            return _made(
                request,
                outcome.value,
                _("“%(name)s” created as a copy: check its start and open registration."),
            )
    return _copy_page(request, tournament, copy_form=form, status=_status(form, outcome))


@role_required(MANAGE_TOURNAMENTS)
@require_POST
def event_template_save(request, tournament_id: int):
    """Keep this event's setup under a name, to start the next ones from."""
    tournament = tournament_or_404(tournament_id)
    form = EventTemplateSaveForm(request.POST)
    outcome = None
    if form.is_valid():
        name = form.cleaned_data["name"]
        replaced = EventTemplate.objects.filter(name=name).exists()
        outcome = service_call(
            request, events.event_template_save, form=form, tournament_id=tournament.pk, name=name
        )
        if outcome.ok:
            text = (
                _("Event template “%(name)s” replaced with this event.")
                if replaced
                else _("Event saved as the template “%(name)s”.")
            )
            messages.success(request, text % {"name": outcome.value.name})
            return redirect("tournaments:event-templates")
    return _copy_page(request, tournament, save_form=form, status=_status(form, outcome))


# --- The house's event templates --------------------------------------------------------


def _summary(template: EventTemplate) -> dict:
    """What the list shows of a template's setup: enough to tell Saturday from Sunday."""
    setup = template.setup
    event = setup.get("event") or {}
    structure = (setup.get("clock") or {}).get("structure") or {}
    return {
        "template": template,
        "buy_in": event.get("buy_in"),
        "fee": event.get("fee") or 0,
        "bounty_format": event.get("bounty_format") or "",  # issue 18: the price's bounty
        "bounty": event.get("bounty") or 0,
        "currency": event.get("currency") or "EUR",
        "starting_stack": event.get("starting_stack"),
        "levels": sum(1 for step in structure.get("steps", []) if step.get("kind") == "level"),
        "tables": len((setup.get("seating") or {}).get("tables") or []),
    }


@role_required(MANAGE_TOURNAMENTS)
@require_safe
def event_templates(request):
    """The saved event templates, each to start a new event from."""
    templates = [_summary(t) for t in EventTemplate.objects.order_by("name", "id")]
    return render(request, "prizes/event_templates.html", {"templates": templates})


@role_required(MANAGE_TOURNAMENTS)
@require_http_methods(["GET", "POST"])
def event_template_start(request, template_id: int):
    """A new event from a saved template: its name, start, and whether the tables come."""
    template = get_object_or_404(EventTemplate, pk=template_id)
    form = EventNewForm(request.POST or None, initial={"name": template.name})
    outcome = None
    if request.method == "POST" and form.is_valid():
        outcome = service_call(
            request,
            events.event_template_start,
            form=form,
            template_id=template.pk,
            **form.cleaned_data,
        )
        if outcome.ok:
            return _made(
                request,
                outcome.value,
                _("“%(name)s” created from the template: check it and open registration."),
            )
    return render(
        request,
        "prizes/event_template_start.html",
        {"template": _summary(template), "form": form},
        status=_status(form, outcome),
    )


@role_required(MANAGE_TOURNAMENTS)
@require_http_methods(["GET", "POST"])
def event_template_delete(request, template_id: int):
    """Delete a template after a confirmation page; events started from it stay."""
    template = get_object_or_404(EventTemplate, pk=template_id)
    if request.method == "POST":
        outcome = service_call(request, events.event_template_delete, template_id=template.pk)
        if outcome.ok:
            messages.success(
                request, _("Event template “%(name)s” deleted.") % {"name": template.name}
            )
        return redirect("tournaments:event-templates")
    return render(
        request,
        "tournaments/confirm.html",
        {
            "title": _("Delete the event template “%(name)s”?") % {"name": template.name},
            "question": _(
                "The events started from it stay as they are. Saved again from an event, "
                "it can be had back."
            ),
            "confirm_label": _("Delete the template"),
            "back_url": reverse("tournaments:event-templates"),
        },
    )

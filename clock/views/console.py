"""The TD's clock console: drive the clock, house settings, player clocks (TDA 29),
announcements and the end of the day (casino §28). Thin views: each POST calls one
service through `floorman.pages.service_call`, then redirects back to the console.
"""

from django import forms
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from clock import engine, services
from clock.models import Clock
from clock.selectors import (
    announcements_public,
    clock_of,
    clock_public,
    clock_readings,
    player_clock_public,
    player_clocks_running,
)
from floorman.pages import role_required, service_call
from floorman.roles import CLOCK, MANAGE_TOURNAMENTS, user_has_role
from tournaments.models import Tournament

# Actions that throw away time or a level in play: asked again before they happen.
CONFIRM = {
    "next": gettext_lazy("Start the next level now?"),
    "previous": gettext_lazy("Go back to the previous level? Its full time starts again."),
    "jump": gettext_lazy("Jump to this level? Its full time starts now."),
    "set": gettext_lazy("Set the time left of this level?"),
    "finish": gettext_lazy("Stop the clock for good? This cannot be undone."),
}


def _actions() -> list[tuple[str, str]]:
    return [
        (a, a)
        for a in ("start", "pause", "resume", "next", "previous", "jump", "set", "adjust", "finish")
    ]


class ClockActionForm(forms.Form):
    action = forms.ChoiceField(choices=_actions)
    level = forms.IntegerField(min_value=1, max_value=1000, required=False)
    minutes = forms.IntegerField(min_value=0, max_value=1440, required=False)
    seconds = forms.IntegerField(
        min_value=-engine.MAX_SECONDS, max_value=engine.MAX_SECONDS, required=False
    )
    confirm = forms.BooleanField(required=False)

    def clean(self):
        data = super().clean()
        action = data.get("action")
        if action == "jump" and data.get("level") is None:
            self.add_error("level", _("Say which level to jump to."))
        if action == "set":
            minutes, seconds = data.get("minutes"), data.get("seconds")
            if minutes is None and seconds is None:
                self.add_error("minutes", _("Say how much time is left."))
            else:
                data["seconds"] = (minutes or 0) * 60 + (seconds or 0)
        if action == "adjust" and data.get("seconds") is None:
            self.add_error("seconds", _("Say how many seconds."))
        return data


class SettingsForm(forms.ModelForm):
    """The clock's own settings; the rule books' disagreements (the player clock, heads-up,
    the end of the day) are the event's house settings, on their own page."""

    class Meta:
        model = Clock
        fields = list(Clock.SETTINGS)


class PlayerClockForm(forms.Form):
    table = forms.IntegerField(label=gettext_lazy("Table"), min_value=1, max_value=9999)
    seat = forms.IntegerField(label=gettext_lazy("Seat"), min_value=1, max_value=10)
    facing_bet = forms.BooleanField(label=gettext_lazy("Facing a bet"), required=False)


class AnnouncementForm(forms.Form):
    text = forms.CharField(label=gettext_lazy("Announcement"), max_length=280)

    def clean_text(self):
        text = self.cleaned_data["text"].replace("\x00", "").strip()
        if not text:
            raise forms.ValidationError(_("Write the announcement."))
        return text


def _tournament(tournament_id: int) -> Tournament:
    return get_object_or_404(Tournament, pk=tournament_id)


def _console(tournament_id: int) -> str:
    return reverse("clock:console", args=[tournament_id])


def _console_action(request, tournament: Tournament, service, /, **kwargs):
    """Run a console action that has no form: a refusal shows as a message on the console."""
    service_call(request, service, tournament_id=tournament.pk, **kwargs)
    return redirect(_console(tournament.pk))


def _console_form_action(request, tournament: Tournament, name: str, form, service, /, **kwargs):
    """Run a console form's action: a refusal shows on the form, on the console page."""
    outcome = service_call(request, service, form=form, tournament_id=tournament.pk, **kwargs)
    if not outcome.ok:
        return console(request, tournament.pk, forms_={name: form})
    return redirect(_console(tournament.pk))


@role_required(CLOCK)
def console(request, tournament_id: int, *, action_form=None, forms_=None):
    tournament = _tournament(tournament_id)
    clock = clock_of(tournament)
    state = clock_public(tournament)
    forms_ = forms_ or {}
    context = {
        "tournament": tournament,
        "here": "clock",
        "state": state,
        "clock": clock,
        "action_form": action_form or ClockActionForm(),
        "settings_form": forms_.get("settings") or SettingsForm(instance=clock),
        "player_clock_form": forms_.get("player_clock") or PlayerClockForm(),
        "announcement_form": forms_.get("announcement") or AnnouncementForm(),
        "player_clocks": [player_clock_public(c) for c in player_clocks_running(tournament)],
        "announcements": announcements_public(tournament),
        "readings": clock_readings(tournament),
        "confirm": {key: str(text) for key, text in CONFIRM.items()},
        "levels": [s for s in state["steps"] if not s["is_break"]],
        "is_director": user_has_role(request.user, MANAGE_TOURNAMENTS),
    }
    status = (
        400
        if (action_form and action_form.errors) or any(f.errors for f in forms_.values())
        else 200
    )
    return render(request, "clock/console.html", context, status=status)


@require_POST
@role_required(CLOCK)
def clock_action(request, tournament_id: int):
    tournament = _tournament(tournament_id)
    form = ClockActionForm(request.POST)
    if not form.is_valid():
        return console(request, tournament.pk, action_form=form)
    data = form.cleaned_data
    action = data["action"]
    if action in CONFIRM and not data["confirm"]:
        # Without JavaScript there is no dialog: ask on a page of its own.
        return render(
            request,
            "clock/confirm.html",
            {"tournament": tournament, "question": CONFIRM[action], "data": request.POST},
        )
    outcome = service_call(
        request,
        services.clock_act,
        tournament_id=tournament.pk,
        action=action,
        level=data.get("level"),
        seconds=data.get("seconds"),
    )
    if outcome.ok and request.htmx:
        return console(request, tournament.pk)
    return redirect(_console(tournament.pk))


@require_POST
@role_required(MANAGE_TOURNAMENTS)
def clock_settings(request, tournament_id: int):
    tournament = _tournament(tournament_id)
    form = SettingsForm(request.POST, instance=clock_of(tournament))
    if not form.is_valid():
        return console(request, tournament.pk, forms_={"settings": form})
    return _console_form_action(
        request,
        tournament,
        "settings",
        form,
        services.clock_settings_update,
        data=form.cleaned_data,
    )


@require_POST
@role_required(CLOCK)
def player_clock_call(request, tournament_id: int):
    tournament = _tournament(tournament_id)
    form = PlayerClockForm(request.POST)
    if not form.is_valid():
        return console(request, tournament.pk, forms_={"player_clock": form})
    return _console_form_action(
        request, tournament, "player_clock", form, services.player_clock_call, **form.cleaned_data
    )


@require_POST
@role_required(CLOCK)
def player_clock_stop(request, tournament_id: int, player_clock_id: int):
    return _console_action(
        request,
        _tournament(tournament_id),
        services.player_clock_stop,
        player_clock_id=player_clock_id,
    )


@require_POST
@role_required(MANAGE_TOURNAMENTS)
def announcement_post(request, tournament_id: int):
    tournament = _tournament(tournament_id)
    form = AnnouncementForm(request.POST)
    if not form.is_valid():
        return console(request, tournament.pk, forms_={"announcement": form})
    return _console_action(
        request, tournament, services.announcement_post, text=form.cleaned_data["text"]
    )


@require_POST
@role_required(MANAGE_TOURNAMENTS)
def announcement_hide(request, tournament_id: int, announcement_id: int):
    return _console_action(
        request,
        _tournament(tournament_id),
        services.announcement_hide,
        announcement_id=announcement_id,
    )


@require_POST
@role_required(MANAGE_TOURNAMENTS)
def day_end(request, tournament_id: int):
    """Casino §28, where the house follows it (its `day_end_draw` reading; otherwise the
    service refuses, 409): asked on a page of its own first, as it stops play for the day."""
    tournament = _tournament(tournament_id)
    if request.POST.get("confirm") != "on":
        question = _("Stop the clock and draw the number of hands left today (3–7)?")
        return render(
            request,
            "clock/confirm.html",
            {"tournament": tournament, "question": question, "data": request.POST},
        )
    return _console_action(request, tournament, services.clock_day_end)

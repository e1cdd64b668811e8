"""Series pages (issue 17). The director's: the list, a new series, its edit page and
its page with the schedule, where an event is put in with its number. The public
schedule (no login, only while the series is public): for phones, and for a TV in big
type; static/js/schedule.js keeps each event's status live from the series' socket
(/ws/series/<id>/). Views are thin: a form, one service, render or redirect."""

from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from floorman.pages import role_required, service_call
from floorman.roles import MANAGE_TOURNAMENTS
from tournaments.models import Series, TournamentStatus
from tournaments.selectors import series_schedule
from tournaments.services import series as services
from web.series.forms import SeriesEventForm, SeriesForm

PER_PAGE = 50


def series_or_404(series_id: int) -> Series:
    return get_object_or_404(Series, pk=series_id)


@role_required(MANAGE_TOURNAMENTS)
@require_safe
def series_list(request):
    """Every series, newest first, with its number of events (flights apart)."""
    found = Series.objects.annotate(
        event_count=Count("events", filter=Q(events__parent__isnull=True))
    ).order_by("-starts_on", "-id")
    page = Paginator(found, PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "series/list.html", {"page": page})


@role_required(MANAGE_TOURNAMENTS)
def series_create(request):
    form = SeriesForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        outcome = service_call(request, services.series_add, form=form, data=form.cleaned_data)
        if outcome.ok:
            messages.success(request, _("Series created."))
            return redirect("series:detail", outcome.value.pk)
    return render(request, "series/form.html", {"form": form})


@role_required(MANAGE_TOURNAMENTS)
def series_edit(request, series_id: int):
    series = series_or_404(series_id)
    form = SeriesForm(request.POST or None, initial=SeriesForm.initial_from(series))
    if request.method == "POST" and form.is_valid():
        outcome = service_call(
            request,
            services.series_update,
            form=form,
            series_id=series.pk,
            data=form.cleaned_data,
        )
        if outcome.ok:
            messages.success(request, _("Series saved."))
            return redirect("series:detail", series.pk)
    return render(request, "series/form.html", {"form": form, "series": series})


@role_required(MANAGE_TOURNAMENTS)
def series_detail(request, series_id: int):
    """The series' schedule, each event linked; a form puts an event into it (or gives it
    another number)."""
    series = series_or_404(series_id)
    form = SeriesEventForm(request.POST or None, series=series)
    if request.method == "POST" and form.is_valid():
        outcome = service_call(
            request,
            services.series_event_set,
            form=form,
            tournament_id=form.cleaned_data["tournament"].pk,
            series_id=series.pk,
            series_number=form.cleaned_data["series_number"],
        )
        if outcome.ok:
            messages.success(request, _("The event is in the series."))
            return redirect("series:detail", series.pk)
    context = {"series": series, "rows": series_schedule(series), "form": form}
    return render(request, "series/detail.html", context)


@role_required(MANAGE_TOURNAMENTS)
@require_POST
def series_event_remove(request, series_id: int, tournament_id: int):
    """Take an event (and its flights) out of the series."""
    series = series_or_404(series_id)
    outcome = service_call(
        request,
        services.series_event_set,
        tournament_id=tournament_id,
        series_id=None,
        series_number=None,
    )
    if outcome.ok:
        messages.success(request, _("The event is no longer in the series."))
    return redirect("series:detail", series.pk)


# --- The public schedule ------------------------------------------------------------------


def status_labels() -> dict[str, str]:
    """What a schedule says of an event's status, for the page's script as well."""
    return {value: str(label) for value, label in TournamentStatus.choices}


def public_series(slug: str) -> Series:
    series = Series.objects.filter(slug=slug, public=True).first()
    if series is None:
        raise Http404(_("No such series."))
    return series


@never_cache
@require_safe
def schedule(request, slug: str, tv: bool = False):
    """The public schedule: each event's start, buy-in, game, format and status, with a
    link to its lobby (and its results once finished). `tv`: the lobby screens' big
    type. Live: each status change arrives on the series' socket."""
    series = public_series(slug)
    config = {
        "socket": f"/ws/series/{series.pk}/",  # web.asgi routes it
        "part": reverse("series:schedule-part", kwargs={"slug": series.slug})
        + ("?tv=1" if tv else ""),
        "statuses": status_labels(),
    }
    context = {
        "series": series,
        "rows": series_schedule(series),
        "config": config,
        "tv": tv,
        "lobby_url": reverse("screens:series-lobby", kwargs={"slug": series.slug}),
    }
    template = "series/schedule_tv.html" if tv else "series/schedule.html"
    return render(request, template, context)


@never_cache
@require_safe
def schedule_part(request, slug: str):
    """The schedule's list alone, for a page that has (re)connected its socket."""
    series = public_series(slug)
    context = {"series": series, "rows": series_schedule(series), "tv": "tv" in request.GET}
    return render(request, "series/_schedule.html", context)

"""Tournament pages: list, detail and setup, the registration desk, entries, alternates,
players. Views are thin: parse the form, call one service through
`floorman.pages.service_call`, then render or redirect. htmx only enhances: every form
also works as a plain POST.
"""

from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from floorman.inputs import search_text
from floorman.pages import role_required, safe_next, service_call
from floorman.roles import MANAGE_TOURNAMENTS, SEE_PLAYERS
from tournaments import engine, services
from tournaments.forms import PlayerForm, TournamentForm
from tournaments.models import (
    EntryStatus,
    Player,
    Tournament,
)
from tournaments.selectors import players_search

PER_PAGE = 50


# --- Tournaments -------------------------------------------------------------------


def tournament_list(request):
    """Each tournament with its players left of its entries (re-entries count, refunded
    ones do not), as the lobby counts them; none left once it is over (issue 16)."""
    tournaments = Tournament.objects.annotate(
        active=Count("entries", filter=Q(entries__status=EntryStatus.ACTIVE)),
        entered=Count("entries", filter=~Q(entries__status=EntryStatus.CANCELLED)),
    ).order_by("-start_at", "-id")
    page = Paginator(tournaments, PER_PAGE).get_page(request.GET.get("page"))
    for tournament in page:
        tournament.left = engine.players_left(tournament.status, active_entries=tournament.active)
    return render(request, "tournaments/list.html", {"page": page})


@role_required(MANAGE_TOURNAMENTS)
def tournament_create(request):
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        outcome = service_call(
            request, services.tournament_create, form=form, data=form.cleaned_data
        )
        if outcome.ok:
            messages.success(request, _("Tournament created."))
            return redirect("tournaments:detail", outcome.value.pk)
    return render(request, "tournaments/form.html", {"form": form})


# --- Registration desk ----------------------------------------------------------------


# --- Entries --------------------------------------------------------------------------


# --- Alternates --------------------------------------------------------------------------


# --- Players ---------------------------------------------------------------------------


@role_required(SEE_PLAYERS)
def player_list(request):
    query = search_text(request.GET.get("q"))
    players = players_search(query=query)
    page = Paginator(players, PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "tournaments/players.html", {"page": page, "query": query})


@role_required(SEE_PLAYERS)
@require_http_methods(["GET", "POST"])
def player_edit(request, player_id: int):
    player = get_object_or_404(Player, pk=player_id)
    initial = {name: getattr(player, name) for name in PlayerForm.base_fields}
    form = PlayerForm(request.POST or None, initial=initial)
    back_url = safe_next(request, reverse("tournaments:players"))
    if request.method == "POST" and form.is_valid():
        outcome = service_call(
            request, services.player_update, form=form, player_id=player.pk, data=form.cleaned_data
        )
        if outcome.ok:
            messages.success(request, _("Player saved."))
            return redirect(back_url)
    return render(
        request,
        "tournaments/player_form.html",
        {"player": player, "form": form, "back_url": back_url},
    )


@role_required(SEE_PLAYERS)
@require_POST
def player_id_check(request, player_id: int):
    outcome = service_call(request, services.player_id_check, player_id=player_id)
    if outcome.ok:
        messages.success(request, _("ID of %(player)s checked.") % {"player": outcome.value.name})
    return redirect(safe_next(request, reverse("tournaments:players")))

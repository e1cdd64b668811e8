"""A player's history: every event they entered, with their place and what they were
paid, the events imported from The Tournament Director's files among them (issue 22)."""

from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, render

from floorman.pages import role_required
from floorman.roles import SEE_PLAYERS
from prizes.selectors import player_history
from tournaments.models import Player, Tournament

EVENTS_PER_PAGE = 20  # each event's place costs a few queries: a page bounds them


@role_required(SEE_PLAYERS)
def player_history_page(request, player_id: int):
    player = get_object_or_404(Player, pk=player_id)
    events = (
        Tournament.objects.filter(entries__player=player).distinct().order_by("-start_at", "-pk")
    )
    page = Paginator(events, EVENTS_PER_PAGE).get_page(request.GET.get("page"))
    context = {"player": player, "page": page, "played": player_history(player.pk, list(page))}
    return render(request, "prizes/player_history.html", context)

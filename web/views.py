"""Pages over a tournament kept by the core: the director's audit log; and the site's
icon where a browser asks for it."""

from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.views.decorators.http import require_safe

from floorman.audit import audit_chain_checked, audit_chain_verdict, audit_entries
from floorman.inputs import search_text
from floorman.models import AuditEntry
from floorman.pages import role_required
from floorman.roles import SEE_AUDIT
from tournaments.models import Tournament

AUDIT_PER_PAGE = 50


@role_required(SEE_AUDIT)
def audit_log(request, tournament_id: int):
    """Every change made to the tournament, newest first, filtered by action or staff."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    logged = AuditEntry.objects.filter(tournament=tournament)
    actions = list(logged.order_by("action").values_list("action", flat=True).distinct())
    actors = list(
        get_user_model()
        .objects.filter(pk__in=logged.filter(actor__isnull=False).values("actor_id"))
        .order_by("username")
    )
    action = search_text(request.GET.get("action"), max_length=64)
    if action not in actions:
        action = ""
    actor = request.GET.get("actor", "")
    actor_id = int(actor) if actor.isdigit() and len(actor) < 18 else None
    if actor_id not in {user.pk for user in actors}:
        actor_id = None
    entries = audit_entries(tournament=tournament, action=action, actor_id=actor_id)
    page = Paginator(entries, AUDIT_PER_PAGE).get_page(request.GET.get("page"))
    # The whole log's hash chain: walked on from the last visit, or in full on request.
    chain = audit_chain_checked(full=request.GET.get("check") == "all")
    return render(
        request,
        "floorman/audit_log.html",
        {
            "tournament": tournament,
            "page": page,
            "actions": actions,
            "actors": actors,
            "action": action,
            "actor_id": actor_id,
            "chain": chain,
            "chain_verdict": audit_chain_verdict(chain),
        },
    )


@require_safe
def favicon(request):
    """Browsers ask for /favicon.ico where a page names no icon (the admin, the API's
    pages): the house's icon rather than a 404 in every screen's console (issue 16)."""
    return redirect(static("favicon.svg"), permanent=True)

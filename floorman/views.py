"""Project-wide pages: the director's audit log of a tournament, and staff access."""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from floorman import staff
from floorman.audit import audit_entries
from floorman.inputs import search_text
from floorman.models import AuditEntry
from floorman.pages import role_required, service_call
from floorman.roles import MANAGE_STAFF, SEE_AUDIT
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
        },
    )


# --- Staff access -----------------------------------------------------------------------


@require_safe
@role_required(MANAGE_STAFF)
def staff_access(request):
    """Who may sign in, how many browsers each has open, and taking access back."""
    return render(request, "floorman/staff.html", {"members": staff.staff_members()})


@require_POST
@role_required(MANAGE_STAFF)
def staff_sign_out(request, user_id: int):
    outcome = service_call(request, staff.access_end, user_id=user_id)
    if outcome.ok:
        messages.success(
            request,
            _("Signed out everywhere: %(sessions)s session(s) ended, API token deleted.")
            % {"sessions": outcome.value["sessions_ended"]},
        )
    return redirect("staff-access")


@require_POST
@role_required(MANAGE_STAFF)
def staff_active(request, user_id: int):
    active = request.POST.get("active") == "1"
    outcome = service_call(request, staff.account_active_set, user_id=user_id, active=active)
    if outcome.ok:
        messages.success(
            request,
            _("%(name)s can sign in again.") % {"name": outcome.value.username}
            if active
            else _("%(name)s is deactivated and signed out everywhere.")
            % {"name": outcome.value.username},
        )
    return redirect("staff-access")

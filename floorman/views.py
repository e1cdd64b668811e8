"""Staff access: who may sign in, and taking access back (the audit log: web.views)."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from floorman import staff
from floorman.pages import role_required, service_call
from floorman.roles import MANAGE_STAFF


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

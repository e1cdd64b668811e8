"""Staff access: who may sign in, and taking access back (the audit log: web.views);
keys for other tools."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from floorman import keys, staff
from floorman.forms import ApiKeyForm
from floorman.pages import role_required, service_call
from floorman.roles import MANAGE_API_KEYS, MANAGE_STAFF


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


# --- Keys for other tools (floorman.keys) -------------------------------------------------


def _keys_page(request, form: ApiKeyForm, made: keys.NewApiKey | None = None):
    context = {"keys": keys.api_keys(), "form": form, "made": made, "now": timezone.now()}
    response = render(request, "floorman/api_keys.html", context)
    if made is not None:
        # The key itself is on this page, this once: no cache on the way may keep it.
        response["Cache-Control"] = "no-store"
    return response


@require_safe
@role_required(MANAGE_API_KEYS)
def api_keys(request):
    """Every key with its scope and use, the form to make one, and revoking."""
    return _keys_page(request, ApiKeyForm())


@require_POST
@role_required(MANAGE_API_KEYS)
def api_key_create(request):
    """Make a key and show it, this once (not after a redirect: it is kept nowhere)."""
    form = ApiKeyForm(request.POST)
    if form.is_valid():
        outcome = service_call(request, keys.api_key_create, form=form, **form.cleaned_data)
        if outcome.ok:
            return _keys_page(request, ApiKeyForm(), made=outcome.value)
    return _keys_page(request, form)


@require_POST
@role_required(MANAGE_API_KEYS)
def api_key_revoke(request, key_id: int):
    outcome = service_call(request, keys.api_key_revoke, key_id=key_id)
    if outcome.ok:
        messages.success(
            request,
            _("Key %(name)s revoked: it is refused from now on.") % {"name": outcome.value.name},
        )
    return redirect("keys")

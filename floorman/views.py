"""The Staff pages: directors manage accounts, roles, passwords and access; everyone
changes their own password (the audit log page: web.views). Views are thin: parse the
form, call one staff service through `floorman.pages.service_call`, then render or
redirect. Keys for other tools are made and revoked here too."""

from django.contrib import messages
from django.contrib.auth import update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.contrib.auth.password_validation import password_validators_help_texts
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from floorman import keys, ratelimit, staff
from floorman.forms import AccountCreateForm, ApiKeyForm, PasswordChangeForm, RolesForm
from floorman.pages import role_required, service_call
from floorman.roles import DIRECTOR, MANAGE_API_KEYS, MANAGE_STAFF


def _staff_render(request, *, status: int = 200):
    return render(request, "floorman/staff.html", {"members": staff.staff_members()}, status=status)


@require_safe
@role_required(MANAGE_STAFF)
def staff_access(request):
    """Every account with its roles, how many browsers each has open, and taking access
    back."""
    return _staff_render(request)


def _password_shown(request, account, password: str, *, created: bool):
    """The one time a generated password is shown: in this answer only (never in a
    message, which a cookie may carry), and kept out of every cache."""
    response = render(
        request,
        "floorman/staff_password.html",
        {"account": account, "password": password, "created": created},
    )
    add_never_cache_headers(response)
    return response


@require_http_methods(["GET", "POST"])
@role_required(MANAGE_STAFF)
def staff_create(request):
    """A new account with its roles, and a password the director types or one generated
    and shown once."""
    form = AccountCreateForm(request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            outcome = service_call(
                request,
                staff.account_create,
                form=form,
                field_map={"password": "password1"},
                username=data["username"],
                first_name=data["first_name"],
                last_name=data["last_name"],
                roles=data["roles"],
                password=data["password1"],
            )
            if outcome.ok:
                created = outcome.value
                if created.password is not None:
                    return _password_shown(request, created.user, created.password, created=True)
                messages.success(
                    request, _("Account %(name)s created.") % {"name": created.user.username}
                )
                return redirect("staff-account", created.user.pk)
            status = outcome.error.http_status
    return render(
        request,
        "floorman/staff_create.html",
        {"form": form, "password_help": password_validators_help_texts()},
        status=status,
    )


def _account_render(request, user_id: int, *, form: RolesForm | None = None, status: int = 200):
    member = staff.staff_member(user_id)
    if member is None:
        raise Http404(_("No such staff member."))
    if form is None:
        form = RolesForm(initial={"roles": sorted(member.groups)})
    return render(
        request, "floorman/staff_account.html", {"member": member, "form": form}, status=status
    )


@require_http_methods(["GET", "POST"])
@role_required(MANAGE_STAFF)
def staff_account(request, user_id: int):
    """One account: its roles (given and taken here), its password and its access."""
    if request.method == "GET":
        return _account_render(request, user_id)
    form = RolesForm(request.POST)
    if not form.is_valid():
        return _account_render(request, user_id, form=form, status=400)
    outcome = service_call(
        request,
        staff.account_roles_set,
        form=form,
        user_id=user_id,
        roles=form.cleaned_data["roles"],
    )
    if not outcome.ok:
        return _account_render(request, user_id, form=form, status=outcome.error.http_status)
    messages.success(request, _("Roles of %(name)s saved.") % {"name": outcome.value.username})
    gave_up_directing = (
        user_id == request.user.pk
        and DIRECTOR not in form.cleaned_data["roles"]
        and not request.user.is_superuser
    )
    if gave_up_directing:  # this page is no longer theirs to see
        return redirect("tournaments:list")
    return redirect("staff-account", user_id)


@require_POST
@role_required(MANAGE_STAFF)
def staff_password_reset(request, user_id: int):
    """A new generated password for someone who lost theirs, shown once."""
    outcome = service_call(request, staff.account_password_reset, user_id=user_id)
    if not outcome.ok:
        return _account_render(request, user_id, status=outcome.error.http_status)
    reset = outcome.value
    return _password_shown(request, reset.user, reset.password, created=False)


@require_POST
@role_required(MANAGE_STAFF)
def staff_sign_out(request, user_id: int):
    outcome = service_call(request, staff.access_end, user_id=user_id)
    if outcome.ok:
        messages.success(
            request,
            ngettext(
                "Signed out everywhere: %(sessions)s session ended, API token deleted.",
                "Signed out everywhere: %(sessions)s sessions ended, API token deleted.",
                outcome.value["sessions_ended"],
            )
            % {"sessions": outcome.value["sessions_ended"]},
        )
    return redirect("staff-access")


@require_POST
@role_required(MANAGE_STAFF)
def staff_active(request, user_id: int):
    active = request.POST.get("active") == "1"
    outcome = service_call(request, staff.account_active_set, user_id=user_id, active=active)
    if not outcome.ok:
        # The list again with the reason (a flash message), answered as the refusal it is.
        return _staff_render(request, status=outcome.error.http_status)
    messages.success(
        request,
        _("%(name)s can sign in again.") % {"name": outcome.value.username}
        if active
        else _("%(name)s is deactivated and signed out everywhere.")
        % {"name": outcome.value.username},
    )
    return redirect("staff-access")


@require_http_methods(["GET", "POST"])
@login_required
def account_password(request):
    """Everyone signed in changes their own password here, and stays signed in. Over
    FLOORMAN_RATE_PASSWORD tries (floorman.ratelimit.PASSWORD) the page answers 429
    without checking the password."""
    form = PasswordChangeForm(request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            seconds = ratelimit.wait_needed(request, ratelimit.PASSWORD)
            if seconds is not None:
                return ratelimit.too_many(request, seconds)
            outcome = service_call(
                request,
                staff.password_change,
                form=form,
                field_map={"new_password": "new_password1"},
                old_password=form.cleaned_data["old_password"],
                new_password=form.cleaned_data["new_password1"],
            )
            if outcome.ok:
                # The password's hash is in the session: keep this one, end the others.
                update_session_auth_hash(request, outcome.value)
                messages.success(request, _("Your password is changed."))
                return redirect("password-change")
            status = outcome.error.http_status
    return render(
        request,
        "floorman/password_change.html",
        {"form": form, "password_help": password_validators_help_texts()},
        status=status,
    )


# --- Keys for other tools (floorman.keys) -------------------------------------------------


def _keys_page(request, form: ApiKeyForm, made: keys.NewApiKey | None = None, *, status: int = 200):
    context = {"keys": keys.api_keys(), "form": form, "made": made, "now": timezone.now()}
    response = render(request, "floorman/api_keys.html", context, status=status)
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
    status = 400  # field messages, as on every page
    if form.is_valid():
        outcome = service_call(request, keys.api_key_create, form=form, **form.cleaned_data)
        if outcome.ok:
            return _keys_page(request, ApiKeyForm(), made=outcome.value)
        status = outcome.error.http_status
    return _keys_page(request, form, status=status)


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

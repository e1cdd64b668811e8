"""Staff access: who can sign in, and taking it back at once (issue 8, security).

A lost phone or a dismissed dealer must lose access now, not when the session expires:
ending access deletes every session of that person and their API token; deactivating
also stops them signing in again. Each change is audited.
"""

from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework.authtoken.models import Token

from floorman.audit import audit_record
from floorman.errors import Conflict, NotFound
from floorman.roles import ALL_ROLES, CASHIER, DEALER, DIRECTOR, FLOOR

ROLE_LABELS = {
    DIRECTOR: gettext_lazy("Director"),
    FLOOR: gettext_lazy("Floor"),
    CASHIER: gettext_lazy("Cashier"),
    DEALER: gettext_lazy("Dealer"),
}


@dataclass(frozen=True)
class StaffMember:
    user: User
    roles: list[str]
    sessions: int
    has_token: bool
    last_login: datetime | None


def _sessions_by_user() -> dict[int, list[str]]:
    """Open sessions per user id. Sessions are signed blobs: each is decoded once (a
    venue has dozens, not millions)."""
    found: dict[int, list[str]] = {}
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        user_id = session.get_decoded().get("_auth_user_id")
        if user_id is not None and str(user_id).isdigit():
            found.setdefault(int(user_id), []).append(session.session_key)
    return found


def staff_members() -> list[StaffMember]:
    """Everyone with a role or a superuser flag, by username."""
    sessions = _sessions_by_user()
    tokens = set(Token.objects.values_list("user_id", flat=True))
    users = (
        User.objects.filter(groups__name__in=ALL_ROLES)
        .union(User.objects.filter(is_superuser=True))
        .order_by("username")
    )
    members = []
    for user in users:
        held = set(user.groups.filter(name__in=ALL_ROLES).values_list("name", flat=True))
        if user.is_superuser:
            held.add(DIRECTOR)
        roles = [str(ROLE_LABELS[role]) for role in ALL_ROLES if role in held]
        members.append(
            StaffMember(
                user=user,
                roles=roles,
                sessions=len(sessions.get(user.pk, [])),
                has_token=user.pk in tokens,
                last_login=user.last_login,
            )
        )
    return members


def _user_locked(user_id: int) -> User:
    user = User.objects.select_for_update().filter(pk=user_id).first()
    if user is None:
        raise NotFound(_("No such staff member."))
    return user


def _end_access(user: User) -> dict:
    keys = _sessions_by_user().get(user.pk, [])
    Session.objects.filter(session_key__in=keys).delete()
    tokens, _by_model = Token.objects.filter(user=user).delete()
    return {"sessions_ended": len(keys), "token_deleted": bool(tokens)}


@transaction.atomic
def access_end(*, actor, user_id: int) -> dict:
    """Sign a person out everywhere: every browser session and the API token end now."""
    user = _user_locked(user_id)
    ended = _end_access(user)
    audit_record(actor=actor, action="staff.sign_out", obj=user, after=ended)
    return ended


@transaction.atomic
def account_active_set(*, actor, user_id: int, active: bool) -> User:
    """Deactivate (and sign out everywhere) or reactivate an account. A director cannot
    lock themselves out."""
    user = _user_locked(user_id)
    if not active and actor is not None and user.pk == actor.pk:
        raise Conflict(_("You cannot deactivate your own account."), code="own_account")
    ended = {}
    if not active:
        ended = _end_access(user)
    before = {"active": user.is_active}
    user.is_active = active
    user.save(update_fields=["is_active"])
    audit_record(
        actor=actor,
        action="staff.activate" if active else "staff.deactivate",
        obj=user,
        before=before,
        after={"active": active, **ended},
    )
    return user

"""Taking access back at once (issue 8, security).

A lost phone or a dismissed dealer must lose access now, not when the session expires:
ending access deletes every session of that person and their API token; deactivating
also stops them signing in again. Each change is audited.
"""

from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.db import transaction
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token

from floorman.audit import audit_record
from floorman.errors import Conflict
from floorman.staff.common import director_kept, directors_lock, sessions_by_user, user_locked


def _end_access(user: User) -> dict:
    keys = sessions_by_user().get(user.pk, [])
    Session.objects.filter(session_key__in=keys).delete()
    tokens, _by_model = Token.objects.filter(user=user).delete()
    return {"sessions_ended": len(keys), "token_deleted": bool(tokens)}


@transaction.atomic
def access_end(*, actor, user_id: int) -> dict:
    """Sign a person out everywhere: every browser session and the API token end now."""
    user = user_locked(user_id)
    ended = _end_access(user)
    audit_record(actor=actor, action="staff.sign_out", obj=user, after=ended)
    return ended


@transaction.atomic
def account_active_set(*, actor, user_id: int, active: bool) -> User:
    """Deactivate (and sign out everywhere) or reactivate an account.

    Steps: lock the directors (directors_lock), then the account; refuse deactivating
    one's own account, or the last active director (409); end every session and the API
    token; save; audit `staff.deactivate` or `staff.activate`.
    """
    directors_lock()
    user = user_locked(user_id)
    if not active:
        if actor is not None and user.pk == actor.pk:
            raise Conflict(_("You cannot deactivate your own account."), code="own_account")
        director_kept(user, stays_director=False)
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

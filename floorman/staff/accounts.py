"""Staff accounts on Floorman's own pages (issue 15): directors create accounts, give and
take roles and reset passwords; everyone changes their own password.

A password is never written to the audit log, only that it was set, generated or
changed. Changing a password ends the account's other sessions (Django keeps a hash of
the password in each session); the person who changed their own keeps theirs (the view
calls update_session_auth_hash).
"""

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token

from floorman.audit import audit_record
from floorman.errors import Conflict, Invalid
from floorman.roles import ALL_ROLES, DIRECTOR
from floorman.staff.common import (
    director_kept,
    directors_lock,
    password_generate,
    role_groups,
    roles_sorted,
    user_locked,
)

NAME_MAX_LENGTH = 150  # User.username, first_name and last_name


@dataclass(frozen=True)
class AccountPassword:
    """An account and its new password, to be shown once; None when the director typed it."""

    user: User
    password: str | None


def _roles_checked(roles) -> list[str]:
    unknown = sorted(set(roles) - set(ALL_ROLES))
    if unknown:
        raise Invalid({"roles": _("No such role: %(role)s.") % {"role": unknown[0]}})
    return roles_sorted(roles)


def _password_checked(password: str, user: User, field: str) -> None:
    """Django's password validators (settings.AUTH_PASSWORD_VALIDATORS), with the
    account's username and names for the similarity check."""
    try:
        validate_password(password, user=user)
    except ValidationError as exc:
        raise Invalid({field: list(exc.messages)}) from None


def _username_checked(username: str) -> str:
    username = username.strip()
    if not username:
        raise Invalid({"username": _("A username is required.")})
    if len(username) > NAME_MAX_LENGTH:
        raise Invalid({"username": _("At most 150 characters.")})
    try:
        UnicodeUsernameValidator()(username)
    except ValidationError as exc:
        raise Invalid({"username": list(exc.messages)}) from None
    # Django's login is case-sensitive: "Anna" and "anna" would be two people.
    if User.objects.filter(username__iexact=username).exists():
        raise Invalid({"username": _("This username is taken.")})
    return username


@transaction.atomic
def account_create(
    *,
    actor,
    username: str,
    first_name: str = "",
    last_name: str = "",
    roles: list[str],
    password: str = "",
) -> AccountPassword:
    """Create a staff account.

    Steps: check the username (Django's rules; not taken, in any case), the names, the
    roles and a password the director typed (Django's password validators); without one,
    generate one to show once; create the account with its roles; audit `staff.create`
    (username, name, roles, whether the password was generated).
    """
    username = _username_checked(username)
    first_name, last_name = first_name.strip(), last_name.strip()
    too_long = {
        field: _("At most 150 characters.")
        for field, value in (("first_name", first_name), ("last_name", last_name))
        if len(value) > NAME_MAX_LENGTH
    }
    if too_long:
        raise Invalid(too_long)
    roles = _roles_checked(roles)
    user = User(username=username, first_name=first_name, last_name=last_name)
    generated = not password
    if generated:
        password = password_generate(user)
    else:
        _password_checked(password, user, "password")
    user.set_password(password)
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError:
        # The same username created a moment ago by another request.
        raise Invalid({"username": _("This username is taken.")}) from None
    groups = role_groups()
    user.groups.add(*(groups[role] for role in roles))
    audit_record(
        actor=actor,
        action="staff.create",
        obj=user,
        after={
            "username": username,
            "name": user.get_full_name(),
            "roles": roles,
            "password_generated": generated,
        },
    )
    return AccountPassword(user=user, password=password if generated else None)


@transaction.atomic
def account_roles_set(*, actor, user_id: int, roles: list[str]) -> User:
    """Give and take roles: the account holds exactly `roles` afterwards (groups that are
    not roles stay as they are).

    Steps: lock the directors (directors_lock), then the account; check the roles; refuse
    taking the director role from the last active director (409); change the groups;
    audit `staff.roles` with the roles before and after. No change writes nothing.
    """
    directors_lock()
    user = user_locked(user_id)
    roles = _roles_checked(roles)
    held = roles_sorted(user.groups.filter(name__in=ALL_ROLES).values_list("name", flat=True))
    if held == roles:
        return user
    director_kept(user, stays_director=user.is_superuser or DIRECTOR in roles)
    groups = role_groups()
    user.groups.remove(*(groups[role] for role in held if role not in roles))
    user.groups.add(*(groups[role] for role in roles if role not in held))
    audit_record(
        actor=actor, action="staff.roles", obj=user, before={"roles": held}, after={"roles": roles}
    )
    return user


@transaction.atomic
def account_password_reset(*, actor, user_id: int) -> AccountPassword:
    """Give an account a new generated password, to be shown once.

    Steps: lock the account; refuse one's own (409: one's own is changed with the old
    password); set the new password, which ends the account's sessions; audit
    `staff.password_reset` (never the password). The API token ends too: whoever
    knew the old password may have signed in to the API with it.
    """
    user = user_locked(user_id)
    if actor is not None and actor.is_authenticated and user.pk == actor.pk:
        raise Conflict(
            _("Change your own password on the “Change password” page."), code="own_account"
        )
    password = password_generate(user)
    user.set_password(password)
    user.save(update_fields=["password"])
    tokens, _by_model = Token.objects.filter(user=user).delete()
    audit_record(
        actor=actor,
        action="staff.password_reset",
        obj=user,
        after={"password_generated": True, "token_deleted": bool(tokens)},
    )
    return AccountPassword(user=user, password=password)


@transaction.atomic
def password_change(*, actor, old_password: str, new_password: str) -> User:
    """A signed-in person changes their own password.

    Steps: lock the account; check the old password and the new one (Django's password
    validators); set it, which ends the other browsers' sessions, and end the API token
    (a password changed in a hurry is often one that leaked); audit
    `staff.password_change` (never the password).
    """
    user = user_locked(actor.pk)
    if not user.check_password(old_password):
        raise Invalid({"old_password": _("This is not your current password.")})
    _password_checked(new_password, user, "new_password")
    user.set_password(new_password)
    user.save(update_fields=["password"])
    Token.objects.filter(user=user).delete()
    audit_record(actor=actor, action="staff.password_change", obj=user)
    return user

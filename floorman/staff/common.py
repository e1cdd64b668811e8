"""What the staff services share: role names for people, row locks, the director guard."""

import secrets

from django.contrib.auth.models import Group, User
from django.contrib.auth.password_validation import validate_password
from django.contrib.sessions.models import Session
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from floorman.errors import Conflict, NotFound
from floorman.models import ApiKey
from floorman.roles import ALL_ROLES, CASHIER, DEALER, DIRECTOR, FLOOR

ROLE_LABELS = {
    DIRECTOR: gettext_lazy("Director"),
    FLOOR: gettext_lazy("Floor"),
    CASHIER: gettext_lazy("Cashier"),
    DEALER: gettext_lazy("Dealer"),
}


PASSWORD_DRAWS = 10


def password_generate(user: User | None = None) -> str:
    """A fresh random password: 20 characters, 120 bits, shown once, stored only hashed;
    checked as every password is (validate_password). A draw the validators refuse (all
    digits, say: hardly ever) is drawn again; settings that refuse every draw raise
    their ValidationError."""
    refused = None
    for _draw in range(PASSWORD_DRAWS):
        password = secrets.token_urlsafe(15)
        try:
            validate_password(password, user)
        except ValidationError as error:
            refused = error
        else:
            return password
    raise refused


def roles_sorted(roles) -> list[str]:
    """Role names in the order of roles.ALL_ROLES (director first), for audit entries."""
    return [role for role in ALL_ROLES if role in set(roles)]


def staff_accounts():
    """Every person's account: a key for other tools acts as an account of its own,
    managed at /keys/, never on the Staff pages."""
    return User.objects.exclude(pk__in=ApiKey.objects.values("user_id"))


def user_locked(user_id: int) -> User:
    user = staff_accounts().select_for_update().filter(pk=user_id).first()
    if user is None:
        raise NotFound(_("No such staff member."))
    return user


def role_groups() -> dict[str, Group]:
    """The role groups by name. A migration makes them; a test database that was flushed
    may lack one, so a missing group is made again."""
    groups = {group.name: group for group in Group.objects.filter(name__in=ALL_ROLES)}
    for role in ALL_ROLES:
        if role not in groups:
            groups[role] = Group.objects.get_or_create(name=role)[0]
    return groups


def directors_lock() -> None:
    """Lock the director group's row, first thing in every change that can take a
    director away (roles, deactivation). Two directors taking each other's role at the
    same moment would each still see the other and leave nobody; with the lock the second
    waits, then sees the first's change."""
    group = Group.objects.get_or_create(name=DIRECTOR)[0]
    Group.objects.select_for_update().filter(pk=group.pk).first()


def is_active_director(user: User) -> bool:
    """A director as roles.py counts them: active, and in the group or a superuser."""
    return user.is_active and (user.is_superuser or user.groups.filter(name=DIRECTOR).exists())


def director_kept(user: User, *, stays_director: bool) -> None:
    """Refuse a change that leaves no active director: nobody could give roles again on
    Floorman's pages. Only a change that takes an active director away is checked, so
    that a house with no director (made so in the admin) can still fix other accounts.
    Call under `directors_lock`."""
    if stays_director or not is_active_director(user):
        return
    others = User.objects.filter(
        Q(groups__name=DIRECTOR) | Q(is_superuser=True), is_active=True
    ).exclude(pk=user.pk)
    if not others.exists():
        raise Conflict(
            _(
                "%(name)s is the last active director. Make someone else a director "
                "first: without a director nobody can manage staff."
            )
            % {"name": user.get_username()},
            code="last_director",
        )


def sessions_by_user() -> dict[int, list[str]]:
    """Open sessions per user id. Sessions are signed blobs: each is decoded once (a
    venue has dozens, not millions)."""
    found: dict[int, list[str]] = {}
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        user_id = session.get_decoded().get("_auth_user_id")
        if user_id is not None and str(user_id).isdigit():
            found.setdefault(int(user_id), []).append(session.session_key)
    return found

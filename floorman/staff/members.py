"""The Staff page's reads: every account with its roles and open sessions."""

from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import Group, User
from django.db.models import Prefetch
from rest_framework.authtoken.models import Token

from floorman.roles import ALL_ROLES, DIRECTOR
from floorman.staff.common import ROLE_LABELS, sessions_by_user, staff_accounts


@dataclass(frozen=True)
class StaffMember:
    user: User
    roles: list[str]  # their names for people, director first; a superuser is a director
    groups: frozenset[str]  # the role groups held, as the roles form gives and takes them
    sessions: int
    has_token: bool
    last_login: datetime | None


def _accounts():
    # The role groups come with each account in one more query, not one per account.
    return staff_accounts().prefetch_related(
        Prefetch("groups", queryset=Group.objects.filter(name__in=ALL_ROLES), to_attr="roles")
    )


def _member(user: User, sessions: dict[int, list[str]], tokens: set[int]) -> StaffMember:
    groups = frozenset(group.name for group in user.roles)
    held = groups | {DIRECTOR} if user.is_superuser else groups
    return StaffMember(
        user=user,
        roles=[str(ROLE_LABELS[role]) for role in ALL_ROLES if role in held],
        groups=groups,
        sessions=len(sessions.get(user.pk, [])),
        has_token=user.pk in tokens,
        last_login=user.last_login,
    )


def staff_members() -> list[StaffMember]:
    """Every account, by username: also those whose roles were all taken, so that a
    director can give them one again. Floorman's accounts are all staff (players have
    none)."""
    sessions = sessions_by_user()
    tokens = set(Token.objects.values_list("user_id", flat=True))
    return [_member(user, sessions, tokens) for user in _accounts().order_by("username")]


def staff_member(user_id: int) -> StaffMember | None:
    user = _accounts().filter(pk=user_id).first()
    if user is None:
        return None
    tokens = set(Token.objects.filter(user=user).values_list("user_id", flat=True))
    return _member(user, sessions_by_user(), tokens)

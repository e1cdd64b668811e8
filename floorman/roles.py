"""Staff roles (DESIGN "People and permissions").

Roles are Django groups created by a migration. A director may do everything; the
other roles each open one area of work. Superusers count as directors.
"""

from django.contrib.auth.models import AnonymousUser, User
from rest_framework.permissions import SAFE_METHODS, BasePermission

DIRECTOR = "director"
FLOOR = "floor"
CASHIER = "cashier"
DEALER = "dealer"
ALL_ROLES = (DIRECTOR, FLOOR, CASHIER, DEALER)

# Who may do what. Directors are added everywhere by `user_has_role`.
MANAGE_TOURNAMENTS = (DIRECTOR,)
REGISTER = (CASHIER,)
BUST = (FLOOR,)
CLOCK = (FLOOR,)  # drive the clock, call the clock on a player (TDA 29)
SEATING = (FLOOR,)  # tables, draws, moves, balancing, breaking (TDA 7-11)
TABLET = (FLOOR, DEALER)  # a table's hands: button, deal, actions, result, busts
HAND_FOR_HAND = (FLOOR,)  # RP-8: start and stop, its house settings
SEE_PLAYERS = (FLOOR, CASHIER)
PAY_PRIZES = (CASHIER,)  # pay a finishing place its prize from the payout table
COUNTS = (FLOOR,)  # chip counts during play and count sweeps (issue 18)
BAGS = (FLOOR,)  # count a flight survivor's chips into a bag (issue 17); the director confirms
RULINGS = (FLOOR,)  # incidents, decisions and penalties (TDA 71); a player's record
DEAL_FIGURES = (FLOOR, CASHIER)  # casino §6: work out a deal; only the director records it
SEE_AUDIT = (DIRECTOR,)
MANAGE_STAFF = (DIRECTOR,)  # end a staff member's sessions and API token, (de)activate
MANAGE_API_KEYS = (DIRECTOR,)  # keys for other tools (floorman.keys); never by a key itself


def user_roles(user: User | AnonymousUser) -> set[str]:
    if not user.is_authenticated:
        return set()
    key_roles = getattr(user, "api_key_roles", None)
    if key_roles is not None:
        # Another tool's API key, acting as its own (inactive) account: the roles its
        # scope gives for this request, set by floorman.authentication.
        return key_roles
    if not user.is_active:
        return set()
    if user.is_superuser:
        return set(ALL_ROLES)
    cached = getattr(user, "_floorman_roles", None)
    if cached is None:
        cached = set(user.groups.filter(name__in=ALL_ROLES).values_list("name", flat=True))
        user._floorman_roles = cached
    return cached


def user_has_role(user: User | AnonymousUser, roles: tuple[str, ...]) -> bool:
    held = user_roles(user)
    return DIRECTOR in held or bool(held.intersection(roles))


def user_is_staff(user: User | AnonymousUser) -> bool:
    return bool(user_roles(user))


def roles_context(request) -> dict:
    """Template context: which areas the signed-in person may use."""
    user = request.user
    return {
        "roles": {
            "any": user_is_staff(user),
            "director": user_has_role(user, MANAGE_TOURNAMENTS),
            "register": user_has_role(user, REGISTER),
            "bust": user_has_role(user, BUST),
            "clock": user_has_role(user, CLOCK),
            "seating": user_has_role(user, SEATING),
            "players": user_has_role(user, SEE_PLAYERS),
            "pay": user_has_role(user, PAY_PRIZES),
            "deal": user_has_role(user, DEAL_FIGURES),
            "rulings": user_has_role(user, RULINGS),
            "bags": user_has_role(user, BAGS),
            "counts": user_has_role(user, COUNTS),
        }
    }


class ReadOnlyOrStaff(BasePermission):
    """Default API rule: anyone may read public data, only staff may write."""

    def has_permission(self, request, view) -> bool:
        return request.method in SAFE_METHODS or user_is_staff(request.user)


class NotByApiKey(BasePermission):
    """Only people: a request made with an API key is refused (a key never makes or
    revokes keys, so a leaked key cannot make itself others)."""

    def has_permission(self, request, view) -> bool:
        return getattr(request.user, "api_key_roles", None) is None


def role_permission(*roles: str) -> type[BasePermission]:
    """A DRF permission class for the given roles (directors always pass)."""

    class HasRole(BasePermission):
        def has_permission(self, request, view) -> bool:
            return user_has_role(request.user, roles)

    HasRole.__name__ = "HasRole_" + "_".join(roles)
    return HasRole

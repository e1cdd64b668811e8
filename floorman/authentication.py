"""Who asks the API (settings REST_FRAMEWORK): a staff member's token, which expires
(floorman.tokens), another tool's API key, which acts by its scope (floorman.keys), or
the browser's session (DRF's SessionAuthentication). Pages and the admin know only the
session: neither a token nor a key opens them. A token's or a key's use is written once
the request is answered without an error (`api_use_record`), never for a refused one.

DRF imports this module while it loads its views, so it imports nothing that imports
them (floorman.errors does); the OpenAPI description of the key is in floorman.schema.
"""

import hmac
from datetime import datetime, timedelta

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.authentication import (
    BaseAuthentication,
    TokenAuthentication,
    get_authorization_header,
)
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.permissions import SAFE_METHODS

from floorman import tokens
from floorman.models import ApiKey, ApiKeyScope
from floorman.roles import ALL_ROLES, DIRECTOR, FLOOR, user_roles

# scope: (roles when reading (GET, HEAD, OPTIONS), roles for anything else), mapped onto
# the staff roles the API's permission classes check. Each scope may do what the one
# before it may; directors hold every role (roles.user_has_role).
SCOPE_ROLES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    ApiKeyScope.PUBLIC: ((), ()),  # what anybody may read without signing in
    ApiKeyScope.READ: (ALL_ROLES, ()),  # every GET of staff, nothing else
    ApiKeyScope.FLOOR: (ALL_ROLES, (FLOOR,)),  # and the floor's actions
    ApiKeyScope.DIRECTOR: (ALL_ROLES, ALL_ROLES),  # what a director may
}
# A key's last use is written at most this often, not on every request.
KEY_USED_EVERY = timedelta(minutes=1)


def key_roles(key: ApiKey, *, method: str) -> set[str]:
    """The roles a key holds for one request: its scope's for the method, cut to the roles
    its maker holds now (nothing once the maker's account is deactivated or gone)."""
    reading, writing = SCOPE_ROLES[key.scope]
    roles = set(reading if method in SAFE_METHODS else writing)
    maker = user_roles(key.created_by) if key.created_by is not None else set()
    return roles if DIRECTOR in maker else roles & maker


def api_key_authenticate(*, presented: str, method: str) -> ApiKey:
    """The key a request presents, checked: unknown, a wrong secret, revoked or expired
    is refused (401). Its account is `key.user`, holding this request's roles in
    `api_key_roles` (floorman.roles.user_roles reads them)."""
    prefix, _dot, secret = presented.partition(".")
    key = None
    if prefix.isascii() and prefix.isalnum() and len(prefix) <= 16 and secret:
        key = ApiKey.objects.select_related("user", "created_by").filter(prefix=prefix).first()
    if key is None or not hmac.compare_digest(ApiKey.digest_of(secret), key.digest):
        raise AuthenticationFailed(_("Invalid API key."))
    now = timezone.now()
    if key.revoked_at is not None:
        raise AuthenticationFailed(_("This API key has been revoked."))
    if key.expires_at is not None and key.expires_at <= now:
        raise AuthenticationFailed(_("This API key has expired."))
    key.user.api_key_roles = key_roles(key, method=method)
    return key


def api_key_used(key: ApiKey, *, now: datetime) -> None:
    """Note the key's last use (at most once every KEY_USED_EVERY)."""
    if key.last_used_at is None or now - key.last_used_at >= KEY_USED_EVERY:
        # Conditional, so that requests arriving together write once.
        ApiKey.objects.filter(pk=key.pk).filter(
            Q(last_used_at__isnull=True) | Q(last_used_at__lte=now - KEY_USED_EVERY)
        ).update(last_used_at=now)


def api_use_record(auth) -> None:
    """A request made with a staff token or an API key was answered without an error:
    its use is noted (the token renewed, the key's last use shown on the keys page).
    Only then: a request the key's scope refuses (403), or any other refusal, writes
    nothing (floorman.middleware.ApiUseMiddleware)."""
    now = timezone.now()
    if isinstance(auth, Token):
        tokens.token_used(auth, now=now)
    elif isinstance(auth, ApiKey):
        api_key_used(auth, now=now)


class ExpiringTokenAuthentication(TokenAuthentication):
    """`Authorization: Token <token>`, as DRF's, but the token ends API_TOKEN_TTL after its
    last use; each use renews it (once answered: `api_use_record`)."""

    def authenticate_credentials(self, key):
        token = tokens.token_authenticate(key=key)
        return token.user, token


class ApiKeyAuthentication(BaseAuthentication):
    """`Authorization: Api-Key <key>`: the key's own account, with its scope's roles."""

    keyword = "Api-Key"

    def authenticate(self, request):
        words = get_authorization_header(request).split()
        if not words or words[0].lower() != self.keyword.lower().encode():
            return None
        if len(words) != 2:
            raise AuthenticationFailed(_("Invalid API key header: send “Api-Key <key>”."))
        try:
            presented = words[1].decode("ascii")
        except UnicodeError as exc:
            raise AuthenticationFailed(_("Invalid API key.")) from exc
        key = api_key_authenticate(presented=presented, method=request.method)
        return key.user, key

    def authenticate_header(self, request):
        return self.keyword

"""Staff members' API tokens expire (issue 15).

A token from the login endpoint (POST /api/v1/auth/token/) ends API_TOKEN_TTL after its
last use, and each use renews it: a tool in use all night keeps working, a token left
behind on a laptop stops. The last use is kept in TokenUse beside DRF's Token (which
records only when it was made) and written at most once a minute, not on every request,
and only for a request answered without an error: a refused one (403 and the like)
renews nothing.
An expired token is refused (401) and replaced by a new one at the next login.
"""

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed

from floorman.models import TokenUse

USED_EVERY = timedelta(minutes=1)


def token_last_used(token: Token) -> datetime:
    """When the token was last used; made before uses were kept: when it was made."""
    use = getattr(token, "use", None)  # a missing reverse one-to-one raises AttributeError
    return use.used_at if use is not None else token.created


def token_expired(token: Token, *, now: datetime) -> bool:
    return now - token_last_used(token) >= settings.API_TOKEN_TTL


def token_used(token: Token, *, now: datetime) -> None:
    """Renew the token: a request made with it was answered without an error
    (floorman.authentication.api_use_record); a refused one renews nothing."""
    use = getattr(token, "use", None)
    if use is None:
        TokenUse.objects.bulk_create([TokenUse(token=token, used_at=now)], ignore_conflicts=True)
    elif now - use.used_at >= USED_EVERY:
        # Conditional, so that requests arriving together write once.
        TokenUse.objects.filter(token=token, used_at__lte=now - USED_EVERY).update(used_at=now)


def token_authenticate(*, key: str) -> Token:
    """The token with this key, checked (AuthenticationFailed, 401: unknown, the account
    inactive, expired). It is renewed only once the request is answered (`token_used`)."""
    token = Token.objects.select_related("user", "use").filter(key=key).first()
    if token is None:
        raise AuthenticationFailed(_("Invalid token."))
    if not token.user.is_active:
        raise AuthenticationFailed(_("User inactive or deleted."))
    now = timezone.now()
    if token_expired(token, now=now):
        raise AuthenticationFailed(_("Token expired: log in again for a new one."))
    return token


@transaction.atomic
def token_issue(*, user) -> Token:
    """The token for a person who has just logged in: the one they have, renewed, or a
    new one when it has expired (or they had none)."""
    now = timezone.now()
    token = (
        Token.objects.select_for_update(of=("self",))
        .select_related("use")
        .filter(user=user)
        .first()
    )
    if token is not None and token_expired(token, now=now):
        token.delete()
        token = None
    if token is None:
        token, _created = Token.objects.get_or_create(user=user)
    TokenUse.objects.update_or_create(token=token, defaults={"used_at": now})
    return token

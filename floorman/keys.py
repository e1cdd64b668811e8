"""API keys for other tools (issue 15): made by a director for one integration.

A key reads `<prefix>.<secret>` and is sent as `Authorization: Api-Key <key>`. The
prefix is the key's id and finds its row; of the secret only its SHA-256 digest is kept
(`ApiKey.digest_of`), so the key is shown once, when it is made, and never again.

The key acts as an account of its own (inactive, without password or groups, so it can
never sign in to a page or the admin): the audit log and the desk show the key as who
acted. What it may do comes from its scope, never more than the director who made it may
do now (floorman.authentication checks the key on each request).
"""

import secrets
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from floorman.audit import audit_record, staff_user
from floorman.errors import Conflict, Invalid, NotFound
from floorman.models import ApiKey, ApiKeyScope

PREFIX_BYTES = 6  # 12 hex characters
SECRET_BYTES = 32  # 256 bits
NAME_MAX_LENGTH = 100
USERNAME_PREFIX = "api-key-"  # the key's own account: api-key-<prefix>


@dataclass(frozen=True)
class NewApiKey:
    key: ApiKey
    secret: str  # the whole key, `<prefix>.<secret>`: shown once, stored nowhere


def api_keys() -> QuerySet[ApiKey]:
    """Selector: every key, newest first, with who made and who revoked it."""
    return ApiKey.objects.select_related("created_by", "revoked_by")


def _name_clean(name: str) -> str:
    return " ".join((name or "").replace("\x00", "").split())


def _prefix_free() -> str:
    """A new key id that names no key and no account yet (a clash is all but impossible)."""
    while True:
        prefix = secrets.token_hex(PREFIX_BYTES)
        taken = ApiKey.objects.filter(prefix=prefix).exists()
        if not taken and not User.objects.filter(username=USERNAME_PREFIX + prefix).exists():
            return prefix


@transaction.atomic
def api_key_create(
    *, actor, name: str, scope: str, expires_at: datetime | None = None
) -> NewApiKey:
    """Make a key for another tool.

    Steps: check the name, the scope and the expiry → the key's own account (inactive,
    no password) → the key with the digest of its secret → the audit entry (never the
    secret). Returns the key and, this once, its secret.
    """
    name = _name_clean(name)
    errors = {}
    if not name:
        errors["name"] = _("Give the key a name.")
    elif len(name) > NAME_MAX_LENGTH:
        errors["name"] = _("At most %(count)s characters.") % {"count": NAME_MAX_LENGTH}
    if scope not in ApiKeyScope.values:
        errors["scope"] = _("Choose one of the scopes.")
    if expires_at is not None and expires_at <= timezone.now():
        errors["expires_at"] = _("The expiry must be in the future.")
    if errors:
        raise Invalid(errors)
    prefix = _prefix_free()
    secret = secrets.token_urlsafe(SECRET_BYTES)
    account = User(username=USERNAME_PREFIX + prefix, first_name=name[:150], is_active=False)
    account.set_unusable_password()
    account.save()
    key = ApiKey.objects.create(
        name=name,
        scope=scope,
        prefix=prefix,
        digest=ApiKey.digest_of(secret),
        user=account,
        created_by=staff_user(actor),
        expires_at=expires_at,
    )
    audit_record(
        actor=actor,
        action="api_key.create",
        obj=key,
        after={
            "name": name,
            "scope": scope,
            "prefix": prefix,
            "expires_at": expires_at.isoformat() if expires_at else None,
        },
    )
    return NewApiKey(key=key, secret=f"{prefix}.{secret}")


@transaction.atomic
def api_key_revoke(*, actor, key_id: int) -> ApiKey:
    """Revoke a key: refused from its next request on. The row stays, for the record."""
    key = (
        ApiKey.objects.select_for_update(of=("self",))
        .select_related("created_by")
        .filter(pk=key_id)
        .first()
    )
    if key is None:
        raise NotFound(_("No such API key."))
    if key.revoked_at is not None:
        raise Conflict(_("This key is already revoked."), code="revoked")
    key.revoked_at = timezone.now()
    key.revoked_by = staff_user(actor)
    key.save(update_fields=["revoked_at", "revoked_by"])
    audit_record(
        actor=actor,
        action="api_key.revoke",
        obj=key,
        before={"revoked_at": None},
        after={"revoked_at": key.revoked_at.isoformat()},
    )
    return key

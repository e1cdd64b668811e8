"""Standard Webhooks signing (https://www.standardwebhooks.com/), with its reference
library, `standardwebhooks`, the one a receiver verifies with.

Every message carries `webhook-id` (the delivery's message id: the same on each try and
on "send again"), `webhook-timestamp` (this try's, in seconds: receivers refuse one more
than five minutes off, so each try is signed anew) and `webhook-signature`
(`v1,<base64 HMAC-SHA256 of "id.timestamp.body">` with the endpoint's secret).
"""

import base64
import json
import secrets
import uuid
from datetime import UTC, datetime

from standardwebhooks import Webhook

SECRET_PREFIX = "whsec_"
SECRET_BYTES = 32
USER_AGENT = "Floorman-Webhooks/1"


def secret_new() -> str:
    """A new endpoint secret, `whsec_` and 32 random bytes in base64."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode()


def message_id_new() -> str:
    return f"msg_{uuid.uuid4().hex}"


def body_of(payload: dict) -> str:
    """The request body: the payload as compact JSON (the signed text)."""
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False, sort_keys=True)


def signed_headers(*, secret: str, message_id: str, body: str, now: datetime | None = None):
    """The headers of one try."""
    now = now or datetime.now(UTC)
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(int(now.timestamp())),
        "webhook-signature": Webhook(secret).sign(message_id, now, body),
        "content-type": "application/json",
        "user-agent": USER_AGENT,
    }

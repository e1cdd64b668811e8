"""Strict readers for configuration from environment variables.

Each helper refuses a value it cannot understand with a message that names the
variable, so a typo stops start-up instead of silently picking a default.
"""

import os
import re
from datetime import timedelta
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = {"1", "true", "on"}
FALSE_WORDS = {"0", "false", "off", ""}


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default).strip()


def env_bool(name: str, default: bool = False) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    word = raw.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(
        f"{name}={raw!r} is not understood: use one of 1, true, on, 0, false, off."
    )


def env_int(name: str, default: int) -> int:
    """A whole number, 0 or more."""
    raw = env_str(name)
    if not raw:
        return default
    if not raw.isdecimal():
        raise ImproperlyConfigured(f"{name}={raw!r} is not a whole number (0 or more).")
    return int(raw)


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    items = [item.strip() for item in raw.split(",") if item.strip()]
    if not items:
        raise ImproperlyConfigured(f"{name} is set but names no host.")
    return items


DURATION_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days"}


def env_duration(name: str, default: str) -> timedelta:
    """A length of time such as `90s`, `30m`, `12h` or `7d`; refuse anything else, and 0."""
    value = env_str(name, default)
    match = re.fullmatch(r"([0-9]{1,6})([smhd])", value)
    if not match or int(match[1]) == 0:
        raise ImproperlyConfigured(
            f"{name}={value!r} is not a length of time: use e.g. 12h (a number and s, m, h or d)."
        )
    return timedelta(**{DURATION_UNITS[match[2]]: int(match[1])})


def env_url(name: str, schemes: tuple[str, ...]) -> str:
    """Return the URL in `name`, or "" when unset; refuse other schemes or no host."""
    raw = env_str(name)
    if not raw:
        return ""
    parts = urlsplit(raw)
    if parts.scheme not in schemes or not (parts.hostname or parts.path):
        raise ImproperlyConfigured(
            f"{name}={raw!r} is not a valid URL: expected {' or '.join(schemes)}://…"
        )
    try:
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} has an invalid port: {exc}") from exc
    return raw


def env_time_zone(name: str, default: str) -> str:

    value = env_str(name, default)
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ImproperlyConfigured(f"{name}={value!r} is not a known time zone.") from exc
    return value

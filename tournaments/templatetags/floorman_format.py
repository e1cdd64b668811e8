"""Template filters for showing money and audit data.

Money is stored in minor units (cents); it is shown in the current language's
conventions ("€123.45" in English, "123,45 €" in German) with Babel.
"""

import json
from decimal import Decimal

from babel import Locale, UnknownLocaleError
from babel.numbers import format_currency, format_decimal, get_currency_precision
from django import template
from django.utils.translation import get_language, to_locale
from django.utils.translation import gettext as _

from floorman.names import name_isolated

register = template.Library()


def babel_locale() -> Locale:
    """The Babel locale of the active language; English if Babel does not know it."""
    try:
        return Locale.parse(to_locale(get_language() or "en"))
    except (UnknownLocaleError, ValueError):
        return Locale.parse("en")


def minor_to_major(amount: int, currency: str) -> Decimal:
    """Cents to euros: divide by 10 to the currency's precision (2 for EUR, 0 for JPY)."""
    return Decimal(amount).scaleb(-get_currency_precision(currency))


def place_text(first: int, last: int) -> str:
    """ "7", or "10–12" for places shared by players out in the same hand (RP-8 A), or
    paid one amount."""
    return str(first) if first == last else f"{first}–{last}"


@register.filter
def money(amount: int | None, currency: str = "EUR") -> str:
    """`{{ tournament.buy_in|money:tournament.currency }}` → "€100.00" / "100,00 €"."""
    if amount is None or amount == "":
        return ""
    return format_currency(minor_to_major(int(amount), currency), currency, locale=babel_locale())


@register.filter
def price(event, fee_label: bool = False) -> str:
    """What an event costs, its parts apart: "€1,000 + €100"; with bounties (issue 18)
    "€1,000 + €1,000 bounty + €100", the bounty kept apart from the prize pool's part.
    `event` is a tournament or its setup as a dict (an event template); with
    `fee_label` the fee is named ("+ €100 fee")."""

    def part(name):
        return event.get(name) if isinstance(event, dict) else getattr(event, name, None)

    currency = part("currency") or "EUR"
    if part("buy_in") is None:
        return ""
    text = money(part("buy_in"), currency)
    if part("bounty_format") and part("bounty"):
        text += " + " + _("%(amount)s bounty") % {"amount": money(part("bounty"), currency)}
    if part("fee"):
        fee = money(part("fee"), currency)
        text += " + " + (_("%(amount)s fee") % {"amount": fee} if fee_label else fee)
    return text


@register.filter
def isolated(name: str | None) -> str:
    """A name set into plain text where no element can hold it (an <option>, a title):
    between FSI and PDI when it could turn the text around it (issue 15). A name in an
    element of its own is put in <bdi>, as the public pages do."""
    return name_isolated(name or "")


@register.filter
def compact_json(value) -> str:
    """Audit data on one line: {"chips":20000,"status":"active"}."""
    if value is None:
        return ""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, sort_keys=True)


@register.filter
def chips(amount: int | None) -> str:
    """Chip counts with the language's grouping: "20,000" / "20.000"."""
    if amount is None or amount == "":
        return ""
    return format_decimal(int(amount), locale=babel_locale())


@register.filter
def number(value: int | float | None) -> str:
    """A plain number in the language's way: "9.9" / "9,9" (big blinds, issue 18)."""
    if value is None or value == "":
        return ""
    return format_decimal(Decimal(str(value)), locale=babel_locale())


@register.filter
def mmss(seconds: int | None) -> str:
    """A clock reading: 1:05:09 or 05:09."""
    if seconds is None:
        return ""
    seconds = max(0, int(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


@register.filter
def get_item(mapping, key):
    return mapping.get(key) if hasattr(mapping, "get") else None

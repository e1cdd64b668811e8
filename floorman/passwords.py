"""The house's own words are no password (issue 15).

Django's list of common passwords does not know "floorman" or "pokerpoker": the first
words anyone tries against a poker room's tool. A password made only of such words,
with at most digits and symbols around them ("Floorman2026!", "poker-poker"), is refused.
"""

import re

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

# The product, the roles, and the poker words on every table. Lower case, letters only.
HOUSE_WORDS = (
    "floorman",
    "floor",
    "director",
    "dealer",
    "cashier",
    "casino",
    "cardroom",
    "poker",
    "holdem",
    "texas",
    "omaha",
    "stud",
    "tournament",
    "tourney",
    "allin",
    "chips",
    "chip",
    "bluff",
    "blinds",
    "blind",
    "flop",
    "turn",
    "river",
    "ace",
    "aces",
    "kings",
    "royal",
    "flush",
    "full",
    "house",
    "jackpot",
)


def made_of(letters: str, words) -> bool:
    """True if `letters` is a run of `words` (each as often as you like), found by
    dynamic programming: a regular expression of alternatives could backtrack for ages
    on a long password."""
    ends = [True] + [False] * len(letters)  # ends[i]: letters[:i] is such a run
    for end in range(1, len(letters) + 1):
        ends[end] = any(
            len(word) <= end and ends[end - len(word)] and letters.endswith(word, 0, end)
            for word in words
        )
    return ends[-1]


class HouseWordsValidator:
    """Refuses a password whose letters are nothing but house words, repeated or mixed."""

    def __init__(self, words=HOUSE_WORDS):
        self.words = tuple(words)

    def validate(self, password: str, user=None) -> None:
        letters = re.sub(r"[^a-z]", "", password.casefold())
        if letters and made_of(letters, self.words):
            raise ValidationError(
                _("This password is made of words everyone in a poker room would try."),
                code="password_house_words",
            )

    def get_help_text(self) -> str:
        return _("Your password can't be made only of poker words or the name Floorman.")

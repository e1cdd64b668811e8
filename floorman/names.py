"""Names: as people search them (forgiving of accents and German spellings), and as
screens show them (something visible, and never turning the text around them)."""

import re
import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

_GERMAN = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "æ": "ae", "ø": "oe"})

# Letters by their category that show as blank space: the Hangul fillers.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")

# What can turn the text around a name: the blocks of right-to-left scripts (Hebrew to
# Arabic, their presentation forms, and those beyond the BMP), the direction marks and
# the embeddings, overrides and isolates. static/js/seats.js has the same ranges.
_DIRECTION_CHANGING = re.compile(
    "[\u0590-\u08ff\u200e\u200f\u202a-\u202e\u2066-\u2069\ufb1d-\ufdff\ufe70-\ufefe"
    "\U00010800-\U00010fff\U0001e800-\U0001efff]"
)
FSI, PDI = "\u2068", "\u2069"
_ISOLATE_INITIATORS = frozenset("\u2066\u2067\u2068")  # LRI, RLI, FSI


def _strip_marks(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def name_keys(name: str) -> tuple[str, str]:
    """Two spellings to search a name by: German transliteration (Müller → mueller)
    and plain letters (Müller → muller), both lower case, spaces collapsed."""
    lowered = " ".join(name.casefold().split())
    return _strip_marks(lowered.translate(_GERMAN)), _strip_marks(lowered)


def name_visible(name: str) -> bool:
    """True if the name has a letter or digit a screen shows. A name made only of
    zero-width, direction-changing or blank characters shows as nothing, or reversed."""
    return any(unicodedata.category(c)[0] in "LN" and c not in _BLANK_LETTERS for c in name or "")


def validate_visible_name(name: str) -> None:
    """The field validator of every name shown in public (players, tournaments)."""
    if not name_visible(name):
        raise ValidationError(
            _("A name needs at least one visible letter or digit."), code="invisible"
        )


def name_isolated(name: str) -> str:
    """The name ready to be set into a line of text. One that holds right-to-left letters
    or direction controls goes between FSI and PDI, Unicode's isolates, so that it cannot
    turn the text around it: its own unclosed isolates are closed and a stray PDI, which
    would close the one around it, is dropped. Other names stay as they are. In HTML, a
    name in its own element is isolated by <bdi>; static/js/seats.js does as this does."""
    if not _DIRECTION_CHANGING.search(name):
        return name
    kept, open_isolates = [], 0
    for char in name:
        if char == PDI:
            if not open_isolates:
                continue
            open_isolates -= 1
        elif char in _ISOLATE_INITIATORS:
            open_isolates += 1
        kept.append(char)
    return FSI + "".join(kept) + PDI * open_isolates + PDI

"""Names as people search them: forgiving of accents and German spellings."""

import unicodedata

_GERMAN = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "æ": "ae", "ø": "oe"})


def _strip_marks(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def name_keys(name: str) -> tuple[str, str]:
    """Two spellings to search a name by: German transliteration (Müller → mueller)
    and plain letters (Müller → muller), both lower case, spaces collapsed."""
    lowered = " ".join(name.casefold().split())
    return _strip_marks(lowered.translate(_GERMAN)), _strip_marks(lowered)

"""The TDA 2024 rule book as an index: rules 1-71 and Recommended Procedures RP-1..RP-22,
with short titles, summaries and keywords in English and German, and a search over them.

No Django here. The data lives in rulings/rulebook_data.py; the titles and summaries there
are the project's own short descriptions, not the TDA's text: the rule book itself stays
the reference a floor person reads out.

Search is plain Python over ~93 entries, fast enough for every keystroke:

- case- and accent-insensitive, with the German spellings folded together
  ("Überchip" = "Ueberchip" = "uberchip", "ß" = "ss");
- English and German are always both searched; `language` only breaks ties;
- a rule reference ("45", "45-B", "rule 45", "§ 45", "TDA 45", "RP-8", "rp 8", "EV-8")
  puts that entry first; a query that is only a reference then lists the entries whose
  summaries point to it ("45" -> 45, then 41 and 61);
- the words of a query must all match (a word matches a word of the entry that starts
  with it, so results follow the typing; "the", "der", ... may be left out); the whole
  query as a keyword or title also matches ("colorup" = "color up"). If no entry has
  them all, entries with any of them follow, most words first;
- ranking: number match, the query exactly a keyword or title, the query as a phrase in
  a keyword, keyword hits, the phrase in a title, title hits, summary hits, the chosen
  language, document order.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache


@dataclass(frozen=True)
class Entry:
    """One TDA rule ("45") or Recommended Procedure ("RP-8")."""

    number: str  # "1".."71", "RP-1".."RP-22"
    section: str  # a key of sections()
    title_en: str
    title_de: str
    summary_en: str
    summary_de: str
    keywords_en: tuple[str, ...]
    keywords_de: tuple[str, ...]

    @property
    def is_procedure(self) -> bool:
        return self.number.startswith("RP-")

    def label(self, language: str = "en") -> str:
        """How the entry is cited: "Rule 45" / "RP-8", in German "§ 45" / "EV-8"."""
        if language_of(language) == "de":
            return f"EV-{self.number[3:]}" if self.is_procedure else f"§ {self.number}"
        return self.number if self.is_procedure else f"Rule {self.number}"

    def title(self, language: str = "en") -> str:
        return self.title_de if language_of(language) == "de" else self.title_en

    def summary(self, language: str = "en") -> str:
        return self.summary_de if language_of(language) == "de" else self.summary_en

    def keywords(self, language: str = "en") -> tuple[str, ...]:
        return self.keywords_de if language_of(language) == "de" else self.keywords_en

    def section_name(self, language: str = "en") -> str:
        english, german = sections()[self.section]
        return german if language_of(language) == "de" else english


def language_of(code: str | None) -> str:
    """The rule book's language for a language code: "de" for German, else "en"."""
    return "de" if (code or "")[:2].lower() == "de" else "en"


def sections() -> dict[str, tuple[str, str]]:
    """Section key -> (English name, German name), in document order."""
    return _index().sections


def entries() -> tuple[Entry, ...]:
    """Every rule and procedure, in the order of the TDA document."""
    return _index().entries


def entry(number: str) -> Entry | None:
    """The entry a reference names: "45", "45-B" (rule 45), "rule 45", "§ 45", "TDA 45",
    "RP-8", "rp 8", "EV-8" (the German name of RP-8). None if it names none."""
    found = parse_reference(number)
    return _index().by_number.get(found) if found else None


# --- Text folding ------------------------------------------------------------------------

_WORD = re.compile(r"[a-z0-9]+")
# Folded German spellings: after the accents are gone, "ue"/"oe"/"ae" mean the same. Both
# the index and the query are folded, so English words changed on the way still match.
_DIGRAPHS = re.compile(r"(ue|oe|ae)")


def fold(text: str) -> str:
    """Lower case, no accents, German umlaut spellings merged: "Überchip", "Ueberchip"
    and "uberchip" all fold to "uberchip"; "ß" folds to "ss"."""
    text = unicodedata.normalize("NFKD", text.casefold())
    text = "".join(c for c in text if not unicodedata.combining(c))
    return _DIGRAPHS.sub(lambda m: m.group(1)[0], text)


def _words(text: str) -> tuple[str, ...]:
    return tuple(_WORD.findall(fold(text)))


def _phrase(text: str) -> str:
    """Folded words joined by single spaces, for phrase matching."""
    return " ".join(_words(text))


# --- References --------------------------------------------------------------------------

_RULE_COUNT = 71
_PROCEDURE_COUNT = 22

_PROCEDURE_REF = r"(?:rp|ev)\s*[-.]?\s*(\d{1,2})(?:\s*-\s*[a-z])?"
_RULE_PREFIX = r"(?:tda|rules?|regeln?|§|nr|no)"
_RULE_REF = r"(\d{1,2})(?:\s*-?\s*[a-z])?"

_WHOLE_PROCEDURE = re.compile(rf"^(?:tda\s*)?{_PROCEDURE_REF}$")
_WHOLE_RULE = re.compile(rf"^(?:{_RULE_PREFIX}\s*\.?\s*)*{_RULE_REF}$")
# Inside a longer query only unmistakable references count: "rule 45", "§ 45", "45-B",
# "RP-8". A bare "25" in "25 seconds" stays a word.
_INNER_REFERENCE = re.compile(
    rf"(?<![a-z0-9]){_PROCEDURE_REF}(?![a-z0-9])"
    rf"|(?<![a-z0-9]){_RULE_PREFIX}\s*\.?\s*{_RULE_REF}(?![a-z0-9])"
    r"|(?<![a-z0-9-])(\d{1,2})\s*-\s*[a-z](?![a-z0-9])"
)


def _rule_number(digits: str) -> str | None:
    return str(int(digits)) if 1 <= int(digits) <= _RULE_COUNT else None


def _procedure_number(digits: str) -> str | None:
    return f"RP-{int(digits)}" if 1 <= int(digits) <= _PROCEDURE_COUNT else None


def parse_reference(text: str) -> str | None:
    """The entry number a whole string refers to ("45-B" -> "45", "EV-8" -> "RP-8"),
    or None if it is not a reference to an existing rule or procedure."""
    folded = fold(text).strip()
    if match := _WHOLE_PROCEDURE.match(folded):
        return _procedure_number(match.group(1))
    if match := _WHOLE_RULE.match(folded):
        return _rule_number(match.group(1))
    return None


def _inner_references(folded: str) -> tuple[list[str], str]:
    """The references inside a folded query, in order, and the query without them."""
    found: list[str] = []

    def take(match: re.Match[str]) -> str:
        procedure, rule, rule_part = match.group(1), match.group(2), match.group(3)
        if procedure:
            number = _procedure_number(procedure)
        else:
            number = _rule_number(rule or rule_part)
        if number is None:
            return match.group(0)
        if number not in found:
            found.append(number)
        return " "

    rest = _INNER_REFERENCE.sub(take, folded)
    return found, rest


# --- The index ---------------------------------------------------------------------------

# Words a query can leave out: they would only narrow an AND search by accident.
_STOPWORDS = frozenset(
    _words(
        "a an the of for to on at and or is are with what when how "
        "der die das den dem des ein eine einer und oder fur von mit bei im am zu zum zur "
        "ist sind was wann wie"
    )
)


@dataclass(frozen=True)
class _Field:
    words: tuple[str, ...]  # every folded word of the field
    phrases: tuple[str, ...]  # " keyword " / " title " with spaces around, for phrases
    squashed: tuple[str, ...]  # the same without spaces: "chip race" -> "chiprace"


@dataclass(frozen=True)
class _Indexed:
    entry: Entry
    position: int
    keywords: _Field
    titles: _Field
    summaries: _Field
    words_en: frozenset[str]
    words_de: frozenset[str]
    cites: frozenset[str]  # entry numbers the summaries refer to ("rule 43", "RP-8")


@dataclass(frozen=True)
class _Index:
    sections: dict[str, tuple[str, str]]
    entries: tuple[Entry, ...]
    by_number: dict[str, Entry]
    indexed: tuple[_Indexed, ...]


def _field(texts: tuple[str, ...]) -> _Field:
    phrases = tuple(_phrase(text) for text in texts)
    return _Field(
        words=tuple(word for phrase in phrases for word in phrase.split()),
        phrases=tuple(f" {phrase} " for phrase in phrases),
        squashed=tuple(phrase.replace(" ", "") for phrase in phrases),
    )


def _cited(item: Entry) -> frozenset[str]:
    """The other entries an entry's summaries point to ("rule 45", "§ 43", "13-A")."""
    text = fold(f"{item.summary_en} {item.summary_de}")
    if item.is_procedure:
        # A procedure names its own parts "10-A", "5-D": those are not rules 10 and 5.
        text = re.sub(rf"(?<![a-z0-9-]){item.number[3:]}\s*-\s*[a-z](?![a-z0-9])", " ", text)
    found, _ = _inner_references(text)
    return frozenset(found) - {item.number}


@cache
def _index() -> _Index:
    from rulings.rulebook_data import ENTRIES, SECTIONS  # noqa: PLC0415 - the data module imports Entry from here

    indexed = []
    for position, item in enumerate(ENTRIES):
        indexed.append(
            _Indexed(
                entry=item,
                position=position,
                keywords=_field(item.keywords_en + item.keywords_de),
                titles=_field((item.title_en, item.title_de)),
                summaries=_field((item.summary_en, item.summary_de)),
                words_en=frozenset(
                    _words(" ".join((item.title_en, item.summary_en, *item.keywords_en)))
                ),
                words_de=frozenset(
                    _words(" ".join((item.title_de, item.summary_de, *item.keywords_de)))
                ),
                cites=_cited(item),
            )
        )
    return _Index(
        sections=SECTIONS,
        entries=tuple(ENTRIES),
        by_number={item.number: item for item in ENTRIES},
        indexed=tuple(indexed),
    )


# --- Search ------------------------------------------------------------------------------


def _matches(word: str, words: tuple[str, ...] | frozenset[str]) -> int:
    """How many words of a field the query word matches: numbers exactly, other words as
    the start of a word ("overch" matches "overchip")."""
    if word.isdigit():
        return sum(1 for candidate in words if candidate == word)
    return sum(1 for candidate in words if candidate.startswith(word))


def _phrase_hits(phrase: str, field: _Field) -> int:
    """How many keywords (or titles) hold the query as a phrase: whole words from a word
    boundary on, or the same letters run together ("colorup" = "color up")."""
    if not phrase:
        return 0
    squashed = phrase.replace(" ", "")
    return sum(
        1
        for spaced, joined in zip(field.phrases, field.squashed, strict=True)
        if f" {phrase}" in spaced or joined.startswith(squashed)
    )


def _exact_hits(phrase: str, field: _Field) -> int:
    """How many keywords (or titles) are exactly the query, spaced or run together."""
    if not phrase:
        return 0
    squashed = phrase.replace(" ", "")
    return sum(
        1
        for spaced, joined in zip(field.phrases, field.squashed, strict=True)
        if spaced == f" {phrase} " or joined == squashed
    )


def search(query: str, *, language: str = "en", limit: int = 20) -> list[Entry]:
    """Entries for a query typed into the search box, best first (see the module doc)."""
    if limit <= 0:
        return []
    folded = fold(query).strip()
    index = _index()

    whole = parse_reference(query)
    if whole is not None:
        references, rest = [whole], ""
    else:
        references, rest = _inner_references(folded)
    words = list(dict.fromkeys(_words(rest)))
    required = [word for word in words if word not in _STOPWORDS] or words
    phrase = " ".join(_words(rest))
    prefer_de = language_of(language) == "de"

    ranked: list[tuple[tuple, Entry]] = []
    for item in index.indexed:
        number = item.entry.number
        # Referenced entries first, in the order the query names them.
        named = len(references) - references.index(number) if number in references else 0
        # A bare reference also lists the entries whose summaries point to it.
        cited = 0 if required else sum(1 for ref in references if ref in item.cites)
        found = [
            word
            for word in required
            if _matches(word, item.keywords.words)
            or _matches(word, item.titles.words)
            or _matches(word, item.summaries.words)
        ]
        keyword_phrase = _phrase_hits(phrase, item.keywords)
        title_phrase = _phrase_hits(phrase, item.titles)
        # The whole query as a keyword or title ("colorup", "chip race") counts as AND.
        has_all = len(found) == len(required) or keyword_phrase + title_phrase > 0
        if not (named or cited or found or has_all and required):
            continue
        own_words = item.words_de if prefer_de else item.words_en
        key = (
            named,
            cited,
            has_all,  # AND before the OR fallback
            len(found),
            _exact_hits(phrase, item.keywords) + _exact_hits(phrase, item.titles),
            keyword_phrase,
            sum(_matches(word, item.keywords.words) for word in found),
            title_phrase,
            sum(_matches(word, item.titles.words) for word in found),
            sum(_matches(word, item.summaries.words) for word in found),
            sum(_matches(word, own_words) for word in found),
            -item.position,
        )
        ranked.append((key, item.entry))

    ranked.sort(key=lambda pair: pair[0], reverse=True)
    if required and any(key[2] for key, _ in ranked):
        # Some entries hold every word: the OR fallback is not needed.
        ranked = [(key, found) for key, found in ranked if key[0] or key[2]]
    return [found for _, found in ranked[:limit]]

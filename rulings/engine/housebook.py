"""A house's own rule book, from the text or Markdown file it provides, cut into rules.

Nothing of any rule book ships with Floorman: the house imports its own. A section
starts at a Markdown heading ("## 12. Re-entries") or at a numbered line as printed
rule books have them ("12.) Re-entries – …", "§ 12 Re-entries", "Rule 12: …"). A
section that names a TDA rule ("TDA 29", "TDA-Regel 29") is linked to it.
"""

import re
from dataclasses import dataclass

from rulings.engine import rulebook

MAX_SECTIONS = 2000
MAX_TEXT = 2_000_000  # characters: a rule book, not a novel

HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(?P<rest>.+?)\s*#*\s*$")
NUMBERED = re.compile(
    r"^\s*(?:[-*]\s+)?(?:(?:§|rule|regel|art\.?|artikel)\s*)?"
    r"(?P<number>\d{1,3}(?:\.\d{1,3})*[a-z]?)\s*(?:\.\)|\)|\.|:)?\s+(?P<rest>\S.*)$",
    re.IGNORECASE,
)
LEADING_NUMBER = re.compile(
    r"^(?:(?:§|rule|regel|art\.?|artikel)\s*)?(?P<number>\d{1,3}(?:\.\d{1,3})*[a-z]?)"
    r"\s*(?:\.\)|\)|\.|:)?\s+(?P<rest>.+)$",
    re.IGNORECASE,
)
TITLE_SPLIT = re.compile(r"\s+[–—-]\s+|:\s+")
TDA_CITED = re.compile(r"\bTDA[\s-]*(?:rule|regel)?\s*(?P<number>\d{1,2}|RP[\s-]?\d{1,2})\b", re.I)
EMPHASIS = re.compile(r"[*_]{1,3}")


@dataclass(frozen=True)
class Section:
    number: str  # the house's own number, "" if none
    title: str
    text: str  # the whole section as written, heading line included
    tda: str  # the TDA rule it names ("29", "RP-8"), or ""


def split_sections(text: str) -> list[Section]:
    if len(text) > MAX_TEXT:
        raise ValueError("the rule book is too long")
    sections: list[list[str]] = []
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if _starts_section(line) or not sections:
            if not sections and not line.strip():
                continue
            sections.append([line])
        else:
            sections[-1].append(line)
        if len(sections) > MAX_SECTIONS:
            raise ValueError("too many sections")
    found = [_section(lines) for lines in sections]
    return [section for section in found if section.title]


def _starts_section(line: str) -> bool:
    return bool(HEADING.match(line) or NUMBERED.match(EMPHASIS.sub("", line)))


def _section(lines: list[str]) -> Section:
    head = EMPHASIS.sub("", lines[0]).strip()
    heading = HEADING.match(head)
    head = heading.group("rest") if heading else head
    number = ""
    numbered = LEADING_NUMBER.match(head.lstrip("-* "))
    if numbered:
        number, head = numbered.group("number"), numbered.group("rest")
    title = TITLE_SPLIT.split(head, maxsplit=1)[0].strip(" .–—-")
    body = "\n".join(lines).strip()
    cited = TDA_CITED.search(body)
    # A rule the TDA does not have ("TDA 99") is cited by nothing: the section is the
    # house's own.
    tda = (rulebook.parse_reference(cited.group("number")) or "") if cited else ""
    return Section(number=number, title=title[:200], text=body, tda=tda)

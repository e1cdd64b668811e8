"""The TDA rule book index (rulings/rulebook_data.py) and its search (rulings/engine/rulebook.py).

Pure Python: no database, no Django.
"""

import os
import re
import unicodedata
from pathlib import Path

import pytest

from rulings.engine import rulebook
from rulings.engine.rulebook import Entry, entries, entry, search
from rulings.rulebook_data import SECTIONS

RULES = [str(n) for n in range(1, 72)]
PROCEDURES = [f"RP-{n}" for n in range(1, 23)]

# The TDA 2024 documents the index was written from (English; German/English).
SEEDS = Path(os.environ.get("FLOORMAN_SEEDS", "/work/shared/seeds"))
SOURCES = ("002_51f545fc28a3662c.txt", "000_ffa89563eaad2a85.txt")


def numbers(results: list[Entry]) -> list[str]:
    return [found.number for found in results]


# --- The data ----------------------------------------------------------------------------


def test_every_rule_and_procedure_once_in_document_order():
    assert numbers(list(entries())) == RULES + PROCEDURES


def test_no_field_is_empty():
    for item in entries():
        for name in ("number", "section", "title_en", "title_de", "summary_en", "summary_de"):
            value = getattr(item, name)
            assert isinstance(value, str), (item.number, name)
            assert value.strip() == value and value, (item.number, name)


def test_summaries_are_short():
    for item in entries():
        assert len(item.summary_en) <= 220, item.number
        assert len(item.summary_de) <= 220, item.number
        assert len(item.title_en) <= 60 and len(item.title_de) <= 60, item.number


def test_german_is_not_the_english():
    for item in entries():
        assert item.summary_de != item.summary_en, item.number


def test_keywords_per_language():
    for item in entries():
        for keywords in (item.keywords_en, item.keywords_de):
            assert isinstance(keywords, tuple), item.number
            assert 4 <= len(keywords) <= 10, item.number
            assert len(set(keywords)) == len(keywords), item.number
            for keyword in keywords:
                assert keyword == keyword.lower() == keyword.strip() and keyword, item.number


def test_sections_in_english_and_german_follow_the_document():
    assert list(SECTIONS) == list(dict.fromkeys(item.section for item in entries()))
    for english, german in SECTIONS.values():
        assert english and german
    assert SECTIONS["pots_showdown"] == ("Pots / Showdown", "Pots / Showdown")
    assert {item.section for item in entries() if item.is_procedure} == {"recommended_procedures"}
    assert entry("44").section == "bets_raises"
    assert entry("44").section_name("de") == "Spiel: Bets und Raises"
    assert rulebook.sections() is SECTIONS


def test_labels_and_languages():
    rule, procedure = entry("45"), entry("RP-8")
    assert (rule.label(), rule.label("de")) == ("Rule 45", "§ 45")
    assert (procedure.label(), procedure.label("de-AT")) == ("RP-8", "EV-8")
    assert procedure.title("de") == procedure.title_de
    assert procedure.summary("en") == procedure.summary_en
    assert procedure.keywords("de") == procedure.keywords_de


def test_entries_are_frozen():
    with pytest.raises(AttributeError):
        entry("1").title_en = "changed"  # type: ignore[misc]


# --- Own words: no run of 8 words from the TDA documents ---------------------------------

RUN = 8


def _source_words(text: str) -> list[str]:
    text = re.sub(r"<[^>]+>", " ", text)  # the bilingual file is HTML-ish
    text = re.sub(r"&[a-z]+;|&#\d+;", " ", text)
    text = unicodedata.normalize("NFC", text).casefold()
    return re.findall(r"\w+", text)


def test_no_summary_repeats_eight_words_of_the_documents():
    missing = [name for name in SOURCES if not (SEEDS / name).is_file()]
    if missing:
        pytest.skip(f"the TDA documents are not at {SEEDS} ({', '.join(missing)})")
    runs: set[tuple[str, ...]] = set()
    for name in SOURCES:
        words = _source_words((SEEDS / name).read_text(encoding="utf-8"))
        runs.update(tuple(words[i : i + RUN]) for i in range(len(words) - RUN + 1))
    assert len(runs) > 10_000  # the documents were read

    copied = []
    for item in entries():
        for text in (item.summary_en, item.summary_de, item.title_en, item.title_de):
            words = _source_words(text)
            for i in range(len(words) - RUN + 1):
                if tuple(words[i : i + RUN]) in runs:
                    copied.append((item.number, " ".join(words[i : i + RUN])))
    assert copied == []


# --- Lookup by number --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reference", "number"),
    [
        ("45", "45"),
        ("45-B", "45"),
        ("45-b", "45"),
        ("45 B", "45"),
        (" 45B ", "45"),
        ("TDA 45", "45"),
        ("Rule 45", "45"),
        ("Regel 45", "45"),
        ("§ 45", "45"),
        ("§45-A", "45"),
        ("1", "1"),
        ("71-D", "71"),
        ("rp-8", "RP-8"),
        ("RP 8", "RP-8"),
        ("RP8", "RP-8"),
        ("EV-8", "RP-8"),
        ("ev 8", "RP-8"),
        ("RP-10-H", "RP-10"),
        ("TDA RP-22", "RP-22"),
    ],
)
def test_entry_accepts_the_ways_a_rule_is_cited(reference, number):
    assert entry(reference).number == number


@pytest.mark.parametrize("reference", ["", "0", "72", "100", "RP-0", "RP-23", "EV-23", "foo"])
def test_entry_is_none_for_what_is_not_a_rule(reference):
    assert entry(reference) is None


# --- Search ------------------------------------------------------------------------------


@pytest.mark.parametrize("query", ["overchip", "OVERCHIP", "Überchip", "uberchip", "Ueberchip"])
def test_overchip_in_either_language_finds_rule_44(query):
    assert numbers(search(query))[0] == "44"


@pytest.mark.parametrize("query", ["chip race", "Chip Race", "chip-race", "chiprace"])
def test_chip_race_finds_rule_24(query):
    assert numbers(search(query))[0] == "24"


@pytest.mark.parametrize("query", ["hand for hand", "Hand für Hand", "hand fuer hand", "h4h"])
def test_hand_for_hand_finds_rp_8_first(query):
    assert numbers(search(query))[0] == "RP-8"


def test_dead_button_finds_the_button_rule():
    assert numbers(search("dead button"))[0] == "32"
    assert numbers(search("Dead Button", language="de"))[0] == "32"


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("colour up", "24"),
        ("color up", "24"),
        ("bubble", "RP-8"),
        ("misdeal", "35"),
        ("string bet", "56"),
        ("clock", "29"),
        ("undercall", "51"),
        ("Blinds schinden", "33"),
        ("rabbit", "28"),
        ("odd chip", "20"),
        ("side pot", "21"),
        ("Handy", "5"),
    ],
)
def test_floor_words_find_their_rule(query, first):
    assert numbers(search(query))[0] == first


@pytest.mark.parametrize("query", ["45-B", "rule 45", "Regel 45", "TDA 45", "§ 45", "45"])
def test_a_rule_reference_puts_that_rule_first(query):
    assert numbers(search(query))[0] == "45"


def test_a_bare_reference_then_lists_the_rules_pointing_to_it():
    found = numbers(search("45"))
    assert found[0] == "45"
    assert "41" in found  # "several chips under rule 45"
    assert "44" not in found


def test_a_procedure_is_not_cited_by_its_own_lettered_parts():
    assert numbers(search("10")) == ["10"]  # RP-10 talks of "10-A" but means itself


@pytest.mark.parametrize("query", ["EV-8", "ev 8", "RP-8", "rp8"])
def test_procedure_references_in_german_and_english(query):
    assert numbers(search(query))[0] == "RP-8"


def test_a_reference_inside_a_query_comes_first_then_the_words():
    found = numbers(search("rule 45 overchip"))
    assert found[:2] == ["45", "44"]


@pytest.mark.parametrize("query", ["xyzzy", "qwertzuiop", "", "   ", "§"])
def test_unknown_words_find_nothing(query):
    assert search(query) == []


def _holds(item: Entry, word: str) -> bool:
    text = " ".join(
        (item.title_en, item.title_de, item.summary_en, item.summary_de)
        + item.keywords_en
        + item.keywords_de
    )
    return any(token.startswith(word) for token in re.findall(r"[a-z0-9]+", rulebook.fold(text)))


def test_several_words_must_all_match():
    found = search("stud fold")
    assert "66" in numbers(found)
    assert all(_holds(item, "stud") and _holds(item, "fold") for item in found)
    # "stud" alone finds more than "stud" and "fold" together.
    assert len(search("stud")) > len(found)


def test_when_no_entry_has_all_words_any_word_will_do():
    assert numbers(search("overchip xyzzy"))[0] == "44"
    either = numbers(search("overchip rabbit"))
    assert {"44", "28"} <= set(either)


def test_or_results_with_more_words_come_first():
    # No entry holds all three; 44 and 41 hold two of them, 28 only one.
    found = numbers(search("overchip call rabbit"))
    assert found.index("44") < found.index("28")
    assert found.index("41") < found.index("28")


def test_words_match_as_they_are_typed():
    assert numbers(search("overch"))[0] == "44"
    assert numbers(search("misd"))[0] == "35"


def test_stopwords_do_not_narrow_the_search():
    assert numbers(search("the overchip"))[0] == "44"
    assert numbers(search("das Überchip"))[0] == "44"


def test_language_orders_but_does_not_filter():
    for query in ("button", "all-in", "stack", "karten", "penalty"):
        english, german = search(query), search(query, language="de")
        assert set(numbers(english)) == set(numbers(german))


def test_limit():
    assert len(search("chip", limit=3)) == 3
    assert search("chip", limit=0) == []
    assert len(search("a")) <= 20

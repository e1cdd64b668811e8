"""Seat lookup spellings (issue: Müller = Mueller); names that show, and that cannot
turn the text around them (issue 15)."""

import pytest
from django.core.exceptions import ValidationError

from floorman.names import name_isolated, name_keys, name_visible, validate_visible_name


@pytest.mark.parametrize(
    ("typed", "name"),
    [("Mueller", "Müller"), ("muller", "Müller"), ("STRASSE", "Straße"), ("jose", "José")],
)
def test_name_keys_forgive_accents_and_german_spellings(typed, name):
    assert set(name_keys(typed)) & set(name_keys(name))


def test_different_names_do_not_match():
    assert not set(name_keys("Meier")) & set(name_keys("Müller"))


@pytest.mark.parametrize(
    "name",
    [
        "",
        "   ",
        "\u200b\u200b",  # zero-width spaces
        "\u202e\u2066",  # right-to-left override, left-to-right isolate
        "\u200f",  # right-to-left mark
        "\u200d\u2060\ufeff",  # joiner, word joiner, BOM
        "\u3164\u115f",  # Hangul fillers: letters that show as blank space
        "\u0301\u0308",  # combining marks on nothing
        "\u2800",  # braille blank
        "-.'",
    ],
)
def test_a_name_without_a_visible_letter_or_digit_is_refused(name):
    assert not name_visible(name)
    with pytest.raises(ValidationError) as refused:
        validate_visible_name(name)
    assert refused.value.messages == ["A name needs at least one visible letter or digit."]


@pytest.mark.parametrize(
    "name", ["Anna", "\u202eAnna", "Anna\u200b", "Zoë", "محمد", "李", "7", "O'Neil"]
)
def test_a_name_with_a_visible_letter_or_digit_is_accepted(name):
    assert name_visible(name)
    validate_visible_name(name)


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("Anna Berger", "Anna Berger"),  # nothing to isolate: unchanged
        ("Zoë Müller", "Zoë Müller"),
        ("\u202eAnna", "\u2068\u202eAnna\u2069"),  # the override ends with the name
        ("Anna\u200f", "\u2068Anna\u200f\u2069"),
        ("דוד", "\u2068דוד\u2069"),  # right-to-left letters
        ("محمد", "\u2068محمد\u2069"),
        ("\U00010900x", "\u2068\U00010900x\u2069"),  # Phoenician, beyond the BMP
        # An isolate the name opens is closed before the name's own PDI ...
        ("\u2067Anna", "\u2068\u2067Anna\u2069\u2069"),
        ("\u2066\u2068A", "\u2068\u2066\u2068A\u2069\u2069\u2069"),
        # ... and a PDI with nothing to close would close the name's: dropped.
        ("A\u2069\u202eB", "\u2068A\u202eB\u2069"),
        ("\u2066A\u2069B\u2069", "\u2068\u2066A\u2069B\u2069"),
    ],
)
def test_name_isolated_keeps_direction_changes_inside_the_name(name, shown):
    assert name_isolated(name) == shown

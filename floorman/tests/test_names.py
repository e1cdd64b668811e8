"""Seat lookup spellings (issue: Müller = Mueller)."""

import pytest

from floorman.names import name_keys


@pytest.mark.parametrize(
    ("typed", "name"),
    [("Mueller", "Müller"), ("muller", "Müller"), ("STRASSE", "Straße"), ("jose", "José")],
)
def test_name_keys_forgive_accents_and_german_spellings(typed, name):
    assert set(name_keys(typed)) & set(name_keys(name))


def test_different_names_do_not_match():
    assert not set(name_keys("Meier")) & set(name_keys("Müller"))

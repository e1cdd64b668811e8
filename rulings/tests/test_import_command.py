"""`manage.py import_rulebook <venue> <file>`: the house's own rule book into its rules."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from floorman.models import AuditEntry
from rulings.models import HouseRule, HouseRuleKind, Venue

pytestmark = pytest.mark.django_db

RULE_BOOK = """# Hausordnung Casino Beispiel

## 1. Anmeldung
Spieler melden sich an der Kassa an.

## 2. Zeit
Ein Spieler hat 30 Sekunden, wie TDA 29 sagt.

## 3. Telefone
Telefone bleiben vom Tisch fern.
"""


def _import(*args) -> str:
    out = StringIO()
    call_command("import_rulebook", *args, stdout=out)
    return out.getvalue()


@pytest.fixture
def book(tmp_path):
    path = tmp_path / "hausordnung.md"
    path.write_text(RULE_BOOK, encoding="utf-8")
    return path


def test_imports_the_sections_into_an_existing_venue(book):
    venue = Venue.objects.create(name="Casino Beispiel", is_default=True)
    out = _import("casino beispiel", str(book))
    rules = list(HouseRule.objects.filter(venue=venue).order_by("position"))
    assert [rule.title for rule in rules][-3:] == ["Anmeldung", "Zeit", "Telefone"]
    assert [(rule.kind, rule.tda) for rule in rules if rule.tda] == [(HouseRuleKind.ADDITION, "29")]
    assert f"Imported {len(rules)} rules into 'Casino Beispiel' (1 linked to a TDA rule)." in out
    assert AuditEntry.objects.filter(action="rulebook.import").count() == 1


def test_a_second_import_replaces_the_first_and_keeps_rules_typed_by_hand(book):
    venue = Venue.objects.create(name="Casino Beispiel")
    typed = HouseRule.objects.create(venue=venue, kind="own", title="Dress code", text="No hats.")
    _import("Casino Beispiel", str(book))
    first = HouseRule.objects.filter(venue=venue, imported=True).count()
    _import("Casino Beispiel", str(book))
    assert HouseRule.objects.filter(venue=venue, imported=True).count() == first
    assert HouseRule.objects.filter(pk=typed.pk).exists()


def test_create_makes_the_venue_the_default_when_it_is_the_first(book):
    out = _import("Casino Neu", str(book), "--create")
    venue = Venue.objects.get()
    assert (venue.name, venue.is_default, venue.house_settings) == ("Casino Neu", True, {})
    assert "Created venue 'Casino Neu'." in out
    assert HouseRule.objects.filter(venue=venue).exists()


def test_unknown_venue_without_create_is_an_error(book):
    with pytest.raises(CommandError, match="add --create"):
        _import("Nowhere", str(book))
    assert not Venue.objects.exists()


def test_missing_file_is_an_error(tmp_path):
    Venue.objects.create(name="Casino Beispiel")
    with pytest.raises(CommandError, match="No such file"):
        _import("Casino Beispiel", str(tmp_path / "missing.md"))


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("## 1. Überchips\nEin großer Chip.\n".encode("latin-1"), "is not UTF-8 text"),
        (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "is not UTF-8 text"),
        (b"%PDF-1.4\n1 0 obj\n", "is not a text file"),
        (b"## 1. Clock\x00\x01", "is not a text file"),
        (b"\n  \n", "is empty"),
    ],
)
def test_a_file_that_is_not_utf8_text_is_an_error(tmp_path, content, message):
    Venue.objects.create(name="Casino Beispiel")
    path = tmp_path / "rules.txt"
    path.write_bytes(content)
    with pytest.raises(CommandError, match=message):
        _import("Casino Beispiel", str(path))
    assert not HouseRule.objects.exists()


def test_a_failed_import_does_not_leave_a_created_venue(tmp_path, monkeypatch):
    from rulings.engine import housebook

    monkeypatch.setattr(housebook, "split_sections", lambda text: [])
    path = tmp_path / "rules.md"
    path.write_text(RULE_BOOK, encoding="utf-8")
    with pytest.raises(CommandError, match="No rules found"):
        _import("Casino Neu", str(path), "--create")
    assert not Venue.objects.exists()

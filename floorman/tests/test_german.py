"""The German catalogue is complete, keeps every placeholder, and its .mo is up to date.

When these fail after new strings were added: run
    manage.py makemessages -l de --ignore .venv --ignore var --ignore staticfiles
translate the new entries in locale/de/LC_MESSAGES/django.po (no "fuzzy" left), then
    manage.py compilemessages --ignore .venv
and commit both django.po and django.mo.
"""

import gettext
import re
from collections import Counter
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from django.conf import settings

LC_MESSAGES = Path(settings.LOCALE_PATHS[0]) / "de" / "LC_MESSAGES"
PO_FILE = LC_MESSAGES / "django.po"
MO_FILE = LC_MESSAGES / "django.mo"

# %(name)s, %s, %d, %.2f, %% ... and str.format's {0} / {name}.
PERCENT = re.compile(r"%(?:\([^)]+\))?[#0 +-]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa%]")
BRACES = re.compile(r"\{[^{}\s]*\}")
HTML_TAG = re.compile(r"</?[A-Za-z][^>]*>")


def _catalog():
    with PO_FILE.open("rb") as po:
        return read_po(po, locale="de")


def _messages():
    """(message, label, source texts, translations) for every message but the header."""
    for message in _catalog():
        if not message.id:
            continue
        ids = list(message.id) if message.pluralizable else [message.id]
        strings = list(message.string) if message.pluralizable else [message.string]
        label = f"{message.id!r} ({', '.join(f'{f}:{n}' for f, n in message.locations)})"
        yield message, label, ids, strings


def _placeholders(text: str) -> tuple[Counter, list[str]]:
    """Named placeholders and HTML tags as a multiset (a translation may reorder them);
    positional ones (%s, %d, {}) as a list, since their order is their meaning."""
    found = PERCENT.findall(text) + BRACES.findall(text)
    positional = [p for p in found if p == "{}" or (p.startswith("%") and "(" not in p)]
    named = [p for p in found if p not in positional]
    return Counter(named + HTML_TAG.findall(text)), positional


def _key(message) -> tuple:
    # Babel's read_mo leaves the context of a plural message as bytes; read_po gives str.
    context = message.context
    if isinstance(context, bytes):
        context = context.decode()
    return context, message.id if isinstance(message.id, str) else tuple(message.id)


def test_catalogue_header_is_german_utf8_with_two_plural_forms():
    catalog = _catalog()
    headers = dict(catalog.mime_headers)

    assert headers["Language"] == "de"
    assert "charset=utf-8" in headers["Content-Type"].lower()
    assert headers["Plural-Forms"].replace(" ", "").startswith("nplurals=2;plural=(n!=1)")
    assert not catalog.fuzzy, "the header is still marked fuzzy"


def test_every_message_is_translated_and_none_is_fuzzy():
    problems = []
    count = 0
    for message, label, _ids, strings in _messages():
        count += 1
        if message.fuzzy:
            problems.append(f"fuzzy: {label}")
        if message.pluralizable and len(strings) != 2:
            problems.append(f"needs 2 plural forms: {label}")
        if not all(s and s.strip() for s in strings):
            problems.append(f"untranslated: {label}")

    assert count > 0, f"{PO_FILE} holds no messages"
    assert not problems, "German catalogue incomplete:\n" + "\n".join(problems)


def test_translations_keep_placeholders_and_html_tags():
    problems = []
    for _message, label, ids, strings in _messages():
        expected = _placeholders(ids[0])
        # A plural source's forms must agree with each other; every translated form
        # must carry the same placeholders and tags as the source.
        for source in ids[1:]:
            if _placeholders(source) != expected:
                problems.append(f"singular and plural differ in the source: {label}")
        for form, translation in enumerate(strings):
            if translation and _placeholders(translation) != expected:
                problems.append(
                    f"{label} [form {form}]: {expected} in the source, "
                    f"{_placeholders(translation)} in {translation!r}"
                )

    assert not problems, "Placeholders or tags changed:\n" + "\n".join(problems)


def test_placeholder_check_catches_a_broken_translation():
    """The comparison above is not vacuous."""
    assert _placeholders("Entry #%(number)s") == _placeholders("Teilnahme #%(number)s")
    assert _placeholders("Entry #%(number)s") != _placeholders("Teilnahme #%(nummer)s")
    assert _placeholders("%s of %d") != _placeholders("%d von %s")
    assert _placeholders("<b>{0}</b>") != _placeholders("{0}")


def test_compiled_catalogue_matches_the_po_file():
    """django.mo was compiled from the current django.po: same messages, same texts.

    Untranslated and fuzzy entries are left out, as msgfmt leaves them out of the .mo
    (the test above reports them)."""
    assert MO_FILE.exists(), f"{MO_FILE} is missing: run compilemessages"
    with MO_FILE.open("rb") as mo:
        compiled = {_key(m): m.string for m in read_mo(mo) if m.id}
        mo.seek(0)
        translations = gettext.GNUTranslations(mo)

    source = {}
    for message, label, ids, strings in _messages():
        if message.fuzzy or not all(strings):
            continue
        source[_key(message)] = tuple(strings) if message.pluralizable else strings[0]
        # What Django will actually look up, through the standard library.
        if message.pluralizable:
            for n, form in ((1, 0), (2, 1)):
                if message.context:
                    got = translations.npgettext(message.context, ids[0], ids[1], n)
                else:
                    got = translations.ngettext(ids[0], ids[1], n)
                assert got == strings[form], f"stale django.mo for {label} (n={n})"
        else:
            if message.context:
                got = translations.pgettext(message.context, ids[0])
            else:
                got = translations.gettext(ids[0])
            assert got == strings[0], f"stale django.mo for {label}"

    compiled = {key: tuple(s) if isinstance(s, list | tuple) else s for key, s in compiled.items()}
    assert compiled.keys() == source.keys(), (
        "django.mo and django.po hold different messages: run compilemessages\n"
        f"only in .mo: {sorted(map(str, compiled.keys() - source.keys()))}\n"
        f"only in .po: {sorted(map(str, source.keys() - compiled.keys()))}"
    )
    assert compiled == source


@pytest.mark.parametrize(
    ("english", "german"),
    [("Tournaments", "Turniere"), ("Alternates", "Nachrücker"), ("Entry", "Teilnahme")],
)
def test_key_terms_follow_the_glossary(english, german):
    """The terminology listed at the top of django.po is what the catalogue uses."""
    with MO_FILE.open("rb") as mo:
        assert gettext.GNUTranslations(mo).gettext(english) == german

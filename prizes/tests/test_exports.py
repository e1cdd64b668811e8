"""Results exports: the CSV a spreadsheet opens (umlauts, shared places as ranges) and the
PDF to print; staff of any role may take them, visitors may not."""

import base64
import csv
import io
import re
import zlib

import pytest
from django.urls import reverse

from hands.services import busts as bust_services
from prizes import exports
from prizes import services as prize_services
from tournaments.tests.factories import register, staff, tournament

pytestmark = pytest.mark.django_db

NAMES = ["Jürgen Müller", "Zoë Ødegård", "=HYPERLINK(evil)", "Anna Berger", "Bo", "Cy"]


def finished_field():
    """Ten entries at €100; the director's table pays 500, 300 and 200. Six are out
    (places 10 to 5); two more go out together and share places 3 and 4 (RP-8 A); the
    player on place 5 has been paid."""
    event = tournament(name="Sunday Main Event", buy_in=10000, fee=0)
    names = NAMES + [f"Player {n}" for n in range(len(NAMES), 10)]
    entries = [
        register(event, name, country="DE", email=f"p{n}@example.com").entry
        for n, name in enumerate(names)
    ]
    type(event).objects.filter(pk=event.pk).update(
        status="running", late_reg_until_level=1, current_level=2
    )
    director, floor = staff("director"), staff("floor")
    prize_services.payouts_update(
        actor=director, tournament_id=event.pk, lines=[50000, 30000, 10000, 5000, 5000]
    )
    # Bust order: the last six names go out first, then the first four stay longest.
    out = entries[4:][::-1]
    for entry in out:
        bust_services.entry_bust(actor=floor, tournament_id=event.pk, entry_id=entry.pk)
    for entry in entries[2:4]:
        bust_services.entry_bust(actor=floor, tournament_id=event.pk, entry_id=entry.pk)
        prize_services.place_enter(
            actor=director, tournament_id=event.pk, entry_id=entry.pk, place=3
        )
    prize_services.prize_pay(actor=staff("cashier"), tournament_id=event.pk, entry_id=entries[4].pk)
    return event, entries


@pytest.fixture
def built_in_fonts(monkeypatch):
    """Helvetica's text is WinAnsi in the page streams, which `pdf_text` reads back; an
    embedded TrueType subset would need a PDF library to read."""
    monkeypatch.setattr(exports, "pdf_fonts", lambda: exports.BUILT_IN_FONTS)


def csv_rows(response) -> list[list[str]]:
    text = response.content.decode("utf-8-sig")
    return list(csv.reader(io.StringIO(text)))


def pdf_text(pdf: bytes) -> str:
    """The text shown on the pages: page streams are ASCII85 + Flate encoded, strings
    are WinAnsi with octal escapes."""
    shown = []
    for match in re.finditer(rb"stream\r?\n(.*?)endstream", pdf, re.S):
        raw = match.group(1).strip()
        raw = raw.removesuffix(b"~>")
        content = zlib.decompress(base64.a85decode(raw))
        for string in re.findall(rb"\(((?:[^()\\]|\\.)*)\)\s*Tj", content):
            unescaped = re.sub(
                rb"\\([0-7]{1,3}|.)",
                lambda m: bytes([int(m.group(1), 8)]) if m.group(1)[:1].isdigit() else m.group(1),
                string,
            )
            shown.append(unescaped.decode("cp1252"))
    return "\n".join(shown)


# --- CSV ---------------------------------------------------------------------------------


def test_csv_lists_the_results_with_shared_places_as_ranges(client):
    event, entries = finished_field()
    client.force_login(staff("cashier"))

    response = client.get(reverse("tournaments:results-csv", args=[event.pk]))

    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == (
        'attachment; filename="sunday-main-event-results.csv"'
    )
    assert response.content.startswith(b"\xef\xbb\xbf")  # Excel then reads UTF-8
    rows = csv_rows(response)
    assert rows[0] == ["Place", "Entry", "Player", "Country", "Prize (EUR)", "Deal (EUR)", "Paid"]
    by_name = {row[2]: row for row in rows[1:]}
    assert by_name["'=HYPERLINK(evil)"] == [
        "3–4",
        "3",
        "'=HYPERLINK(evil)",
        "DE",
        "75.00",
        "",
        "no",
    ]
    assert by_name["Anna Berger"] == ["3–4", "4", "Anna Berger", "DE", "75.00", "", "no"]
    assert by_name["Bo"] == ["5", "5", "Bo", "DE", "50.00", "", "yes"]
    assert by_name["Player 9"] == ["10", "10", "Player 9", "DE", "0.00", "", "no"]
    assert [row[0] for row in rows[1:]] == ["3–4", "3–4", "5", "6", "7", "8", "9", "10"]
    assert "Jürgen Müller" not in by_name  # still playing: no place yet
    assert "example.com" not in response.content.decode("utf-8-sig")


def test_csv_keeps_umlauts(client):
    event = tournament(name="Müller Cup", buy_in=10000, fee=0)
    entries = [register(event, name).entry for name in ("Jürgen Müller", "Zoë Ødegård", "Cy")]
    director = staff("director")
    prize_services.place_enter(
        actor=director, tournament_id=event.pk, entry_id=entries[0].pk, place=3
    )
    client.force_login(staff("floor"))

    response = client.get(reverse("tournaments:results-csv", args=[event.pk]))

    assert response["Content-Disposition"] == 'attachment; filename="muller-cup-results.csv"'
    assert csv_rows(response)[1][:3] == ["3", "1", "Jürgen Müller"]
    assert "Jürgen Müller".encode() in response.content


# --- PDF ---------------------------------------------------------------------------------


def test_pdf_shows_the_tournament_and_its_results(client, built_in_fonts):
    event, entries = finished_field()
    client.force_login(staff("dealer"))

    response = client.get(reverse("tournaments:results-pdf", args=[event.pk]))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == (
        'attachment; filename="sunday-main-event-results.pdf"'
    )
    pdf = response.content
    assert pdf.startswith(b"%PDF")
    assert b"/Title (Sunday Main Event: results)" in pdf
    text = pdf_text(pdf)
    assert "Sunday Main Event" in text
    assert "€1,000.00" in text  # the prize pool
    assert "3–4" in text and "RP-8 A" in text
    assert "=HYPERLINK(evil)" in text and "Anna Berger" in text
    assert "€75.00" in text and "€50.00" in text
    assert "example.com" not in text


def test_pdf_of_a_tournament_without_results(client, built_in_fonts):
    event = tournament(name="Empty <b>& Co</b>")
    client.force_login(staff("director"))

    response = client.get(reverse("tournaments:results-pdf", args=[event.pk]))

    assert response.status_code == 200
    text = pdf_text(response.content)
    assert "Empty <b>& Co</b>" in text.replace("\n", "")  # markup stays text
    assert "No finishing places yet." in text


def test_pdf_in_german_formats_money_the_german_way(client, built_in_fonts):
    from django.conf import settings

    event, _entries = finished_field()
    client.force_login(staff("cashier"))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"

    text = pdf_text(client.get(reverse("tournaments:results-pdf", args=[event.pk])).content)

    assert re.search(r"1\.000,00\s€", text)
    assert "€1,000.00" not in text


@pytest.mark.skipif(
    exports.pdf_fonts() == exports.BUILT_IN_FONTS, reason="DejaVu Sans is not installed"
)
def test_pdf_embeds_a_font_for_names_beyond_western_europe(client):
    event = tournament(buy_in=10000, fee=0)
    entries = [register(event, name).entry for name in ("Łukasz Dvořák", "Иван", "Cy")]
    prize_services.place_enter(
        actor=staff("director"), tournament_id=event.pk, entry_id=entries[0].pk, place=3
    )
    client.force_login(staff("director"))

    pdf = client.get(reverse("tournaments:results-pdf", args=[event.pk])).content

    # Subsets of the regular and the bold face are embedded (the names and the heads).
    assert re.search(rb"/BaseFont /[A-Z]{6}\+DejaVuSans /", pdf)
    assert re.search(rb"/BaseFont /[A-Z]{6}\+DejaVuSans-Bold /", pdf)


# --- Who may export -------------------------------------------------------------------------


@pytest.mark.parametrize("persona", ["anonymous", "dealer", "floor", "cashier", "director"])
@pytest.mark.parametrize("name", ["results-csv", "results-pdf"])
def test_exports_are_for_staff(client, persona, name):
    event = tournament()
    if persona != "anonymous":
        client.force_login(staff(persona))

    response = client.get(reverse(f"tournaments:{name}", args=[event.pk]))

    if persona == "anonymous":
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    else:
        assert response.status_code == 200
        assert response["Content-Disposition"].startswith("attachment;")


def test_export_of_an_unknown_tournament_is_404(client):
    client.force_login(staff("director"))
    assert client.get(reverse("tournaments:results-csv", args=[999999])).status_code == 404
    assert client.get(reverse("tournaments:results-pdf", args=[999999])).status_code == 404

"""The results for the office: a CSV for spreadsheets and a PDF to print or file.

Staff only (any role), since the cashier reconciles what was paid. Money in the CSV is a
plain decimal in major units ("1234.50") so spreadsheets compute with it; the PDF shows
it the way the page does (`money`). No contact data in either.
"""

import csv
import io
from functools import cache
from pathlib import Path
from xml.sax.saxutils import escape

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont
from reportlab.platypus import LongTable, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from floorman.pages import role_required
from floorman.roles import ALL_ROLES
from prizes.selectors import Results, results
from tournaments.models import Tournament
from tournaments.selectors import tournament_totals
from tournaments.templatetags.floorman_format import minor_to_major, money, place_text

# Cells a spreadsheet would run as a formula: a name typed as "=HYPERLINK(...)" stays text.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _text_cell(value: str) -> str:
    return "'" + value if value.startswith(FORMULA_START) else value


def _filename(tournament: Tournament, extension: str) -> str:
    stem = slugify(tournament.name) or f"tournament-{tournament.pk}"
    return f"{stem}-results.{extension}"


def _attachment(response: HttpResponse, filename: str) -> HttpResponse:
    response["Content-Disposition"] = content_disposition_header(True, filename)
    return response


def _found(tournament_id: int) -> tuple[Tournament, Results]:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    return tournament, results(tournament)


def _plain(amount: int | None, currency: str) -> str:
    return "" if amount is None else str(minor_to_major(amount, currency))


@role_required(ALL_ROLES)
@require_safe
def results_csv(request, tournament_id: int):
    """One row per placed entry, best first; UTF-8 with a BOM so Excel reads umlauts."""
    tournament, found = _found(tournament_id)
    buffer = io.StringIO()
    buffer.write("\ufeff")
    writer = csv.writer(buffer)
    writer.writerow(
        [
            _("Place"),
            _("Entry"),
            _("Player"),
            _("Country"),
            _("Prize (%(currency)s)") % {"currency": tournament.currency},
            _("Deal (%(currency)s)") % {"currency": tournament.currency},
            _("Paid"),
        ]
    )
    for row in found.rows:
        player = row.entry.player
        writer.writerow(
            [
                place_text(*row.shared),
                row.entry.number,
                _text_cell(player.name),
                _text_cell(player.country),
                _plain(row.prize, tournament.currency),
                _plain(row.deal_amount, tournament.currency),
                _("yes") if row.paid is not None else _("no"),
            ]
        )
    response = HttpResponse(buffer.getvalue(), content_type="text/csv; charset=utf-8")
    return _attachment(response, _filename(tournament, "csv"))


# --- PDF ---------------------------------------------------------------------------------

# A font with the names of the whole field: the PDF's built-in Helvetica knows Western
# European letters only (Dvořák, Łukasz or Иван would print as blanks). DejaVu Sans is
# used where installed (Debian: fonts-dejavu-core); without it, Helvetica.
FONT_DIRS = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/local/share/fonts/dejavu"),
)
BUILT_IN_FONTS = ("Helvetica", "Helvetica-Bold")


@cache
def pdf_fonts() -> tuple[str, str]:
    """(regular, bold) font names for the PDF, registered with ReportLab once."""
    for folder in FONT_DIRS:
        regular, bold = folder / "DejaVuSans.ttf", folder / "DejaVuSans-Bold.ttf"
        if regular.is_file() and bold.is_file():
            try:
                pdfmetrics.registerFont(TTFont("FloormanSans", str(regular)))
                pdfmetrics.registerFont(TTFont("FloormanSans-Bold", str(bold)))
            except TTFError:
                continue
            return "FloormanSans", "FloormanSans-Bold"
    return BUILT_IN_FONTS


def _pdf_text(text: str) -> str:
    """Helvetica has no narrow no-break space (Babel uses it in some languages); an
    ordinary no-break space reads the same."""
    return text.replace("\u202f", "\u00a0")


def _escape(text: str) -> str:
    """Paragraphs read a little markup: a name with "<" or "&" must stay text."""
    return _pdf_text(escape(text))


def results_pdf_bytes(tournament: Tournament, found: Results) -> bytes:
    """A printable A4 document: title, date, the prize pool, and the results."""
    currency = tournament.currency
    totals = tournament_totals(tournament)
    table = found.table
    regular, bold = pdf_fonts()

    def cash(amount: int | None) -> str:
        return "" if amount is None else _pdf_text(money(amount, currency))

    styles = getSampleStyleSheet()
    title = ParagraphStyle("title", parent=styles["Title"], fontName=bold)
    heading = ParagraphStyle("heading", parent=styles["Heading2"], fontName=bold)
    cell = ParagraphStyle("cell", parent=styles["BodyText"], fontName=regular)
    buffer = io.BytesIO()
    document = SimpleDocTemplate(
        buffer,
        pagesize=A4,
        leftMargin=18 * mm,
        rightMargin=18 * mm,
        topMargin=18 * mm,
        bottomMargin=18 * mm,
        title=_("%(name)s: results") % {"name": tournament.name},
        author="Floorman",
        subject=_("Results"),
    )
    facts = [
        [_("Date"), date_format(timezone.localtime(tournament.start_at), "DATE_FORMAT")],
        [_("Prize pool"), cash(table.pool.total)],
        [_("Entries"), str(totals.total_buy_ins)],
        [_("Places paid"), str(table.places_paid)],
    ]
    if table.pool.guarantee:
        facts.insert(2, [_("Guarantee"), cash(table.pool.guarantee)])
    story = [
        Paragraph(_escape(tournament.name), title),
        Paragraph(_escape(_("Results")), heading),
        Table(
            facts,
            hAlign="LEFT",
            style=[("FONTNAME", (0, 0), (-1, -1), regular), ("FONTNAME", (0, 0), (0, -1), bold)],
        ),
        Spacer(1, 6 * mm),
    ]
    head = [_("Place"), _("Entry"), _("Player"), _("Country"), _("Prize"), _("Deal"), _("Paid")]
    rows = [head]
    for row in found.rows:
        player = row.entry.player
        rows.append(
            [
                place_text(*row.shared),
                f"#{row.entry.number}",
                Paragraph(_escape(player.name), cell),
                player.country,
                cash(row.prize),
                cash(row.deal_amount),
                _("yes") if row.paid is not None else _("no"),
            ]
        )
    if len(rows) == 1:
        story.append(Paragraph(_escape(_("No finishing places yet.")), cell))
    else:
        widths = [18 * mm, 16 * mm, None, 16 * mm, 30 * mm, 28 * mm, 14 * mm]
        results_table = LongTable(rows, colWidths=widths, repeatRows=1)
        results_table.setStyle(
            TableStyle(
                [
                    ("FONTNAME", (0, 0), (-1, -1), regular),
                    ("FONTNAME", (0, 0), (-1, 0), bold),
                    ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black),
                    ("LINEBELOW", (0, 1), (-1, -1), 0.25, colors.lightgrey),
                    ("ALIGN", (4, 0), (5, -1), "RIGHT"),
                    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ]
            )
        )
        story.append(results_table)
        if any(row.tied for row in found.rows):
            note = _(
                "A range such as 3–4: players out in the same hand share the prizes of "
                "those places in equal parts (RP-8 A)."
            )
            story += [Spacer(1, 4 * mm), Paragraph(_escape(note), cell)]
    document.build(story)
    return buffer.getvalue()


@role_required(ALL_ROLES)
@require_safe
def results_pdf(request, tournament_id: int):
    tournament, found = _found(tournament_id)
    response = HttpResponse(results_pdf_bytes(tournament, found), content_type="application/pdf")
    return _attachment(response, _filename(tournament, "pdf"))

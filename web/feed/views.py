"""The live-reporting feed's Atom feed and the results export for results databases
(issue 18, item 7), beside the public results page (/results/<id>/).

- /results/<id>/feed.atom: Atom (RFC 4287, Django's Atom1Feed): an entry for each of the
  latest eliminations (place and prize), each closed count sweep with its chip leaders
  (only where the house publishes chip counts), and the results once the event finished.
  Each entry has a tag: URI that stays the same however often the feed is read, and the
  time it last changed.
- /results/<id>/export.csv: one row per place of a finished event, in the columns a
  results database asks for: place, name, country, prize, currency, date, event. The
  column names, the ISO date and the plain decimal amounts do not change with the
  language; 404 until the event has finished (its places are not final before).

Public (the results page is), never contact data; cacheable like the JSON feed (a short
max-age and an ETag, 304 on If-None-Match); counted per address with the JSON feed
(`floorman.ratelimit.FEED`).
"""

import csv
import io
from datetime import datetime
from urllib.parse import urlsplit

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from django.utils.feedgenerator import Atom1Feed
from django.utils.html import escape
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from floorman.ratelimit import FEED, rate_limited
from prizes.exports import _plain as plain_amount  # the office export's cells: one home
from prizes.exports import _text_cell as text_cell
from prizes.selectors import Results, results
from tournaments.models import Tournament, TournamentStatus
from tournaments.templatetags.floorman_format import chips, money, place_text
from web.feed.api import cacheable
from web.feed.reads import (
    Bust,
    Feed,
    SweepLeaders,
    event_title,
    feed_read,
    series_public,
    sweeps_closed,
)

# The results export's columns: fixed names a results database maps once, in any language.
EXPORT_COLUMNS = ("place", "name", "country", "prize", "currency", "date", "event")


def _every_request(request) -> bool:
    return True


def _tournament(tournament_id: int) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("series"), pk=tournament_id)


# --- Atom -------------------------------------------------------------------------------


class EventAtomFeed(Atom1Feed):
    """Atom with a stable feed-level <updated>: the latest entry's time, or the event's
    creation while it has none (Django's default, now, would change on every read)."""

    def __init__(self, *args, quiet_since: datetime, **kwargs):
        super().__init__(*args, **kwargs)
        self.quiet_since = quiet_since

    def latest_post_date(self):
        dates = [item["updateddate"] for item in self.items if item["updateddate"]]
        return max(dates, default=self.quiet_since)


class TagUris:
    """Tag URIs (RFC 4151) for one event's feed: the site's host, the day the event was
    created, and a path naming the thing, so an entry keeps its id for as long as the
    site keeps its name."""

    def __init__(self, request, tournament: Tournament):
        host = urlsplit(request.build_absolute_uri("/")).hostname or "localhost"
        self.prefix = f"tag:{host},{tournament.created_at:%Y-%m-%d}:event/{tournament.pk}"

    def __call__(self, *parts) -> str:
        return "/".join([self.prefix, *map(str, parts)])


def _player_text(player: dict) -> str:
    country = f" ({player['country']})" if player["country"] else ""
    return f"{player['name']}{country}"


def _bust_title(bust: dict, currency: str) -> str:
    name = _player_text(bust["player"])
    if bust["place"] is None:
        return _("%(name)s is out") % {"name": name}
    shared = bust["place_shared"]
    place = place_text(*shared) if shared else str(bust["place"])
    if bust["prize"]:
        return _("%(name)s is out in place %(place)s (%(prize)s)") % {
            "name": name,
            "place": place,
            "prize": money(bust["prize"], currency),
        }
    return _("%(name)s is out in place %(place)s") % {"name": name, "place": place}


def _lines(lines: list[str]) -> str:
    """Text lines as the HTML of an entry's summary."""
    return "<br>".join(escape(line) for line in lines)


def _add_busts(atom: Atom1Feed, feed: Feed, busts: list[Bust], tag: TagUris, link: str) -> None:
    currency = feed.tournament.currency
    for bust, shown in zip(busts, feed.data["eliminations"], strict=True):
        title = _bust_title(shown, currency)
        atom.add_item(
            title=title,
            link=link,
            description=_lines([title]),
            unique_id=tag("elimination", bust.entry_id),
            updateddate=bust.at,
        )


def _add_sweeps(atom: Atom1Feed, sweeps: list[SweepLeaders], tag: TagUris, link: str) -> None:
    for sweep in sweeps:
        lines = [
            _("%(rank)s. %(name)s: %(chips)s")
            % {"rank": rank, "name": _player_text(player), "chips": chips(amount)}
            for rank, player, amount in sweep.leaders
        ]
        atom.add_item(
            title=_("Chip counts at level %(level)s") % {"level": sweep.level},
            link=link,
            description=_lines(lines or [_("No counts.")]),
            unique_id=tag("counts", sweep.sweep_id),
            updateddate=sweep.closed_at,
        )


RESULTS_SHOWN = 10  # places in the results entry beyond the paid ones (none paid: these)


def _add_results(atom: Atom1Feed, feed: Feed, tag: TagUris, link: str) -> None:
    if feed.finished_at is None:
        return
    currency = feed.tournament.currency
    rows = feed.data["results"]
    shown = [row for row in rows if row["prize"]] or rows[:RESULTS_SHOWN]
    lines = []
    for row in shown:
        place = place_text(*row["place_shared"]) if row["place_shared"] else str(row["place"])
        prize = f": {money(row['prize'], currency)}" if row["prize"] else ""
        lines.append(f"{place}. {_player_text(row['player'])}{prize}")
    atom.add_item(
        title=_("Results: %(event)s") % {"event": feed.data["event"]["title"]},
        link=link,
        description=_lines(lines or [_("No finishing places.")]),
        unique_id=tag("results"),
        updateddate=feed.finished_at,
    )


def feed_atom_bytes(request, tournament: Tournament) -> bytes:
    feed = feed_read(tournament)
    tag = TagUris(request, tournament)
    link = request.build_absolute_uri(reverse("results-public", args=[tournament.pk]))
    atom = EventAtomFeed(
        title=feed.data["event"]["title"],
        link=link,
        description=_("Eliminations, chip counts and results"),
        subtitle=_("Eliminations, chip counts and results"),
        language=get_language(),
        author_name=getattr(series_public(tournament), "venue", None),
        feed_url=request.build_absolute_uri(),
        feed_guid=tag(),
        quiet_since=tournament.created_at,
    )
    if atom.feed["author_name"] in (None, ""):
        atom.feed["author_name"] = "Floorman"  # RFC 4287: a feed names an author
    _add_results(atom, feed, tag, link)
    _add_busts(atom, feed, feed.busts, tag, link)
    _add_sweeps(atom, sweeps_closed(tournament), tag, link)
    atom.items.sort(key=lambda item: item["updateddate"], reverse=True)
    return atom.writeString("utf-8").encode()


@rate_limited(FEED, counts=_every_request)
@require_safe
def feed_atom(request, tournament_id: int):
    """The event's Atom feed, newest entry first."""
    tournament = _tournament(tournament_id)
    body = feed_atom_bytes(request, tournament)
    response = HttpResponse(body, content_type=Atom1Feed.content_type)
    return cacheable(request, response, body)


# --- The results export -----------------------------------------------------------------


def export_rows(tournament: Tournament, found: Results) -> list[list[str]]:
    """One row per place, best first, in EXPORT_COLUMNS: the results' own rows, with the
    spreadsheet-safe text and plain amounts of the office's export (prizes.exports)."""
    date = timezone.localdate(tournament.start_at).isoformat()
    event = text_cell(event_title(tournament))
    return [
        [
            place_text(*row.shared),
            text_cell(row.entry.player.name),
            text_cell(row.entry.player.country),
            plain_amount(row.prize, tournament.currency),
            tournament.currency,
            date,
            event,
        ]
        for row in found.rows
    ]


@rate_limited(FEED, counts=_every_request)
@require_safe
def results_export(request, tournament_id: int):
    """A finished event's places as CSV for a results database (UTF-8 with a BOM, so a
    spreadsheet reads the umlauts); 404 before the event has finished."""
    tournament = _tournament(tournament_id)
    if tournament.status != TournamentStatus.FINISHED:
        raise Http404(_("The results are exported once the event has finished."))
    buffer = io.StringIO()
    buffer.write("\ufeff")
    writer = csv.writer(buffer)
    writer.writerow(EXPORT_COLUMNS)
    writer.writerows(export_rows(tournament, results(tournament)))
    body = buffer.getvalue().encode()
    response = HttpResponse(body, content_type="text/csv; charset=utf-8")
    stem = slugify(tournament.name) or f"tournament-{tournament.pk}"
    response["Content-Disposition"] = content_disposition_header(True, f"{stem}-results.csv")
    return cacheable(request, response, body)

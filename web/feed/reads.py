"""What the live-reporting feed shows of an event (issue 18, item 7): the level in play,
the players left, the latest eliminations with their place and prize, the chip leaders
(only where the house publishes chip counts), the results, and the closed count sweeps
for the Atom feed.

Reads only, from each app's own selectors: the clock's public state, the places and the
prizes as the results page works them out (`prizes.selectors.results`, with
`hands.selectors.finishing_places` behind it), the chip standings
(`tournaments.selectors.chip_standings`) and what anyone may see of a player
(`player_public`). Nothing private: names, nicknames and countries, never contact data.
Nothing that ticks either (no seconds left, no server time): the same state gives the same
feed, so its ETag holds until something happens.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import F, OuterRef, Subquery, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from clock.selectors import clock_public_of, clock_row
from hands.models import Elimination
from payouts.selectors import payout_table
from prizes.models import Deal
from prizes.selectors import Result, Results, result_public, results
from tournaments.models import ChipCount, CountSweep, Tournament, TournamentStatus
from tournaments.selectors import (
    chip_standings,
    chips_in_play,
    player_public,
    tournament_totals,
)

FEED_ELIMINATIONS = 50  # the latest busts the feed lists, newest first
FEED_LEADERS = 10  # the chip leaders it lists
FEED_SWEEPS = 10  # the latest closed count sweeps the Atom feed shows, each with its leaders
MILLISECOND = timedelta(milliseconds=1)


def series_public(tournament: Tournament):
    """The event's series where the house publishes its schedule (`Series.public`)."""
    series = tournament.series
    return series if series is not None and series.public else None


def event_title(tournament: Tournament) -> str:
    """The event as a results database names it: "Vienna Poker Days #5: Main Event" in a
    public series with a number, "Vienna Poker Days: Main Event" in one without; a flight
    adds its name ("Main Event, 1A")."""
    name = tournament.name
    if tournament.parent_id and tournament.flight_name:
        name = f"{name}, {tournament.flight_name}"
    series = series_public(tournament)
    if series is None:
        return name
    number = f" #{tournament.series_number}" if tournament.series_number else ""
    return f"{series.name}{number}: {name}"


def event_public(tournament: Tournament) -> dict:
    series = series_public(tournament)
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "title": event_title(tournament),
        "series": {"name": series.name, "slug": series.slug} if series else None,
        "number": tournament.series_number if series else None,
        "flight": tournament.flight_name if tournament.parent_id else "",
        "start_at": tournament.start_at,
        # The day it started in the house's time zone: what a results database files.
        "start_date": timezone.localdate(tournament.start_at),
        "status": tournament.status,
        "currency": tournament.currency,
        "buy_in": tournament.buy_in,
        "fee": tournament.fee,
    }


def clock_feed(tournament: Tournament) -> dict:
    """The level in play and the next, and when it ends while the clock runs."""
    # Read at a whole number of milliseconds after the clock's anchor: the clock counts
    # whole milliseconds, so the level's end comes out the same on every read (read at
    # any other moment it moves by up to a millisecond, and with it the feed's ETag).
    row = clock_row(tournament.pk)
    now, anchor = timezone.now(), row.state.anchor
    if anchor is not None and now > anchor:
        now = anchor + MILLISECOND * ((now - anchor) // MILLISECOND)
    clock = clock_public_of(row, now, steps=False)
    return {
        "status": clock["status"],
        "level": clock["level"],
        "next_level": clock["next_level"],
        "ends_at": clock["ends_at"],
    }


def _big_blinds(chips: int, level: dict | None) -> float | None:
    if not level or level["is_break"] or not level["big_blind"]:
        return None
    return round(chips / level["big_blind"], 1)


def chip_counts_feed(tournament: Tournament, level: dict | None) -> dict | None:
    """The chip leaders, the players' stacks together and the average stack, in big
    blinds of the level in play too, and the chips in play (sold less removed,
    `tournaments.selectors.chips_in_play`: a removal of lost and found chips, TDA 64,
    lowers it though no stack held them); None where the house keeps chip counts to
    itself."""
    if not tournament.chip_counts_public:
        return None
    standings = chip_standings(tournament, limit=FEED_LEADERS)
    return {
        "players_left": standings.players_left,
        "chips": standings.chips,
        "chips_in_play": chips_in_play(tournament),
        "average": standings.average,
        "average_big_blinds": _big_blinds(standings.average, level),
        "leaders": [
            {
                "rank": leader.rank,
                "entry": leader.number,
                "player": leader.player,
                "chips": leader.chips,
                "big_blinds": _big_blinds(leader.chips, level),
                "counted_at": leader.counted_at,
                "counted_level": leader.counted_level,
            }
            for leader in standings.leaders
        ],
    }


@dataclass(frozen=True)
class Bust:
    """One elimination as the feed shows it: the entry's place and prize from the results
    (None and 0 where the event gives no places, as a flight's Day 1)."""

    entry_id: int
    at: datetime
    table: int | None
    row: Result | None


def latest_busts(tournament: Tournament, found: Results, *, limit: int = FEED_ELIMINATIONS):
    """The latest `limit` eliminations, newest first; one query."""
    by_entry = {row.entry_id: row for row in found.rows}
    latest = (
        Elimination.objects.filter(tournament=tournament)
        .order_by("-recorded_at", "-id")
        .values_list("entry_id", "recorded_at", "table_number")[:limit]
    )
    return [Bust(entry_id, at, table, by_entry.get(entry_id)) for entry_id, at, table in latest]


def bust_public(bust: Bust, entries: dict) -> dict:
    row = bust.row
    entry = row.entry if row else entries[bust.entry_id]
    return {
        "place": row.place if row else None,
        "place_shared": list(row.shared) if row and row.tied else None,
        "entry": entry.number,
        "player": player_public(entry.player),
        "prize": row.prize if row else 0,
        "table": bust.table,
        "at": bust.at,
    }


def _entries_of(tournament: Tournament, busts: list[Bust]) -> dict:
    """The entries of busts the results hold no row for (a flight's Day 1), with their
    players; no query when every bust has its row."""
    missing = [bust.entry_id for bust in busts if bust.row is None]
    if not missing:
        return {}
    found = tournament.entries.filter(pk__in=missing).select_related("player")
    return {entry.pk: entry for entry in found}


def finished_at(tournament: Tournament, busts: list[Bust]) -> datetime | None:
    """When a finished event ended: its last bust, or the deal that ended it."""
    if tournament.status != TournamentStatus.FINISHED:
        return None
    times = [bust.at for bust in busts[:1]]
    deal = Deal.objects.filter(tournament=tournament).values_list("created_at", flat=True).first()
    times += [deal] if deal else []
    return max(times, default=tournament.start_at)


@dataclass(frozen=True)
class Feed:
    tournament: Tournament
    data: dict  # the JSON feed's body (FeedSerializer)
    found: Results
    busts: list[Bust]
    finished_at: datetime | None


def feed_read(tournament: Tournament) -> Feed:
    """The whole feed: the same number of queries for 10 entries as for 10,000."""
    totals = tournament_totals(tournament)
    table = payout_table(tournament, totals)
    found = results(tournament, table)
    busts = latest_busts(tournament, found)
    entries = _entries_of(tournament, busts)
    clock = clock_feed(tournament)
    ended = finished_at(tournament, busts)
    data = {
        "event": event_public(tournament),
        "clock": clock,
        "entries": totals.total_buy_ins,
        "players_left": found.playing,
        "prize_pool": table.pool.total,
        "places_paid": table.places_paid,
        "finished": tournament.status == TournamentStatus.FINISHED,
        "finished_at": ended,
        "eliminations": [bust_public(bust, entries) for bust in busts],
        "chip_counts": chip_counts_feed(tournament, clock["level"]),
        "results": [_result_feed(row) for row in found.rows],
    }
    return Feed(tournament=tournament, data=data, found=found, busts=busts, finished_at=ended)


def _result_feed(row: Result) -> dict:
    public = result_public(row)
    return {
        "place": public["place"],
        "place_shared": public["place_shared"],
        "entry": public["entry"]["number"],
        "player": public["player"],
        "prize": public["prize"],
        "deal": public["deal"],
        "seat_won": public["seat_won"],
    }


# --- Count sweeps (the Atom feed) -------------------------------------------------------


@dataclass(frozen=True)
class SweepLeaders:
    sweep_id: int
    level: int
    closed_at: datetime
    leaders: list[tuple[int, dict, int]]  # (rank, player, chips), biggest first


def sweeps_closed(tournament: Tournament, *, limit: int = FEED_SWEEPS) -> list[SweepLeaders]:
    """The latest closed count sweeps, newest first, each with its FEED_LEADERS biggest
    counts; [] where the house keeps chip counts to itself. Two queries however many
    sweeps and counts."""
    if not tournament.chip_counts_public:
        return []
    sweeps = list(
        CountSweep.objects.filter(tournament=tournament, closed_at__isnull=False).order_by(
            "-closed_at", "-id"
        )[:limit]
    )
    if not sweeps:
        return []
    # A player counted twice in one sweep (a recount) is ranked by the last count.
    last = ChipCount.objects.filter(sweep=OuterRef("sweep"), entry=OuterRef("entry")).order_by(
        "-counted_at", "-id"
    )
    ranked = (
        ChipCount.objects.filter(sweep__in=sweeps, pk=Subquery(last.values("pk")[:1]))
        .annotate(
            rank=Window(
                RowNumber(),
                partition_by=[F("sweep_id")],
                order_by=[F("chips").desc(), F("entry__number").asc()],
            )
        )
        .filter(rank__lte=FEED_LEADERS)
        .select_related("entry__player")
        .order_by("sweep_id", "rank")
    )
    leaders: dict[int, list] = {sweep.pk: [] for sweep in sweeps}
    for count in ranked:
        leaders[count.sweep_id].append((count.rank, player_public(count.entry.player), count.chips))
    return [
        SweepLeaders(sweep.pk, sweep.level, sweep.closed_at, leaders[sweep.pk]) for sweep in sweeps
    ]

"""Chip leaders and a player's counts as the public sees them (issue 18): the lobby's
"leaders" layout, the public event page, the phone page and the API read them here.

A house that keeps its counts private (`Tournament.chip_counts_public` off) shows them
to its staff only: the public gets nothing (the API answers 404), not even a rank.
Stacks are also given in big blinds of the level in play (the clock's; during a break,
the level after it), as the lobby's average is.
"""

from django.urls import reverse

from clock.engine import big_blinds
from clock.selectors import big_blind_in_play
from floorman.roles import user_is_staff
from seating.views.public import entry_socket
from tournaments.models import Entry, EntryStatus, Tournament
from tournaments.selectors import chip_standings, entry_count_history, entry_rank

LEADERS_DEFAULT, LEADERS_MAX = 10, 50
CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 320, 120, 8


def counts_visible(tournament: Tournament, user) -> bool:
    """The public sees counts where the house publishes them; staff always."""
    return tournament.chip_counts_public or user_is_staff(user)


def leaders_data(tournament: Tournament, *, limit: int = LEADERS_DEFAULT) -> dict:
    """The chip leaders (top `limit`), the players left, the average stack, each in
    chips and in big blinds; four or five queries whatever the field's size."""
    standings = chip_standings(tournament, limit=limit)
    big_blind = big_blind_in_play(tournament)
    average = standings.average if standings.players_left else None
    return {
        "tournament": tournament.pk,
        "name": tournament.name,
        "players_left": standings.players_left,
        "chips": standings.chips,
        "average": average,
        "average_big_blinds": big_blinds(average, big_blind),
        "big_blind": big_blind,
        "leaders": [
            {
                "rank": row.rank,
                "entry": row.entry_id,
                "number": row.number,
                "player": row.player,
                "chips": row.chips,
                "big_blinds": big_blinds(row.chips, big_blind),
                "counted_at": row.counted_at,
                "counted_level": row.counted_level,
            }
            for row in standings.leaders
        ],
        "url": reverse("screens:leaders", kwargs={"tournament_id": tournament.pk}),
        "socket": f"/ws/tournaments/{tournament.pk}/",
    }


def count_chart(counts) -> dict | None:
    """A player's counts as an inline SVG polyline (chips by the time of the count, the
    level at each point): the points in the chart's box, the first and last time and the
    highest count; None before two counts (one point draws no line)."""
    counts = list(counts)
    if not counts:
        return None
    rows = [
        {"chips": c.chips, "level": c.level, "counted_at": c.counted_at, "x": 0.0, "y": 0.0}
        for c in counts
    ]
    if len(rows) < 2:
        return {"rows": rows, "points": "", "width": CHART_WIDTH, "height": CHART_HEIGHT}
    start = rows[0]["counted_at"].timestamp()
    span = (rows[-1]["counted_at"].timestamp() - start) or 1
    top = max(row["chips"] for row in rows) or 1
    inner_w, inner_h = CHART_WIDTH - 2 * CHART_PAD, CHART_HEIGHT - 2 * CHART_PAD
    for index, row in enumerate(rows):
        # Counts taken at one moment (a table's in one screen) spread by their order.
        at = (row["counted_at"].timestamp() - start) / span if span > 1 else index / (len(rows) - 1)
        row["x"] = round(CHART_PAD + at * inner_w, 1)
        row["y"] = round(CHART_PAD + (1 - row["chips"] / top) * inner_h, 1)
    return {
        "rows": rows,
        "points": " ".join(f"{row['x']},{row['y']}" for row in rows),
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "top": top,
    }


def entry_standing(entry: Entry) -> dict | None:
    """A player's own count on their page: chips, big blinds, rank among the players
    left (None once out) and the chart of their counts. Not checked for visibility:
    the caller asks `counts_visible` first."""
    history = entry_count_history(entry)
    if not history and entry.status != EntryStatus.ACTIVE:
        return None
    latest = history[-1] if history else None
    big_blind = big_blind_in_play(entry.tournament)
    return {
        "tournament": entry.tournament_id,
        "socket": entry_socket(entry.tournament_id, entry.pk),  # the page's one socket
        "chips": entry.chips,
        "big_blinds": big_blinds(entry.chips, big_blind)
        if entry.status == EntryStatus.ACTIVE
        else None,
        "rank": entry_rank(entry),
        "players_left": Entry.objects.filter(
            tournament_id=entry.tournament_id, status=EntryStatus.ACTIVE
        ).count(),
        "counted_at": latest.counted_at if latest else None,
        "counted_level": latest.level if latest else None,
        "chart": count_chart(history),
        "url": reverse(
            "tournaments:entry-count",
            kwargs={"tournament_id": entry.tournament_id, "number": entry.number},
        ),
    }

"""Public lobby screens: the clock, the numbers and the director's announcements;
hand-for-hand on the bubble (RP-8), the final table (RP-9), and once the event is over
its winner and results instead of a clock (issue 16).

A page embeds the full state (`clock_public` and `lobby_data`) so that it is right
before its websocket connects; static/js/clock.js then derives the countdown on every
frame from that state and the offset to server time, rolls over into the next levels
by itself, and resyncs from the API whenever its socket (re)connects. Nothing here
ticks. Public and read-only: no contact data, ever.

Issue 20: one event's lobby and its data answer from what is kept at the versions of its
numbers (`lobby_numbers_at`), with no query: the page is rendered once per version and
state of the clock by each process, and the moment's values are put in at each request
(`lobby_shared`).
"""

import json
import re
import secrets
from collections import Counter
from decimal import Decimal
from typing import NamedTuple

from babel.numbers import format_decimal
from django.db.models import Q
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from clock import cache as clock_cache
from clock.engine import big_blinds
from clock.selectors import (
    ClockRow,
    announcements_public,
    clock_public_of,
    clock_row,
    measuring_big_blind,
)
from floorman.versions import SCREENS, local_cached, screen_cached_at
from hands.selectors import entry_bounties, h4h_now, mystery_left, mystery_prizes
from payouts.engine.payouts import place_groups
from payouts.selectors import payout_table
from prizes.selectors import results
from seating.selectors import final_table
from seating.views.public import side_board
from tournaments.models import BountyFormat, Entry, Series, Tournament, TournamentStatus
from tournaments.selectors import Totals, chips_in_play, flights_flagged, tournament_totals
from tournaments.templatetags.festival import festival_view
from tournaments.templatetags.floorman_format import babel_locale, chips, money, place_text
from web.screens.leaders import leaders_data

LAYOUTS = ("clock", "payouts", "seating", "bounties", "leaders")
ROTATE_MAX = 12
LEADERS_LOBBY = 10  # the chip leaders a TV shows beside the clock
EVERY_MIN, EVERY_MAX, EVERY_DEFAULT = 10, 300, 20  # seconds per tournament
ID_DIGITS = 18  # as the "id" path converter
# TDA 23: how long a screen says that the new level applies from the next hand.
NEW_LEVEL_NOTICE_SECONDS = 60
# A TV shows the top of the payout table; the desk has the rest.
PAYOUT_GROUPS_MAX = 30
# At the end, the places paid (as many as a TV holds), or the first three if none are.
RESULTS_MAX = 30
RESULTS_UNPAID = 3
OVER = (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)
# Issue 18: a PKO's biggest bounties left, as many as a TV's side panel holds.
BOUNTIES_MAX = 12


# As django.utils.html.json_script escapes JSON in a script element.
JSON_SCRIPT_ESCAPES = {ord(">"): "\\u003E", ord("<"): "\\u003C", ord("&"): "\\u0026"}
# The lobby's numbers hold the clock's row: they depend on both versions.
NUMBERS_KINDS = (SCREENS, clock_cache.KIND)
# Part of the numbers' key: numbers kept in another shape by an older release are not read.
NUMBERS_FORMAT = 2


# --- Numbers ------------------------------------------------------------------------


def average_stack(chips_in_play: int, active: int) -> int | None:
    """Chips in play over the entries still in, half up to a whole chip; None when
    nobody is in. Busted players' chips stay in play: the winners hold them."""
    if active <= 0:
        return None
    return (2 * chips_in_play + active) // (2 * active)


def payout_groups(amounts) -> list[tuple[int, int, int]]:
    """Consecutive places that pay the same, as (first, last, amount), best first;
    places that pay nothing are left out."""
    return [group for group in place_groups(amounts) if group[2] > 0]


def payouts_lobby(tournament: Tournament, totals: Totals) -> dict:
    """The payout table as a TV shows it: grouped, the first groups only, formatted."""
    table = payout_table(tournament, totals)
    groups = payout_groups(table.amounts)
    return {
        "places_paid": table.places_paid,
        "locked": table.locked,
        "lines": [
            {
                "first": first,
                "last": last,
                "amount": amount,
                "text": money(amount, tournament.currency),
            }
            for first, last, amount in groups[:PAYOUT_GROUPS_MAX]
        ],
        "more": len(groups) > PAYOUT_GROUPS_MAX,
    }


def hand_for_hand_lobby(tournament: Tournament) -> dict | None:
    """RP-8 while it is played: the hand (round), the tables still playing it, those
    all-in waiting to show down, the players left and the places paid (the bubble).
    The same shape as the live event hand_for_hand.updated, which a screen applies."""
    if tournament.status != TournamentStatus.RUNNING:
        return None
    return h4h_now(tournament)


def end_lobby(tournament: Tournament) -> dict | None:
    """Once play or a deal has finished the event: its winner and its results, from the
    results the cashier pays (places shared by players out in one hand show as
    "44–46", IFP 4.27, with their split prize)."""
    if tournament.status != TournamentStatus.FINISHED:
        return None
    found = results(tournament)
    winners = [row for row in found.rows if row.place == 1]
    shown = [row for row in found.rows if row.prize > 0][:RESULTS_MAX]
    deal = found.deal is not None and found.deal.ends_tournament
    return {
        "winner": ", ".join(row.entry.player.name for row in winners),
        "deal": len(found.deal.shares.all()) if deal else 0,
        "results": [
            {
                "place": place_text(*row.shared),
                "name": row.entry.player.name,
                "prize": money(row.prize, tournament.currency) if row.prize else "",
            }
            for row in shown or found.rows[:RESULTS_UNPAID]
        ],
    }


def bounties_lobby(tournament: Tournament) -> dict | None:
    """Issue 18, the bounties as a TV shows them: a knockout event's fixed bounty; a
    progressive knockout's biggest bounties left, on the heads of the players still in
    (names as the house publishes them); a mystery bounty event's sealed bounties still
    in the draw (how many of each amount, largest first) and whether drawing has begun.
    None for an event without bounties, and once it is over. Knockouts come with busts,
    whose events (entry.updated) make the screen fetch this again."""
    kind = tournament.bounty_format
    if not kind or tournament.status in OVER:
        return None
    currency = tournament.currency
    data = {"format": kind, "label": "", "fact": "", "title": "", "lines": [], "note": ""}
    if kind == BountyFormat.KNOCKOUT:
        data.update(
            label=_("Bounty"),
            fact=money(tournament.bounty, currency),
            title=_("Bounty on every head"),
            note=_("Whoever knocks a player out wins their bounty, paid at the cage."),
        )
        data["lines"] = [[_("Every player"), money(tournament.bounty, currency)]]
        return data
    if kind == BountyFormat.PROGRESSIVE:
        heads = entry_bounties(tournament)
        top = sorted(heads.items(), key=lambda item: (-item[1], item[0]))[:BOUNTIES_MAX]
        names = dict(
            Entry.objects.filter(pk__in=[entry_id for entry_id, _amount in top]).values_list(
                "pk", "player__name"
            )
        )
        data.update(
            label=_("Biggest bounty"),
            fact=money(top[0][1], currency) if top else "",
            title=_("Biggest bounties left"),
            note=_(
                "Progressive knockout: part of a bounty won is paid, the rest goes on the "
                "winner's own head."
            ),
        )
        data["lines"] = [[names[entry_id], money(amount, currency)] for entry_id, amount in top]
        return data
    published = mystery_prizes(tournament)
    left = mystery_left(tournament)
    begun = bool(tournament.mystery_seed) or len(left) < len(published)
    data.update(
        label=_("Mystery bounties left"),
        fact=chips(len(left)),
        title=_("Mystery bounties in the draw"),
        begun=begun,
        note=(
            _("Every elimination now draws a sealed bounty.")
            if begun
            else _("Drawing has not begun: %(start)s.")
            % {"start": tournament.get_mystery_start_display()}
        ),
    )
    counted = sorted(Counter(left).items(), reverse=True)
    data["lines"] = [
        [_("%(count)s ×") % {"count": chips(count)}, money(amount, currency)]
        for amount, count in counted
    ]
    return data


def bounty_pool_lobby(tournament: Tournament, totals) -> dict | None:
    """The bounty pool beside the prize pool (issue 18): the bounty money taken with the
    buy-ins and re-entries, never part of the prize pool. None for an event without."""
    if not tournament.bounty_format and not totals.bounty.collected:
        return None
    amount = totals.bounty.collected
    return {"amount": amount, "text": money(amount, tournament.currency)}


class LobbyNumbers(NamedTuple):
    row: ClockRow  # the clock's, read again at each request (clock_public_of)
    numbers: dict  # _lobby_state
    alone: bool  # neither a flight nor an event with flights: nothing shown of another


def lobby_numbers_at(tournament_id: int) -> tuple[tuple[str, ...] | None, LobbyNumbers | None]:
    """The clock's row and what the lobby shows beyond the clock (its numbers), built
    once per version and language and shared by every process (issue 20), with the
    versions they are filed at (floorman.versions.screen_cached_at). Both versions: the
    screens' (every change to the tournament renews it, floorman.versions) and the
    clock's (every change of the clock, its structure's edits too: clock.cache). None: no
    such tournament. The time is left out: the clock is read from its row at each
    request."""

    def build() -> LobbyNumbers | None:
        # Whether it has flights comes with the row; a flight added later takes its
        # event's lock, which renews the event's version.
        found = flights_flagged(Tournament.objects.filter(pk=tournament_id)).first()
        if found is None:
            return None
        alone = found.parent_id is None and not found.has_flights
        return LobbyNumbers(clock_row(found.pk), _lobby_state(found), alone)

    key = f"lobby:{NUMBERS_FORMAT}:{tournament_id}:{get_language()}"
    return screen_cached_at(key, tournament_id, build, kinds=NUMBERS_KINDS)


def lobby_numbers(tournament_id: int) -> LobbyNumbers | None:
    """lobby_numbers_at without the versions."""
    return lobby_numbers_at(tournament_id)[1]


def lobby_with_clock(numbers: dict, clock: dict) -> dict:
    """The lobby's numbers with the average in the big blind of the level in play, which
    the clock rolls into by itself."""
    big_blind = measuring_big_blind(clock)
    stack = {**numbers["average_stack"], "big_blind": big_blind}
    stack["big_blinds"] = big_blinds(numbers["average_stack"]["chips"], big_blind)
    return {**numbers, "average_stack": stack}


def lobby_data(tournament: Tournament, clock: dict) -> dict:
    """What a lobby screen shows beyond the clock: counts, money, average stack; the
    stage of play (hand-for-hand, the final table) and the end."""
    found = lobby_numbers(tournament.pk)
    numbers = found.numbers if found is not None else _lobby_state(tournament)
    return lobby_with_clock(numbers, clock)


def _lobby_state(tournament: Tournament) -> dict:
    """lobby_data from the database, the clock's part left out."""
    totals = tournament_totals(tournament)
    pool = totals.prize_pool
    # The deal's count too (TDA 71-D: a disqualified player's chips leave play).
    average = average_stack(chips_in_play(tournament, totals), totals.active)
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "status": tournament.status,
        "entries": totals.total_buy_ins,
        "unique_entries": totals.entries,
        "reentries": totals.reentries,
        "rebuys": totals.rebuys,
        "addons": totals.addons,
        "active": totals.active,
        "prize_pool": {
            "amount": pool.total,
            "currency": tournament.currency,
            "text": money(pool.total, tournament.currency),
            "guarantee": pool.guarantee,
        },
        # Issue 18: the bounty money, apart from the prize pool (None without bounties).
        "bounty_pool": bounty_pool_lobby(tournament, totals),
        "average_stack": {
            "chips": average,
            "text": chips(average) if average is not None else "—",
        },
        # The table follows the pool while money comes in: entry events refresh it too.
        "payouts": payouts_lobby(tournament, totals),
        "announcements": announcements_public(tournament),
        "hand_for_hand": hand_for_hand_lobby(tournament),
        "final_table": (
            final_table(tournament.pk) if tournament.status == TournamentStatus.RUNNING else None
        ),
        "end": end_lobby(tournament),
        "bounties": bounties_lobby(tournament),
    }


# --- What the page says before its script runs ----------------------------------------


_strings_of: dict[str, dict[str, str]] = {}  # language -> screen_strings


def screen_strings() -> dict[str, str]:
    """Every text clock.js shows, translated; %(name)s placeholders filled in there.
    Translated once per language and process (a lobby page asks at every request)."""
    language = get_language()
    strings = _strings_of.get(language)
    if strings is None:
        strings = _strings_of[language] = _screen_strings()
    return strings


def _screen_strings() -> dict[str, str]:
    return {
        "level": _("Level %(number)s"),
        "break": _("Break"),
        "bets": _("Bets %(small)s / %(big)s"),
        "ante": _("Ante %(ante)s"),
        "big_blind_ante": _("Big blind ante %(ante)s"),
        "minutes": _("%(minutes)s min"),
        "no_structure": _("No blind structure yet"),
        "status_not_started": _("Starts soon"),
        "status_paused": _("Clock paused"),
        "status_finished": _("Tournament finished"),
        "players": _("%(active)s left of %(entries)s"),
        "average": _("%(chips)s · %(big_blinds)s BB"),
        "rotation": _("%(index)s of %(count)s"),
        "new_level": _("New level: the new blinds apply from the next hand (TDA 23)"),
        "hold_push": _("Dealers: hold the push, the level changes soon (RP-7)"),
        "hold_push_break": _("Dealers: hold the push, the break starts soon (RP-7)"),
        "break_ending": _("Play resumes soon: please return to your seats"),
        "chip_race": _(
            "Colour-up (TDA 24): the %(chips)s chips come off. Odd chips are raced off "
            "with cards dealt from seat 1; nobody wins more than one chip, and nobody is "
            "raced out of the tournament."
        ),
        "addon": _("Add-ons are on sale during this break"),
        # JS picks the form by number; these two cover English and German.
        "day_end_one": ngettext(
            "End of the day (casino §28): %(hands)s hand remains at every table",
            "End of the day (casino §28): %(hands)s hands remain at every table",
            1,
        ),
        "day_end_other": ngettext(
            "End of the day (casino §28): %(hands)s hand remains at every table",
            "End of the day (casino §28): %(hands)s hands remain at every table",
            2,
        ),
        "last_level": _("Last level"),
        "places_paid": _("Places paid: %(count)s"),
        # The stage of play and the end (issue 16).
        "status_cancelled": _("Tournament cancelled"),
        "status_h4h": _("Hand-for-hand"),
        "final_table": _("Final table"),
        "h4h_round_zero": _("Finishing the hand in play (RP-8 A)"),
        "h4h_hand": _("Hand-for-hand hand %(number)s"),
        "h4h_playing": _("Tables still playing the hand: %(tables)s"),
        "h4h_held": _("All-in, waiting to show down: %(tables)s (RP-8 F)"),
        "h4h_bubble": _("The bubble: %(left)s players left, %(paid)s places paid"),
        "winner": _("Winner: %(name)s"),
        "deal_end": _("The last %(count)s players made a deal (casino §6)."),
    }


def _duration(ms: int) -> str:
    """As clock.js formatDuration: whole seconds rounded up, "09:59" or "1:05:00"."""
    seconds = max(0, -(-ms // 1000))
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{seconds:02d}"
    return f"{minutes:02d}:{seconds:02d}"


def _blinds(step: dict | None, strings: dict) -> str:
    if not step or step["is_break"]:
        return ""
    if step["small_bet"] or step["big_bet"]:
        return strings["bets"] % {"small": chips(step["small_bet"]), "big": chips(step["big_bet"])}
    return f"{chips(step['small_blind'])} / {chips(step['big_blind'])}"


def _ante(step: dict | None, strings: dict) -> str:
    if not step or step["is_break"]:
        return ""
    if step["big_blind_ante"]:
        return strings["big_blind_ante"] % {"ante": chips(step["big_blind_ante"])}
    if step["ante"]:
        return strings["ante"] % {"ante": chips(step["ante"])}
    return ""


def _title(step: dict | None, strings: dict) -> str:
    if not step:
        return strings["no_structure"]
    if step["is_break"]:
        return step["label"] or strings["break"]
    title = strings["level"] % {"number": step["number"]}
    return f"{title} · {step['game']}" if step["game"] else title


def _notices(clock: dict, strings: dict) -> list[str]:
    """The notices that follow from the state alone; clock.js adds the timed ones
    (RP-7 hold the push, TDA 23 new level) as they happen."""
    step = clock["level"]
    notices = []
    if not step:
        return notices
    if step["is_break"] and step["color_up"]:
        denominations = ", ".join(chips(c) for c in step["color_up"])
        notices.append(strings["chip_race"] % {"chips": denominations})  # TDA 24
    if step["is_break"] and step["addon"]:
        notices.append(strings["addon"])
    hands = clock["day_end_hands"]
    if hands:
        key = "day_end_one" if hands == 1 else "day_end_other"
        notices.append(strings[key] % {"hands": hands})  # casino §28
    if clock["last_level"] and not step["is_break"] and clock["status"] != "finished":
        notices.append(strings["last_level"])
    return notices


def _places(line: dict) -> str:
    """As clock.js placesText: "1", or "10–12" for places that pay the same."""
    if line["first"] == line["last"]:
        return chips(line["first"])
    return f"{chips(line['first'])}–{chips(line['last'])}"


def _tables(numbers) -> str:
    return ", ".join(chips(number) for number in numbers)


def stage_texts(lobby: dict, strings: dict) -> dict:
    """As clock.js stageFields: hand-for-hand's panel (RP-8), the final table (RP-9),
    and at the end the winner and results in place of the clock and the numbers."""
    over = lobby["status"] in OVER
    h4h = None if over else lobby.get("hand_for_hand")
    end = lobby.get("end") or {}
    if h4h is None:
        hand = playing = held = bubble = ""
    else:
        hand = (
            strings["h4h_round_zero"]
            if h4h["round"] == 0
            else strings["h4h_hand"] % {"number": chips(h4h["round"])}
        )
        playing = strings["h4h_playing"] % {"tables": _tables(h4h["playing"])}
        held = strings["h4h_held"] % {"tables": _tables(h4h["held"])} if h4h["held"] else ""
        bubble = strings["h4h_bubble"] % {
            "left": chips(h4h["players_left"]),
            "paid": chips(h4h["places_paid"]),
        }
    return {
        "over": over,
        "end": over,  # the panel with the winner and results
        "stage": strings["final_table"] if lobby.get("final_table") and not over else "",
        "h4h": h4h is not None,
        "h4h_hand": hand,
        "h4h_playing": playing if h4h and h4h["playing"] else "",
        "h4h_held": held,
        "h4h_bubble": bubble,
        "winner": strings["winner"] % {"name": end["winner"]} if end.get("winner") else "",
        "end_note": strings["deal_end"] % {"count": end["deal"]} if end.get("deal") else "",
        "results": [(row["place"], row["name"], row["prize"]) for row in end.get("results", [])],
    }


def moment_texts(clock: dict) -> dict:
    """The texts that change with every second: the time left and the time to the break."""
    to_break = clock["seconds_to_break"]
    return {
        "clock": _duration(clock["ms_left"]) if clock["level"] else "",
        "to_break": "—" if to_break is None else _duration(to_break * 1000),
    }


def first_paint(board: dict, strings: dict) -> dict:
    """The texts of the first board, so the page reads right before clock.js runs."""
    clock, lobby = board["clock"], board["lobby"]
    step, upcoming = clock["level"], clock["next_level"]
    average = lobby["average_stack"]
    if upcoming and upcoming["is_break"]:
        minutes = strings["minutes"] % {"minutes": upcoming["minutes"]}
        next_text = f"{upcoming['label'] or strings['break']} · {minutes}"
    elif upcoming:
        ante = _ante(upcoming, strings)
        next_text = _blinds(upcoming, strings) + (f" · {ante}" if ante else "")
    else:
        next_text = strings["last_level"] if step else "—"
    if average["big_blinds"] is None:
        average_text = average["text"]
    else:
        average_text = strings["average"] % {
            "chips": average["text"],
            "big_blinds": format_decimal(
                Decimal(str(average["big_blinds"])), locale=babel_locale()
            ),
        }
    payouts = lobby["payouts"]
    paid = payouts["places_paid"] if payouts else 0
    stage = stage_texts(lobby, strings)
    if stage["over"]:
        status = strings[f"status_{lobby['status']}"]
    elif stage["h4h"]:
        status = strings["status_h4h"]  # its clock is paused: each hand takes its time off
    else:
        status = strings.get(f"status_{clock['status']}", "")
    return {
        **stage,
        "status": status,
        "level_title": _title(step, strings),
        **moment_texts(clock),
        "blinds": _blinds(step, strings),
        "ante": _ante(step, strings),
        "next": next_text,
        "players": strings["players"]
        % {"active": chips(lobby["active"]), "entries": chips(lobby["entries"])},
        "average": average_text,
        "notices": _notices(clock, strings),
        "places_paid": chips(paid) if paid else "",
        "payouts_places": strings["places_paid"] % {"count": chips(paid)} if paid else "",
        "payouts_lines": [(_places(line), line["text"]) for line in payouts["lines"]]
        if payouts
        else [],
    }


# --- Pages ---------------------------------------------------------------------------


def board_data(tournament: Tournament) -> dict:
    """One tournament on a screen: its state, and where to resync it from."""
    found = lobby_numbers(tournament.pk)
    if found is None:  # gone since the caller read it
        raise Http404(_("No such tournament."))
    return board_of(tournament.pk, found, clock_public_of(found.row))


def board_of(tournament_id: int, found: LobbyNumbers, clock: dict) -> dict:
    """board_data from the tournament's numbers and its clock at this moment."""
    return {
        "id": tournament_id,
        "clock": clock,
        "lobby": lobby_with_clock(found.numbers, clock),
        "urls": {
            "clock": reverse("clock", kwargs={"tournament_pk": tournament_id}) + "?steps=1",
            "data": reverse("screens:data", kwargs={"tournament_id": tournament_id}),
            "socket": f"/ws/tournaments/{tournament_id}/",  # web.asgi routes it
        },
    }


def _layout(request) -> str:
    layout = request.GET.get("layout", "")
    return layout if layout in LAYOUTS else "clock"


def _screen(
    request, template: str, boards: list[dict], *, every: int | None, extra: dict | None = None
):
    return render(request, template, _screen_context(request, boards, every=every, extra=extra))


def _screen_context(
    request, boards: list[dict], *, every: int | None, extra: dict | None = None
) -> dict:
    config = _screen_config(request, boards, every=every, extra=extra)
    return {
        "config": config,
        "layout": config["layout"],
        "board": boards[0],
        "lobby": boards[0]["lobby"],
        "text": first_paint(boards[0], config["strings"]),
        "count": len(boards),
        **(extra or {}),
    }


def _screen_config(
    request, boards: list[dict], *, every: int | None, extra: dict | None = None
) -> dict:
    """What clock.js starts from (the page's "lobby-config")."""
    layout = _layout(request)
    if layout == "leaders" and not (extra or {}).get("leaders"):
        layout = "clock"  # the leaders show on one event's screen, not a rotating one
    return {
        "boards": boards,
        "every": every,
        "layout": layout,
        "notice_seconds": NEW_LEVEL_NOTICE_SECONDS,
        "strings": screen_strings(),
    }


# --- One event's lobby, rendered once per version (issue 20) --------------------------

# The layouts that show nothing but the event's numbers and clock: their page is rendered
# once per version of both and per state of the clock (its status and level), by each
# process, and only the moment's values are put in at each request (`MOMENT`).
SHARED_LAYOUTS = ("clock", "payouts", "bounties")
# The clock's values that change with every second, in the state clock.js starts from.
CLOCK_MOMENT = ("seconds_left", "ms_left", "ends_at", "seconds_to_break", "server_time")
# Stand-ins for the moment's values in the rendered page: the texts of the time left and
# of the time to the break, and CLOCK_MOMENT. Random: no name a director types holds one.
MOMENT_TEXTS = ("clock", "to_break")
MOMENT = {name: f"moment-{name}-{secrets.token_hex(16)}" for name in (*MOMENT_TEXTS, *CLOCK_MOMENT)}


def clock_state(clock: dict) -> str:
    """What a page shows of the clock beyond the moment's values: its status and the
    level in play (which a running clock rolls into by itself, with no new version)."""
    return f"{clock['status']}:{(clock['level'] or {}).get('position')}"


def lobby_shared(request, tournament_id: int) -> HttpResponse | None:
    """The lobby page of an event that stands alone, in a layout of SHARED_LAYOUTS: the
    page this process rendered at the versions of its numbers and at the clock's state,
    with the moment's values put in; no query when both are kept. None: not such an event
    (the caller renders the page whole). Never stale: a change renews a version
    (floorman.versions), and a new level or a pause changes the clock's state; either
    names another page."""
    versions, found = lobby_numbers_at(tournament_id)
    if found is None:
        raise Http404(_("No such tournament."))
    if not found.alone:
        return None
    now = timezone.now()  # one reading: the page's state is the moment's
    clock = clock_public_of(found.row, now, steps=False)
    key = f"lobby-page:{tournament_id}:{get_language()}:{_layout(request)}:{clock_state(clock)}"
    parts = local_cached(
        key, versions, lambda: _page_with_stand_ins(request, tournament_id, found, now)
    )
    return HttpResponse(_moment_put(parts, clock))


def _page_with_stand_ins(
    request, tournament_id: int, found: LobbyNumbers, now
) -> tuple[list[str], list[str]]:
    """The lobby page cut where the moment's values go (MOMENT): its parts between them,
    and which value goes after each part but the last."""
    clock = clock_public_of(found.row, now)
    stood = {**clock, **{name: MOMENT[name] for name in CLOCK_MOMENT}}
    context = _screen_context(
        request, [board_of(tournament_id, found, clock)], every=None, extra={"festival": None}
    )
    context["text"] = {**context["text"], "clock": MOMENT["clock"], "to_break": MOMENT["to_break"]}
    context["config"] = _screen_config(request, [board_of(tournament_id, found, stood)], every=None)
    page = render_to_string("clock/lobby.html", context, request)
    # JSON writes a stand-in as a string: its quotes go with it.
    found_at = re.compile(
        "|".join(f'"{MOMENT[name]}"' for name in CLOCK_MOMENT)
        + "|"
        + "|".join(MOMENT[name] for name in MOMENT_TEXTS)
    )
    by_stand_in = {value: name for name, value in MOMENT.items()}
    parts, names = [], []
    start = 0
    for match in found_at.finditer(page):
        parts.append(page[start : match.start()])
        names.append(by_stand_in[match.group(0).strip('"')])
        start = match.end()
    parts.append(page[start:])
    return parts, names


def _moment_put(parts: tuple[list[str], list[str]], clock: dict) -> str:
    """The page with the moment's values put in: the texts as the template escapes them,
    the clock's values as json_script writes them."""
    texts, names = parts
    values = {name: escape(text) for name, text in moment_texts(clock).items()}
    for name in CLOCK_MOMENT:
        values[name] = json.dumps(clock[name]).translate(JSON_SCRIPT_ESCAPES)
    out = [texts[0]]
    for name, text in zip(names, texts[1:], strict=True):
        out += (values[name], text)
    return "".join(out)


# --- An event with flights (issue 17) -------------------------------------------------

# What changes the event's counts, heard on the event's socket: its flights' changes come
# as "overview.changed" (floorman.live), its own are Day 2's entries. A flight's lobby
# listens there too: the event's total changes with every flight.
EVENT_CHANGES = "overview.changed entry.registered entry.updated"


def festival_lobby(tournament: Tournament, *, rotation: bool = False) -> dict | None:
    """A flight's lobby names its event and shows the flight's entries and the event's in
    all; an event's lobby, until Day 2 begins, its flights (entries, survivors) and the
    chip leaders from the bags. Where the screen fetches it again when told
    (static/js/festival.js: one fetch, no polling). On a rotating screen (`rotation`)
    each event's part has an id of its own and shows with its clock (clock.js)."""
    festival = festival_view(tournament, event_totals=True)
    if festival is None:
        return None
    overview = festival.get("overview")
    if overview is not None and overview["day2"] is not None:
        return None  # Day 2's lobby is the event's own: the clock and its field
    event_id = tournament.parent_id or tournament.pk
    url = reverse("screens:festival", kwargs={"tournament_id": tournament.pk})
    return {
        **festival,
        "part": f"festival-{tournament.pk}" if rotation else "festival",
        "rotation_of": tournament.pk if rotation else None,
        "url": url + "?rotation=1" if rotation else url,
        "socket": f"/ws/tournaments/{event_id}/",  # web.asgi routes it
        "kinds": EVENT_CHANGES,
    }


def festivals_rotating(tournaments: list[Tournament]) -> list[dict]:
    """The flights panels of a rotating screen's events with flights (`has_flights`
    annotated: nothing asked of the others), each hidden until its clock shows."""
    festivals = []
    for index, tournament in enumerate(tournaments):
        if tournament.parent_id is not None:
            continue  # a flight's own part names its event: the single lobby's
        festival = festival_lobby(tournament, rotation=True)
        if festival is not None:
            festivals.append({**festival, "hidden": index > 0})
    return festivals


@never_cache
@require_safe
def lobby_festival(request, tournament_id: int):
    """The lobby's festival part again, for its screen to swap in (public HTML)."""
    tournament = get_object_or_404(flights_flagged(Tournament.objects.all()), pk=tournament_id)
    festival = festival_lobby(tournament, rotation=request.GET.get("rotation") == "1")
    return render(request, "clock/_festival.html", {"festival": festival})


@never_cache
@require_safe
def lobby(request, tournament_id: int):
    """One tournament, full screen; ?layout=clock|payouts|seating. The seating layout
    shows the seating board beside the clock (static/js/seats.js keeps it live). A flight
    names its event; an event with flights shows them beside the clock (issue 17)."""
    if _layout(request) in SHARED_LAYOUTS:
        page = lobby_shared(request, tournament_id)
        if page is not None:
            return page
    # Whether it has flights comes with the row: no query more for an event without.
    tournament = get_object_or_404(flights_flagged(Tournament.objects.all()), pk=tournament_id)
    extra = {"festival": festival_lobby(tournament)}
    if _layout(request) == "seating":  # ?columns=2&rows=16&every=10 size the board
        extra["seatings"] = [side_board(tournament, request.GET)]
    if _layout(request) == "leaders":  # issue 18: the chip leaders beside the clock
        extra["leaders"] = leaders_lobby(tournament)
    return _screen(request, "clock/lobby.html", [board_data(tournament)], every=None, extra=extra)


# --- Chip leaders (issue 18) ----------------------------------------------------------

# What changes the leaders, heard on the tournament's socket: a count, a bust or a sale,
# a hand's result (its table's event), a new level (the big blinds).
LEADERS_CHANGES = "counts.updated entry.updated entry.registered table.updated clock.level"


def leaders_lobby(tournament: Tournament) -> dict:
    """The lobby's chip leaders part (static/js/festival.js fetches it again when told);
    a house that keeps its counts private shows that it does, and no counts."""
    if not tournament.chip_counts_public:
        return {"private": True}
    return {**leaders_data(tournament, limit=LEADERS_LOBBY), "kinds": LEADERS_CHANGES}


@never_cache
@require_safe
def lobby_leaders(request, tournament_id: int):
    """The lobby's chip leaders part again, for its screen to swap in (public HTML)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    return render(request, "clock/_leaders.html", {"leaders": leaders_lobby(tournament)})


@never_cache
@require_safe
def lobby_data_view(request, tournament_id: int):
    """What the lobby shows beyond the clock, for a screen's resync (public JSON): from
    the shared cache, no query, while the tournament is unchanged (issue 20)."""
    versions, found = lobby_numbers_at(tournament_id)
    if found is None:
        raise Http404(_("No such tournament."))
    clock = clock_public_of(found.row, steps=False)
    # Nothing in it changes with the moment: its JSON is written once per version and
    # state of the clock (the average's big blind is the level's), by each process.
    key = f"lobby-data:{tournament_id}:{get_language()}:{clock_state(clock)}"
    body = local_cached(
        key, versions, lambda: JsonResponse(lobby_with_clock(found.numbers, clock)).content
    )
    return HttpResponse(body, content_type="application/json")


def rotation_query(query) -> tuple[list[int], int]:
    """?t=1,2,3&every=20 → ([1, 2, 3], 20); ValueError with the reason when malformed."""
    parts = [p.strip() for p in query.get("t", "").split(",")]
    if parts == [""]:
        raise ValueError(_("Say which tournaments to show: ?t=1,2,3"))
    if len(parts) > ROTATE_MAX:
        raise ValueError(_("At most %(max)s tournaments per screen.") % {"max": ROTATE_MAX})
    if not all(p.isascii() and p.isdigit() and len(p) <= ID_DIGITS for p in parts):
        raise ValueError(_("Tournaments are given by their numbers: ?t=1,2,3"))
    ids = list(dict.fromkeys(int(p) for p in parts))  # each once, in the order given
    every = query.get("every", "").strip() or str(EVERY_DEFAULT)
    if not (every.isascii() and every.isdigit() and EVERY_MIN <= int(every) <= EVERY_MAX):
        raise ValueError(
            _("Show each tournament for %(min)s to %(max)s seconds: &every=20")
            % {"min": EVERY_MIN, "max": EVERY_MAX}
        )
    return ids, int(every)


@never_cache
@require_safe
def rotate(request):
    """One screen for several tournaments in turn: ?t=1,2,3&every=20 (&layout=...)."""
    try:
        ids, every = rotation_query(request.GET)
    except ValueError as error:
        return render(request, "clock/rotate.html", {"error": str(error)}, status=400)
    # Whether each has flights comes with the rows: no query more for events without.
    found = flights_flagged(Tournament.objects.all()).in_bulk(ids)
    if len(found) != len(ids):
        raise Http404(_("No such tournament."))
    boards = [board_data(found[pk]) for pk in ids]
    extra = {}
    if _layout(request) == "seating":  # each tournament's board shows in its turn
        extra["seatings"] = [side_board(found[pk], request.GET) for pk in ids]
    else:  # an event's flights show with its clock (issue 17)
        extra["festivals"] = festivals_rotating([found[pk] for pk in ids])
    return _screen(request, "clock/rotate.html", boards, every=every, extra=extra)


@never_cache
@require_safe
def series_lobby(request, slug: str):
    """A series' running events in turn (issue 17), each shown for the series' rotation
    seconds: the rotating screen with its events. With none running, a page that says
    so. Either reloads once the set of running events changes (static/js/series-lobby.js,
    on the series' socket)."""
    series = Series.objects.filter(slug=slug, public=True).first()
    if series is None:
        raise Http404(_("No such series."))
    running = list(
        flights_flagged(Tournament.objects.all())
        .filter(Q(series=series) | Q(parent__series=series), status=TournamentStatus.RUNNING)
        .order_by("start_at", "id")[:ROTATE_MAX]
    )
    watch = {
        "socket": f"/ws/series/{series.pk}/",  # web.asgi routes it
        "running": [tournament.pk for tournament in running],
    }
    if not running:
        context = {"series": series, "watch": watch}
        return render(request, "clock/series_idle.html", context)
    boards = [board_data(tournament) for tournament in running]
    extra = {"series": series, "watch": watch}
    if _layout(request) != "seating":  # an event's flights show with its clock (issue 17)
        extra["festivals"] = festivals_rotating(running)
    return _screen(
        request, "clock/series_lobby.html", boards, every=series.rotate_seconds, extra=extra
    )

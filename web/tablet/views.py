"""The dealer's table tablet and its links: the pages of web.tablet, in the "hands" URL
namespace they have always had (web.urls includes them with hands.urls).

The tablet is one page per table, for a phone or tablet held in one hand: who sits
where with the button and blinds (TDA 32, 34-B, 10-A), the hand in play, one big button
for the next step (draw, start, hand done), the result with bust-outs and chip counts,
and whatever the table must know now: hand-for-hand (RP-8), a halt (TDA 11-D), a new
level from the next hand (TDA 23), the player clock (TDA 29), the end of the day, the
players away (TDA 71-C) and those warned or penalised (RP-15). During a logged hand the
dealer records a bet made with an item of no value (RP-22); where the house leaves it to
the floor, the floor rules on it here. An action out of turn is recorded and held until
the action reaches the seat, and the floor called (TDA 53-A); after substantial action out
of turn past a skipped player the floor rules on that hand here (TDA 53-B). A hand killed
during play, whoever's turn it is, is recorded here too (TDA 65-A, 66). It ties hands
to the clock and the rulings, so it lives at the top of the house (docs/architecture.md).

Staff open it with the dealer or floor role; a dealer without an account opens it from
a per-table link (a QR code the floor hands out and may revoke). Writes through a link
act for nobody (actor None) and only ever on the link's own table: the table comes from
the link, never from the request.

Thin views: each POST calls one service; a refusal is shown on the page with the
service's status (400, 409) and changes nothing; success redirects back (POST/redirect/
GET). static/js/tablet.js keeps the page live: on each event it fetches the state
endpoint, which answers the page's live regions rendered by the same templates.
"""

import hashlib
import json
import math
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import segno
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_safe

from clock.selectors import clock_of, clock_public, player_clock_public, player_clocks_running
from floorman.errors import Invalid
from floorman.pages import Outcome, message_for_page, role_required, service_call
from floorman.roles import FLOOR, RULINGS, TABLET, user_has_role
from hands import services
from hands.api import busts_data, state_data
from hands.engine import betting
from hands.engine import stud as stud_rules
from hands.forms import (
    BustForm,
    ButtonErrorForm,
    ButtonForm,
    FinishForm,
    HandForm,
    ItemForm,
    ItemRulingForm,
    KillForm,
    LevelErrorForm,
    LinkActionForm,
    OutOfTurnForm,
    SkippedRulingForm,
    StartMarkForm,
    TabletActionForm,
    UndoBustForm,
    UpcardsForm,
)
from hands.messages import OOT_PENALTY, item_note, killed_note, oot_note, refusal_message
from hands.models import Elimination, Hand, HandStatus, TabletLink
from hands.selectors import (
    away_seats,
    betting_state,
    dead_blinds_owed,
    finishing_places,
    hand_in_play,
    hand_readings,
    next_hand_number,
    open_table,
    place_public,
    show_order_public,
    table_last_bust,
    tablet_link_table,
)
from rulings.engine import dodged_blinds as dodges
from rulings.selectors import warned_entries
from rulings.services import blinds_dodged_rule
from seating.models import Seat, Table
from seating.selectors import table_now
from seating.services.counts import table_counts_record
from tournaments import house
from tournaments.lookups import tournament_or_404
from tournaments.models import Tournament
from tournaments.selectors import house_settings
from tournaments.services.bags import bag_record
from tournaments.templatetags.floorman_format import chips as chips_text
from web.flights.forms import TabletBagForm
from web.flights.reads import tablet_bags
from web.tablet.forms import DodgedBlindsForm, TabletCountForm
from web.tablet.levels import levels_context

TABLET_LINKS = (FLOOR,)  # the floor hands out and revokes tablet links
RECENT_BUSTS = 6
REGIONS = ("head", "alerts", "seats", "controls", "busts")  # live parts of the page
SUITS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


@dataclass(frozen=True)
class Tablet:
    """One table's tablet as opened: by staff (`user`) or from a link (`token`)."""

    tournament: Tournament
    table: Table
    user: Any = None
    token: str = ""

    @property
    def actor(self):
        """Who the services record: the staff member, or nobody through a link."""
        return None if self.token else self.user

    def url(self, kind: str = "") -> str:
        suffix = f"-{kind}" if kind else ""
        if self.token:
            return reverse(f"hands:link{suffix}", args=[self.token])
        return reverse(f"hands:tablet{suffix}", args=[self.tournament.pk, self.table.number])

    @property
    def is_floor(self) -> bool:
        return bool(self.user) and not self.token and user_has_role(self.user, TABLET_LINKS)

    @property
    def may_rule(self) -> bool:
        """The floor rules on the table (RP-22, TDA 1): never through a dealer's link."""
        return bool(self.user) and not self.token and user_has_role(self.user, RULINGS)


def _staff_tablet(request, tournament_id: int, number: int) -> Tablet:
    tournament = tournament_or_404(tournament_id)
    table = open_table(tournament.pk, number)
    if table is None:
        raise Http404(_("This tournament has no table %(number)s in play.") % {"number": number})
    return Tablet(tournament=tournament, table=table, user=request.user)


def _link_tablet(token: str) -> Tablet | None:
    table = tablet_link_table(token)
    if table is None:
        return None
    return Tablet(tournament=table.tournament, table=table, token=token)


def _link_invalid(request):
    return render(request, "hands/link_invalid.html", status=404)


# --- What the tablet shows -------------------------------------------------------------


def card_label(card: str) -> dict:
    """A card of the button draw as people read it: "Td" is a red 10♦."""
    rank, suit = card[:-1].upper(), card[-1:].lower()
    rank = "10" if rank == "T" else rank
    return {"text": rank + SUITS.get(suit, suit), "red": suit in ("h", "d")}


def h4h_phase(h4h: dict, number: int, hand: Hand | None) -> str | None:
    """What hand-for-hand asks of this table now (RP-8):

    - "hold": play this round's hand, then hold until every table has finished;
    - "held": all-in and called, cards face down, waiting for the showdown call (RP-8 F);
    - "showdown": this held table shows down now;
    - "wait": this table has played the round's hand: wait for the next deal;
    - "deal": a round this table has not played yet: deal now.
    """
    if not h4h["active"]:
        return None
    if hand is not None:
        if hand.status == HandStatus.HELD:
            return "showdown" if h4h["showdown"] == number else "held"
        return "hold"
    if number not in h4h["tables"]:
        return None  # fewer than two players: this table deals no hand
    return "wait" if number in h4h["finished"] else "deal"


def _blinds_of_hand(hand: Hand) -> dict:
    return {
        # Stud: the limits and the bring-in instead of blinds (hands.engine.stud).
        "stud": bool(stud_rules.stud_game(hand.game)),
        "bring_in": hand.bring_in_amount,
        "small_bet": hand.small_bet,
        "big_bet": hand.big_bet,
        "level": hand.level,
        "small_blind": hand.small_blind_amount,
        "big_blind": hand.big_blind_amount,
        "ante": hand.ante_amount,
        "ante_type": hand.ante_type,
        "is_break": False,
    }


def _blinds_of_clock(level: dict | None) -> dict | None:
    """The level in force now: the one the next hand is dealt at (TDA 23)."""
    if level is None:
        return None
    return {
        "level": level["number"],
        "small_blind": level["small_blind"],
        "big_blind": level["big_blind"],
        "ante": level["big_blind_ante"] or level["ante"],
        "ante_type": level["ante_type"],
        "is_break": level["is_break"],
        "label": level["label"],
    }


def _level_cue(hand: Hand | None, clock: dict) -> dict | None:
    """TDA 23: a level that begins during a hand applies from the next hand."""
    level = clock["level"]
    if hand is None or level is None or clock["status"] not in ("running", "paused"):
        return None
    if level["is_break"]:
        return {"is_break": True, "label": level["label"]}
    if level["number"] != hand.level:
        return {"is_break": False, **_blinds_of_clock(level)}
    return None


def _day_end(tournament: Tournament, table: Table, clock: dict) -> dict | None:
    """Casino §28: the hands left today at this table, once they have been drawn."""
    total = clock["day_end_hands"]
    if not total:
        return None
    drawn_at = clock_of(tournament).day_end_at
    played = Hand.objects.filter(table=table, started_at__gte=drawn_at).count() if drawn_at else 0
    return {"total": total, "played": played, "left": max(0, total - played)}


def _positions(now):
    try:
        return now.positions()
    except ValueError:  # no usable seats: nothing to deal
        return None


def _seat_ring(table: Table, now, hand: Hand | None, positions, clocks: list[dict]) -> list:
    """Every usable seat clockwise with its player, chips and badges. A player on
    penalty shows the hands left to miss; in the hand in play, whether the seat was dealt
    dead (TDA 71-C) or, the penalty given during this hand, plays it live (TDA 68)."""
    dealt = {p.seat: p for p in hand.players.all()} if hand else {}
    marks = hand or positions  # both know button, small blind (seat) and big blind
    waiting = set(positions.waiting) if positions else set()
    clock_by_seat = {c["seat"]: c for c in clocks}
    away = away_seats(table.tournament_id, table.number)
    warned = warned_entries(table.tournament_id)
    owed = dead_blinds_owed(table.tournament_id)  # older TDA 22: dodged blinds to post
    rows = (
        Seat.objects.filter(table=table, blocked=False)
        .order_by("number")
        .values_list(
            "number",
            "wait_for_button",
            "entry_id",
            "entry__number",
            "entry__player__name",
            "entry__chips",
        )
    )
    ring = []
    for number, wait, entry, entry_number, name, chips in rows:
        player = dealt.get(number)
        in_hand = player is not None and entry is not None and player.entry_id == entry
        waits = entry is not None and (number in waiting or (hand is not None and wait))
        dead = in_hand and player.dead  # TDA 71-C: on penalty, dead from the deal
        away_left = away.get(number) if entry is not None else None
        ring.append(
            {
                "seat": number,
                "entry": entry,
                "number": entry_number,
                "name": name,
                "chips": player.stack if in_hand else chips,
                "dealt": in_hand,
                "button": bool(marks) and marks.button == number,
                "small_blind": bool(marks) and marks.small_blind == number,
                "big_blind": bool(marks) and marks.big_blind == number,
                "dead_small_blind": bool(marks)
                and marks.small_blind is None
                and marks.small_blind_seat == number,
                "waiting": waits,
                "new": entry is not None and entry in now.new_players,
                "sits_out": hand is not None and entry is not None and not in_hand and not waits,
                "clock": clock_by_seat.get(number),
                "away": away_left,
                "dead": dead,
                # TDA 68: a penalty given during this hand begins after it; the player's
                # hand in play stays live.
                "away_next": bool(away_left) and in_hand and not dead,
                "warned": entry in warned,
                # Older TDA 22: dodged blinds made up as dead money in this hand, or owed
                # for the player's next hand.
                "dead_money": player.dead_money if in_hand else 0,
                "owes": owed.get(entry, 0) if entry is not None else 0,
            }
        )
    return ring


def _player_clocks(tournament: Tournament, table: Table) -> list[dict]:
    """TDA 29: the clocks called at this table, with the seconds left as the page is made
    (tablet.js counts them down from their end time)."""
    now = timezone.now()
    clocks = []
    for row in player_clocks_running(tournament, table=table.number).order_by("started_at"):
        data = player_clock_public(row, now)
        left = (row.started_at + timedelta(seconds=row.seconds) - now).total_seconds()
        clocks.append({**data, "seconds_left": max(0, math.ceil(left))})
    return clocks


def _undo_bust_offer(table: Table):
    """The table's last bust-out while its tablet may take it back (nothing depends on
    it: hands.selectors.table_last_bust), else None."""
    last = table_last_bust(table)
    return last if last is not None and not last.refusal else None


def _betting(hand: Hand | None):
    """The betting as the hand's log leaves it, while it is played with a log."""
    if hand is None or hand.status != HandStatus.PLAYING:
        return None
    return betting_state(hand)


def _item_offer(tournament: Tournament, hand: Hand | None, state) -> dict | None:
    """RP-22 during a logged hand with a player to act: the seat that may bet with an
    item of no value and the house policy; while the floor is to rule on one, the item
    (the tablet shows "Floor: RP-22")."""
    if state is None or state.to_act is None:
        return None
    pending = hand.item_pending
    return {
        "seat": state.to_act,
        "call": state.legal_actions().call,
        "pending": pending,
        "note": item_note(seat=state.to_act, item=pending, kind=None),
        "policy": tournament.non_betting_items,
        "policy_label": tournament.get_non_betting_items_display(),
    }


STREETS = {
    "third": gettext_lazy("third street"),
    "fourth": gettext_lazy("fourth street"),
    "fifth": gettext_lazy("fifth street"),
    "sixth": gettext_lazy("sixth street"),
    "seventh": gettext_lazy("seventh street"),
}


def _stud_offer(hand: Hand | None, state) -> dict | None:
    """Stud, stud/8, razz during the hand: the street whose upcards the dealer enters
    now (the door cards first; RP-10 D, E decide from them who acts), the seats that
    need one, who brought it in and who is to act."""
    if hand is None or hand.status != HandStatus.PLAYING or not stud_rules.stud_game(hand.game):
        return None
    if not 0 < hand.bring_in_amount <= hand.small_bet:
        return None  # no limits on the clock: no log, the result only
    if state is None:
        due, seats = "third", [s.seat for s in hand.players.all()]
    else:
        due, seats = state.upcards_due, list(state.in_hand)
    return {
        "due": due,
        "due_label": STREETS.get(due, ""),
        "seats": seats,
        "bring_in": state.bring_in_seat if state else None,
        "to_act": state.to_act if state else None,
        "street_label": STREETS.get(state.street, "") if state else "",
    }


def _show_first(hand: Hand | None, state) -> dict | None:
    """At showdown: who tables first by the reading the hand was dealt under (TDA 17-A
    or casino §42; TDA 16: all at once when a player is all-in)."""
    if hand is None or state is None:
        return None
    shown = show_order_public(state, hand_readings(hand).show_order)
    if shown is None:
        return None
    return {"seat": shown["seats"][0], **shown}


def _oot_offer(tablet: Tablet, seats: list[dict], state) -> dict | None:
    """TDA 53 during a logged hand with a player to act: the seats that may be recorded
    as acting out of turn, the actions out of turn held for their turn (53-A), the
    skipped seats the floor is to rule on (53-B, the betting holds), and the seats that
    acted out of turn this hand: the floor is called, the action is subject to penalty
    (53-A); a warning or penalty then shows at the seat (RP-15)."""
    if state is None or state.to_act is None:
        return None
    held = {p.seat for p in state.pending}
    offenders = sorted(held | {o.seat for o in state.outcomes})
    return {
        "to_act": state.to_act,
        "seats": [
            s
            for s in seats
            if s["dealt"]
            and not s["away"]
            and s["seat"] != state.to_act
            and s["seat"] in state.in_hand
            and s["seat"] not in held | state.ruled_dead
            and state.player(s["seat"]).can_act
        ],
        "pending": [
            {
                "seat": p.seat,
                "note": oot_note(
                    {"seat": p.seat, "kind": p.kind, "amount": p.amount, "out_of_turn": "action"}
                ),
            }
            for p in state.pending
        ],
        "awaiting": list(state.awaiting),
        "limited": sorted(state.limited),
        "dead": sorted(state.ruled_dead),
        "offenders": offenders,
        "penalty_note": str(OOT_PENALTY) if offenders else "",
        "floor_url": (
            reverse("rulings:floor", args=[tablet.tournament.pk]) if tablet.may_rule else ""
        ),
    }


def _kill_offer(seats: list[dict], state) -> dict | None:
    """TDA 65-A, 66 during a logged hand: the seats whose hand may be recorded as killed
    (a live hand, while another is left), whether TDA 66 applies (stud: the seats facing
    action), and the hands killed so far with what became of their chips."""
    if state is None:
        return None
    live = [
        s
        for s in seats
        if s["dealt"] and s["seat"] in state.in_hand and s["seat"] not in state.ruled_dead
    ]
    return {
        "seats": live if len(live) > 1 else [],
        "stud": state.is_stud,
        "facing": [s["seat"] for s in live if state.facing_action(s["seat"])],
        "killed": [k.seat for k in state.kills],
        "notes": [
            killed_note(seat=k.seat, reason=k.reason, returned=k.returned) for k in state.kills
        ],
    }


def _dodge_offer(tablet: Tablet, occupied: list[dict]) -> dict | None:
    """The floor's ruling on dodged blinds (TDA 33, 71-B; older TDA 22), for a player
    seated here: by the house's reading now, a penalty is due, or the blinds are made up as
    dead money in the player's next hand and a penalty may follow. Never through a
    dealer's link."""
    if not tablet.may_rule or not occupied:
        return None
    reading = house_settings(tablet.tournament).dodged_blinds
    chosen = house.BY_KEY["dodged_blinds"].reading(reading)
    return {
        "seats": occupied,
        "reading": reading,
        "make_up": reading == dodges.MAKE_UP,
        "label": chosen.label,
        "rule": chosen.rule,
    }


def _controls_key(*parts) -> str:
    """Changes whenever the tablet's buttons and forms would: the live refresh leaves
    the forms alone otherwise, so a count being typed in is never wiped."""
    text = json.dumps(parts, sort_keys=True, default=str)
    return hashlib.sha1(text.encode(), usedforsecurity=False).hexdigest()[:16]


def tablet_context(tablet: Tablet) -> dict:
    tournament, table = tablet.tournament, tablet.table
    state = state_data(tournament, table.number)  # the table, halted, hand-for-hand
    h4h = state["hand_for_hand"]
    hand = hand_in_play(table)
    now = table_now(table)
    positions = None if hand else _positions(now)
    clock = clock_public(tournament, steps=False)
    clocks = _player_clocks(tournament, table)
    seats = _seat_ring(table, now, hand, positions, clocks)
    occupied = [s for s in seats if s["entry"]]
    phase = h4h_phase(h4h, table.number, hand)
    draw_cards = None
    if state["draw_cards"] and not state["hands_played"]:
        draw_cards = [
            {"seat": int(seat), **card_label(card)}
            for seat, card in sorted(state["draw_cards"].items(), key=lambda i: int(i[0]))
        ]
    marks = hand or positions
    bagging = tablet_bags(tournament, table.number)  # a flight's end (issue 17)
    logged = _betting(hand)
    item = _item_offer(tournament, hand, logged)
    out_of_turn = _oot_offer(tablet, seats, logged)
    kill = _kill_offer(seats, logged)
    stud = _stud_offer(hand, logged)
    show_first = _show_first(hand, logged)
    levels = levels_context(tournament, hand, state["start_mark"])  # TDA 23, 34-A
    dodge = _dodge_offer(tablet, occupied)
    return {
        "tablet": tablet,
        "tournament": tournament,
        "table": table,
        "state": state,
        "h4h": h4h,
        "h4h_phase": phase,
        "hand": hand,
        "next_hand": None if hand else next_hand_number(table),
        "positions": positions,
        "heads_up": hand.players.count() == 2 if hand else bool(positions and positions.heads_up),
        "dead_small_blind": bool(marks) and marks.small_blind is None,
        "dead_button": bool(marks) and not any(s["seat"] == marks.button for s in occupied),
        "waiting": [s["seat"] for s in seats if s["waiting"]],
        "h4h_left": len(h4h["tables"]) - len(h4h["finished"]),
        "blinds": _blinds_of_hand(hand) if hand else _blinds_of_clock(clock["level"]),
        "clock": clock,
        "level_cue": _level_cue(hand, clock),
        "day_end": _day_end(tournament, table, clock),
        "player_clocks": clocks,
        "seats": seats,
        "occupied": occupied,
        "dealt": [s for s in seats if s["dealt"]],
        "draw_cards": draw_cards,
        "busts": busts_data(tournament, table.number)[:RECENT_BUSTS],
        "undo_bust": _undo_bust_offer(table),
        "is_floor": tablet.is_floor,
        "may_rule": tablet.may_rule,
        "item": item,
        "stud": stud,
        "show_first": show_first,
        "oot": out_of_turn,
        "kill": kill,
        "bagging": bagging,
        "levels": levels,
        "dodge": dodge,
        "controls_key": _controls_key(
            bagging and [(r.seat, r.bag and r.bag.chips) for r in bagging["rows"]],
            hand and (hand.number, hand.status),
            state["button_drawn"],
            [(s["seat"], s["entry"], s["chips"]) for s in occupied],  # the count screen
            phase,
            h4h["showdown"],
            state["halted"],
            positions and (positions.button, positions.small_blind, positions.big_blind),
            item and (item["seat"], item["pending"]),
            stud and (stud["due"], stud["seats"], stud["to_act"]),
            out_of_turn
            and (
                [s["seat"] for s in out_of_turn["seats"]],
                [p["seat"] for p in out_of_turn["pending"]],
                out_of_turn["awaiting"],
            ),
            levels["mark"] and levels["mark"]["level"],
            kill and ([s["seat"] for s in kill["seats"]], kill["facing"], kill["killed"]),
            [s["owes"] for s in occupied],
        ),
    }


def tablet_live(request, context: dict) -> dict:
    """The page's live state: what tablet.js needs to decide (alerts) and the regions."""
    hand = context["hand"]
    return {
        "table": context["table"].number,
        "server_time": timezone.now().isoformat(),
        "hand": {"number": hand.number, "status": hand.status} if hand else None,
        "h4h": context["h4h_phase"],
        "h4h_round": context["h4h"]["round"] if context["h4h"]["active"] else None,
        "seats": _occupants(context),
        "controls_key": context["controls_key"],
        "regions": {
            name: render_to_string(f"hands/_tablet_{name}.html", context, request=request)
            for name in REGIONS
        },
    }


def _occupants(context: dict) -> list[dict]:
    return [
        {"seat": s["seat"], "entry": s["entry"], "number": s["number"], "name": s["name"]}
        for s in context["occupied"]
    ]


def _config(context: dict) -> dict:
    """What tablet.js starts from (json_script): urls, the seats as loaded, the texts."""
    tablet = context["tablet"]
    return {
        "tournament": tablet.tournament.pk,
        "table": tablet.table.number,
        "urls": {
            "socket": f"/ws/tournaments/{tablet.tournament.pk}/",
            "state": tablet.url("state"),
        },
        "server_time": timezone.now().isoformat(),
        "seats": _occupants(context),
        "h4h": context["h4h_phase"],
        "h4h_round": context["h4h"]["round"] if context["h4h"]["active"] else None,
        "controls_key": context["controls_key"],
        "strings": {
            "came": _("%(name)s (#%(number)s) sat down in seat %(seat)s."),
            "came_from": _(
                "%(name)s (#%(number)s) sat down in seat %(seat)s, from table "
                "%(from_table)s, seat %(from_seat)s."
            ),
            "left": _("%(name)s (#%(number)s) left seat %(seat)s."),
            "left_to": _(
                "%(name)s (#%(number)s) left seat %(seat)s for table %(to_table)s, "
                "seat %(to_seat)s."
            ),
            "shifted": _("%(name)s (#%(number)s) moved from seat %(from_seat)s to seat %(seat)s."),
            "title_came": _("Player in: seat %(seat)s"),
            "title_deal": _("Deal now"),
        },
    }


def _render(request, tablet: Tablet, *, status: int = 200):
    context = tablet_context(tablet)
    context["config"] = _config(context)
    return render(request, "hands/tablet.html", context, status=status)


# --- Acting on the table ---------------------------------------------------------------


def _call(request, tablet: Tablet, service, **kwargs) -> Outcome:
    """Run one tablet service on the tablet's own table, as the tablet's actor."""

    def as_tablet(*, actor, **data):  # service_call passes request.user: a link is nobody
        return service(actor=tablet.actor, **data)

    return service_call(
        request,
        as_tablet,
        flash=False,
        tournament_id=tablet.tournament.pk,
        number=tablet.table.number,
        **kwargs,
    )


def _tell(request, tablet: Tablet, text: str, level: int = messages.SUCCESS) -> None:
    """What the dealer is told after an action: shown on this table's tablet only, never
    on another table's tablet open in the same browser (issue 16)."""
    message_for_page(request, level, text, page=tablet.url())


def _refused(request, tablet: Tablet, outcome: Outcome):
    _tell(request, tablet, outcome.error.message, messages.ERROR)
    return _render(request, tablet, status=outcome.error.http_status)


def _invalid(request, tablet: Tablet, form):
    shown = []
    for name, errors in form.errors.items():
        field = form.fields.get(name)
        for error in errors:
            text = f"{field.label}: {error}" if field is not None and field.label else error
            if text not in shown:
                shown.append(text)
    for text in shown:
        _tell(request, tablet, text, messages.ERROR)
    return _render(request, tablet, status=400)


def _bust_lines(tournament: Tournament, entries: list[int]) -> list[str]:
    """Each bust-out with the place it finishes in (IFP 4.27), for the dealer to say."""
    places = finishing_places(tournament.pk)
    rows = (
        Elimination.objects.filter(tournament=tournament, entry_id__in=entries)
        .select_related("entry__player")
        .order_by("seat")
    )
    lines = []
    for row in rows:
        place = place_public(places.get(row.entry_id))
        if place["place_shared"]:
            shown = f"{min(place['place_shared'])}–{max(place['place_shared'])}"
        else:
            shown = place["place"] or "?"
        lines.append(
            _("%(name)s (#%(number)s) is out: place %(place)s.")
            % {"name": row.entry.player.name, "number": row.entry.number, "place": shown}
        )
    return lines


def _draw(request, tablet: Tablet):
    outcome = _call(request, tablet, services.button_draw)
    if not outcome.ok:
        return _refused(request, tablet, outcome)
    _tell(
        request,
        tablet,
        _("Seat %(seat)s drew the high card and takes the button (IFP 2.1).")
        % {"seat": outcome.value.button},
    )
    return redirect(tablet.url())


def _button(request, tablet: Tablet):
    form = ButtonForm(request.POST)
    if not form.is_valid():
        return _invalid(request, tablet, form)
    outcome = _call(
        request,
        tablet,
        services.button_set,
        button=form.cleaned_data["button"],
        big_blind=form.cleaned_data["big_blind"],
    )
    if not outcome.ok:
        return _refused(request, tablet, outcome)
    _tell(request, tablet, _("Button set on seat %(seat)s.") % {"seat": outcome.value.button})
    return redirect(tablet.url())


def _start(request, tablet: Tablet):
    outcome = _call(request, tablet, services.hand_start)
    if not outcome.ok:
        return _refused(request, tablet, outcome)
    _tell(request, tablet, _("Hand %(hand)s is dealt.") % {"hand": outcome.value.number})
    return redirect(tablet.url())


def _finish(request, tablet: Tablet):
    form = FinishForm(request.POST)
    if not form.is_valid():
        return _invalid(request, tablet, form)
    hand_number = form.cleaned_data["hand"]
    busted = Seat.objects.filter(
        table=tablet.table, number__in=form.cleaned_data["busts"]
    ).values_list("entry_id", flat=True)
    busted = [entry for entry in busted if entry]
    outcome = _call(
        request,
        tablet,
        services.hand_finish,
        hand_number=hand_number,
        busts=form.cleaned_data["busts"],
        stacks=form.stacks() or None,
        eliminators=form.eliminators(),
    )
    if not outcome.ok:
        return _refused(request, tablet, outcome)
    _tell(request, tablet, _("Hand %(hand)s is done.") % {"hand": hand_number})
    for line in _bust_lines(tablet.tournament, busted):
        _tell(request, tablet, line)
    return redirect(tablet.url())


def _hold(request, tablet: Tablet):
    form = HandForm(request.POST)
    if not form.is_valid():
        return _invalid(request, tablet, form)
    outcome = _call(request, tablet, services.hand_hold, hand_number=form.cleaned_data["hand"])
    if not outcome.ok:
        return _refused(request, tablet, outcome)
    _tell(
        request,
        tablet,
        _("Hand %(hand)s holds: cards face down until the floor calls this table (RP-8 F).")
        % {"hand": outcome.value.number},
    )
    return redirect(tablet.url())


def _misdeal(request, tablet: Tablet):
    form = HandForm(request.POST)
    if not form.is_valid():
        return _invalid(request, tablet, form)
    outcome = _call(request, tablet, services.hand_misdeal, hand_number=form.cleaned_data["hand"])
    if not outcome.ok:
        return _refused(request, tablet, outcome)
    _tell(
        request,
        tablet,
        _("Misdeal: deal hand %(hand)s again, the same button, blinds and players (TDA 35-C).")
        % {"hand": outcome.value.number},
    )
    return redirect(tablet.url())


def _bust(request, tablet: Tablet):
    form = BustForm(request.POST)
    if not form.is_valid():
        return _invalid(request, tablet, form)
    outcome = _call(
        request,
        tablet,
        services.table_busts_record,
        seats=form.cleaned_data["seats"],
        eliminators=form.eliminators(),
    )
    if not outcome.ok:
        return _refused(request, tablet, outcome)
    for line in _bust_lines(tablet.tournament, [entry.pk for entry in outcome.value]):
        _tell(request, tablet, line)
    return redirect(tablet.url())


def _undo_bust(request, tablet: Tablet):
    form = UndoBustForm(request.POST)
    if not form.is_valid():
        return _invalid(request, tablet, form)
    outcome = _call(request, tablet, services.table_bust_undo, entry_id=form.cleaned_data["entry"])
    if not outcome.ok:
        return _refused(request, tablet, outcome)
    entry = outcome.value
    where = entry.seat_restored
    words = {"name": entry.player.name, "number": entry.number}
    if where is not None and where.table == tablet.table.number:
        text = _("Bust taken back: %(name)s (#%(number)s) is back in seat %(seat)s.")
        words["seat"] = where.seat
    elif where is not None:  # the seat was taken meanwhile: seating gave a new one
        text = _(
            "Bust taken back: %(name)s (#%(number)s) now sits at table %(table)s, seat %(seat)s."
        )
        words.update(table=where.table, seat=where.seat)
    else:
        text = _("Bust taken back: %(name)s (#%(number)s) has no seat yet: call the floor.")
    _tell(request, tablet, text % words)
    return redirect(tablet.url())


def _bag(request, tablet: Tablet):
    """Issue 17: a survivor's chips counted into a bag at the table, once the flight has
    stopped; only a player seated at the tablet's own table."""
    form = TabletBagForm(request.POST)
    if not form.is_valid():
        return _invalid(request, tablet, form)
    seat = Seat.objects.filter(table=tablet.table, number=form.cleaned_data["seat"]).first()
    if seat is None or seat.entry_id is None:
        _tell(request, tablet, _("Nobody sits in that seat."), messages.ERROR)
        return _render(request, tablet, status=400)

    def as_tablet(*, actor, **data):  # service_call passes request.user: a link is nobody
        return bag_record(actor=tablet.actor, **data)

    outcome = service_call(
        request,
        as_tablet,
        flash=False,
        tournament_id=tablet.tournament.pk,
        entry_id=seat.entry_id,
        chips=form.cleaned_data["chips"],
    )
    if not outcome.ok:
        return _refused(request, tablet, outcome)
    bag = outcome.value
    _tell(
        request,
        tablet,
        _("Bag %(number)s: seat %(seat)s, %(chips)s chips.")
        % {"number": bag.number, "seat": seat.number, "chips": chips_text(bag.chips)},
    )
    return redirect(tablet.url())


def _item(request, tablet: Tablet):
    """RP-22: the player in turn bet with an item of no value."""
    form = ItemForm(request.POST)
    if not form.is_valid():
        return _invalid(request, tablet, form)
    data = form.cleaned_data
    outcome = _call(
        request,
        tablet,
        services.hand_item,
        hand_number=data["hand"],
        item=data["item"],
        seat=data["seat"],
    )
    if not outcome.ok:
        return _refused(request, tablet, outcome)
    _hand, logged = outcome.value
    if logged is None:  # the house leaves it to the floor
        note = item_note(seat=data["seat"], item=data["item"], kind=None)
        _tell(request, tablet, note, messages.WARNING)
    else:
        _tell(request, tablet, _logged_note(logged))
    return redirect(tablet.url())


def _logged_note(logged) -> str:
    return item_note(seat=logged.seat, item=logged.item, kind=logged.kind, amount=logged.amount)


def _item_ruling(request, tablet: Tablet):
    """RP-22, TDA 1: the floor rules the item a call or all-in; a dealer may not."""
    if not tablet.may_rule:
        raise PermissionDenied
    form = ItemRulingForm(request.POST)
    if not form.is_valid():
        return _invalid(request, tablet, form)
    outcome = _call(
        request,
        tablet,
        services.hand_item_rule,
        hand_number=form.cleaned_data["hand"],
        ruling=form.cleaned_data["ruling"],
    )
    if not outcome.ok:
        return _refused(request, tablet, outcome)
    _hand, logged = outcome.value
    _tell(request, tablet, _logged_note(logged))
    return redirect(tablet.url())


def _oot(request, tablet: Tablet):
    """TDA 53-A: a player acted out of turn: recorded and held until the action reaches
    the seat; the floor is called (the action is subject to penalty)."""
    form = OutOfTurnForm(request.POST)
    if not form.is_valid():
        return _invalid(request, tablet, form)
    data = form.cleaned_data
    outcome = _call(
        request,
        tablet,
        services.hand_out_of_turn,
        hand_number=data["hand"],
        seat=data["seat"],
        kind=data["kind"],
        amount=data["amount"] if data["kind"] in (betting.BET, betting.RAISE) else None,
    )
    if not outcome.ok:
        return _refused(request, tablet, outcome)
    _hand, state = outcome.value
    held = state.pending[-1]
    row = {"seat": held.seat, "kind": held.kind, "amount": held.amount, "out_of_turn": "action"}
    _tell(request, tablet, oot_note(row), messages.WARNING)
    if state.awaiting:
        _tell(
            request, tablet, refusal_message("oot_floor", seat=state.awaiting[0]), messages.WARNING
        )
    _tell(request, tablet, str(OOT_PENALTY), messages.WARNING)
    return redirect(tablet.url())


def _oot_ruling(request, tablet: Tablet):
    """TDA 53-B: the floor rules on a skipped hand, dead or check, call or fold only; a
    dealer may not."""
    if not tablet.may_rule:
        raise PermissionDenied
    form = SkippedRulingForm(request.POST)
    if not form.is_valid():
        return _invalid(request, tablet, form)
    data = form.cleaned_data
    outcome = _call(
        request,
        tablet,
        services.hand_skipped_rule,
        hand_number=data["hand"],
        seat=data["seat"],
        ruling=data["ruling"],
    )
    if not outcome.ok:
        return _refused(request, tablet, outcome)
    row = {"seat": data["seat"], "kind": data["ruling"], "amount": None, "out_of_turn": "ruling"}
    _tell(request, tablet, oot_note(row))
    return redirect(tablet.url())


def _kill(request, tablet: Tablet):
    """TDA 65-A, 66: a hand killed during play, dead at once whoever's turn it is. A
    fouled hand that can be identified stays in play (TDA 65-B): the service says so."""
    form = KillForm(request.POST)
    if not form.is_valid():
        return _invalid(request, tablet, form)
    data = form.cleaned_data
    outcome = _call(
        request,
        tablet,
        services.hand_kill,
        hand_number=data["hand"],
        seat=data["seat"],
        reason=data["reason"],
    )
    if not outcome.ok:
        return _refused(request, tablet, outcome)
    _hand, state = outcome.value
    kill = state.kills[-1]
    note = killed_note(seat=kill.seat, reason=kill.reason, returned=kill.returned)
    _tell(request, tablet, note, messages.WARNING)
    if len(state.in_hand) == 1:
        _tell(
            request,
            tablet,
            _(
                "Seat %(seat)s holds the last live hand and wins the pot, as when everyone "
                "folds: record the hand's result."
            )
            % {"seat": state.in_hand[0]},
        )
    return redirect(tablet.url())


def _count(request, tablet: Tablet):
    """Issue 18: the table's counts in one screen (at a break, or when the floor asks),
    each stamped with the level in play; the players' stacks become the counts."""
    form = TabletCountForm(request.POST)
    if not form.is_valid():
        return _invalid(request, tablet, form)
    outcome = _call(request, tablet, table_counts_record, counts=form.counts())
    if not outcome.ok:
        if isinstance(outcome.error, Invalid):  # every seat's reason, not the first only
            for texts in outcome.error.fields.values():
                for text in texts:
                    _tell(request, tablet, str(text), messages.ERROR)
            return _render(request, tablet, status=400)
        return _refused(request, tablet, outcome)
    counted = outcome.value
    _tell(
        request,
        tablet,
        ngettext(
            "%(count)s count entered at level %(level)s.",
            "%(count)s counts entered at level %(level)s.",
            len(counted),
        )
        % {"count": len(counted), "level": counted[0].level},
    )
    return redirect(tablet.url())


def _upcards(request, tablet: Tablet):
    """Stud: the upcards just dealt; the log then knows who acts (RP-10 D, E)."""
    form = UpcardsForm(request.POST)
    if not form.is_valid():
        return _invalid(request, tablet, form)
    outcome = _call(
        request,
        tablet,
        services.hand_upcards,
        hand_number=form.cleaned_data["hand"],
        cards=form.cards(),
    )
    if not outcome.ok:
        if isinstance(outcome.error, Invalid):
            for texts in outcome.error.fields.values():
                for text in texts:
                    _tell(request, tablet, str(text), messages.ERROR)
            return _render(request, tablet, status=400)
        return _refused(request, tablet, outcome)
    _tell(request, tablet, _("Upcards entered."))
    return redirect(tablet.url())


def _start_mark(request, tablet: Tablet):
    """TDA 23; casino §25, §32: the next hand has started; its level is the one now."""
    form = StartMarkForm(request.POST)
    if not form.is_valid():
        return _invalid(request, tablet, form)
    outcome = _call(request, tablet, services.hand_start_mark, event=form.cleaned_data["event"])
    if not outcome.ok:
        return _refused(request, tablet, outcome)
    _tell(
        request,
        tablet,
        _("The next hand has started: it plays at level %(level)s (TDA 23).")
        % {"level": outcome.value.level},
    )
    return redirect(tablet.url())


def _start_unmark(request, tablet: Tablet):
    outcome = _call(request, tablet, services.hand_start_unmark)
    if not outcome.ok:
        return _refused(request, tablet, outcome)
    _tell(request, tablet, _("The mark is taken back: the hand has not started (TDA 23)."))
    return redirect(tablet.url())


def _correction_told(request, tablet: Tablet, correction, redealt: str, stands: str):
    text = redealt if correction.ruling.corrected else stands
    _tell(request, tablet, text % {"hand": correction.hand.number, "rule": correction.ruling.rule})
    return redirect(tablet.url())


def _button_error(request, tablet: Tablet):
    """TDA 34-A, casino §16 c: the button was in the wrong place for the hand in play."""
    form = ButtonErrorForm(request.POST)
    if not form.is_valid():
        return _invalid(request, tablet, form)
    outcome = _call(
        request,
        tablet,
        services.hand_button_correct,
        hand_number=form.cleaned_data["hand"],
        button=form.cleaned_data["button"],
        actions=form.actions(),
    )
    if not outcome.ok:
        return _refused(request, tablet, outcome)
    return _correction_told(
        request,
        tablet,
        outcome.value,
        _(
            "Hand %(hand)s is void (%(rule)s): deal it again with the button and blinds "
            "shown, the same players and stacks."
        ),
        _(
            "Hand %(hand)s stands (%(rule)s): play on. The button moves on from where it "
            "stood after this hand."
        ),
    )


def _level_error(request, tablet: Tablet):
    """TDA 23: the hand in play was dealt at the wrong level."""
    form = LevelErrorForm(request.POST)
    if not form.is_valid():
        return _invalid(request, tablet, form)
    outcome = _call(
        request,
        tablet,
        services.hand_level_correct,
        hand_number=form.cleaned_data["hand"],
        level=form.cleaned_data["level"],
        actions=form.actions(),
    )
    if not outcome.ok:
        return _refused(request, tablet, outcome)
    return _correction_told(
        request,
        tablet,
        outcome.value,
        _("Hand %(hand)s is void (%(rule)s): deal it again with the blinds of the right level."),
        _("Hand %(hand)s stands (%(rule)s): it continues at the level it was dealt at."),
    )


def _dodged_blinds(request, tablet: Tablet):
    """TDA 33, 71-B; older TDA 22: the floor rules that a seated player dodged the blinds.
    By the TDA the penalty is due: the floor page's penalty form opens with the player and
    the floor call filled in. By the older translation the blinds are posted as dead money
    in the player's next hand; a penalty may still be given from the floor page."""
    if not tablet.may_rule:
        raise PermissionDenied
    form = DodgedBlindsForm(request.POST)
    if not form.is_valid():
        return _invalid(request, tablet, form)
    outcome = _call(
        request,
        tablet,
        blinds_dodged_rule,
        seat=form.cleaned_data["seat"],
        blinds=form.cleaned_data["blinds"],
    )
    if not outcome.ok:
        return _refused(request, tablet, outcome)
    ruled = outcome.value
    words = {
        "seat": ruled.seat,
        "rule": ruled.ruling.rule,
        "chips": chips_text(ruled.ruling.dead_money),
    }
    if ruled.ruling.penalty_due:
        messages.warning(
            request,
            _("Seat %(seat)s dodged the blinds (%(rule)s): give the penalty.") % words,
        )
        floor = reverse("rulings:floor", args=[tablet.tournament.pk])
        return redirect(f"{floor}?incident={ruled.incident.pk}#give-penalty")
    _tell(
        request,
        tablet,
        _(
            "Seat %(seat)s dodged the blinds (%(rule)s): the player posts %(chips)s as dead "
            "money in their next hand. A penalty may be given from the floor page."
        )
        % words,
        messages.WARNING,
    )
    return redirect(tablet.url())


ACTIONS = {
    "dodged_blinds": _dodged_blinds,
    "upcards": _upcards,
    "start_mark": _start_mark,
    "start_unmark": _start_unmark,
    "button_error": _button_error,
    "level_error": _level_error,
    "item": _item,
    "item_ruling": _item_ruling,
    "oot": _oot,
    "oot_ruling": _oot_ruling,
    "kill": _kill,
    "bag": _bag,
    "count": _count,
    "draw": _draw,
    "undo_bust": _undo_bust,
    "button": _button,
    "start": _start,
    "finish": _finish,
    "hold": _hold,
    "misdeal": _misdeal,
    "bust": _bust,
}


def _tablet_page(request, tablet: Tablet):
    if request.method != "POST":
        return _render(request, tablet)
    chosen = TabletActionForm(request.POST)
    if not chosen.is_valid():
        return _invalid(request, tablet, chosen)
    return ACTIONS[chosen.cleaned_data["action"]](request, tablet)


@never_cache
@role_required(TABLET)
@require_http_methods(["GET", "POST"])
def tablet(request, tournament_id: int, number: int):
    """The table's tablet for a dealer or the floor."""
    return _tablet_page(request, _staff_tablet(request, tournament_id, number))


@never_cache
@require_http_methods(["GET", "POST"])
def link(request, token: str):
    """The same tablet opened from a tablet link, without an account."""
    opened = _link_tablet(token)
    if opened is None:
        return _link_invalid(request)
    return _tablet_page(request, opened)


@never_cache
@role_required(TABLET)
@require_safe
def tablet_state(request, tournament_id: int, number: int):
    """The tablet's live regions as JSON, for tablet.js after each event."""
    opened = _staff_tablet(request, tournament_id, number)
    return JsonResponse(tablet_live(request, tablet_context(opened)))


@never_cache
@require_safe
def link_state(request, token: str):
    opened = _link_tablet(token)
    if opened is None:
        return JsonResponse(
            {"code": "link_revoked", "detail": _("This link is no longer valid.")}, status=404
        )
    return JsonResponse(tablet_live(request, tablet_context(opened)))


# --- Tablet links (the floor) ----------------------------------------------------------


def _qr_svg(url: str) -> str:
    # Dark on white with a quiet zone, so phones read it off a dark screen too.
    return mark_safe(
        segno.make(url, error="m").svg_inline(scale=4, border=2, light="#fff", omitsize=True)
    )


@never_cache
@role_required(TABLET_LINKS)
@require_http_methods(["GET", "POST"])
def tablet_links(request, tournament_id: int, number: int):
    """A table's tablet links: create one (shown as text and QR code), revoke one."""
    opened = _staff_tablet(request, tournament_id, number)
    here = reverse("hands:tablet-links", args=[opened.tournament.pk, opened.table.number])
    status = 200
    if request.method == "POST":
        form = LinkActionForm(request.POST)
        if not form.is_valid():
            for errors in form.errors.values():
                for error in errors:
                    messages.error(request, error)
            status = 400
        elif form.cleaned_data["action"] == "create":
            outcome = service_call(
                request,
                services.tablet_link_create,
                tournament_id=opened.tournament.pk,
                number=opened.table.number,
            )
            if outcome.ok:
                messages.success(request, _("New tablet link made: hand it to the dealer."))
                return redirect(here)
            status = outcome.error.http_status
        else:
            # Only this table's links are revoked from its page.
            get_object_or_404(TabletLink, pk=form.cleaned_data["link"], table=opened.table)
            outcome = service_call(
                request,
                services.tablet_link_revoke,
                tournament_id=opened.tournament.pk,
                link_id=form.cleaned_data["link"],
            )
            if outcome.ok:
                messages.success(request, _("The link is revoked: it opens nothing any more."))
                return redirect(here)
            status = outcome.error.http_status
    links = []
    for row in TabletLink.objects.filter(table=opened.table).order_by("-created_at"):
        url = request.build_absolute_uri(reverse("hands:link", args=[row.token]))
        links.append(
            {
                "link": row,
                "url": url,
                "qr": _qr_svg(url) if row.revoked_at is None else "",
            }
        )
    return render(
        request,
        "hands/links.html",
        {
            "tournament": opened.tournament,
            "table": opened.table,
            "tablet": opened,
            "links": links,
        },
        status=status,
    )

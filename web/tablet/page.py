"""What a table's tablet shows: the seats with the button and blinds, the hand in play,
the offers of the actions the dealer or floor may take now, and the live regions tablet.js
refreshes (web.tablet.views renders them; web.tablet.actions answers the actions)."""

import hashlib
import json
import math
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clock.selectors import clock_of, clock_public, player_clock_public, player_clocks_running
from floorman.roles import FLOOR, RULINGS, user_has_role
from hands.api import busts_data, state_data
from hands.engine import stud as stud_rules
from hands.messages import OOT_PENALTY, item_note, killed_note, oot_note
from hands.models import Hand, HandStatus
from hands.selectors import (
    away_seats,
    betting_state,
    dead_blinds_owed,
    hand_in_play,
    hand_readings,
    next_hand_number,
    show_order_public,
    table_last_bust,
)
from rulings.engine import dodged_blinds as dodges
from rulings.selectors import warned_entries
from seating.models import Seat, Table
from seating.selectors import table_now
from tournaments import house
from tournaments.models import Tournament
from tournaments.selectors import house_settings
from web.flights.reads import tablet_bags
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


def render_tablet(request, tablet: Tablet, *, status: int = 200):
    """The tablet page as the table stands now."""
    context = tablet_context(tablet)
    context["config"] = _config(context)
    return render(request, "hands/tablet.html", context, status=status)

"""Read-only views of the tables' hands, the players away (TDA 71-C), the bust-outs'
places and hand-for-hand."""

import random
from dataclasses import dataclass, replace

from django.db import connection
from django.db.models import Count, Q, Sum

from clock.selectors import registration_open
from hands.engine import away as away_rules
from hands.engine import betting, bounties, handforhand, killed, places, stud
from hands.engine.limits import Structure
from hands.engine.showdown import SHOW_TDA, show_order
from hands.engine.stud import StudState
from hands.messages import item_note, killed_note, oot_note
from hands.models import (
    Away,
    DeadBlinds,
    Elimination,
    Hand,
    HandForHand,
    HandForHandReport,
    HandStartMark,
    HandStatus,
    Knockout,
    TabletLink,
)
from payouts.selectors import places_paid as table_places_paid
from seating.engine import blinds
from seating.models import Move, Seat, Table, TableState
from seating.selectors import seats_back, table_now
from tournaments import house
from tournaments.models import BountyFormat, Entry, EntryStatus, Tournament
from tournaments.selectors import count_of, house_settings


def tablet_link_table(token: str) -> Table | None:
    """The open table a tablet link opens; None once revoked or the table has broken."""

    link = (
        TabletLink.objects.filter(
            token=token, revoked_at__isnull=True, table__broken_at__isnull=True
        )
        .select_related("table__tournament")
        .first()
    )
    return link.table if link else None


def open_table(tournament_id: int, number: int) -> Table | None:
    return Table.objects.filter(
        tournament_id=tournament_id, number=number, broken_at__isnull=True
    ).first()


def hand_in_play(table: Table) -> Hand | None:
    return Hand.objects.filter(table=table).exclude(status=HandStatus.FINISHED).first()


def next_hand_number(table: Table) -> int:
    number, _status = last_hand(table) or (0, HandStatus.FINISHED)
    return number + 1


def last_hand(table: Table) -> tuple[int, str] | None:
    """The number and status of the table's latest hand: the one in play if any (a table
    has one at most, and a new hand is dealt only once it is over), else the last
    finished. The deal reads both from it in one query: whether it may deal, and the
    next hand's number."""
    return (
        Hand.objects.filter(table=table).order_by("-number").values_list("number", "status").first()
    )


def hand_for_hand(tournament_id: int) -> HandForHand:
    found = HandForHand.objects.filter(tournament_id=tournament_id).first()
    return found or HandForHand(tournament_id=tournament_id)


def h4h_setup(tournament_id: int) -> dict:
    """Hand-for-hand's house settings (RP-8) as plain values, for an event's copy or a
    saved event template."""
    settings = hand_for_hand(tournament_id)
    return {name: getattr(settings, name) for name in HandForHand.HOUSE_SETTINGS}


# --- Places ------------------------------------------------------------------------------


def _same_hand_reading(tournament_id: int, busts: list[places.Bust]) -> str:
    """How the house places players out in the same hand; asked only when two were."""
    keys = [bust.hand for bust in busts]
    if len(set(keys)) == len(keys):
        return "tda"  # nobody shared a hand: every reading places them alike
    tournament = Tournament.objects.select_related("venue").get(pk=tournament_id)
    return house_settings(tournament).same_hand_busts


def finishing_places(tournament_id: int) -> dict[int, places.Place]:
    """Every busted entry's place, and the winner's once one entry is left and no more
    can come.

    The field is every entry that was not refunded: a re-entry is a new entry with a
    place of its own. Places are worked out afresh from the bust-outs in the order they
    were recorded, so late entries and undone busts move them as the rules say."""
    # Refunded entries never played; a disqualified one leaves without a place (TDA 71-D).
    entries = Entry.objects.filter(tournament_id=tournament_id).exclude(
        status__in=[EntryStatus.CANCELLED, EntryStatus.DISQUALIFIED]
    )
    field = entries.count()
    busts = [
        places.Bust(entry, table or 0, stack, key)
        for entry, table, stack, key in Elimination.objects.filter(
            tournament_id=tournament_id
        ).values_list("entry_id", "table_number", "stack", "hand_key")
    ]
    if not busts or len(busts) >= field:
        return {}
    found = places.finishing_places(
        field, busts, same_hand=_same_hand_reading(tournament_id, busts)
    )
    winner = _winner(tournament_id, entries, field=field, busts=len(busts))
    if winner is not None:
        found[winner] = places.Place(winner, 1, (1, 1))
    return found


def _winner(tournament_id: int, entries, *, field: int, busts: int) -> int | None:
    """The one entry left is the winner only once no more can come (late registration)."""
    if busts != field - 1 or registration_open(Tournament.objects.get(pk=tournament_id)):
        return None
    return entries.filter(status=EntryStatus.ACTIVE).values_list("pk", flat=True).first()


@dataclass(frozen=True)
class PlacesWindow:
    """Some of `finishing_places`, exactly as it gives them: see `places_window`."""

    places: dict[int, places.Place]
    field: int  # entries that play for a place (not refunded, not disqualified)
    busts: int  # bust-outs recorded; the places run from `field` down to `field - busts + 1`
    winner: int | None  # the one entry left, once no more can come: place 1


# The busts of the hands whose block of places meets [first, last], with the busts
# recorded in the hands before them. A hand's busts are placed together, the hands in
# the order of their first bust (hands.engine.places): the database orders and counts
# the hands, and only the few hands asked for come back.
_WINDOW_SQL = """
WITH hand AS (
    SELECT hand_key, MIN(id) AS first, COUNT(*) AS n
    FROM {table} WHERE tournament_id = %(tournament)s GROUP BY hand_key
), ordered AS (
    SELECT hand_key, n, CAST(SUM(n) OVER (ORDER BY first) AS BIGINT) AS through FROM hand
)
SELECT e.entry_id, e.table_number, e.stack, e.hand_key, o.through - o.n
FROM ordered o JOIN {table} e ON e.tournament_id = %(tournament)s AND e.hand_key = o.hand_key
WHERE %(field)s - o.through + 1 <= %(last)s AND %(field)s - (o.through - o.n) >= %(first)s
ORDER BY e.id
"""

# The busts of the hand of one entry, with the busts recorded in the hands before it:
# those of every hand whose first bust came before this hand's first. Every bust
# recorded before that one is in such a hand; of the busts recorded after it (few when
# the cashier pays a place: the last busts are the places paid) only those of a hand
# begun before it are: each of those looks up its hand's first bust, one index probe
# (a correlated MIN, which the planner never turns into a join that hashes every bust
# before). Read through the indexes, never the whole field (issue 20).
_ENTRY_SQL = """
WITH mine AS (
    SELECT hand_key, MIN(id) AS first_id FROM {table}
    WHERE tournament_id = %(tournament)s AND hand_key = (
        SELECT hand_key FROM {table} WHERE tournament_id = %(tournament)s
        AND entry_id = %(entry)s
    )
    GROUP BY hand_key
), prior AS (
    SELECT (
        SELECT COUNT(*) FROM {table} b WHERE b.tournament_id = %(tournament)s
        AND b.id < mine.first_id
    ) + (
        SELECT COUNT(*) FROM {table} a WHERE a.tournament_id = %(tournament)s
        AND a.id > mine.first_id AND a.hand_key <> mine.hand_key AND (
            SELECT MIN(p.id) FROM {table} p WHERE p.tournament_id = %(tournament)s
            AND p.hand_key = a.hand_key
        ) < mine.first_id
    ) AS n
    FROM mine
)
SELECT e.entry_id, e.table_number, e.stack, e.hand_key, prior.n
FROM mine CROSS JOIN prior
JOIN {table} e ON e.tournament_id = %(tournament)s AND e.hand_key = mine.hand_key
ORDER BY e.id
"""


def places_window(
    tournament_id: int, *, first: int = 1, last: int = 0, entry_id: int | None = None
) -> PlacesWindow:
    """The places of `finishing_places` whose range meets places `first` to `last` (or,
    with `entry_id`, the places of the busts of that entry's hand), the winner's among
    them; in a few queries however many entries and busts there are (issue 20: the
    cashier pays one place, not the field). The same engine places them."""
    entries = Entry.objects.filter(tournament_id=tournament_id).exclude(
        status__in=[EntryStatus.CANCELLED, EntryStatus.DISQUALIFIED]
    )
    counts = (
        Tournament.objects.filter(pk=tournament_id)
        .annotate(
            field_count=count_of(entries.order_by()),
            bust_count=count_of(Elimination.objects.filter(tournament_id=tournament_id).order_by()),
        )
        .values("field_count", "bust_count")
        .get()
    )
    field, count = counts["field_count"], counts["bust_count"]
    found: dict[int, places.Place] = {}
    if not count or count >= field:
        return PlacesWindow(found, field, count, None)
    rows = []
    if entry_id is not None or first <= last:  # else only the counts and the winner
        table = Elimination._meta.db_table
        sql = _WINDOW_SQL if entry_id is None else _ENTRY_SQL
        params = {"tournament": tournament_id, "field": field, "first": first, "last": last}
        with connection.cursor() as cursor:
            cursor.execute(sql.format(table=table), {**params, "entry": entry_id})
            rows = cursor.fetchall()
    if rows:
        before = min(row[4] for row in rows)
        busts = [
            places.Bust(entry, number or 0, stack, key) for entry, number, stack, key, _b in rows
        ]
        found = places.finishing_places(
            field - before, busts, same_hand=_same_hand_reading(tournament_id, busts)
        )
    winner = _winner(tournament_id, entries, field=field, busts=count)
    if winner is not None and (first <= 1 <= last if entry_id is None else winner == entry_id):
        found[winner] = places.Place(winner, 1, (1, 1))
    return PlacesWindow(found, field, count, winner)


def place_public(place: places.Place | None) -> dict:
    if place is None:
        return {"place": None, "place_shared": None}
    shared = list(place.shared) if place.tied else None
    return {"place": place.place, "place_shared": shared}


def hands_in_round(tournament_id: int, round_number: int):
    return Hand.objects.filter(tournament_id=tournament_id, h4h_round=round_number)


def tables_in_play(tournament_id: int) -> list[Table]:
    """Open tables with two players or more: the ones that deal hands."""
    return list(
        Table.objects.filter(tournament_id=tournament_id, broken_at__isnull=True)
        .annotate(players=Count("seat_set__entry"))
        .filter(players__gte=2)
        .order_by("number")
    )


def places_paid(tournament, settings: HandForHand) -> int:
    """The bubble hand-for-hand plays: the house's own number if the TD set one, else
    as many places as the payout table pays."""
    if settings.places_paid:
        return settings.places_paid
    return table_places_paid(tournament)


def current_round(tournament: Tournament, settings: HandForHand) -> handforhand.Round:
    """The round as the engine sees it, from the tables in play and their reports."""
    tables = frozenset(table.number for table in tables_in_play(tournament.pk))
    reports = HandForHandReport.objects.filter(tournament=tournament, round=settings.round)
    reports = reports.select_related("table").order_by("reported_at", "pk")
    finished = frozenset(r.table.number for r in reports if not r.held) & tables
    held = tuple(r.table.number for r in reports if r.held and r.table.number in tables)
    return handforhand.Round(settings.round, tables | finished, finished, held)


def h4h_now(tournament: Tournament) -> dict | None:
    """Hand-for-hand as `h4h_public` says it while it is played (the lobby's panel);
    None, after one query, while it is not."""
    settings = hand_for_hand(tournament.pk)
    if not settings.active:
        return None
    return h4h_public(tournament, settings, current_round(tournament, settings))


def h4h_public(tournament, settings: HandForHand, current) -> dict:
    """Hand-for-hand for tablets, lobby screens and the TD: the round, which tables have
    finished, which hold an all-in (RP-8 F) and which shows down now."""

    left = tournament.entries.filter(status=EntryStatus.ACTIVE).count()
    paid = places_paid(tournament, settings)
    return {
        "active": settings.active,
        "round": settings.round,
        "round_started_at": settings.round_started_at,
        "tables": sorted(current.tables),
        "finished": sorted(current.finished),
        "held": list(current.held),
        "playing": sorted(current.playing),
        "showdown": handforhand.showdown_next(current),
        "deal": settings.active and not current.finished and not current.held,
        "players_left": left,
        "places_paid": paid,
        "places_paid_set": settings.places_paid,
        "seconds_per_hand": settings.seconds_per_hand,
        "margin": settings.margin,
        "alert_minutes": settings.alert_minutes,
        "suggested": bool(
            not settings.active and paid and handforhand.suggest(left, paid, settings.margin)
        ),
    }


# --- What tablets and the TD's map show ------------------------------------------------


def hand_public(hand: Hand | None) -> dict | None:
    if hand is None:
        return None
    return {
        "number": hand.number,
        "level": hand.level,
        "status": hand.status,
        "button": hand.button,
        "small_blind": hand.small_blind,
        "big_blind": hand.big_blind,
        "h4h_round": hand.h4h_round,
        "item_pending": hand.item_pending or None,  # RP-22: waiting for the floor
        "started_at": hand.started_at,
        "start_event": hand.start_event or None,  # TDA 23: what the dealer marked
        "start_marked_at": hand.start_marked_at,
        "finished_at": hand.finished_at,
    }


@dataclass(frozen=True)
class AwayRecord:
    """A penalty being served (TDA 71-C), as the deal and the tablet read it."""

    entry: int
    table: int  # where it was given
    after_hand: int | None  # the hand in play then: it stays live (TDA 68)
    hands: int
    missed: int


UNREAD = object()  # table_state_public: the hand in play not given, read it


def table_state_public(table: Table, *, now=None, playing=UNREAD, away=None) -> dict:
    """One table for its tablet and the TD: the hand in play, or who posts what on the
    next hand (TDA 32, 34-B; new players wait for the button, TDA 10-A). `now` (the
    table as it stands), `playing` (its hand in play, None: none) and `away` (the
    event's `away_records`) where the caller has them."""
    if now is None:
        now = table_now(table)
    if playing is UNREAD:
        playing = hand_in_play(table)
    upcoming = None
    if playing is None:
        try:
            positions = now.positions()
        except ValueError:  # no usable seats: nothing to deal
            positions = None
        if positions is not None:
            upcoming = {
                "button": positions.button,
                "small_blind": positions.small_blind,
                "big_blind": positions.big_blind,
                "dealt_in": list(positions.dealt_in),
                "waiting": list(positions.waiting),
                "heads_up": positions.heads_up,
            }
    return {
        "table": table.number,
        "players": len(now.occupied),
        "button_drawn": now.state.button is not None,
        "draw_cards": now.state.draw_cards or None,
        "hands_played": now.state.hands_played,  # dealt, the hand in play included
        "hands_finished": now.state.hands_played - (1 if playing else 0),
        "hand": hand_public(playing),
        "next": upcoming,
        "away": _away(table, away),
    }


def _away(table: Table, records: list[AwayRecord] | None) -> dict[str, int]:
    """Seats whose player is away (TDA 71-C): dealt in, blinds posted, hand dead from the
    next hand dealt (TDA 68); with the hands still to miss, after which the player may
    come back."""
    seats = away_seats(table.tournament_id, table.number, records)
    return {str(seat): left for seat, left in seats.items()}


# --- Hands sat out (TDA 71-C) -----------------------------------------------------------------


def away_records(tournament_id: int) -> list[AwayRecord]:
    """The event's penalties being served, in the order given: one query, which the deal
    reads once for both the seats it deals dead and the table it shows after."""
    serving = Away.objects.filter(tournament_id=tournament_id, ended_at__isnull=True)
    return [
        AwayRecord(*row)
        for row in serving.values_list(
            "entry_id", "table_number", "after_hand", "hands", "hands_missed"
        )
    ]


def away_seats(
    tournament_id: int, table_number: int, records: list[AwayRecord] | None = None
) -> dict[int, int]:
    """Seat → hands still to miss, for the players away at this table (TDA 71-C): where
    they sit now, whichever table they were sent away at. Records given together add up.
    A penalty given during the hand in play is here too, though that hand stays live
    (TDA 68): which seats a hand deals dead is kept with the hand (`HandPlayer.dead`).
    `records`: the event's `away_records`, where the caller has read them."""
    if records is None:
        records = away_records(tournament_id)
    left: dict[int, int] = {}
    for record in records:
        left[record.entry] = left.get(record.entry, 0) + max(0, record.hands - record.missed)
    if not left:
        return {}
    seats = Seat.objects.filter(
        table__tournament_id=tournament_id,
        table__number=table_number,
        table__broken_at__isnull=True,
        entry_id__in=left,
    ).values_list("number", "entry_id")
    return {seat: left[entry] for seat, entry in seats}


def dead_blinds_owed(tournament_id: int) -> dict[int, int]:
    """Entry → the dodged blinds it owes, to be posted as dead money in its next hand
    (older TDA 22); the tablet shows them on the seat."""
    owed = DeadBlinds.objects.filter(tournament_id=tournament_id, hand__isnull=True)
    return {
        entry: small + big
        for entry, small, big in owed.values_list("entry_id", "small_blind", "big_blind")
    }


def away_serving(
    tournament_id: int, table_number: int, records: list[AwayRecord] | None = None
) -> list[away_rules.Serving]:
    """The penalties being served by the players seated at this table, each with where
    and after which hand it was given: the engine tells from these which seats a new
    hand deals dead (hands.engine.away.dead_seats; TDA 68, 71-C). `records`: the
    event's `away_records`, where the caller has read them."""
    if records is None:
        records = away_records(tournament_id)
    records = [(record.entry, record.table, record.after_hand) for record in records]
    if not records:
        return []
    seats = dict(
        Seat.objects.filter(
            table__tournament_id=tournament_id,
            table__number=table_number,
            table__broken_at__isnull=True,
            entry_id__in={entry for entry, _table, _after in records},
        ).values_list("entry_id", "number")
    )
    return [
        away_rules.Serving(seats[entry], given_at, after)
        for entry, given_at, after in records
        if entry in seats
    ]


# --- The action log -------------------------------------------------------------------------

LIMITS = {"nlhe": "nl", "plo": "pl", "lhe": "fl"}  # board games the betting engine knows


def betting_structure(hand: Hand):
    """The hand's betting structure, or None where the action log is not kept (stud,
    traditional antes, no blinds on the clock)."""

    limit = LIMITS.get(hand.game)
    if limit is None or hand.ante_type == "ante" or not hand.big_blind_amount:
        return None
    return Structure(
        limit=limit,
        small_blind=hand.small_blind_amount,
        big_blind=hand.big_blind_amount,
        ante=hand.ante_amount if hand.ante_type == "bba" else 0,
        small_bet=hand.small_bet,
        big_bet=hand.big_bet,
        **({"cap": None} if hand.heads_up else {}),  # TDA 48: no cap once heads-up
        # Casino §38: the house may lift it once two are left in the hand.
        cap_lifts_heads_up=hand_readings(hand).limit_cap_heads_up == "hand",
    )


def hand_readings(hand: Hand) -> house.HouseSettings:
    """The house settings the hand was dealt under (issue 19)."""
    return house.resolve(hand.house_settings)


def betting_state(hand: Hand):
    """The betting as the logged actions leave it, replayed through the engine."""

    if stud.stud_game(hand.game):
        return _stud_state(hand)
    structure = betting_structure(hand)
    if structure is None:
        return None
    rows = list(hand.players.values_list("seat", "stack", "dead", "dead_money"))
    # Dealing order: the first seat left of the button first.
    order = blinds.from_the_button([row[0] for row in rows], hand.button)
    rows.sort(key=lambda row: order.index(row[0]))
    state = betting.start_hand(
        structure,
        [(seat, stack) for seat, stack, _dead, _money in rows],
        button=hand.button,
        small_blind=hand.small_blind,
        big_blind=hand.big_blind,
        # TDA 71-C: the seats dealt dead when the hand was dealt, so the log replays alike
        dead={seat for seat, _stack, dead, _money in rows if dead},
        # Older TDA 22: dodged blinds made up as dead money at the deal
        dead_money={seat: money for seat, _stack, _dead, money in rows if money},
    )
    # TDA 65-A or IFP 4.8: what a hand killed during play gets back.
    state = replace(state, kill_refund=hand_readings(hand).killed_hand_refund)
    # Actions out of turn, the floor's rulings and hands killed replay in their place
    # (TDA 53, 65-A, 66).
    lines = hand.actions.values_list("seat", "kind", "amount", "out_of_turn")
    return betting.replay(state, lines)


def _stud_state(hand: Hand):
    """A stud hand's betting (hands.engine.stud): the antes, the door cards' bring-in
    (RP-10 E), the logged actions, each street's upcards as the dealer entered them
    (RP-10 D), replayed; None until the door cards are in, or without limits."""

    if not 0 < hand.bring_in_amount <= hand.small_bet:
        return None
    rows = list(hand.players.values_list("seat", "stack", "upcards", "dead"))
    if not rows or any(not upcards for _seat, _stack, upcards, _dead in rows):
        return None
    order = blinds.from_the_button([row[0] for row in rows], hand.button)
    rows.sort(key=lambda row: order.index(row[0]))
    upcards = {seat: list(up) for seat, _stack, up, _dead in rows}
    state = stud.start_stud(
        stud.stud_structure(
            small_bet=hand.small_bet,
            big_bet=hand.big_bet,
            cap=None if hand.heads_up else 4,  # TDA 48: no cap once heads-up
        ),
        [(seat, stack) for seat, stack, _up, _dead in rows],
        game=stud.stud_game(hand.game),
        ante=hand.ante_amount,
        bring_in=hand.bring_in_amount,
        door_cards={seat: up[0] for seat, up in upcards.items()},
        button=hand.button,
        open_pair_rule=hand_readings(hand).stud_open_pair,  # RP-10 F or casino §38
        # TDA 71-C: the seats dealt dead when the hand was dealt (TDA 30: the bring-in)
        dead={seat for seat, _stack, _up, dead in rows if dead},
    )
    state = replace(state, kill_refund=hand_readings(hand).killed_hand_refund)
    lines = hand.actions.values_list("seat", "kind", "amount", "out_of_turn")
    for line in lines:
        state = betting.replay(_stud_deal(state, upcards), [line])
    return _stud_deal(state, upcards)


def _stud_deal(state, upcards: dict[int, list[str]]):
    """Deal the street awaited where its upcards were entered."""
    while state.upcards_due is not None:
        k = stud.STUD_STREETS.index(state.upcards_due)
        if any(len(upcards[seat]) <= k for seat in state.in_hand):
            break
        state = state.deal({seat: upcards[seat][k] for seat in state.in_hand})
    return state


def actions_public(hand: Hand, state=None) -> list[dict]:
    """The hand's action log as its history reads: each action, and for one made with an
    item of no value (RP-22) the item and the line that tells what it was ruled; for an
    action out of turn, whether it is held, stood or was let go, and the floor's rulings
    on skipped hands (TDA 53); a hand killed during play and any chips given back (TDA
    65-A, 66). `state`: the betting as the log leaves it, if read."""
    rows = list(
        hand.actions.values("sequence", "street", "seat", "kind", "amount", "item", "out_of_turn")
    )
    outcomes, kills = {}, {}
    if any(row["out_of_turn"] for row in rows):
        state = state or betting_state(hand)
        outcomes = {o.line: o for o in state.outcomes} if state else {}
        kills = {k.line: k for k in state.kills} if state else {}
    return [
        {
            **row,
            "item": row["item"] or None,
            "out_of_turn": row["out_of_turn"] or None,
            "outcome": outcomes[row["sequence"]].result if row["sequence"] in outcomes else None,
            "note": _line_note(row, outcomes.get(row["sequence"]), kills.get(row["sequence"]))
            or None,
        }
        for row in rows
    ]


def _line_note(row: dict, outcome, kill) -> str:
    if row["out_of_turn"] == killed.KILLED:  # TDA 65-A, 66
        returned = kill.returned if kill is not None else 0
        return killed_note(seat=row["seat"], reason=row["kind"], returned=returned)
    if row["out_of_turn"]:
        return oot_note(row, outcome)
    return item_note(seat=row["seat"], item=row["item"], kind=row["kind"], amount=row["amount"])


def legal_public(options) -> dict | None:
    if options is None:
        return None
    return {
        "seat": options.seat,
        "call": options.call,
        "can_check": options.can_check,
        "wager": options.wager,
        "min_to": options.min_to,
        "max_to": options.max_to,
    }


def betting_public(state, *, show_reading: str = SHOW_TDA) -> dict | None:
    """The betting as the API and the tablet read it; `show_reading` is the house
    setting `show_order` (TDA 17-A or casino §42)."""
    if state is None:
        return None
    return {
        "street": state.street,
        "to_act": state.to_act,
        "pot": state.pot,
        "current_bet": state.current_bet,
        "finished": state.finished,
        "all_in_showdown": state.all_in_showdown,
        "legal": legal_public(state.legal_actions()),
        "dead": list(state.dead),  # TDA 71-C: on penalty, dead from the deal
        "stacks": {str(seat): chips for seat, chips in state.stacks.items()},
        "show_order": show_order_public(state, show_reading),
        **(_stud_public(state) if isinstance(state, StudState) else {}),
        "out_of_turn": oot_public(state),
        "killed": killed_public(state),
    }


def killed_public(state) -> list[dict]:
    """TDA 65-A, 66: the hands killed during play, why, the rule, and the chips of an
    uncalled bet or raise given back."""
    return [
        {"seat": k.seat, "reason": k.reason, "rule": k.rule, "returned": k.returned}
        for k in state.kills
    ]


def oot_public(state) -> dict:
    """TDA 53: the actions out of turn held for their turn (what each answered), the
    skipped seats the floor is to rule on (the betting holds), the seats limited to
    check, call or fold this betting round, and the hands ruled dead."""
    return {
        "pending": [
            {"seat": p.seat, "kind": p.kind, "amount": p.amount, "facing": p.facing}
            for p in state.pending
        ],
        "awaiting_floor": list(state.awaiting),
        "limited": sorted(state.limited),
        "dead": sorted(state.ruled_dead),
    }


def _stud_public(state) -> dict:
    """Stud: the upcards, who brought it in, and the street whose upcards are due."""
    return {
        "upcards": {str(seat): list(cards) for seat, cards in state.upcards},
        "bring_in_seat": state.bring_in_seat,
        "upcards_due": state.upcards_due,
    }


def show_order_public(state, reading: str = SHOW_TDA) -> dict | None:
    """Once the betting is over with two or more hands left: who tables first (TDA 17-A,
    or casino §42 where the house says so; TDA 16: all at once when a player is
    all-in). The order of a final round: left of the button in flop games, by the
    upcards in stud (hands.engine.stud)."""

    if state is None or not state.finished or len(state.in_hand) < 2:
        return None
    final_round = state.act_order() if isinstance(state, StudState) else state.in_hand
    shown = show_order(
        final_round,
        last_aggressor=state.aggressor,
        all_in=state.all_in_showdown,
        hand_aggressor=state.hand_aggressor,
        reading=reading,
    )
    return {"seats": list(shown.order), "all_at_once": shown.all_at_once, "rule": shown.rule}


# --- The table's last bust, and whether its tablet may take it back ------------------------


@dataclass(frozen=True)
class LastBust:
    """The last player out at a table; `refusal` says why the tablet may no longer take
    the bust back ("" while it may)."""

    entry: int
    number: int
    name: str
    seat: int | None
    refusal: str


def table_last_bust(table: Table) -> LastBust | None:
    """The table's last bust-out. Its tablet may undo it (a player ticked by mistake)
    while nothing depends on it:

    - nobody else went out in the same hand or since, anywhere: their places would
      change (IFP 4.27, RP-8 A);
    - no hand has been dealt at the table since (`TableState.dealt_at`);
    - nobody has been seated at or moved to or from the table since;
    - the seat the player left is still free, and the player has not re-entered.

    Anything else is the floor's call, at the desk (hands.services.busts.entry_bust_undo).
    """
    row = (
        Elimination.objects.filter(tournament_id=table.tournament_id, table_number=table.number)
        .select_related("entry__player")
        .order_by("-pk")
        .first()
    )
    if row is None:
        return None
    entry = row.entry
    return LastBust(entry.pk, entry.number, entry.player.name, row.seat, _bust_ties(table, row))


def _bust_ties(table: Table, row: Elimination) -> str:
    others = Elimination.objects.filter(tournament_id=table.tournament_id).exclude(pk=row.pk)
    if others.filter(Q(pk__gt=row.pk) | Q(hand_key=row.hand_key)).exists():
        return "bust_places"
    dealt = TableState.objects.filter(table=table).values_list("dealt_at", flat=True).first()
    if dealt is not None and dealt > row.recorded_at:
        return "bust_hand_since"
    moved = Move.objects.filter(
        Q(to_table=table.number) | Q(from_table=table.number),
        action__tournament_id=table.tournament_id,
        action__undone_at=None,
        action__at__gt=row.recorded_at,
    )
    if moved.exists():
        return "bust_moves_since"
    back = seats_back(table.tournament_id, [row.entry_id]).get(row.entry_id)
    if back is None or not back.free or (back.table, back.seat) != (table.number, row.seat):
        return "bust_seat_taken"
    player_back = Entry.objects.filter(
        tournament_id=table.tournament_id,
        player_id=row.entry.player_id,
        status=EntryStatus.ACTIVE,
    )
    if player_back.exists():
        return "bust_player_back"
    return ""


# --- bounties (issue 18) ----------------------------------------------------------------------


def knockouts_standing(tournament: Tournament):
    """The event's knockouts that stand: not reversed by a correction."""
    return Knockout.objects.filter(tournament=tournament, reversed_at__isnull=True)


def entry_bounties(tournament: Tournament, entry_ids=None) -> dict[int, int]:
    """The bounty on each active entry's head now (only `entry_ids`' where given): the
    event's bounty, and in a progressive knockout what that entry's knockouts added to
    it. A mystery bounty event has no bounty on anyone's head (the prizes are drawn),
    nor has an event without."""
    if tournament.bounty_format not in (BountyFormat.KNOCKOUT, BountyFormat.PROGRESSIVE):
        return {}
    active = Entry.objects.filter(tournament=tournament, status=EntryStatus.ACTIVE)
    if entry_ids is not None:
        active = active.filter(pk__in=list(entry_ids))
    heads = dict.fromkeys(active.values_list("pk", flat=True), tournament.bounty)
    if tournament.bounty_format == BountyFormat.PROGRESSIVE:
        grown = (
            knockouts_standing(tournament)
            .filter(winner__in=list(heads))
            .values("winner")
            .annotate(total=Sum("added"))
            .values_list("winner", "total")
        )
        for entry_id, added in grown:
            heads[entry_id] += added
    return heads


def mystery_prizes(tournament: Tournament) -> tuple[int, ...]:
    """The event's published list of sealed bounties, one amount each, largest first."""
    return bounties.mystery_pool(
        bounties.MysteryPrize(int(prize["amount"]), int(prize["count"]))
        for prize in tournament.mystery_prizes or ()
    )


def mystery_left(tournament: Tournament) -> tuple[int, ...]:
    """The sealed bounties still in the draw, largest first: the published list less the
    prizes of the draws that stand (eliminators sharing a prize share its draw)."""
    left = list(mystery_prizes(tournament))
    drawn = (
        knockouts_standing(tournament)
        .filter(draw__isnull=False)
        .values("draw")
        .annotate(prize=Sum("cash"))
        .values_list("prize", flat=True)
    )
    for prize in drawn:
        if prize in left:
            left.remove(prize)
    return tuple(left)


def bounties_won(tournament: Tournament, entry_ids=None) -> dict[int, int]:
    """The bounty cash each entry (of `entry_ids` where given) has won, by entry id: its
    knockouts that stand."""
    standing = knockouts_standing(tournament)
    if entry_ids is not None:
        standing = standing.filter(winner__in=list(entry_ids))
    won = standing.values("winner").annotate(total=Sum("cash")).values_list("winner", "total")
    return dict(won)


def mystery_replay_check(tournament: Tournament) -> list[int]:
    """The mystery draws that do not replay from the event's seed (none: every draw is
    what `random.Random(f"{seed}:{draw}")` gives over the prizes left when it was made).
    A draw's prize is what its standing knockouts share (a correction re-shares the same
    prize under the same number), or, taken back, what its last rows shared; a prize
    taken back returns to the pool for the draws made after."""
    rows = list(
        Knockout.objects.filter(tournament=tournament, draw__isnull=False).order_by("draw", "id")
    )
    draws: dict[int, list[Knockout]] = {}
    for row in rows:
        draws.setdefault(row.draw, []).append(row)
    made, prize, returned = {}, {}, {}
    for number, group in draws.items():
        made[number] = min(row.recorded_at for row in group)
        standing = [row for row in group if row.reversed_at is None]
        if standing:
            prize[number], returned[number] = sum(row.cash for row in standing), None
        else:
            last = max(row.reversed_at for row in group)
            prize[number] = sum(row.cash for row in group if row.reversed_at == last)
            returned[number] = last
    published = mystery_prizes(tournament)
    wrong = []
    for number in draws:
        left = list(published)
        for earlier in draws:
            if earlier >= number:
                break
            if returned[earlier] is None or returned[earlier] > made[number]:
                if prize[earlier] in left:
                    left.remove(prize[earlier])
        if not left:
            wrong.append(number)
            continue
        rng = random.Random(f"{tournament.mystery_seed}:{number}")
        if bounties.mystery_draw(left, rng)[0] != prize[number]:
            wrong.append(number)
    return wrong


def knockouts_of_busts(tournament: Tournament, entry_ids) -> dict[int, list[Knockout]]:
    """The standing knockouts of these busted entries (winner's entry and player
    loaded), by busted entry: the desk shows who eliminated each."""
    found: dict[int, list[Knockout]] = {}
    rows = (
        knockouts_standing(tournament)
        .filter(busted__in=list(entry_ids))
        .exclude(source="winner")
        .select_related("winner__player")
    )
    for row in rows:
        found.setdefault(row.busted_id, []).append(row)
    return found


@dataclass(frozen=True)
class BustSettlement:
    knockouts: list  # the standing knockouts of the bust, winner and player loaded
    unnamed: bool  # "eliminator not named": the floor still has to name them


def busts_settlement(tournament: Tournament, entry_ids) -> dict[int, BustSettlement]:
    """For these busted entries of a bounty event: who eliminated each (its standing
    knockouts) and whether the floor still has to name the eliminator (none stands). A
    mystery bounty bust before the start point draws nothing: only one made after the
    first draw, or from the start, waits. Empty outside bounty events. Three queries."""
    fmt = tournament.bounty_format
    if fmt not in (BountyFormat.KNOCKOUT, BountyFormat.PROGRESSIVE, BountyFormat.MYSTERY):
        return {}
    entry_ids = list(entry_ids)
    if not entry_ids:
        return {}
    found = knockouts_of_busts(tournament, entry_ids)
    busts = dict(
        Elimination.objects.filter(tournament=tournament, entry_id__in=entry_ids).values_list(
            "entry_id", "recorded_at"
        )
    )
    first_draw = None
    if fmt == BountyFormat.MYSTERY and tournament.mystery_start != "start":
        first_draw = (
            Knockout.objects.filter(tournament=tournament, draw__isnull=False)
            .order_by("recorded_at")
            .values_list("recorded_at", flat=True)
            .first()
        )
    settled = {}
    for entry_id, busted_at in busts.items():
        rows = found.get(entry_id, [])
        waits = not rows
        if waits and fmt == BountyFormat.MYSTERY and tournament.mystery_start != "start":
            waits = first_draw is not None and busted_at >= first_draw
        settled[entry_id] = BustSettlement(rows, waits)
    return settled


# --- The start of the next hand (TDA 23; casino §25, §32) ----------------------------------


def start_mark_of(table: Table) -> HandStartMark | None:
    """The mark of the start of the table's next hand while it still stands (TDA 23), else
    None. A mark names the hand that the players seated at the table then began; it
    stands until that hand is dealt (the deal takes it over) or the dealer takes it back,
    and goes without either:

    - once the table has broken (TDA 10-B, or the final table drawn): no hand comes there;
    - once anyone has been seated at, moved to or from the table since the mark, or a
      seating action that did so was undone since: the next deal is another hand than the
      one whose start was marked (its players changed), so its level is read afresh.

    Halting (TDA 11-D, the house's `halting`) keeps a mark made before the table halted:
    the hand had begun (TDA 23), and once the director waives the halt (not a misdeal,
    TDA 11-D) it is dealt at the level it began at; balancing the table moves players,
    which ends it as above. A paused clock, hand-for-hand (RP-8) or a break on the clock
    keep it too: none of them changes which level was in play when the hand began.
    Reading never removes a mark; the next mark or deal at the table does."""
    mark = HandStartMark.objects.filter(table=table).first()
    if mark is None:
        return None
    if table.broken_at is not None:
        return None
    here = Q(to_table=table.number) | Q(from_table=table.number)
    since = Q(action__at__gt=mark.marked_at) | Q(action__undone_at__gt=mark.marked_at)
    moved = Move.objects.filter(here, since, action__tournament_id=table.tournament_id)
    return None if moved.exists() else mark


def start_mark_public(table: Table) -> dict | None:
    """The start of the table's next hand as the dealer marked it, with the level it
    keeps (TDA 23); None before the mark, or once it no longer stands (`start_mark_of`)."""
    mark = start_mark_of(table)
    if mark is None:
        return None
    return {"event": mark.event, "level": mark.level, "marked_at": mark.marked_at}

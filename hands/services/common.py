"""What the hands services share: refusals, the open table, the table's live event.
The lock is the tournament's row, for desks, floor and tables alike
(tournaments.services.tournament_lock)."""

from django.db.models import Count

from clock.selectors import registration_open
from floorman import live
from floorman.errors import Conflict, NotFound
from hands.engine import stud as stud_rules
from hands.messages import refusal_message
from hands.models import Hand, HandStatus
from hands.selectors import (
    UNREAD,
    betting_state,
    hand_in_play,
    last_hand,
    open_table,
    table_state_public,
)
from seating import engine as seating_engine
from seating.engine import blinds
from seating.models import Seat, Table
from seating.selectors import table_now
from tournaments.models import Tournament


def refuse(code: str, **data) -> Conflict:
    return Conflict(refusal_message(code, **data), code=code, data=data)


def table_of(tournament: Tournament, number: int) -> Table:
    table = open_table(tournament.pk, number)
    if table is None:
        raise NotFound(refusal_message("no_table", number=number))
    return table


def publish_table(table: Table, *, now=None, playing=UNREAD, away=None) -> None:
    """Tablets and the TD's map show the table's state as this transaction leaves it;
    a caller that has the table as it leaves it (`now`), knows its hand in play
    (`playing`, None: none) or has read the penalties served (`away`) passes them,
    saving their reads."""

    live.live_publish(
        tournament_id=table.tournament_id,
        kind=live.TABLE_UPDATED,
        data=table_state_public(table, now=now, playing=playing, away=away),
    )


def table_ready_to_deal(table: Table):
    """A table may start its next hand: none in play, two players or more, a button
    drawn. The table as it stands (`seating.selectors.table_now`) and the next hand's
    number, else 409."""
    number, status = last_hand(table) or (0, HandStatus.FINISHED)
    if status != HandStatus.FINISHED:
        raise refuse("hand_in_play", hand=number)
    now = table_now(table)
    if len(now.occupied) < 2:
        raise refuse("too_few_players")
    if now.state.button is None:
        raise refuse("no_button")
    return now, number + 1


def refuse_if_halted(tournament: Tournament, table, now, rule: str) -> None:
    """TDA 11-D, casino §14, older TDA 25 (the house setting "halting", `rule`): a short
    table stops dealing; which tables halt is seating's rule
    (seating.engine.halted_tables), asked here with this table's own blinds. The floor
    may waive it. Asked by the deal and by the dealer's mark of a hand's start (a halted
    table starts no hand)."""
    if table.halt_waived:
        return
    if rule == seating_engine.HALT_OFF:
        return  # nothing to read at every deal
    # Before its first hand a table has no blinds to reach a seat: balance it first.
    at_open_seat = now.state.big_blind is not None and blinds.blinds_reached_open_seat(
        now.seats, now.occupied, big_blind=now.state.big_blind
    )
    if not _may_halt(rule, now, at_open_seat):
        return  # whatever the other tables hold: no field read at every deal
    here = seating_engine.TableView(number=table.number, seats=now.seats, occupied=now.occupied)
    halted = seating_engine.halted_tables(
        [here, *fullest_other(tournament, table)],
        rule=rule,
        # Only casino §14 asks, and reading registration costs queries at every deal.
        registration_closed=(
            rule == seating_engine.HALT_BELOW_FOUR and not registration_open(tournament)
        ),
        at_open_seat={table.number: at_open_seat},
    )
    for number, halt_rule in halted:
        if number == table.number:
            raise refuse("halted", number=table.number, rule=halt_rule)


def _may_halt(rule: str, now, at_open_seat: bool) -> bool:
    """Whether the table could halt at all by its own seats, before the others are read:
    the blinds rules (TDA 11-D) halt only once the big blind reaches an open seat, the
    others only a table with fewer than four players or three free seats."""
    if rule in (seating_engine.HALT_TDA, seating_engine.HALT_SHORT_HANDED):
        return at_open_seat
    if rule == seating_engine.HALT_BELOW_FOUR:
        return len(now.occupied) < 4
    if rule == seating_engine.HALT_FREE_SEATS:
        return len(now.seats) - len(now.occupied) >= 3
    return True  # a rule added later: ask the engine with the field


def fullest_other(tournament: Tournament, table) -> list:
    """Of the other tables, what halting compares a table with: the most players at any
    other open table, as a stand-in view (none: no other table has players). One
    grouped query, instead of every seat of the field as views."""
    most = (
        Seat.objects.filter(
            table__tournament_id=tournament.pk, table__broken_at=None, entry__isnull=False
        )
        .exclude(table_id=table.pk)
        .values("table_id")
        .annotate(players=Count("id"))
        .order_by("-players")
        .values_list("players", flat=True)
        .first()
    )
    if not most:
        return []
    seats = tuple(range(1, most + 1))
    return [seating_engine.TableView(number=0, seats=seats, occupied=dict.fromkeys(seats, 0))]


def hand_row(table: Table, number: int) -> Hand:
    """The table's hand in play, if it is hand `number`; else 409 (over, none, another)."""
    hand = hand_in_play(table)
    if hand is None:
        if Hand.objects.filter(table=table, number=number).exists():
            raise refuse("hand_finished", hand=number)
        raise refuse("no_hand_in_play")
    if hand.number != number:
        raise refuse("not_this_hand", hand=number)
    return hand


def hand_playing(tournament: Tournament, number: int, hand_number: int):
    """The table, its hand being played and the betting as its log leaves it: what every
    action during a hand starts from. Refused when the hand is over or keeps no action
    log (a stud hand: none until its door cards are entered)."""
    table = table_of(tournament, number)
    hand = hand_row(table, hand_number)
    if hand.status != HandStatus.PLAYING:
        raise refuse("hand_finished", hand=hand.number)
    state = betting_state(hand)
    if state is None:
        if stud_rules.stud_game(hand.game) and hand.small_bet and hand.bring_in_amount:
            raise refuse("upcards_due")
        raise refuse("no_action_log")
    return table, hand, state

"""TDA 53: an action out of turn at a logged hand, and the floor's ruling on a skipped hand.

The dealer records the action a player made out of turn. It goes into the hand's action
log as a line of its own, held: the action backs up to the player in turn, and the
betting engine applies the held action, or lets it go, when the action reaches the seat
(hands.engine.out_of_turn: it stands if the action to the seat did not change; a fold
out of turn always stands, TDA 58). Because the rule lives in the engine and the line
in the log, the log replays alike.

Once substantial action (TDA 36) has happened out of turn after a skipped player, the
betting holds until the floor rules on the skipped hand, on the tablet or through the
API: dead, or limited to check, call or fold this betting round (TDA 53-B). The ruling
is a line of the log as well. Either way the floor is called: an action out of turn is
subject to penalty (TDA 53-A), which the floor gives as any other (rulings.penalty_give;
the tablet shows the player warned, RP-15).
"""

from django.db import transaction
from django.utils.translation import gettext as _

from floorman.audit import audit_record
from floorman.errors import Conflict, Invalid
from hands.engine import betting
from hands.engine import out_of_turn as oot
from hands.messages import illegal_message
from hands.models import Hand, HandAction, OutOfTurn
from hands.selectors import legal_public
from hands.services.common import hand_playing, publish_table, refuse
from tournaments.services import tournament_lock


def _illegal(illegal: betting.IllegalAction) -> Conflict:
    return Conflict(
        illegal_message(illegal.rule, illegal.message),
        code="illegal_action",
        data={"rule": illegal.rule, "legal": legal_public(illegal.options)},
    )


def _playing(tournament, number: int, hand_number: int):
    """The hand being played (`hand_playing`), refused when its betting is over."""
    table, hand, state = hand_playing(tournament, number, hand_number)
    if state.to_act is None:
        raise _illegal(betting.IllegalAction("TDA 53-A", "the betting is over", None))
    return table, hand, state


def _line(hand: Hand, state, after, *, seat: int, kind: str, amount, out_of_turn: str) -> None:
    HandAction.objects.create(
        hand=hand,
        sequence=after.lines,
        seat=seat,
        kind=kind,
        amount=amount,
        street=state.street,
        out_of_turn=out_of_turn,
    )


@transaction.atomic
def hand_out_of_turn(
    *,
    actor,
    tournament_id: int,
    number: int,
    hand_number: int,
    seat: int,
    kind: str,
    amount: int | None = None,
):
    """A player acted out of turn (TDA 53-A): the action is recorded and held.

    1. Lock; refuse a hand not in play, without an action log, over, waiting for the
       floor (an item, RP-22; a skipped hand, TDA 53-B); a seat not in the hand (folded,
       away, never dealt in), all-in, the seat in turn, or one already holding an action
       out of turn (409).
    2. The betting engine checks the action as if it were the seat's turn (TDA 43, 55,
       ...: 409 with the rule) and holds it; one more line of the log, marked out of turn.
       Substantial action out of turn after a skipped seat holds the betting for the
       floor (TDA 53-B).
    3. One audit entry citing TDA 53-A (the action is subject to penalty: the floor is
       called); the table's tablets see it after commit.

    Returns the hand and the betting after it."""
    try:
        action = betting.Action(kind, seat, amount)
    except ValueError:
        raise Invalid({"amount": _("A bet or raise needs an amount.")}) from None
    tournament = tournament_lock(tournament_id)
    table, hand, state = _playing(tournament, number, hand_number)
    if hand.item_pending:
        raise refuse("item_pending", seat=state.to_act)
    if state.awaiting:
        raise refuse("oot_floor", seat=state.awaiting[0])
    # A seat dealt dead on penalty (TDA 71-C) is out of the hand from the deal.
    if seat not in state.in_hand or seat in state.ruled_dead:
        raise refuse("oot_not_in_hand", seat=seat)
    if seat == state.to_act:
        raise refuse("oot_in_turn", seat=seat)
    if not state.player(seat).can_act:
        raise refuse("oot_all_in", seat=seat)
    if any(held.seat == seat for held in state.pending):
        raise refuse("oot_pending", seat=seat)
    try:
        after = state.declare(action)
    except betting.IllegalAction as illegal:
        if illegal.rule == "TDA 53-A":  # the one left: the seat has nothing to act on
            raise refuse("oot_nothing_to_act", seat=seat) from None
        raise _illegal(illegal) from None
    _line(hand, state, after, seat=seat, kind=kind, amount=amount, out_of_turn=OutOfTurn.ACTION)
    held = after.pending[-1]
    audit_record(
        actor=actor,
        action="hand.out_of_turn",
        obj=hand,
        tournament=tournament,
        after={
            "table": table.number,
            "hand": hand.number,
            "street": state.street,
            "seat": seat,
            "kind": held.kind,
            "amount": held.amount,
            "to_act": state.to_act,  # the action backs up to this seat
            "facing": held.facing,
            "awaiting_floor": list(after.awaiting),  # TDA 53-B: the skipped seats
            "rule": "TDA 53-B" if after.awaiting else "TDA 53-A",
        },
    )
    publish_table(table)
    return hand, after


@transaction.atomic
def hand_skipped_rule(
    *, actor, tournament_id: int, number: int, hand_number: int, seat: int, ruling: str
):
    """The floor rules on a skipped seat's hand after substantial action out of turn
    (TDA 53-B): dead, or limited to check, call or fold this betting round.

    1. Lock; refuse a hand not in play or a seat with no skipped hand waiting (409), an
       unknown ruling (400).
    2. The ruling is a line of the log; once every skipped seat is ruled on, the betting
       goes on: a dead hand folds when the action reaches it, the actions out of turn
       after it stand as the action reaches them.
    3. One audit entry citing TDA 53-B; the table's tablets see it after commit.

    Returns the hand and the betting after it."""
    if ruling not in oot.RULINGS:
        raise Invalid({"ruling": _("Rule the skipped hand dead, or check, call or fold only.")})
    tournament = tournament_lock(tournament_id)
    table, hand, state = _playing(tournament, number, hand_number)
    if seat not in state.awaiting:
        raise refuse("oot_no_ruling", seat=seat)
    after = state.rule_skipped(seat, ruling)
    _line(hand, state, after, seat=seat, kind=ruling, amount=None, out_of_turn=OutOfTurn.RULING)
    audit_record(
        actor=actor,
        action="hand.skipped_ruling",
        obj=hand,
        tournament=tournament,
        after={
            "table": table.number,
            "hand": hand.number,
            "street": state.street,
            "seat": seat,
            "ruling": ruling,
            "awaiting_floor": list(after.awaiting),
            "rule": "TDA 53-B",
        },
    )
    publish_table(table)
    return hand, after

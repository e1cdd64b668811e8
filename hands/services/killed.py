"""TDA 65-A, 66: a hand killed during play, recorded at the tablet or through the API.

The dealer killed a hand by mistake, the floor judged a fouled hand could not be
identified (TDA 65-A), or in stud the player picked up the upcards facing action
(TDA 66). The hand is dead at once, whoever's turn it is: a line of the hand's action
log that the betting engine replays in its place (hands.engine.killed, `HandState.kill`),
so the hand as its log leaves it is always the same. The calls stay in the pot; an
uncalled bet or raise goes back. One live hand left wins, as when everyone folds: the
result is then recorded as for any hand.

A fouled hand that can be identified is never killed (TDA 65-B): asked to, the service
answers so and writes nothing.
"""

from django.db import transaction
from django.utils.translation import gettext as _

from floorman.audit import audit_record
from floorman.errors import Invalid
from hands.engine import betting, killed
from hands.models import HandAction, OutOfTurn
from hands.services.common import hand_playing, publish_table, refuse
from tournaments.services import tournament_lock


@transaction.atomic
def hand_kill(*, actor, tournament_id: int, number: int, hand_number: int, seat: int, reason: str):
    """A hand killed during play (TDA 65-A, 66).

    1. An unknown reason is 400. Lock; refuse a hand not in play, without an action log
       (stud: before the door cards), waiting for the floor's ruling on an item (RP-22);
       a seat without a live hand (never dealt in, folded, on penalty, already dead) or
       the last live hand (409).
    2. The rule (hands.engine.killed): a fouled hand that can be identified stays in
       play (TDA 65-B); TDA 66 only in stud and only facing action: 409 saying so.
    3. The betting engine folds the seat out of turn, gives back an uncalled bet or raise
       and keeps the order of action for the others; one more line of the log, marked
       killed, the reason as its kind.
    4. One audit entry `hand.kill` with the rule; the table's tablets see it after commit.

    Returns the hand and the betting after it. A refusal writes nothing."""
    if reason not in killed.ASKED:
        raise Invalid(
            {
                "reason": _(
                    "Say why the hand is dead: killed by the dealer by mistake, fouled and "
                    "not identifiable (TDA 65-A), or stud upcards picked up facing action "
                    "(TDA 66); fouled but identifiable, it stays in play (TDA 65-B)."
                )
            }
        )
    tournament = tournament_lock(tournament_id)
    table, hand, state = hand_playing(tournament, number, hand_number)
    if hand.item_pending:  # RP-22: the floor rules on the item before the hand goes on
        raise refuse("item_pending", seat=state.to_act)
    if seat not in state.in_hand or seat in state.ruled_dead:
        raise refuse("kill_not_in_hand", seat=seat)
    if state.in_hand == (seat,):
        raise refuse("kill_last_hand", seat=seat)
    try:
        after = state.kill(seat, reason)
    except betting.IllegalAction as illegal:
        raise refuse(illegal.message, seat=seat) from None
    HandAction.objects.create(
        hand=hand,
        sequence=after.lines,
        seat=seat,
        kind=reason,
        amount=None,
        street=state.street,
        out_of_turn=OutOfTurn.KILLED,
    )
    kill = after.kills[-1]
    audit_record(
        actor=actor,
        action="hand.kill",
        obj=hand,
        tournament=tournament,
        after={
            "table": table.number,
            "hand": hand.number,
            "street": state.street,
            "seat": seat,
            "reason": reason,
            "rule": kill.rule,
            "returned": kill.returned,  # an uncalled bet or raise given back (TDA 65-A)
            "to_act": after.to_act,
            "in_hand": list(after.in_hand),
        },
    )
    publish_table(table)
    return hand, after

"""RP-22: a player bets with an item of no value (a bounty chip, a clock token).

The dealer records it as the action of the player in turn. The house policy
(Tournament.non_betting_items) says what it stands for, a call or all-in
(hands.engine.items); where the house leaves it to the floor (TDA 1), the hand holds
until the floor rules, on the tablet, as a second step. Either way the action log gets
the ruled action, an ordinary call, check or all-in that replays as any other, with the
item as a note beside it: the item is never chips.
"""

from django.db import transaction
from django.utils.translation import gettext as _

from floorman.audit import audit_record
from floorman.errors import Conflict, Invalid
from hands.engine import betting, items
from hands.messages import illegal_message
from hands.models import Hand, HandAction
from hands.selectors import legal_public
from hands.services.common import hand_playing, publish_table, refuse
from hands.services.hands import _action_log
from tournaments.services import tournament_lock

RULE = "RP-22"


def _illegal(illegal: betting.IllegalAction) -> Conflict:
    return Conflict(
        illegal_message(illegal.rule, illegal.message),
        code="illegal_action",
        data={"rule": illegal.rule, "legal": legal_public(illegal.options)},
    )


def _rule(hand: Hand, state, *, item: str, ruling: str) -> HandAction:
    """Log the action the item stands for, with the item as its note (a seat dealt dead
    on penalty is never to act, TDA 71-C: the engine skips it, as after any action)."""
    try:
        action = items.item_action(state, ruling)
        _action_log(hand, state, action, item=item)
    except betting.IllegalAction as illegal:
        raise _illegal(illegal) from None
    return hand.actions.get(sequence=state.lines + 1)


def _audit(actor, name: str, tournament, table, hand: Hand, state, **after) -> None:
    audit_record(
        actor=actor,
        action=name,
        obj=hand,
        tournament=tournament,
        after={
            "table": table.number,
            "hand": hand.number,
            "seat": state.to_act,
            "street": state.street,
            "rule": RULE,
            **after,
        },
    )


def _logged(row: HandAction) -> dict:
    return {"action": row.kind, "amount": row.amount}


@transaction.atomic
def hand_item(
    *,
    actor,
    tournament_id: int,
    number: int,
    hand_number: int,
    item: str,
    seat: int | None = None,
) -> tuple[Hand, HandAction | None]:
    """The player in turn put an item of no value forward as their action (RP-22).

    1. Refuse a hand not in play, without an action log, already waiting for the floor,
       or a seat that is not the one to act (TDA 53-A).
    2. By the house policy the item stands for a call (a check with nothing to call) or
       all-in: that action is logged with the item as its note. Where the house leaves it
       to the floor, the hand holds for the floor's ruling (hand_item_rule) instead.
    3. One audit entry citing RP-22; the table's tablets and the floor see it after commit.

    Returns the hand and the logged action, None while the floor is to rule."""
    if item not in items.ITEMS:
        raise Invalid({"item": _("Choose the item: a bounty chip, a clock token or other.")})
    tournament = tournament_lock(tournament_id)
    table, hand, state = hand_playing(tournament, number, hand_number)
    if hand.item_pending:
        raise refuse("item_pending", seat=state.to_act)
    if state.awaiting:  # TDA 53-B: the floor rules on a skipped hand first
        raise refuse("oot_floor", seat=state.awaiting[0])
    options = state.legal_actions()
    if options is None:
        raise _illegal(betting.IllegalAction("TDA 53-A", "the betting is over", None))
    if seat is not None and seat != state.to_act:
        message = f"seat {seat} acted out of turn: action is on seat {state.to_act}"
        raise _illegal(betting.IllegalAction("TDA 53-A", message, options))
    policy = tournament.non_betting_items
    ruling = items.house_ruling(policy)
    if ruling is None:
        hand.item_pending = item
        hand.save(update_fields=["item_pending"])
        logged = None
    else:
        logged = _rule(hand, state, item=item, ruling=ruling)
    _audit(
        actor,
        "hand.item",
        tournament,
        table,
        hand,
        state,
        item=item,
        policy=policy,
        ruling=ruling,  # None: the floor rules (TDA 1)
        **(_logged(logged) if logged else {}),
    )
    publish_table(table)
    return hand, logged


@transaction.atomic
def hand_item_rule(
    *, actor, tournament_id: int, number: int, hand_number: int, ruling: str
) -> tuple[Hand, HandAction]:
    """The floor rules on the item waiting in the hand (RP-22, TDA 1): a call (a check
    with nothing to call) or all-in. The ruled action is logged with the item as its
    note, the hand goes on; one audit entry citing RP-22."""
    if ruling not in items.RULINGS:
        raise Invalid({"ruling": _("Rule the item a call or all-in.")})
    tournament = tournament_lock(tournament_id)
    table, hand, state = hand_playing(tournament, number, hand_number)
    if not hand.item_pending:
        raise refuse("no_item_pending")
    item = hand.item_pending
    logged = _rule(hand, state, item=item, ruling=ruling)
    hand.item_pending = ""
    hand.save(update_fields=["item_pending"])
    _audit(
        actor,
        "hand.item_ruling",
        tournament,
        table,
        hand,
        state,
        item=item,
        ruling=ruling,
        **_logged(logged),
    )
    publish_table(table)
    return hand, logged

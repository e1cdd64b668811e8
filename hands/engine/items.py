"""RP-22: a bet made with an item of no value (a bounty chip, a clock token).

Such items have no face value: they are never chips, in the pot or in a stack. A player
who puts one forward in turn has acted, and the house policy says what the action was: a
call, or all-in. Where the house leaves it open the floor rules on it (TDA 1), choosing
one of the two. The ruling becomes an ordinary action of the betting engine, so a hand's
log replays as it always has; the item itself is only a note beside that action.
"""

from . import betting
from .betting import HandState

# What the item was: the dealer's choice at the table.
BOUNTY_CHIP = "bounty_chip"
CLOCK_TOKEN = "clock_token"
OTHER = "other"
ITEMS = (BOUNTY_CHIP, CLOCK_TOKEN, OTHER)

# The house policy (tournaments.NonBettingItems) and the two rulings it may make.
FLOOR = "floor"
CALL = "call"
ALL_IN = "all_in"
RULINGS = (CALL, ALL_IN)
POLICIES = (FLOOR, *RULINGS)


def house_ruling(policy: str) -> str | None:
    """The ruling the house policy makes itself, or None when the floor rules (TDA 1)."""
    if policy not in POLICIES:
        raise ValueError(f"unknown RP-22 policy {policy!r}")
    return None if policy == FLOOR else policy


def item_action(state: HandState, ruling: str) -> betting.Action:
    """The betting action an item put forward by the player to act stands for.

    - a call: calls what there is to call; with nothing to call it is a check (TDA 55-A);
    - all-in: the player's whole stack as a bet or raise. Where the rules allow less, it is
      the most they allow: the pot in pot-limit (TDA 54), the fixed bet in limit; where
      the betting was not reopened for the player (TDA 47) or is capped (TDA 48), a call.

    The item adds no chips: only the player's own stack moves, as that action moves it.
    """
    if ruling not in RULINGS:
        raise ValueError(f"unknown RP-22 ruling {ruling!r}")
    options = state.legal_actions()
    if options is None:
        raise betting.IllegalAction("TDA 53-A", "the betting is over: no one is to act", None)
    seat = options.seat
    if ruling == ALL_IN and options.wager is not None:
        player = state.player(seat)
        if options.max_to >= player.bet + player.stack:
            return betting.all_in(seat)
        return betting.Action(options.wager, seat, options.max_to)
    return betting.check(seat) if options.can_check else betting.call(seat)

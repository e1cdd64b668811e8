"""TDA 53: action out of turn (OOT), as pure rules the betting engine asks.

A player who acts before their turn has acted: the action is recorded and held, and the
action backs up to the player whose turn it is (TDA 53-A). When the action reaches the
OOT player, the held action stands if what that player faces has not changed since: the
skipped players only checked, called or folded. A bet or raise in between frees the OOT
player: the chips come back and they may call, raise or fold. A fold out of turn stands
whatever happened (TDA 53-A, TDA 58). Casino §37 reads the same: an action out of turn
binds only while the betting it answered has not changed; check, call and fold change
nothing.

A skipped player must speak up (TDA 53-B). Once substantial action (TDA 36) has happened
out of turn after a skipped player, the actions out of turn stand and the floor rules on
the skipped hand: dead, or limited to checking, calling or folding. Until it has ruled,
the betting holds, as it does for an item of no value (RP-22).

This module knows no hand: it decides from plain values. `hands.engine.betting` keeps the
held actions in its state (`HandState.pending`) and applies them when their turn comes,
so a hand's log, with its out-of-turn lines and the floor's rulings, replays alike.
"""

from dataclasses import dataclass

# What the floor may rule on a skipped hand (TDA 53-B).
DEAD = "dead"
LIMITED = "limited"  # check, call or fold only, for the rest of this betting round
RULINGS = (DEAD, LIMITED)

# What became of an action out of turn once the action reached its seat.
BINDING = "binding"
FREED = "freed"  # the action to the seat changed: chips back, every option open
VOID = "void"  # the betting round or the hand ended before the action reached the seat
OUTCOMES = (BINDING, FREED, VOID)

# How a line of a hand's action log reads (hands.HandAction.out_of_turn).
IN_TURN = ""
DECLARED = "action"  # an action out of turn, held (TDA 53-A)
RULED = "ruling"  # the floor's ruling on a skipped hand (TDA 53-B); the kind is the ruling

CHIPS = frozenset({"call", "bet", "raise", "all-in"})  # actions that put chips in
FOLD = "fold"


@dataclass(frozen=True)
class Pending:
    """An action out of turn, held until the action reaches `seat`.

    `kind` and `amount` are the action as the betting engine read it when it was made (a
    call with nothing to call is a check, TDA 55-A); `facing` is the bet the player
    answered; `line` the log line that recorded it; `substantial` whether it became part
    of substantial action after a skipped player (TDA 53-B)."""

    seat: int
    kind: str
    amount: int | None
    facing: int
    line: int | None = None
    substantial: bool = False


@dataclass(frozen=True)
class Outcome:
    """What became of one action out of turn, and the rule that says so."""

    seat: int
    kind: str
    amount: int | None
    line: int | None
    result: str
    rule: str


def binding(pending: Pending, *, current_bet: int) -> bool:
    """TDA 53-A: the held action stands when the action to the seat did not change (the
    skipped players checked, called or folded: the bet to answer is the same), and a
    fold out of turn always stands (TDA 53-A, TDA 58)."""
    return pending.kind == FOLD or current_bet == pending.facing


def rule_of(pending: Pending, result: str) -> str:
    """The rule to cite for an outcome."""
    if result == BINDING and pending.kind == FOLD:
        return "TDA 58"
    if result == BINDING and pending.substantial:
        return "TDA 53-B"
    return "TDA 53-A"


def substantial(kinds: list[str] | tuple[str, ...]) -> bool:
    """TDA 36: two actions, at least one of them putting chips in, or any three."""
    return len(kinds) >= 3 or (len(kinds) == 2 and any(kind in CHIPS for kind in kinds))


def skipped_to_rule(order: list[int], held: dict[int, str], skipped: set[int]) -> list[int]:
    """TDA 53-B: the skipped seats after which substantial action has happened out of
    turn, whose hands the floor now rules on.

    `order` is the seats from the one whose turn it is, clockwise; `held` the seats with an
    action out of turn and its kind; `skipped` the seats still to act that were passed
    over and not ruled on yet."""
    found = []
    for index, seat in enumerate(order):
        if seat not in skipped:
            continue
        after = [held[other] for other in order[index + 1 :] if other in held]
        if substantial(after):
            found.append(seat)
    return found

"""TDA 65 and 66: a hand killed during play, as pure rules the betting engine asks.

A player protects their own hand, showdown included (TDA 65-A). When the dealer kills a
hand by mistake, or the floor judges a fouled hand cannot be told apart with certainty,
the hand is dead and the player has no redress: what they called stays in the pot. Only
a bet or raise the player made that nobody has called yet goes back to them. A fouled
hand that can still be identified is not dead: it plays on even with cards showing
(TDA 65-B). The older German TDA translation (§28) and the IFP (4.8) give back only an
uncalled raise, an opening bet stays in the pot: the house setting `killed_hand_refund`
(tournaments.house) chooses, the TDA by default. The casino's rules (§24) let the floor
bring back an identifiable hand the dealer pulled in, as TDA 65-B keeps it in play.

In stud, a player who picks up their upcards while the action is on them, or still to
come to them in this betting round, has a dead hand (TDA 66): picking them up is how a
stud hand is mucked.

The hand is dead at once, whoever's turn it is: the betting engine folds the seat out of
turn (`hands.engine.betting.HandState.kill`) and keeps the order of action for the
others; the kill is a line of the hand's log, so the log replays alike.
"""

from dataclasses import dataclass

# Why a hand is killed (the kind of its log line, hands.HandAction.kind).
MISTAKE = "mistake"  # TDA 65-A: the dealer killed it by mistake
FOULED = "fouled"  # TDA 65-A: fouled, and the floor cannot identify it with certainty
UPCARDS = "upcards"  # TDA 66: stud, the player picked up the upcards facing action
REASONS = (MISTAKE, FOULED, UPCARDS)
# TDA 65-B: fouled but identifiable. Never a kill: the answer is that the hand plays on.
IDENTIFIABLE = "identifiable"
ASKED = REASONS + (IDENTIFIABLE,)

# How a line of a hand's action log reads (hands.HandAction.out_of_turn): a hand killed.
KILLED = "killed"

# Which uncalled chips go back (the house setting `killed_hand_refund`).
REFUND_TDA = "tda"  # TDA 65-A: a bet or raise
REFUND_RAISE = "raise"  # IFP 4.8, older TDA §28: a raise only

RULES = {MISTAKE: "TDA 65-A", FOULED: "TDA 65-A", UPCARDS: "TDA 66", IDENTIFIABLE: "TDA 65-B"}


@dataclass(frozen=True)
class Kill:
    """A hand killed: the seat, why, the rule, the chips of an uncalled bet or raise
    given back (TDA 65-A), and the log line that recorded it."""

    seat: int
    reason: str
    rule: str
    returned: int = 0
    line: int | None = None


def refusal(reason: str, *, stud: bool, facing_action: bool) -> str | None:
    """Why the hand is not killed for `reason`, as a refusal code, or None when it is.

    TDA 65-B: a fouled hand that can be identified stays in play. TDA 66 is a stud rule,
    and kills the hand only when the player faces action."""
    if reason not in ASKED:
        raise ValueError(f"unknown reason {reason!r}")
    if reason == IDENTIFIABLE:
        return "kill_identifiable"
    if reason == UPCARDS and not stud:
        return "kill_not_stud"
    if reason == UPCARDS and not facing_action:
        return "kill_not_facing"
    return None


def uncalled(
    *, bet: int, others: int, initiated: bool, opened: bool = False, refund: str = REFUND_TDA
) -> int:
    """TDA 65-A: the chips given back to a killed hand. Only the part of a bet or raise
    the player made (`initiated`: theirs was the last bet or raise of the street) that
    nobody has called: `bet` is the player's chips in front this street, `others` the most
    any other player has put in this street. Calls, blinds, antes and a bet called stay in
    the pot. Where the house gives back a raise only (IFP 4.8), an uncalled opening bet
    (`opened`) stays too."""
    if refund not in (REFUND_TDA, REFUND_RAISE):
        raise ValueError(f"unknown refund reading {refund!r}")
    if not initiated or (opened and refund == REFUND_RAISE):
        return 0
    return max(bet - others, 0)

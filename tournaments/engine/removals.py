"""Chips the floor takes out of play (issue 19) as pure functions.

TDA 8-B: a player allowed to give up their chips for a new stack forfeits them, and
they leave play. TDA 63: chips a player held or moved out of view are forfeited and
leave play. TDA 64: found chips nobody can be shown to own go back to the tournament's
inventory. The first two come off a player's stack, the third off nobody's. (IFP 4.20
puts chips hidden behind an all-in into the pot instead: they stay in play, so that is
no removal; the floor's chips-found calculator answers it.)

Each check returns None when the removal may be recorded, or what is wrong: a field and
an error code for bad input (400), a refusal code for a conflict (409).
"""

REENTRY_FORFEIT = "reentry_forfeit"  # TDA 8-B
OUT_OF_VIEW = "out_of_view"  # TDA 63
LOST_AND_FOUND = "lost_and_found"  # TDA 64
REASONS = (REENTRY_FORFEIT, OUT_OF_VIEW, LOST_AND_FOUND)
FROM_A_STACK = (REENTRY_FORFEIT, OUT_OF_VIEW)
RULES = {REENTRY_FORFEIT: "TDA 8-B", OUT_OF_VIEW: "TDA 63", LOST_AND_FOUND: "TDA 64"}


def owner_error(*, reason: str, has_entry: bool) -> str | None:
    """TDA 8-B and 63 take a named player's chips ("entry_needed"); TDA 64's chips have
    no owner that can be shown ("no_owner")."""
    if reason in FROM_A_STACK and not has_entry:
        return "entry_needed"
    if reason == LOST_AND_FOUND and has_entry:
        return "no_owner"
    return None


def stack_refusal(*, stack: int, amount: int) -> str | None:
    """No more can come off a stack than it holds."""
    if amount > stack:
        return "removal_over_stack"
    return None

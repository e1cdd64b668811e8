"""A misdeal (TDA 35): whether the hand may still be dealt again.

TDA 35-C: the re-deal replays the hand exactly: the button stays, nobody new is dealt
in, the limits stay those of the first deal, and the two deals are one hand for a
player serving a penalty. TDA 35-D: once substantial action has happened (TDA 36) no
misdeal can be called and the hand plays on. Casino §34 lets the faulty hand stand only
once two or more bets or raises have been made. Which of the two an event follows is a
house setting (`tournaments.house`, "misdeal_until"); this module takes the reading as a
plain argument.

The actions are the kinds of the hand's log in order ("fold", "check", "call", "bet",
"raise", "all-in"); posted blinds and antes are not in the log and never count (TDA 36).
"""

TDA = "tda"
CASINO = "casino"
READINGS = (TDA, CASINO)

# The actions that put chips in the pot (TDA 36 A).
WITH_CHIPS = frozenset({"call", "bet", "raise", "all-in"})
# The actions casino §34 counts: bets and raises (an all-in is one or the other).
AGGRESSIVE = frozenset({"bet", "raise", "all-in"})


def substantial_action(kinds) -> bool:
    """TDA 36: any two actions in turn of which at least one puts chips in, or any three
    actions in turn."""
    kinds = list(kinds)
    if len(kinds) >= 3:
        return True
    return len(kinds) == 2 and any(kind in WITH_CHIPS for kind in kinds)


def misdeal_refusal(kinds, reading: str = TDA) -> str | None:
    """The rule that keeps the hand going despite the misdeal, or None while the hand may
    still be dealt again."""
    kinds = list(kinds)
    if reading == CASINO:
        if sum(kind in AGGRESSIVE for kind in kinds) >= 2:
            return "casino §34"
        return None
    if substantial_action(kinds):
        return "TDA 35-D"
    return None

"""A player who dodged the blinds (TDA 33, 71-B; the older German TDA translation's 22;
casino §22), as the house reads it (the setting `dodged_blinds`).

The floor says which blinds the player avoided: the small, the big or both, worth what
they are at the level in play. By the TDA a dodged blind is a penalty (TDA 33 points to
71-B, which lists dodging blinds among the offences that are always penalised); nothing
is made up. By the older translation the player makes the blinds up: they go into the
player's next pot as dead money (counted in the pot, never part of the player's bet), and
a penalty may be given as well.
"""

from dataclasses import dataclass

PENALTY = "tda"  # TDA 33, 71-B; casino §22
MAKE_UP = "make_up"  # older TDA 22
READINGS = (PENALTY, MAKE_UP)

SMALL = "small"
BIG = "big"
BOTH = "both"
BLINDS = (SMALL, BIG, BOTH)

RULES = {
    PENALTY: ("TDA 33", "TDA 71-B"),
    MAKE_UP: ("older TDA 22",),
}


@dataclass(frozen=True)
class DodgeRuling:
    reading: str
    rules: tuple[str, ...]  # the rules it follows, for the floor's record
    small_blind: int  # the blinds avoided, in chips (0: not that one)
    big_blind: int
    dead_money: int  # what the player's next hand posts as dead money
    penalty_due: bool  # True: a penalty must follow; False: it may

    @property
    def rule(self) -> str:
        return ", ".join(self.rules)


def dodge_ruling(reading: str, *, blinds: str, small_blind: int, big_blind: int) -> DodgeRuling:
    """The ruling on blinds dodged at a level of `small_blind`/`big_blind`. ValueError for
    an unknown reading or choice of blinds, or a level without both blinds."""
    if reading not in READINGS:
        raise ValueError(f"unknown reading {reading!r}")
    if blinds not in BLINDS:
        raise ValueError(f"blinds is one of {BLINDS}")
    if small_blind <= 0 or big_blind <= 0:
        raise ValueError("a level with blinds is needed")
    small = small_blind if blinds in (SMALL, BOTH) else 0
    big = big_blind if blinds in (BIG, BOTH) else 0
    return DodgeRuling(
        reading=reading,
        rules=RULES[reading],
        small_blind=small,
        big_blind=big,
        dead_money=small + big if reading == MAKE_UP else 0,
        penalty_due=reading == PENALTY,
    )

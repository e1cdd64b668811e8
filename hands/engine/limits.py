"""How much a player may bet or raise: the arithmetic behind the betting engine.

A `Round` holds what one street's betting has settled so far (the bet to call, the
largest full raise, the limit count); the functions here answer the questions the
engine asks of it: the smallest legal raise (TDA 43), the largest (pot limit TDA 54,
fixed limit), whether an increase reopens the betting for a player who already acted
(TDA 47), whether anyone may raise again (TDA 48). `betting.py` keeps the players.
"""

from dataclasses import dataclass, replace

NO_LIMIT = "nl"
POT_LIMIT = "pl"
FIXED_LIMIT = "fl"
LIMITS = (NO_LIMIT, POT_LIMIT, FIXED_LIMIT)

STREETS = ("preflop", "flop", "turn", "river")
STUD_STREETS = ("third", "fourth", "fifth", "sixth", "seventh")  # hands.engine.stud
# Fixed limit: the big bet on the turn and river, and in stud from fifth street on.
BIG_BET_STREETS = ("turn", "river", "fifth", "sixth", "seventh")
SHOWDOWN = "showdown"

Block = tuple[str, str]  # (rule, message): why a player may not raise


@dataclass(frozen=True)
class Structure:
    """The betting structure of one hand.

    `ante` is a big blind ante (RP-11): dead money paid by the big blind, never part of
    its live bet nor of the amount others must call. RP-11 recommends "big blind first":
    a big blind too short for both pays the blind before the ante; `ante_first` is the
    house setting for the opposite order.

    In fixed limit `small_bet` is the bet pre-flop and on the flop, `big_bet` on the turn
    and river, in stud from fifth street on (defaults: the big blind, and twice the small
    bet). `cap` is the house limit of bets per street, the bet included (TDA 48; default a
    bet and three raises); None removes it, as TDA 48 does once the event is down to two players.
    `cap_lifts_heads_up` is the house rule of some rooms (casino §38, Robert's Rules) that
    lifts the cap when only two players are left in the hand before it is reached.
    """

    limit: str
    small_blind: int
    big_blind: int
    ante: int = 0
    small_bet: int = 0
    big_bet: int = 0
    cap: int | None = 4
    cap_lifts_heads_up: bool = False
    ante_first: bool = False

    def __post_init__(self) -> None:
        if self.limit not in LIMITS:
            raise ValueError(f"limit must be one of {LIMITS}, not {self.limit!r}")
        if self.big_blind <= 0 or not 0 <= self.small_blind <= self.big_blind:
            raise ValueError("blinds must satisfy 0 <= small blind <= big blind, big blind > 0")
        if self.ante < 0 or self.small_bet < 0 or self.big_bet < 0:
            raise ValueError("ante and bet sizes cannot be negative")
        if self.cap is not None and self.cap < 1:
            raise ValueError("the cap counts the bet itself: at least 1")

    @property
    def fixed(self) -> bool:
        return self.limit == FIXED_LIMIT

    def unit(self, street: str) -> int:
        """The size of a bet on `street`: the fixed bet in limit, else the big blind,
        which is the smallest opening bet in no-limit and pot-limit."""
        if not self.fixed:
            return self.big_blind
        small = self.small_bet or self.big_blind
        if street in BIG_BET_STREETS:
            return self.big_bet or 2 * small
        return small


@dataclass(frozen=True)
class Round:
    """One street's betting so far."""

    street: str
    current_bet: int = 0  # the bet to call
    last_full_raise: int = 0  # TDA 43: the largest full bet or raise of the street
    level: int = 0  # fixed limit: the total the last full bet or raise reached
    bets: int = 0  # fixed limit: full bets and raises so far, toward the cap
    capped_multiway: bool = False  # the cap was reached with three or more in the hand
    aggressor: int | None = None  # the last player to bet or raise


def preflop(structure: Structure) -> Round:
    """The big blind is the opening bet (TDA 51-B), counted in full even when the big
    blind is short (IFP 3.2; TDA 54-B counts the pot the same way)."""
    bb = structure.big_blind
    return Round(STREETS[0], current_bet=bb, last_full_raise=bb, level=bb, bets=1)


def next_round(structure: Structure, street: str) -> Round:
    return Round(street, last_full_raise=structure.big_blind)


def min_raise_to(structure: Structure, rnd: Round) -> int:
    """The smallest total to bet or raise to, when not all-in.

    No-limit and pot-limit (TDA 43): the bet to call plus the largest full bet or raise
    of the street, never less than the big blind. Fixed limit: one bet above the level
    the last full wager set, so an all-in of less than half a bet can be completed.
    """
    if structure.fixed:
        return rnd.level + structure.unit(rnd.street)
    return rnd.current_bet + max(rnd.last_full_raise, structure.big_blind)


def max_raise_to(structure: Structure, rnd: Round, *, to_call: int, pot: int) -> int | None:
    """The largest total to bet or raise to; None where only the stack limits it.

    Pot limit: call first, then raise by the whole pot including that call (TDA 54).
    The caller counts the pot as TDA 54-B/C want it.
    """
    if structure.limit == POT_LIMIT:
        return rnd.current_bet + pot + to_call
    if structure.fixed:
        return min_raise_to(structure, rnd)
    return None


def bounds(structure: Structure, rnd: Round, *, bet: int, stack: int, pot: int) -> tuple[int, int]:
    """(min, max) raise-to for a player with `bet` in front and `stack` behind; both
    are the stack when it is short of a full raise (an all-in is always allowed)."""
    everything = bet + stack
    low = min_raise_to(structure, rnd)
    high = max_raise_to(structure, rnd, to_call=rnd.current_bet - bet, pot=pot)
    high = everything if high is None else min(max(high, low), everything)
    return min(low, everything), high


def reopened(structure: Structure, rnd: Round, *, acted_at: int | None) -> bool:
    """Whether a player may raise again, given the bet they last matched or made.

    Players who have not acted this street always may. TDA 47-A: in no-limit and
    pot-limit, only a full bet or raise since then reopens the betting, though several
    short all-ins may add up to one. TDA 47-B: in limit, half a bet does.
    """
    if acted_at is None:
        return True
    faced = rnd.current_bet - acted_at
    if structure.fixed:
        return 2 * faced >= structure.unit(rnd.street)
    return faced >= max(rnd.last_full_raise, structure.big_blind)


def cap_allows(structure: Structure, rnd: Round, *, in_hand: int) -> bool:
    """TDA 48: no cap in no-limit and pot-limit; in limit the house cap of bets per
    street. With `cap_lifts_heads_up`, two players left may go on raising unless the
    cap was reached while more were in the hand."""
    if not structure.fixed or structure.cap is None or rnd.bets < structure.cap:
        return True
    return structure.cap_lifts_heads_up and in_hand == 2 and not rnd.capped_multiway


def raise_block(
    structure: Structure,
    rnd: Round,
    *,
    seat: int,
    can_call_only: bool,
    no_one_left: bool,
    acted_at: int | None,
    in_hand: int,
) -> Block | None:
    """Why a player may not bet or raise now, or None if they may."""
    if can_call_only:
        return "table stakes", f"seat {seat} has only enough chips to call"
    if no_one_left:
        return "TDA 16", "every other player is all-in: no one is left to call a raise"
    if not reopened(structure, rnd, acted_at=acted_at):
        rule = "TDA 47-B" if structure.fixed else "TDA 47-A"
        faced = rnd.current_bet - (acted_at or 0)
        return rule, (
            f"the betting was not reopened for seat {seat}: {faced} more since they acted "
            "is less than a full raise"
        )
    if not cap_allows(structure, rnd, in_hand=in_hand):
        return "TDA 48", f"the betting is capped at {structure.cap} bets this street"
    return None


def over_limit(structure: Structure, rnd: Round, *, target: int, most: int) -> Block:
    """The rule broken by a wager above the largest allowed."""
    if structure.limit == POT_LIMIT:
        rule = "TDA 54-B" if rnd.street == STREETS[0] else "TDA 54-C"
        return rule, f"a pot-sized wager is to {most}, not {target}"
    return "fixed limit", f"in fixed limit the wager is to exactly {most}, not {target}"


def after_wager(structure: Structure, rnd: Round, *, seat: int, to: int, in_hand: int) -> Round:
    """The round after `seat` bets or raises to `to`.

    A full wager (TDA 43: an increase of at least the largest full bet or raise; TDA
    47-B in limit: at least half a bet above the last level) sets the next minimum and
    counts toward the cap; a short all-in only moves the bet to call (TDA 43 ex. 2).
    """
    moved = replace(rnd, current_bet=to, aggressor=seat)
    if structure.fixed:
        full = 2 * (to - rnd.level) >= structure.unit(rnd.street)
    else:
        full = to - rnd.current_bet >= max(rnd.last_full_raise, structure.big_blind)
    if not full:
        return moved
    bets = rnd.bets + 1
    capped = structure.cap is not None and bets >= structure.cap and in_hand > 2
    return replace(
        moved,
        last_full_raise=max(to - rnd.current_bet, rnd.last_full_raise),
        level=to,
        bets=bets,
        capped_multiway=rnd.capped_multiway or capped,
    )

"""The acting player's situation once the street is replayed: what they face, what
they may raise to, who is still in."""

from dataclasses import dataclass, field

from hands.engine import limits
from hands.engine.limits import Round, Structure
from rulings.engine.bets.question import PREFLOP, BetQuestion
from rulings.engine.errors import BadQuestion, _


@dataclass
class _Seat:
    total: int = 0  # street total
    acted_at: int | None = None  # the bet last matched or made (None: not acted, or a blind)
    folded: bool = False
    all_in: bool = False
    posted: bool = False


@dataclass(frozen=True)
class _Spot:
    """The acting player's situation, with the street replayed into a `Round`."""

    q: BetQuestion
    structure: Structure
    rnd: Round
    seats: dict[str, _Seat] = field(default_factory=dict)
    opening: int | None = None  # the first chip bet of the street (51-B); pre-flop the BB
    posted: int = 0  # blinds posted, for 54-B

    @property
    def me(self) -> _Seat:
        return self.seats.get(self.q.player) or _Seat()

    @property
    def current(self) -> int:
        return self.rnd.current_bet

    @property
    def everything(self) -> int:
        return self.q.stack + self.q.in_front

    @property
    def to_call(self) -> int:
        return max(self.current - self.q.in_front, 0)

    @property
    def facing(self) -> bool:
        return self.to_call > 0

    @property
    def opened(self) -> bool:
        """Someone has bet on this street (pre-flop: always, the big blind)."""
        return self.current > 0

    @property
    def in_hand(self) -> int:
        """Players still in the hand as far as the street shows.

        Those who have not acted yet this street are invisible, but they only matter
        for 51-B when the player faces a raise and has not acted: then the opener, the
        raiser and the player are already three. Pre-flop the posts show the blinds.
        """
        others = sum(1 for name, s in self.seats.items() if name != self.q.player and not s.folded)
        return others + 1

    @property
    def call_to(self) -> int:
        return min(self.current, self.everything)

    @property
    def low(self) -> int:
        return limits.min_raise_to(self.structure, self.rnd)

    def street_bets(self) -> int:
        others = sum(s.total for name, s in self.seats.items() if name != self.q.player)
        return others + self.q.in_front

    def pot_before(self) -> int | None:
        return _pot_before(self.q)

    def max_to(self) -> int | None:
        """The pot-limit or fixed-limit ceiling for the acting player; None in no-limit."""
        high = _ceiling(
            self.q,
            self.structure,
            self.rnd,
            street_bets=self.street_bets(),
            posted=self.posted,
            to_call=self.to_call,
        )
        if high is None and self.structure.limit == limits.POT_LIMIT:
            raise BadQuestion("pot", _("pot limit needs the pot before this street's bets"))
        return high

    def block(self) -> limits.Block | None:
        """Why the player may not raise: only the chips for a call (table stakes), the
        betting not reopened for them (47), the limit cap (48)."""
        return limits.raise_block(
            self.structure,
            self.rnd,
            seat=0,
            can_call_only=self.q.stack <= self.to_call,
            no_one_left=False,
            acted_at=self.me.acted_at,
            in_hand=self.in_hand,
        )

    def waiting(self) -> list[_Seat]:
        """Players other than the actor who acted already and may have to act again."""
        return [
            s
            for name, s in self.seats.items()
            if name != self.q.player and s.acted_at is not None and not (s.folded or s.all_in)
        ]


def _pot_before(q: BetQuestion) -> int | None:
    """The pot before this street's bets: as given, else 0 pre-flop; None if unknown."""
    if q.pot is not None:
        return q.pot
    return 0 if q.street == PREFLOP else None


def _ceiling(
    q: BetQuestion, structure: Structure, rnd: Round, *, street_bets: int, posted: int, to_call: int
) -> int | None:
    """The largest total a player may bet or raise to: the pot-limit ceiling (TDA 54) or
    the fixed-limit bet, never below the minimum (a tiny pot still allows a minimum bet).
    None in no-limit, and in pot limit when the pot before this street is not known.

    One count for the actor (`_Spot.max_to`) and for each prior wager the replay checks:
    `street_bets` is everything in front on this street, `posted` the blinds posted."""
    pot = 0
    if structure.limit == limits.POT_LIMIT:
        before = _pot_before(q)
        if before is None:
            return None
        # TDA 54-B/C: the pot is everything in the middle and in front; pre-flop a dead
        # or short blind counts in full.
        missing = max(sum(q.blinds) - posted, 0) if q.street == PREFLOP else 0
        pot = before + street_bets + missing
    high = limits.max_raise_to(structure, rnd, to_call=to_call, pot=pot)
    return None if high is None else max(high, limits.min_raise_to(structure, rnd))

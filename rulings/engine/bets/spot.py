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
        if self.q.pot is not None:
            return self.q.pot
        return 0 if self.q.street == PREFLOP else None

    def limit_pot(self) -> int:
        """The pot as pot limit counts it (54-B/C): everything in the middle and in front,
        pre-flop with any dead or short blind counted in full."""
        before = self.pot_before()
        if before is None:
            raise BadQuestion("pot", _("pot limit needs the pot before this street's bets"))
        missing = 0
        if self.q.street == PREFLOP:
            missing = max(sum(self.q.blinds) - self.posted, 0)
        return before + self.street_bets() + missing

    def max_to(self) -> int | None:
        """The pot-limit or fixed-limit ceiling, never below the minimum (a tiny pot
        still allows a minimum bet); None in no-limit."""
        pot = self.limit_pot() if self.structure.limit == limits.POT_LIMIT else 0
        high = limits.max_raise_to(self.structure, self.rnd, to_call=self.to_call, pot=pot)
        return None if high is None else max(high, self.low)

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

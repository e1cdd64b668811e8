"""Errors found during a hand: the button in the wrong place, a hand dealt at the wrong
level, and what starts a hand. Pure rules, no Django; the readings come in as plain
arguments (`tournaments.house`: `button_error`, `hand_starts`).

The common question is how far the hand has gone. The TDA asks for substantial action
(TDA 36): two actions in turn of which at least one puts chips in, or any three actions;
the posted blinds and antes are no actions. The casino's §16 c asks for two actions that
put chips in: a bet, a call, a raise or re-raise, an all-in.
"""

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from .betting import ALL_IN, BET, CALL, CHECK, FOLD, KINDS, RAISE

TDA = "tda"
CASINO = "casino"  # button_error: casino §16 c
CUT = "cut"  # hand_starts: casino §25, §32

CHIP_ACTIONS = (BET, CALL, RAISE, ALL_IN)  # the actions that put chips in the pot

# What starts a hand, by the house's reading of `hand_starts`.
RIFFLE = "riffle"
SHUFFLER = "shuffler"
PUSH = "push"
START_EVENTS = {TDA: (RIFFLE, SHUFFLER, PUSH), CUT: (CUT,)}
START_RULES = {TDA: "TDA 23", CUT: "casino §25, §32"}

CORRECTED = "corrected"
STANDS = "stands"


def substantial_action(kinds: Sequence[str]) -> bool:
    """TDA 36: two actions in turn, one of them putting chips in, or three of any kind.
    Two checks or two folds (or a check and a fold) are not yet substantial."""
    _known(kinds)
    chips = sum(1 for kind in kinds if kind in CHIP_ACTIONS)
    return len(kinds) >= 3 or (len(kinds) >= 2 and chips >= 1)


def chip_actions(kinds: Sequence[str]) -> int:
    """Casino §16 c: the actions that put chips in (bet, call, raise, re-raise, all-in)."""
    _known(kinds)
    return sum(1 for kind in kinds if kind in CHIP_ACTIONS)


def _known(kinds: Sequence[str]) -> None:
    strangers = [kind for kind in kinds if kind not in KINDS]
    if strangers:
        raise ValueError(f"unknown action {strangers[0]!r}")


@dataclass(frozen=True)
class Ruling:
    """What happens to the hand: re-dealt right (`corrected`) or played on (`stands`)."""

    outcome: str
    rule: str

    @property
    def corrected(self) -> bool:
        return self.outcome == CORRECTED


def button_error_ruling(kinds: Sequence[str], *, reading: str) -> Ruling:
    """The button was in the wrong place for the hand in play.

    TDA 34-A: found before substantial action (TDA 36) the error is corrected, the hand
    re-dealt with the button and blinds right; after it the hand stands and the button
    moves on from where it stood (never backed up). Casino §16 c: the hand is void until
    two chip actions; after them play goes on and the button moves on clockwise."""
    if reading == CASINO:
        late = chip_actions(kinds) >= 2
        return Ruling(STANDS if late else CORRECTED, "casino §16 c")
    if reading == TDA:
        return Ruling(STANDS if substantial_action(kinds) else CORRECTED, "TDA 34-A, 36")
    raise ValueError(f"unknown reading: {reading!r}")


def level_error_ruling(kinds: Sequence[str]) -> Ruling:
    """TDA 23: a hand dealt at the wrong level is put right before substantial action
    (TDA 36); once it occurred the hand continues at the level it was dealt at."""
    return Ruling(STANDS if substantial_action(kinds) else CORRECTED, "TDA 23, 36")


def start_events(reading: str) -> tuple[str, ...]:
    """What may mark a hand's start: TDA 23 the first riffle, the shuffler's button or
    the dealer push; casino §25, §32 the cut."""
    try:
        return START_EVENTS[reading]
    except KeyError:
        raise ValueError(f"unknown reading: {reading!r}") from None


@dataclass(frozen=True)
class Blinds:
    button: int
    small_blind: int  # heads-up the button (TDA 34-B)
    big_blind: int


def corrected_blinds(dealt_in: Collection[int], button: int, seats: Sequence[int]) -> Blinds:
    """The button where it should have been and the blinds that follow from it, for the
    re-deal of the same players (TDA 35-C: an exact re-play, nobody added): the small
    blind is the first player dealt in after the button, the big blind the next; heads-up
    the button posts the small blind (TDA 34-B). The button may stand on an empty seat
    (TDA 32, the dead button)."""
    if button not in seats:
        raise ValueError(f"seat {button} is not in play")
    players = [seat for seat in _clockwise_after(seats, button) if seat in dealt_in]
    if len(players) < 2:
        raise ValueError("a hand needs two players")
    if len(players) == 2:
        if button not in dealt_in:
            raise ValueError("heads-up the button is a player's (TDA 34-B)")
        other = next(seat for seat in players if seat != button)
        return Blinds(button, button, other)
    return Blinds(button, players[0], players[1])


def _clockwise_after(seats: Sequence[int], seat: int) -> list[int]:
    seats = list(seats)
    i = seats.index(seat) + 1
    return seats[i:] + seats[:i]


__all__ = [
    "ALL_IN",
    "BET",
    "CALL",
    "CHECK",
    "FOLD",
    "RAISE",
    "button_error_ruling",
    "chip_actions",
    "corrected_blinds",
    "level_error_ruling",
    "start_events",
    "substantial_action",
]

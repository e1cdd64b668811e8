"""A player found in the wrong seat (TDA 7).

Seats are drawn at random; the seat the draw gave is the one on record. A player found
sitting elsewhere, who started with the right stack, moves to the drawn seat with the
whole stack they have now: what they won or lost in the wrong seat goes with them, and
the hands played there stand. TDA 7 names only the player who started with a correct
stack; a wrong stack is left to the TD (TDA 1).

Found during a hand, the hand is played out first: TDA 7 does not undo a hand, and a
player with a live hand must stay at the table until it is over (TDA 31).
"""

from dataclasses import dataclass

from rulings.engine.errors import Note, _, explain

MOVE = "move"
TD_DECIDES = "td_decides"


@dataclass(frozen=True)
class WrongSeatQuestion:
    stack_correct: bool = True  # the player started with the right stack
    in_hand: bool = False  # found while playing a hand


@dataclass(frozen=True)
class WrongSeatAnswer:
    outcome: str  # MOVE or TD_DECIDES
    after_hand: bool  # move once the hand in play is over
    rules: tuple[str, ...]
    explanation: str
    notes: tuple[Note, ...]


def wrong_seat(q: WrongSeatQuestion) -> WrongSeatAnswer:
    notes: list[Note] = []
    rules: list[str] = []
    if q.stack_correct:
        rules.append("TDA 7")
        notes.append(
            Note(
                _(
                    "The player moves to the seat the draw gave, with the whole stack they "
                    "have now: the chips won or lost in the wrong seat go with them and the "
                    "hands played there stand (TDA 7)."
                ),
                {},
            )
        )
    else:
        rules += ["TDA 7", "TDA 1"]
        notes.append(
            Note(
                _(
                    "TDA 7 moves a player who started with the correct stack; with a wrong "
                    "stack as well, the TD decides what is fair (TDA 1)."
                ),
                {},
            )
        )
    if q.in_hand:
        rules.append("TDA 31")
        notes.append(
            Note(
                _(
                    "Found during a hand: the hand is played out first; a player with a live "
                    "hand stays at the table until it is over (TDA 31)."
                ),
                {},
            )
        )
    return WrongSeatAnswer(
        outcome=MOVE if q.stack_correct else TD_DECIDES,
        after_hand=q.in_hand,
        rules=tuple(rules),
        explanation=explain(notes),
        notes=tuple(notes),
    )

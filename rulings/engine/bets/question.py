"""The question a floor person asks and the ruling they get back, with the words both
use: the actions, the declarations, the games."""

from dataclasses import dataclass

from hands.engine import limits
from hands.engine.limits import STREETS
from rulings.engine.errors import Note

PREFLOP = STREETS[0]
GAMES = {"nlhe": limits.NO_LIMIT, "plo": limits.POT_LIMIT, "lhe": limits.FIXED_LIMIT}

POST = "post"
BET = "bet"
RAISE = "raise"
CALL = "call"
CHECK = "check"
FOLD = "fold"
ALL_IN = "all-in"
POT = "pot"  # "I bet the pot": a full pot bet in pot limit, 54-D elsewhere
ACTIONS = (POST, BET, RAISE, CALL, CHECK, FOLD, ALL_IN)
DECLARATIONS = (None, BET, CALL, RAISE, ALL_IN, CHECK, FOLD, POT)
WAGERS = (BET, RAISE, ALL_IN)
HOUSE_READINGS = ("tda", "ifp")
UNDERCALL_READINGS = ("tda", "casino")


@dataclass(frozen=True)
class PriorAction:
    player: str  # "A"
    action: str  # post|bet|raise|call|check|fold|all-in
    to: int  # that player's total bet on this street after the action (0 for check/fold)


@dataclass(frozen=True)
class BetQuestion:
    """One player's turn. `chips` are new chips from behind, added to `in_front`.

    Additions to the agreed interface, all optional:
    `declared_readings` lists the totals an unclear phrase can mean ("two fifty" could
    be 250 or 2,050), for TDA 57 or IFP 4.17 to choose from (`ambiguous`);
    `declaration` may also be "pot" ("I bet the pot"); `substantial_action` says whether
    substantial action followed a pot bet made on a wrong count (52-B).
    """

    game: str  # "nlhe" | "plo" | "lhe"
    blinds: tuple[int, int]  # (sb, bb)
    street: str  # preflop|flop|turn|river
    actions: tuple[PriorAction, ...]  # this street so far, in order; pre-flop the posts first
    player: str  # the acting player
    stack: int  # chips behind, not counting in_front
    in_front: int  # chips the player already has bet this street
    declaration: str | None  # None|bet|call|raise|all-in|check|fold|pot
    declared_amount: int | None  # the total said, if any ("raise, twelve hundred" -> 1200)
    chips: tuple[int, ...]  # chips pushed out silently, by denomination
    pot: int | None = None  # the pot before this street's bets (pot limit, TDA 57)
    ambiguous: str = "tda"  # unclear amounts: "tda" (57) or "ifp" (4.17)
    undercall: str = "tda"  # an undercall: "tda" (51-B) or "casino" (casino §37)
    declared_readings: tuple[int, ...] = ()
    substantial_action: bool = False


@dataclass(frozen=True)
class Ruling:
    action: str  # bet|raise|call|check|fold|all-in
    to: int  # the player's street total after the ruling (0 for a fold)
    min_raise_to: int  # the smallest raise-to for the next player
    reopened: bool  # does this reopen the betting for players who already acted (47)?
    rules: tuple[str, ...]  # e.g. ("45-B", "43-A")
    explanation: str  # the notes' texts, in English
    notes: tuple[Note, ...]  # the explanation as translatable templates

"""What a player's words and chips amount to: the floor's bet-interpretation calculator.

The question describes one street so far (`actions`), the player whose turn it is, what
they said (`declaration`, `declared_amount`) and what they pushed out silently (`chips`);
the answer is the action the rules make of it, with the rules that decided it.

The order of the reading, TDA 2024 rules 40-57 in short:

- Words first (40-A): what was said before or with the chips binds, and a clear
  declaration beats chips that contradict it. An amount said alone counts as chips of
  that amount pushed out (40-C). "Raise" with an amount names the new total (43-B).
- "Call" commits to the whole call (51-A); "all-in" to every chip; "raise" or "bet"
  without an amount takes its size from the chips, else at least a minimum raise.
- Silent chips facing a bet: one oversized chip only calls (44); several chips call if
  each is needed for the call (45-A); otherwise half a minimum raise or more over the
  call makes a raise, held to a full minimum raise, less is a call (43-A, 45-B), and a
  player's last chips are all-in whatever their size (45-B). Less than the call without
  saying "call" is an undercall (51-B).
- The minimum raise, the re-opening of the betting (47), the pot-limit ceiling (54) and
  the limit bet sizes come from `hands.engine.limits`, the arithmetic the tablet uses,
  so the floor and the tablet never disagree.

Amounts are whole chips and, like the betting engine's, street totals: "to 1,200" is
what the player has in front on this street once the action is complete. That holds
for `declared_amount` too: the amount said is the total the player is going to, the
way 43-B reads "raise, eight thousand".

Where the rules leave room, this package decides:

- "Check" facing a bet (55) is answered, not refused: with chips it is a call; without,
  the ruling is a check that puts nothing in and says the player must call or fold.
- An undercall the TD may rule either way (51-B) comes back as the full call, with the
  forfeit-and-fold option named in the explanation.
- An amount said alone is judged like a pile of small chips: no chip can be spared
  (45-A does not apply), so the 50% standard decides, and all the player's chips are
  all-in (45-B).
- "Bet" facing a bet is a raise declaration; "raise" with no bet binds a bet (55-B).
- `reopened` is true for a full bet or raise, and for a short all-in that completes a
  full raise for someone who already acted (47-A, cumulative all-ins).
- Prior actions must be legal: a bet or raise short of the minimum must say "all-in".
- "Heads-up" (51-B) counts the players the street's actions show; anyone not yet seen
  can only matter when the player faces the opening bet, which is a full call anyway.

The package reads in this order: `checks` and `replay` check the question and replay the
street into a `spot`; `declarations` reads the words, `pot` the amounts read against the
pot, `chips` the silent chips; `outcomes` makes the ruling. `question` holds the
dataclasses and the words they use.

No Django here.
"""

from rulings.engine.bets.checks import _check_question
from rulings.engine.bets.chips import _silent
from rulings.engine.bets.declarations import (
    _all_in_declared,
    _call_declared,
    _check,
    _fold,
    _wager_declared,
)
from rulings.engine.bets.pot import _spoken_amount
from rulings.engine.bets.prior import (
    _check_prior,
    _prior_chips_read,
    _pulled_back_fold,
    prior_question,
)
from rulings.engine.bets.question import (
    ALL_IN,
    BET,
    CALL,
    CHECK,
    FOLD,
    POT,
    RAISE,
    BetQuestion,
    PriorAction,
    Ruling,
)
from rulings.engine.bets.replay import _replay
from rulings.engine.errors import BadQuestion, Note, _, amount_text

__all__ = ["BadQuestion", "BetQuestion", "PriorAction", "Ruling", "interpret"]


def interpret(question: BetQuestion) -> Ruling:
    """The ruling on `question`, or BadQuestion naming the input that does not add up."""
    structure = _check_question(question)
    _check_prior(question)
    question = prior_question(question)
    spot = _replay(question, structure)
    amount, rules, lead = _spoken_amount(spot)
    declaration = question.declaration
    prior = question.in_front > 0 and (question.pulled_back or question.prior_chips)
    if declaration == FOLD and question.pulled_back and spot.facing:
        return _pulled_back_fold(spot)
    if declaration == FOLD:
        return _fold(spot)
    if declaration == CHECK:
        return _check(spot)
    if declaration == CALL:
        return _call_declared(spot)
    if declaration == ALL_IN:
        return _all_in_declared(spot)
    if declaration in (BET, RAISE, POT):
        return _wager_declared(spot, amount, rules, lead)
    if amount is not None:
        said = Note(
            _("Saying %(amount)s is the same as pushing out %(amount)s (TDA 40-C)."),
            {"amount": amount_text(amount)},
        )
        return _silent(spot, amount, [*rules, "40-C"], [*lead, said], chips=())
    if prior and spot.facing:
        put, chips, rules, notes = _prior_chips_read(spot)
        return _silent(spot, put, rules, notes, chips=chips)
    return _silent(spot, question.in_front + sum(question.chips), [], [], chips=question.chips)

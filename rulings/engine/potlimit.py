"""The largest pot-limit bet or raise, worked out the way the dealer counts it.

TDA 54 in short: the biggest raise is a call followed by a raise of everything that is
then in the pot, that call included. Before the flop the count pretends both blinds
went in at full size, even when the small blind is dead or a blind was posted short
all-in (54-B); from the flop on only the chips really in the middle count (54-C).

The sum itself is `hands.engine.limits.max_raise_to`, the one the tablet uses, and the
pre-flop count follows `HandState._pot_for_limit`, so the calculator and the tablet
always quote the same figure.
"""

from dataclasses import dataclass

from hands.engine.limits import (
    POT_LIMIT,
    STREETS,
    Round,
    Structure,
    max_raise_to,
    min_raise_to,
    next_round,
)
from rulings.engine.errors import (
    BadQuestion,
    Note,
    _,
    amount_text,
    check_blinds,
    check_street,
    explain,
)

PREFLOP = STREETS[0]


@dataclass(frozen=True)
class PotLimitQuestion:
    """A pot-limit wager to size, for the player whose turn it is.

    `pot` holds what was in the middle before this street's betting: the earlier streets
    after the flop, antes (dead money) before it. `bets` and `in_front` are totals on
    this street only, folded players' included. Before the flop they contain the blinds:
    a big blind of 200 who has not acted again shows 200. `posted` gives what the small
    and the big blind really put in when that was less than the structure says (0 for a
    dead small blind); left empty, both were posted in full.
    """

    blinds: tuple[int, int]
    posted: tuple[int, ...] = ()
    street: str = PREFLOP
    pot: int = 0
    bets: tuple[int, ...] = ()
    in_front: int = 0


@dataclass(frozen=True)
class PotLimitAnswer:
    max_to: int  # the largest total the player may bet or raise to on this street
    to_call: int
    pot_after_call: int  # the pot as counted for the limit, once the player has called
    rules: tuple[str, ...]
    explanation: str  # the notes' texts, in English
    notes: tuple[Note, ...]  # the explanation as translatable templates


def pot_limit(q: PotLimitQuestion) -> PotLimitAnswer:
    """The largest legal bet or raise in pot limit (TDA 54), with the working shown."""
    _check(q)
    small, big = q.blinds
    preflop = q.street == PREFLOP
    posted = q.posted or q.blinds
    missing = (small - posted[0]) + (big - posted[1]) if preflop else 0
    counted = q.pot + sum(q.bets) + q.in_front + missing
    # Pre-flop the bet to call is the full big blind even when it was posted short.
    current = max(max(q.bets, default=0), big if preflop else 0)
    to_call = current - q.in_front
    structure = Structure(POT_LIMIT, small, big)
    most = max_raise_to(
        structure, Round(q.street, current_bet=current), to_call=to_call, pot=counted
    )
    assert most is not None  # pot limit always has a ceiling
    smallest = min_raise_to(structure, next_round(structure, q.street)) if current == 0 else 0
    notes = _count_notes(q, counted, missing, posted)
    if current == 0:
        notes.append(
            Note(
                _("Nobody has bet yet: a pot-sized bet is %(pot)s."), {"pot": amount_text(counted)}
            )
        )
        if smallest > most:
            notes.append(
                Note(
                    _(
                        "That is less than the big blind, the smallest bet allowed, so the "
                        "most is %(most)s."
                    ),
                    {"most": amount_text(smallest)},
                )
            )
            most = smallest
    else:
        notes.append(
            Note(
                _(
                    "Calling %(call)s makes the pot %(pot)s; raising by that much on top of "
                    "the %(bet)s bet allows a raise to %(most)s."
                ),
                {
                    "call": amount_text(to_call),
                    "pot": amount_text(counted + to_call),
                    "bet": amount_text(current),
                    "most": amount_text(most),
                },
            )
        )
    return PotLimitAnswer(
        max_to=most,
        to_call=to_call,
        pot_after_call=counted + to_call,
        rules=("TDA 54-B",) if preflop else ("TDA 54-C",),
        explanation=explain(notes),
        notes=tuple(notes),
    )


def _count_notes(q: PotLimitQuestion, counted: int, missing: int, posted) -> list[Note]:
    if q.street != PREFLOP:
        return [
            Note(
                _("After the flop the pot counts as it really is (TDA 54-C): %(pot)s."),
                {"pot": amount_text(counted)},
            )
        ]
    if not missing:
        return [Note(_("The pot holds %(pot)s."), {"pot": amount_text(counted)})]
    dead = (_("The small blind is dead."), _("The big blind is dead."))
    short = (
        _("The small blind posted only %(paid)s of %(full)s."),
        _("The big blind posted only %(paid)s of %(full)s."),
    )
    notes = []
    for index, (full, paid) in enumerate(zip(q.blinds, posted, strict=True)):
        if paid == 0 and full:
            notes.append(Note(dead[index], {}))
        elif paid < full:
            notes.append(Note(short[index], {"paid": amount_text(paid), "full": amount_text(full)}))
    notes.append(
        Note(
            _(
                "Before the flop every pot bet assumes full blinds all the same (TDA 54-B): "
                "the %(pot)s in the pot counts as %(counted)s."
            ),
            {"pot": amount_text(counted - missing), "counted": amount_text(counted)},
        )
    )
    return notes


def _check(q: PotLimitQuestion) -> None:
    check_street(q.street)
    check_blinds(q.blinds)
    if q.posted:
        if q.street != PREFLOP:
            raise BadQuestion(
                "posted",
                _("blinds are posted before the flop; afterwards the pot counts as it is"),
            )
        if len(q.posted) != 2:
            raise BadQuestion(
                "posted", _("give what the small and the big blind posted, or nothing")
            )
        wrong = (
            _("the small blind posted %(paid)s: it is 0 to %(full)s"),
            _("the big blind posted %(paid)s: it is 0 to %(full)s"),
        )
        for template, full, paid in zip(wrong, q.blinds, q.posted, strict=True):
            if not 0 <= paid <= full:
                raise BadQuestion(
                    "posted", template, paid=amount_text(paid), full=amount_text(full)
                )
    if q.pot < 0:
        raise BadQuestion("pot", _("the pot cannot be negative"))
    if any(amount < 0 for amount in q.bets):
        raise BadQuestion("bets", _("a bet cannot be negative"))
    if q.in_front < 0:
        raise BadQuestion("in_front", _("the player's bet cannot be negative"))
    if q.street == PREFLOP:
        _check_blinds_among_bets(q)
    _check_facing_action(q)


def _check_blinds_among_bets(q: PotLimitQuestion) -> None:
    """Pre-flop the blinds are the street's first bets: each posted blind must show up
    as some player's total (a blind who called or raised since shows more)."""
    needed = sorted((paid for paid in (q.posted or q.blinds) if paid > 0), reverse=True)
    totals = sorted((*q.bets, q.in_front, 0), reverse=True)
    if any(have < need for need, have in zip(needed, totals, strict=False)):
        if len(needed) == 1:
            raise BadQuestion(
                "bets",
                _(
                    "before the flop the blind (%(blind)s) is a bet of this street: list it "
                    "among the bets, or as in_front for the acting player's own blind"
                ),
                blind=amount_text(needed[0]),
            )
        raise BadQuestion(
            "bets",
            _(
                "before the flop the blinds (%(big)s and %(small)s) are bets of this street: "
                "list them among the bets, or as in_front for the acting player's own blind"
            ),
            big=amount_text(needed[0]),
            small=amount_text(needed[1]),
        )


def _check_facing_action(q: PotLimitQuestion) -> None:
    """The acting player has something to decide: nobody has bet yet, someone bet more
    than they have in front, or it is the big blind's option before the flop."""
    current = max(q.bets, default=0)
    big = q.blinds[1]
    if q.street == PREFLOP:
        current = max(current, big)
        option = q.in_front == current == big
    else:
        option = current == 0
    if q.in_front > current or (q.in_front == current and not option):
        raise BadQuestion(
            "in_front",
            _(
                "the player already has %(in_front)s in front and nobody bet more "
                "(%(bet)s): the betting would be over, someone else must have raised"
            ),
            in_front=amount_text(q.in_front),
            bet=amount_text(current),
        )

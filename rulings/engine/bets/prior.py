"""Prior-bet chips not pulled in (TDA 46): a player facing a raise with chips of an
earlier bet still in front.

- 46-B: clearly pulling back a prior-bet chip binds the player to call or raise: a fold
  after it is not allowed, so it is held to a call.
- 46-C 1: the prior chips do not cover the call and are left alone or pulled back in
  full: the new chips are read on their own: one oversized chip calls (44), several
  follow the 50% standard (43, 45).
- 46-C 2: the prior chips are partly pulled back, or they cover the call: everything
  left on the table with the new chips is one multiple-chip bet (43, 45), even a single
  new chip.

`pulled_back` is "" (left alone), "all" or "part"; `prior_chips` are the prior-bet
chips on the table now, by denomination (after a partial pull-back, those left; left
alone, the chips as they lie: one 1,000 chip for a 100 blind covers more than the blind).
Without them, the chips left alone count as one pile of `in_front`.
"""

from dataclasses import replace

from rulings.engine.bets.outcomes import _ruling
from rulings.engine.bets.question import CALL, BetQuestion, Ruling
from rulings.engine.bets.spot import _Spot
from rulings.engine.errors import BadQuestion, Note, _, amount_text

LEFT = ""
ALL = "all"
PART = "part"
PULLED_BACK = (LEFT, ALL, PART)


def _check_prior(q: BetQuestion) -> None:
    if q.pulled_back not in PULLED_BACK:
        raise BadQuestion(
            "pulled_back", _("say nothing, 'all' or 'part' for the prior chips pulled back")
        )
    if any(chip <= 0 for chip in q.prior_chips):
        raise BadQuestion("prior_chips", _("every chip has a value above 0"))
    left = sum(q.prior_chips)
    if q.pulled_back and q.in_front == 0:
        raise BadQuestion("pulled_back", _("there are no prior chips in front to pull back"))
    if q.pulled_back == ALL and q.prior_chips:
        raise BadQuestion("prior_chips", _("all prior chips were pulled back: none are left"))
    if q.pulled_back == PART and not 0 < left < q.in_front:
        raise BadQuestion(
            "prior_chips",
            _("after a partial pull-back give the prior chips left, less than %(in_front)s"),
            in_front=amount_text(q.in_front),
        )
    if q.pulled_back == LEFT and q.prior_chips and left < q.in_front:
        raise BadQuestion(
            "prior_chips",
            _("the prior chips left alone are at least the %(in_front)s in front"),
            in_front=amount_text(q.in_front),
        )
    silent = q.declaration is None and q.declared_amount is None
    if q.pulled_back and silent and left + sum(q.chips) < q.in_front:
        raise BadQuestion(
            "chips",
            _("the chips out now are less than the %(in_front)s already bet"),
            in_front=amount_text(q.in_front),
        )


def prior_question(q: BetQuestion) -> BetQuestion:
    """The question with the stack holding what a prior chip left alone is worth above
    the bet (the change the player is owed): those are the player's chips too."""
    left = sum(q.prior_chips)
    if q.pulled_back == LEFT and left > q.in_front:
        return replace(q, stack=q.stack + left - q.in_front)
    return q


def _pulled_back_fold(spot: _Spot) -> Ruling:
    """46-B: facing a raise, a player who pulled back a prior chip may not fold."""
    return _ruling(
        spot,
        CALL,
        spot.current,
        ["46-B"],
        [
            Note(
                _(
                    "Pulling back a prior-bet chip while facing a raise binds the player to "
                    "call or raise; the fold does not stand: a call to %(bet)s (TDA 46-B)."
                ),
                {"bet": amount_text(spot.current)},
            )
        ],
    )


def _prior_chips_read(spot: _Spot) -> tuple[int, tuple[int, ...], list[str], list[Note]]:
    """46-C: the street total the chips on the table make, and the chips the 44 and 45
    tests read."""
    q = spot.q
    new = tuple(q.chips)
    if q.pulled_back == ALL:
        put, prior = sum(new), ()
    elif q.pulled_back == PART:
        put, prior = sum(q.prior_chips) + sum(new), tuple(q.prior_chips)
    else:
        prior = tuple(q.prior_chips) or (q.in_front,)
        put = sum(prior) + sum(new)
    covers = sum(prior) >= spot.current
    if q.pulled_back == PART or (covers and new):
        template = (
            _(
                "The prior chips were partly pulled back: the chips left and the new ones "
                "are read together as one bet of %(put)s (TDA 46-C)."
            )
            if q.pulled_back == PART
            else _(
                "The prior chips already cover the call: with the new ones they are read as "
                "one bet of %(put)s (TDA 46-C)."
            )
        )
        return put, prior + new, ["46-C"], [Note(template, {"put": amount_text(put)})]
    if q.pulled_back == ALL:
        note = _(
            "The prior chips were pulled back in full: the new chips are read alone (TDA 46-C)."
        )
    else:
        note = _(
            "The prior chips do not cover the call and were left alone: the new chips are "
            "read alone (TDA 46-C)."
        )
    return put, new, ["46-C"], [Note(note, {})]

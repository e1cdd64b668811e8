"""A wrong bet found late: is it still corrected? (TDA 52-A, 52-B)

- "underraise": in limit or no-limit an opening bet or raise below the legal minimum is
  corrected anywhere on the street it was made on; on the river until the showdown
  starts. Once the next card is dealt (or the showdown began) it stands (TDA 52-A).
- "pot_high": in pot limit a pot bet made on a count that was too high is an illegal
  overbet: brought down to the pot for every caller anywhere on the street; once the
  next card is dealt it stands (TDA 52-B, Addendum example 3).
- "pot_low": a pot bet made on a count that was too low is raised to the pot only
  until substantial action follows the bet (TDA 36); after it, or once the street is
  over, it stands (TDA 52-B, Addendum examples 1 and 2).

`made` is the bet as made (the total on the street), `correct` the bet it should have
been (the minimum legal raise, or the pot). `found` says when the error was noticed:
"this_street" (before the next card; on the river before the showdown) or "later".
"""

from dataclasses import dataclass

from rulings.engine.errors import BadQuestion, Note, _, amount_text, explain

UNDERRAISE = "underraise"
POT_HIGH = "pot_high"
POT_LOW = "pot_low"
ERRORS = (UNDERRAISE, POT_HIGH, POT_LOW)

THIS_STREET = "this_street"
LATER = "later"
FOUND = (THIS_STREET, LATER)


@dataclass(frozen=True)
class LateErrorQuestion:
    error: str
    made: int
    correct: int
    found: str
    substantial_action: bool = False  # after the bet (TDA 36); pot_low only


@dataclass(frozen=True)
class LateErrorAnswer:
    corrected: bool
    to: int  # the bet every bettor is held to now
    rules: tuple[str, ...]
    explanation: str
    notes: tuple[Note, ...]


def late_error(q: LateErrorQuestion) -> LateErrorAnswer:
    _check(q)
    params = {"made": amount_text(q.made), "correct": amount_text(q.correct)}
    if q.error == UNDERRAISE:
        rule = "TDA 52-A"
        if q.found == THIS_STREET:
            template = _(
                "A bet or raise to %(made)s is below the legal minimum of %(correct)s. Found "
                "on the same street (on the river: before the showdown), it is raised to "
                "%(correct)s for every player who bet or called it (TDA 52-A)."
            )
        else:
            template = _(
                "The bet to %(made)s was below the legal %(correct)s, but the next card was "
                "dealt (or the showdown began) before it was noticed: it stands (TDA 52-A)."
            )
        corrected = q.found == THIS_STREET
    elif q.error == POT_HIGH:
        rule = "TDA 52-B"
        corrected = q.found == THIS_STREET
        if corrected:
            template = _(
                "A pot bet of %(made)s on a count too high is an illegal overbet: it comes "
                "down to the pot, %(correct)s, for every caller anywhere on this street, "
                "substantial action or not (TDA 52-B)."
            )
        else:
            template = _(
                "The overbet of %(made)s (the pot was %(correct)s) was noticed only after "
                "the next card was dealt: it stands (TDA 52-B)."
            )
    else:
        rule = "TDA 52-B"
        corrected = q.found == THIS_STREET and not q.substantial_action
        if corrected:
            template = _(
                "A pot bet of %(made)s on a count too low, found before substantial action "
                "followed it: it is raised to the pot, %(correct)s (TDA 52-B)."
            )
        elif q.found == THIS_STREET:
            template = _(
                "A pot bet of %(made)s on a count too low (the pot was %(correct)s), but "
                "substantial action has followed it: the %(made)s stands (TDA 52-B, 36)."
            )
        else:
            template = _(
                "A pot bet of %(made)s on a count too low (the pot was %(correct)s), noticed "
                "after the street was over: it stands (TDA 52-B)."
            )
    rules = [rule]
    if q.error == POT_LOW and q.found == THIS_STREET:
        rules.append("TDA 36")
    notes = (Note(template, params),)
    return LateErrorAnswer(
        corrected=corrected,
        to=q.correct if corrected else q.made,
        rules=tuple(rules),
        explanation=explain(notes),
        notes=notes,
    )


def _check(q: LateErrorQuestion) -> None:
    if q.error not in ERRORS:
        raise BadQuestion("error", _("Unknown error %(name)s."), name=q.error)
    if q.found not in FOUND:
        raise BadQuestion("found", _("Unknown moment %(name)s."), name=q.found)
    if q.made < 1:
        raise BadQuestion("made", _("Give the bet as it was made."))
    if q.error == POT_HIGH:
        if q.made <= q.correct:
            raise BadQuestion(
                "correct", _("An overbet is more than the pot: the pot is smaller than the bet.")
            )
    elif q.made >= q.correct:
        raise BadQuestion(
            "correct", _("The bet made is already at least %(correct)s."), correct=q.correct
        )

"""Chips the floor is called to: found after the chip race (TDA 24-C), found behind an
all-in (TDA 62; IFP 4.20 as a house reading), carried out of view (TDA 63), lost and
found (TDA 64), forfeited at a re-entry (TDA 8-B). What happens to them, and how many
chips leave play.

Situations:

- "after_race": chips of a removed colour still found once the race is over are changed
  for chips in play only at equal value; what does not make a whole chip of the smallest
  colour left is removed without compensation (TDA 24-C).
- "behind_all_in": after a call, chips are found behind a player who bet all-in. TDA 62:
  the TD decides whether they were part of the accepted action (TDA 49); if they were,
  the caller owes them too; if not, they win nothing for the all-in player and do not save
  them: a loser is out and the TD may give the chips to the winning caller. IFP 4.20 (the
  house setting "chips_behind_all_in"): all-in is the whole stack, so hidden chips are in
  the pot.
- "out_of_view": a player held or carried chips out of view: they are forfeited and taken
  out of play; the player may also be disqualified (TDA 63).
- "lost_and_found": chips whose owner cannot be found go out of play, back to the
  tournament's inventory (TDA 64); with an owner known, the TD decides (TDA 1).
- "reentry_forfeit": a player allowed to give up their chips and buy a new stack: the
  chips given up leave play (TDA 8-B).
"""

from dataclasses import dataclass

from rulings.engine.errors import BadQuestion, Note, _, amount_text, explain

AFTER_RACE = "after_race"
BEHIND_ALL_IN = "behind_all_in"
OUT_OF_VIEW = "out_of_view"
LOST_AND_FOUND = "lost_and_found"
REENTRY_FORFEIT = "reentry_forfeit"
SITUATIONS = (AFTER_RACE, BEHIND_ALL_IN, OUT_OF_VIEW, LOST_AND_FOUND, REENTRY_FORFEIT)

TDA = "tda"
IFP = "ifp"
READINGS = (TDA, IFP)

# What becomes of the chips.
EXCHANGED = "exchanged"  # changed at equal value; any rest removed (24-C)
REMOVED = "removed"  # out of play
IN_THE_POT = "in_the_pot"  # part of the bet
KEPT = "kept"  # the all-in player keeps them, unpaid (TDA 62)
TO_THE_WINNER = "to_the_winner"  # the TD may award them to the winning caller (TDA 62)
TD_DECIDES = "td_decides"
OUTCOMES = (EXCHANGED, REMOVED, IN_THE_POT, KEPT, TO_THE_WINNER, TD_DECIDES)


@dataclass(frozen=True)
class FoundChipsQuestion:
    situation: str
    value: int = 0  # the chips' value; after the race: None, counted from chips × removed
    # after_race
    chips: int = 0  # chips of the removed colour found
    removed: int = 0  # the removed colour's value, e.g. 25
    smallest: int = 0  # the smallest chip still in play, e.g. 100
    # behind_all_in
    accepted_action: bool = False  # the TD rules them part of the action called (TDA 49)
    all_in_won: bool | None = None  # whether the all-in player won the hand
    reading: str = TDA  # the house setting chips_behind_all_in
    # lost_and_found
    owner_known: bool = False


@dataclass(frozen=True)
class FoundChipsAnswer:
    outcome: str
    kept_value: int  # the value that stays in play with the player (or the pot)
    removed_value: int  # the value taken out of play
    exchanged_chips: int  # after the race: chips of the smallest colour given
    disqualification_possible: bool
    rules: tuple[str, ...]
    explanation: str
    notes: tuple[Note, ...]


def found_chips(q: FoundChipsQuestion) -> FoundChipsAnswer:
    _check(q)
    if q.situation == AFTER_RACE:
        return _after_race(q)
    if q.situation == BEHIND_ALL_IN:
        return _behind_all_in(q)
    params = {"value": amount_text(q.value)}
    if q.situation == OUT_OF_VIEW:
        return _answer(
            REMOVED,
            0,
            q.value,
            ["TDA 63"],
            _(
                "Chips held or carried out of view are forfeited: %(value)s is taken out of "
                "play, and the player may be disqualified (TDA 63)."
            ),
            params,
            disqualification=True,
        )
    if q.situation == LOST_AND_FOUND:
        if q.owner_known:
            return _answer(
                TD_DECIDES,
                0,
                0,
                ["TDA 64", "TDA 1"],
                _(
                    "The owner of the %(value)s found is known, so TDA 64 does not take them "
                    "out of play: the TD decides in fairness (TDA 1); chips carried out of "
                    "view are forfeited (TDA 63)."
                ),
                params,
            )
        return _answer(
            REMOVED,
            0,
            q.value,
            ["TDA 64"],
            _(
                "Nobody can be shown to own the %(value)s found: the chips are taken out "
                "of play and go back to the tournament's inventory (TDA 64)."
            ),
            params,
        )
    return _answer(
        REMOVED,
        0,
        q.value,
        ["TDA 8-B"],
        _(
            "A player who gives up their chips to buy a new stack forfeits them: %(value)s "
            "is removed from play (TDA 8-B)."
        ),
        params,
    )


def _after_race(q: FoundChipsQuestion) -> FoundChipsAnswer:
    value = q.chips * q.removed
    exchanged = value // q.smallest
    kept = exchanged * q.smallest
    rest = value - kept
    params = {
        "chips": amount_text(q.chips),
        "removed": amount_text(q.removed),
        "value": amount_text(value),
        "smallest": amount_text(q.smallest),
        "exchanged": amount_text(exchanged),
        "rest": amount_text(rest),
    }
    notes = [
        Note(
            _(
                "After the race the player still has %(chips)s chips of %(removed)s, worth "
                "%(value)s; they are changed only at equal value (TDA 24-C)."
            ),
            params,
        )
    ]
    if exchanged:
        notes.append(Note(_("They make %(exchanged)s chips of %(smallest)s."), params))
    if rest:
        notes.append(
            Note(
                _(
                    "%(rest)s does not make a whole chip of %(smallest)s and is removed "
                    "without compensation (TDA 24-C)."
                ),
                params,
            )
        )
    return FoundChipsAnswer(
        outcome=EXCHANGED if exchanged else REMOVED,
        kept_value=kept,
        removed_value=rest,
        exchanged_chips=exchanged,
        disqualification_possible=False,
        rules=("TDA 24-C",),
        explanation=explain(notes),
        notes=tuple(notes),
    )


def _behind_all_in(q: FoundChipsQuestion) -> FoundChipsAnswer:
    params = {"value": amount_text(q.value)}
    if q.reading == IFP:
        return _answer(
            IN_THE_POT,
            q.value,
            0,
            ["IFP 4.20"],
            _(
                "All-in bets the whole stack: the %(value)s found behind counts as bet and "
                "goes into the pot (IFP 4.20, the house's reading)."
            ),
            params,
        )
    if q.accepted_action:
        return _answer(
            IN_THE_POT,
            q.value,
            0,
            ["TDA 62", "TDA 49"],
            _(
                "The TD rules the %(value)s behind part of the action the caller accepted "
                "(TDA 49): the caller owes it as part of the call (TDA 62)."
            ),
            params,
        )
    if q.all_in_won:
        return _answer(
            KEPT,
            q.value,
            0,
            ["TDA 62"],
            _(
                "Not part of the action: the all-in player won, but is not paid off for the "
                "%(value)s found behind; the chips stay theirs (TDA 62)."
            ),
            params,
        )
    return _answer(
        TO_THE_WINNER,
        q.value,
        0,
        ["TDA 62"],
        _(
            "Not part of the action: the all-in player lost and is not saved by the "
            "%(value)s found behind; the TD may award those chips to the winning caller "
            "(TDA 62)."
        ),
        params,
    )


def _answer(
    outcome, kept, removed, rules, template, params, *, disqualification=False
) -> FoundChipsAnswer:
    notes = (Note(template, params),)
    return FoundChipsAnswer(
        outcome=outcome,
        kept_value=kept,
        removed_value=removed,
        exchanged_chips=0,
        disqualification_possible=disqualification,
        rules=tuple(rules),
        explanation=explain(notes),
        notes=notes,
    )


def _check(q: FoundChipsQuestion) -> None:
    if q.situation not in SITUATIONS:
        raise BadQuestion("situation", _("Unknown situation %(name)s."), name=q.situation)
    if q.situation == AFTER_RACE:
        if q.chips < 1:
            raise BadQuestion("chips", _("Give how many chips of the removed colour were found."))
        if q.removed < 1:
            raise BadQuestion("removed", _("Give the value of the colour removed."))
        if q.smallest <= q.removed:
            raise BadQuestion(
                "smallest",
                _("The smallest chip still in play is larger than the colour removed."),
            )
        return
    if q.value < 1:
        raise BadQuestion("value", _("Give the value of the chips."))
    if q.situation == BEHIND_ALL_IN:
        if q.reading not in READINGS:
            raise BadQuestion("reading", _("Unknown reading %(name)s."), name=q.reading)
        if q.reading == TDA and not q.accepted_action and q.all_in_won is None:
            raise BadQuestion(
                "all_in_won",
                _("Say whether the all-in player won the hand (TDA 62)."),
            )

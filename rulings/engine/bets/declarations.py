"""What the player said: fold, check, call, all-in, bet, raise or pot (TDA 40-A, 43-B,
44, 51-A, 55, 58)."""

from rulings.engine.bets.outcomes import _IS_TO, _blocked, _ruling, _wager
from rulings.engine.bets.pot import _pot_declared
from rulings.engine.bets.question import (
    ALL_IN,
    BET,
    CALL,
    CHECK,
    FOLD,
    POT,
    RAISE,
    Ruling,
)
from rulings.engine.bets.spot import _Spot
from rulings.engine.errors import Note, _, amount_text


def _fold(spot: _Spot) -> Ruling:
    if spot.facing:
        return _ruling(
            spot,
            FOLD,
            0,
            ["40-A"],
            [Note(_("The player folds; the chips in front stay in."), {})],
        )
    return _ruling(
        spot,
        FOLD,
        0,
        ["58"],
        [Note(_("Folding with no bet to face is non-standard but binding (TDA 58)."), {})],
    )


def _check(spot: _Spot) -> Ruling:
    """55: "check" facing a bet does not stand; the player may only call or fold.

    Decision: with chips pushed out too, those chips are the call. With no chips the
    ruling is a "check" that puts nothing in: the player has not yet acted and must
    now call or fold, never raise (see the explanation).
    """
    q = spot.q
    if not spot.facing:
        return _ruling(spot, CHECK, q.in_front, ["40-A"], [Note(_("The player checks."), {})])
    params = {
        "bet": amount_text(spot.current),
        "to": amount_text(spot.call_to),
        "call": amount_text(spot.to_call),
    }
    if q.chips:
        template = _(
            "'Check' is not a valid action facing a bet of %(bet)s (TDA 55); the player may "
            "call or fold but not raise, so the chips are a call to %(to)s."
        )
        return _ruling(spot, CALL, spot.call_to, ["55"], [Note(template, params)])
    template = _(
        "'Check' is not a valid action facing a bet of %(bet)s (TDA 55): it puts nothing in, "
        "and the player must still call %(call)s or fold; they may not raise."
    )
    return _ruling(spot, CHECK, q.in_front, ["55"], [Note(template, params)])


def _call_declared(spot: _Spot) -> Ruling:
    if not spot.facing:
        return _ruling(
            spot,
            CHECK,
            spot.q.in_front,
            ["55-A"],
            [Note(_("'Call' with no bet to call is a check (TDA 55-A)."), {})],
        )
    if spot.call_to < spot.current:
        template = _("'Call' commits the player to the whole call, to %(to)s all-in (TDA 51-A).")
    else:
        template = _("'Call' commits the player to the whole call, to %(to)s (TDA 51-A).")
    notes = [Note(template, {"to": amount_text(spot.call_to)})]
    if spot.q.in_front + sum(spot.q.chips) > spot.current:
        notes.append(
            Note(_("The chips beyond the call go back: the word came first (TDA 40-A)."), {})
        )
    return _ruling(spot, CALL, spot.call_to, ["51-A"], notes)


def _all_in_declared(spot: _Spot) -> Ruling:
    e = spot.everything
    if spot.opened and e <= spot.current:
        return _ruling(
            spot,
            ALL_IN,
            e,
            ["40-A"],
            [
                Note(
                    _(
                        "All-in is %(all)s, no more than the bet of %(bet)s: it is a call for "
                        "all the player's chips."
                    ),
                    {"all": amount_text(e), "bet": amount_text(spot.current)},
                )
            ],
        )
    block = spot.block()
    if block is not None:
        return _blocked(spot, block, ALL_IN)
    said = Note(_("'All-in' puts in all %(all)s of the player's chips."), {"all": amount_text(e)})
    return _wager(spot, e, ["40-A"], [said])


# What "bet" or "raise" (without "pot") makes of the chips or amount that go with it.
_ONE_CHIP = {
    BET: _("'Bet' then one chip: the wager is the most the chip allows, to %(to)s (TDA 44)."),
    RAISE: _("'Raise' then one chip: the wager is the most the chip allows, to %(to)s (TDA 44)."),
}
_CHIPS_GIVE = {
    BET: _("'Bet' came first and the chips give the amount: to %(to)s."),
    RAISE: _("'Raise' came first and the chips give the amount: to %(to)s."),
}
_NO_AMOUNT = {
    BET: _(
        "'Bet' without an amount yet binds the player to at least a minimum, to %(to)s "
        "(TDA 51-A, 43-A)."
    ),
    RAISE: _(
        "'Raise' without an amount yet binds the player to at least a minimum, to %(to)s "
        "(TDA 51-A, 43-A)."
    ),
}


def _wager_declared(spot: _Spot, amount: int | None, rules: list[str], lead: list[Note]) -> Ruling:
    """ "Bet", "raise" or "pot", with or without an amount, maybe followed by chips."""
    q = spot.q
    if spot.opened:
        block = spot.block()
        if block is not None:
            return _blocked(spot, block, q.declaration)
    rules = list(rules)
    notes = list(lead)
    if q.declaration == RAISE and not spot.opened:
        rules.append("55-B")
        notes.append(
            Note(
                _(
                    "'Raise' with no bet to face binds the player to at least a minimum bet "
                    "(TDA 55-B)."
                ),
                {},
            )
        )
    if q.declaration == BET and spot.opened and spot.facing:
        notes.append(Note(_("'Bet' facing a bet declares a raise."), {}))
    if q.declaration == POT:
        return _pot_declared(spot, amount, rules, notes)
    if amount is not None:
        target = amount
        if spot.opened:
            rules.append("43-B")
            notes.append(
                Note(
                    _("A raise with an amount names the total: to %(to)s (TDA 43-B)."),
                    {"to": amount_text(amount)},
                )
            )
        else:
            rules.append("40-A")
            notes.append(Note(_IS_TO[q.declaration], {"to": amount_text(amount)}))
    elif q.chips:
        target = q.in_front + sum(q.chips)
        if len(q.chips) == 1:
            rules.append("44")
            notes.append(Note(_ONE_CHIP[q.declaration], {"to": amount_text(target)}))
        else:
            rules.append("40-A")
            notes.append(Note(_CHIPS_GIVE[q.declaration], {"to": amount_text(target)}))
    else:
        target = spot.low
        rules.append("51-A")
        notes.append(
            Note(_NO_AMOUNT[q.declaration], {"to": amount_text(min(target, spot.everything))})
        )
    return _wager(spot, target, rules, notes)

"""The ruling composed: a wager held to a legal size, a raise the player may not make,
the next minimum raise and whether the betting reopens (TDA 43-A, 47, 48, 52, 54), with
the notes that explain it."""

from hands.engine import limits
from rulings.engine.bets.question import ALL_IN, BET, CALL, POT, PREFLOP, RAISE, WAGERS, Ruling
from rulings.engine.bets.spot import _Spot
from rulings.engine.errors import Note, _, amount_text, explain

# What the player's words (or silent chips, None) come to when they may only call.
_ONLY_CALL = {
    ALL_IN: _("So 'all-in' can only call, to %(to)s."),
    BET: _("So 'bet' can only call, to %(to)s."),
    RAISE: _("So 'raise' can only call, to %(to)s."),
    POT: _("So 'pot' can only call, to %(to)s."),
    None: _("So the chips can only call, to %(to)s."),
}


def _blocked(spot: _Spot, block: limits.Block, declaration: str | None) -> Ruling:
    """A raise the player may not make: 47 (not reopened), 48 (limit cap), or only the
    chips for a call, which then all go in. `declaration` is what the player said (None
    for silent chips or an amount said alone)."""
    rule, reason = block
    if not rule.startswith("TDA "):
        rules = ["40-A"]
        why = Note(_("The player has only enough chips to call."), {})
    else:
        rules = [rule.removeprefix("TDA ")]
        why = _block_reason(spot, rule, reason)
    then = Note(_ONLY_CALL[declaration], {"to": amount_text(spot.call_to)})
    return _ruling(spot, CALL, spot.call_to, rules, [why, then])


def _block_reason(spot: _Spot, rule: str, reason: str) -> Note:
    if rule in ("TDA 47-A", "TDA 47-B"):
        return Note(
            _(
                "The player may not raise: the betting was not reopened for them, as %(faced)s "
                "more since they acted is less than a full raise (%(rule)s)."
            ),
            {"faced": amount_text(spot.current - (spot.me.acted_at or 0)), "rule": rule},
        )
    if rule == "TDA 48":
        return Note(
            _(
                "The player may not raise: the betting on this street is capped (bets: "
                "%(cap)s; TDA 48)."
            ),
            {"cap": spot.structure.cap},
        )
    # Not reached: the only other block, TDA 16, needs everyone else all-in, which the
    # question does not tell.
    return Note(_("The player may not raise (%(rule)s)."), {"rule": rule, "reason": reason})


def _limit_rule(spot: _Spot) -> str:
    return "54-B" if spot.q.street == PREFLOP else "54-C"


# How a wager is brought to a legal size, by (betting opened, ends all-in).
_HELD = {
    (True, False): _("So it is held to a full minimum raise, to %(to)s."),
    (False, False): _("So it is held to a full minimum bet, to %(to)s."),
    (True, True): _(
        "So it is held to a full minimum raise, to %(to)s; that is all the player's chips: "
        "all-in for %(to)s."
    ),
    (False, True): _(
        "So it is held to a full minimum bet, to %(to)s; that is all the player's chips: "
        "all-in for %(to)s."
    ),
}

# The wager's size, when no note has named it yet.
_IS_TO = {BET: _("The bet is to %(to)s."), RAISE: _("The raise is to %(to)s.")}


def _wager(spot: _Spot, target: int, rules: list[str], notes: list[Note]) -> Ruling:
    """A bet or raise toward `target`, held to the legal size: at least a minimum bet or
    raise (43-A for raises; 52-A for opening bets and limit), at most the pot or the
    fixed bet, and never more than the player has (then all-in)."""
    low, e = spot.low, spot.everything
    rules = list(rules)
    notes = list(notes)
    to = target
    held = to < low and to < e
    if held:
        rules.append("43-A" if spot.opened and not spot.structure.fixed else "52-A")
        to = min(low, e)
    high = spot.max_to()
    cut = high is not None and to > high and high < e
    if cut:
        if spot.structure.limit == limits.POT_LIMIT:
            rules += ["52-B", _limit_rule(spot)]
        to = high
    if to >= e:
        to = e
    action = ALL_IN if to == e else (RAISE if spot.opened else BET)
    all_in = to == e and target != e
    params = {"to": amount_text(to)}
    if held:
        notes.append(Note(_HELD[spot.opened, all_in], params))
    elif cut and spot.structure.limit == limits.POT_LIMIT:
        notes.append(
            Note(_("So more than the pot allows, it is cut to the pot-limit %(to)s."), params)
        )
    elif cut:
        notes.append(Note(_("So in limit a wager is one bet: to %(to)s."), params))
    elif all_in:
        notes.append(Note(_("So that is all the player's chips: all-in for %(to)s."), params))
    elif action != ALL_IN and f"to {amount_text(to)}" not in explain(notes):
        notes.append(Note(_IS_TO[action], params))
    return _ruling(spot, action, to, rules, notes)


def _ruling(spot: _Spot, action: str, to: int, rules: list[str], notes: list[Note]) -> Ruling:
    """The ruling, with the next minimum raise and whether the betting reopens (47)."""
    rnd, structure = spot.rnd, spot.structure
    reopened = False
    rules = list(rules)
    notes = list(notes)
    if action in WAGERS and to > rnd.current_bet:
        after = limits.after_wager(
            structure, rnd, seat=len(spot.q.actions), to=to, in_hand=spot.in_hand
        )
        # after_wager moves `level` to the new total only for a full bet or raise.
        full = after.level == to
        newly_open = [
            s
            for s in spot.waiting()
            if limits.reopened(structure, after, acted_at=s.acted_at)
            and not limits.reopened(structure, rnd, acted_at=s.acted_at)
        ]
        reopened = full or bool(newly_open)
        if not full:
            rule = "47-B" if structure.fixed else "47-A"
            rules.append(rule)
            if newly_open:
                template = _(
                    "Short of a full raise itself, it adds up with earlier all-ins to a full "
                    "raise for a player who already acted, who may raise again (TDA %(rule)s)."
                )
            else:
                template = _(
                    "Short of a full raise, it does not reopen the betting for players who "
                    "already acted (TDA %(rule)s)."
                )
            notes.append(Note(template, {"rule": rule}))
        rnd = after
    return Ruling(
        action=action,
        to=to,
        min_raise_to=limits.min_raise_to(structure, rnd),
        reopened=reopened,
        rules=tuple(dict.fromkeys(rules)),
        explanation=explain(notes),
        notes=tuple(notes),
    )

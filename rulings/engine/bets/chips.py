"""Chips pushed out without a word, and amounts said alone (TDA 40-C, 41, 43-A, 44, 45,
51-B)."""

from rulings.engine.bets.outcomes import _blocked, _ruling, _wager
from rulings.engine.bets.question import CALL, CHECK, Ruling
from rulings.engine.bets.spot import _Spot
from rulings.engine.errors import Note, _, amount_text


def _silent(
    spot: _Spot, put: int, rules: list[str], notes: list[Note], *, chips: tuple[int, ...]
) -> Ruling:
    """Chips pushed without a word (or an amount said alone, 40-C), `put` being the street
    total they make."""
    cur, e = spot.current, spot.everything
    last = put == e
    if not spot.opened:
        if len(chips) == 1:
            rules = [*rules, "44"]
            said = _("With no bet to face, one chip alone is a bet of its full value (TDA 44).")
        elif chips:
            said = _("With no bet to face the chips are a bet.")
        else:
            said = _("With no bet to face it is a bet.")
        return _wager(spot, put, rules, [*notes, Note(said, {})])
    if put < cur:
        if last:
            return _ruling(
                spot,
                CALL,
                put,
                [*rules, "45-A" if len(chips) > 1 else "41"],
                [
                    *notes,
                    Note(
                        _("The player's last chips are a call all-in for %(put)s."),
                        {"put": amount_text(put)},
                    ),
                ],
            )
        return _undercall(spot, put, rules, notes)
    if put == cur:
        return _ruling(
            spot,
            CALL,
            cur,
            [*rules, "41"],
            [*notes, Note(_("Exactly the call: a call (TDA 41)."), {})],
        )
    if spot.facing and len(chips) == 1:
        return _ruling(
            spot,
            CALL,
            cur,
            [*rules, "44"],
            [
                *notes,
                Note(
                    _(
                        "A single oversized chip facing a bet, without 'raise' first, is a call "
                        "to %(bet)s (TDA 44); the change goes back."
                    ),
                    {"bet": amount_text(cur)},
                ),
            ],
        )
    if spot.facing and len(chips) > 1 and put - min(chips) < cur:
        return _ruling(
            spot,
            CALL,
            cur,
            [*rules, "45-A"],
            [
                *notes,
                Note(
                    _(
                        "Every chip is needed for the call: without one %(chip)s only "
                        "%(without)s would be in, less than %(bet)s, so it is a call (TDA 45-A)."
                    ),
                    {
                        "chip": amount_text(min(chips)),
                        "without": amount_text(put - min(chips)),
                        "bet": amount_text(cur),
                    },
                ),
            ],
        )
    if spot.facing and len(chips) > 1:
        rules = [*rules, "45-B"]
        notes = [
            *notes,
            Note(
                _(
                    "Without one %(chip)s the chips would still cover the call of %(bet)s "
                    "(TDA 45-B)."
                ),
                {"chip": amount_text(min(chips)), "bet": amount_text(cur)},
            ),
        ]
    block = spot.block()
    if block is not None:
        return _blocked(spot, block, None)
    if last:
        return _wager(
            spot,
            put,
            [*rules, "45-B"],
            [
                *notes,
                Note(
                    _(
                        "They are the player's last chips: all-in, whether or not they reach "
                        "half a raise (TDA 45-B)."
                    ),
                    {},
                ),
            ],
        )
    return _fifty_percent(spot, put, rules, notes)


def _fifty_percent(spot: _Spot, put: int, rules: list[str], notes: list[Note]) -> Ruling:
    """43-A: over the call by half a minimum raise or more is a raise, held to a full
    minimum raise; less is a call (for the big blind's option, a check)."""
    cur, low = spot.current, spot.low
    full, over = low - cur, put - cur
    rules = [*rules, "43-A"]
    params = {"over": amount_text(over), "bet": amount_text(cur), "full": amount_text(full)}
    if 2 * over >= full:
        template = _(
            "%(over)s over the %(bet)s bet is at least half the minimum raise of %(full)s, so "
            "it is a raise (TDA 43-A)."
        )
        return _wager(spot, put, rules, [*notes, Note(template, params)])
    if spot.facing:
        action, to = CALL, cur
        template = _(
            "%(over)s over the %(bet)s bet is less than half the minimum raise of %(full)s, so "
            "it is a call and the extra %(over)s goes back (TDA 43-A)."
        )
    else:
        action, to = CHECK, spot.q.in_front
        template = _(
            "%(over)s over the %(bet)s bet is less than half the minimum raise of %(full)s, so "
            "it is no raise: the big blind checks and the extra %(over)s goes back (TDA 43-A)."
        )
    return _ruling(spot, action, to, rules, [*notes, Note(template, params)])


def _undercall(spot: _Spot, put: int, rules: list[str], notes: list[Note]) -> Ruling:
    """51-B: less than the call, with chips left and "call" unsaid. Heads-up, or facing the
    street's opening bet, the full call is mandatory; otherwise it is the TD's call."""
    to, cur = spot.call_to, spot.current
    params = {
        "put": amount_text(put),
        "bet": amount_text(cur),
        "to": amount_text(to),
        "forfeit": amount_text(put - spot.q.in_front),
    }
    if spot.q.undercall == "casino":
        return _undercall_casino(spot, rules, notes, params)
    rules = [*rules, "51-B"]
    if spot.opening == cur:
        template = _(
            "%(put)s is less than the call to %(bet)s: an undercall (TDA 51-B); facing the "
            "opening bet it must be a full call to %(to)s."
        )
        return _ruling(spot, CALL, to, rules, [*notes, Note(template, params)])
    if spot.in_hand == 2:
        template = _(
            "%(put)s is less than the call to %(bet)s: an undercall (TDA 51-B); heads-up it "
            "must be a full call to %(to)s."
        )
        return _ruling(spot, CALL, to, rules, [*notes, Note(template, params)])
    what = _("%(put)s is less than the call to %(bet)s: an undercall (TDA 51-B).")
    choice = _(
        "Multi-way against a raise it is the TD's discretion: a full call to %(to)s (shown), "
        "or the player forfeits the %(forfeit)s put out and folds."
    )
    return _ruling(spot, CALL, to, rules, [*notes, Note(what, params), Note(choice, params)])


def _undercall_casino(spot: _Spot, rules: list[str], notes: list[Note], params: dict) -> Ruling:
    """Casino §37, the house's reading: whoever calls short completes the call or gives up
    what is in and folds, wherever it happens; the player may no longer raise."""
    template = _(
        "%(put)s is less than the call to %(bet)s: an undercall. The house follows casino "
        "§37: complete the call to %(to)s (shown), or forfeit the %(forfeit)s put out and "
        "fold; a raise is no longer allowed."
    )
    return _ruling(
        spot, CALL, spot.call_to, [*rules, "casino §37"], [*notes, Note(template, params)]
    )

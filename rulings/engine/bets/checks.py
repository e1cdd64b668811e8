"""The question's own inputs checked before anything is read: game, street, blinds,
stack, and what was said or pushed out."""

from hands.engine.limits import Structure
from rulings.engine.bets.question import (
    CHECK,
    DECLARATIONS,
    FOLD,
    GAMES,
    HOUSE_READINGS,
    UNDERCALL_READINGS,
    BetQuestion,
)
from rulings.engine.errors import (
    BLINDS_WRONG,
    BadQuestion,
    _,
    amount_text,
    check_blinds,
    check_street,
)


def _check_question(q: BetQuestion) -> Structure:
    if q.game not in GAMES:
        raise BadQuestion(
            "game",
            _("unknown game %(game)s: use one of %(games)s"),
            game=repr(q.game),
            games=", ".join(GAMES),
        )
    check_street(q.street)
    check_blinds(q.blinds)
    if q.stack < 0:
        raise BadQuestion("stack", _("the stack cannot be negative"))
    if q.stack == 0:
        raise BadQuestion("stack", _("a player with no chips behind is all-in and does not act"))
    if q.in_front < 0:
        raise BadQuestion("in_front", _("the chips in front cannot be negative"))
    if q.pot is not None and q.pot < 0:
        raise BadQuestion("pot", _("the pot cannot be negative"))
    if q.ambiguous not in HOUSE_READINGS:
        raise BadQuestion("ambiguous", _("the house reading of unclear amounts is 'tda' or 'ifp'"))
    if q.undercall not in UNDERCALL_READINGS:
        raise BadQuestion("undercall", _("the house reading of undercalls is 'tda' or 'casino'"))
    if q.declaration not in DECLARATIONS:
        raise BadQuestion(
            "declaration",
            _("unknown declaration %(declaration)s: use %(declarations)s"),
            declaration=repr(q.declaration),
            declarations=", ".join(d for d in DECLARATIONS if d),
        )
    everything = q.stack + q.in_front
    if any(chip <= 0 for chip in q.chips):
        raise BadQuestion("chips", _("every chip has a value above 0"))
    if sum(q.chips) > q.stack:
        raise BadQuestion(
            "chips",
            _("the chips pushed (%(chips)s) are more than the stack behind"),
            chips=amount_text(sum(q.chips)),
        )
    no_amount = {CHECK: _("a check has no amount"), FOLD: _("a fold has no amount")}
    if q.declared_amount is not None:
        if q.declared_amount <= 0:
            raise BadQuestion("declared_amount", _("an amount said is above 0"))
        if q.declared_amount > everything:
            raise BadQuestion(
                "declared_amount",
                _("%(amount)s is more than the player has (%(everything)s in all)"),
                amount=amount_text(q.declared_amount),
                everything=amount_text(everything),
            )
        if q.declared_amount <= q.in_front:
            raise BadQuestion(
                "declared_amount",
                _(
                    "the amount said is a street total: %(amount)s is not more than the "
                    "%(in_front)s already in front"
                ),
                amount=amount_text(q.declared_amount),
                in_front=amount_text(q.in_front),
            )
        if q.declaration in no_amount:
            raise BadQuestion("declared_amount", no_amount[q.declaration])
    if q.declared_readings:
        if q.declared_amount is not None:
            raise BadQuestion("declared_readings", _("give either the amount or its readings"))
        if any(r <= q.in_front for r in q.declared_readings):
            raise BadQuestion(
                "declared_readings", _("each reading is a street total above in_front")
            )
        if q.declaration in no_amount:
            raise BadQuestion("declared_readings", no_amount[q.declaration])
        if min(q.declared_readings) > everything:
            raise BadQuestion("declared_readings", _("every reading is more than the player has"))
    if not q.declaration and q.declared_amount is None and not q.declared_readings and not q.chips:
        raise BadQuestion("declaration", _("the player neither said nor pushed out anything"))
    try:
        return Structure(GAMES[q.game], q.blinds[0], q.blinds[1])
    except ValueError as error:
        raise BadQuestion("blinds", BLINDS_WRONG) from error

"""Words read against the pot: an unclear amount (TDA 57, IFP 4.17) and "pot" (52-B,
54-D, 40-B in limit)."""

from hands.engine import limits
from rulings.engine.bets.outcomes import _limit_rule, _wager
from rulings.engine.bets.question import Ruling
from rulings.engine.bets.spot import _Spot
from rulings.engine.errors import BadQuestion, Note, _, amount_text


def _spoken_amount(spot: _Spot) -> tuple[int | None, list[str], list[Note]]:
    """The amount said, choosing among the readings of an unclear phrase: TDA 57 takes
    the highest that does not exceed the pot (all bets in front included), IFP 4.17 the
    lowest. Readings above the player's chips are not legal meanings and drop out."""
    q = spot.q
    if q.declared_amount is not None:
        return q.declared_amount, [], []
    readings = sorted(set(q.declared_readings))
    if not readings:
        return None, [], []
    if len(readings) == 1:
        return readings[0], [], []
    legal = [r for r in readings if r <= spot.everything]
    # The readings as a list that needs no word: "250 / 2,050".
    meanings = " / ".join(amount_text(r) for r in readings)
    if q.ambiguous == "ifp":
        lead = Note(
            _(
                "The words could mean %(readings)s; the lowest reading counts (IFP 4.17): "
                "%(chosen)s."
            ),
            {"readings": meanings, "chosen": amount_text(legal[0])},
        )
        return legal[0], ["IFP 4.17"], [lead]
    before = spot.pot_before()
    if before is None:
        raise BadQuestion("pot", _("TDA 57 reads an unclear amount against the pot: give the pot"))
    pot = before + spot.street_bets()
    fitting = [r for r in legal if r <= pot]
    chosen = fitting[-1] if fitting else legal[0]
    if fitting:
        template = _(
            "The words could mean %(readings)s; the highest reading not above the pot of "
            "%(pot)s counts (TDA 57): %(chosen)s."
        )
    else:
        template = _(
            "The words could mean %(readings)s; no reading fits within the pot of %(pot)s, so "
            "the smallest counts (TDA 57): %(chosen)s."
        )
    params = {"readings": meanings, "pot": amount_text(pot), "chosen": amount_text(chosen)}
    return chosen, ["57"], [Note(template, params)]


def _pot_declared(spot: _Spot, amount: int | None, rules: list[str], notes: list[Note]) -> Ruling:
    """ "Pot". In pot limit the full pot-sized wager; when the chips or amount came from a
    wrong count, 52-B corrects an overbet always, an underbet only until substantial
    action. Elsewhere "I bet the pot" is not a valid amount but binds a valid bet (54-D)."""
    q = spot.q
    pushed = amount if amount is not None else (q.in_front + sum(q.chips) if q.chips else None)
    if spot.structure.limit != limits.POT_LIMIT:
        if spot.structure.limit == limits.NO_LIMIT:
            rules.append("54-D")
            notes.append(
                Note(
                    _(
                        "'Pot' is not a valid amount in no-limit but binds a valid wager "
                        "(TDA 54-D)."
                    ),
                    {},
                )
            )
        else:
            rules.append("40-B")
            notes.append(
                Note(_("In limit 'pot' can only mean a wager of the fixed size (TDA 40-B)."), {})
            )
        target = pushed if pushed is not None else spot.low
        return _wager(spot, target, rules, notes)
    most = spot.max_to()
    assert most is not None  # pot limit always has a ceiling
    rules.append(_limit_rule(spot))
    if pushed is None or pushed == most:
        notes.append(Note(_("A pot-sized wager is to %(most)s."), {"most": amount_text(most)}))
        return _wager(spot, most, rules, notes)
    rules.append("52-B")
    params = {"most": amount_text(most), "pushed": amount_text(pushed)}
    if pushed > most:
        template = _(
            "%(pushed)s is more than the pot allows; an illegal overbet is cut to %(most)s "
            "anywhere on this street (TDA 52-B)."
        )
        return _wager(spot, most, rules, [*notes, Note(template, params)])
    if q.substantial_action:
        template = _(
            "The pot bet was %(most)s, but after substantial action the %(pushed)s put out on "
            "the low count stands (TDA 52-B)."
        )
        return _wager(spot, pushed, rules, [*notes, Note(template, params)])
    template = _(
        "The pot bet is %(most)s; the %(pushed)s from a low count is raised to it, as no "
        "substantial action has followed (TDA 52-B)."
    )
    return _wager(spot, most, rules, [*notes, Note(template, params)])

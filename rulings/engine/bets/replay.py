"""The street so far: the prior actions replayed into a `Round`, each checked to be
possible (a BadQuestion on "actions" names the first that is not), then the actor."""

from hands.engine import limits
from hands.engine.limits import Round, Structure
from rulings.engine.bets.question import (
    ACTIONS,
    ALL_IN,
    BET,
    CALL,
    CHECK,
    FOLD,
    POST,
    PREFLOP,
    RAISE,
    BetQuestion,
    PriorAction,
)
from rulings.engine.bets.spot import _ceiling, _Seat, _Spot
from rulings.engine.errors import BadQuestion, _, amount_text


def _replay(q: BetQuestion, structure: Structure) -> _Spot:
    """Replay this street's actions into a Round, checking they are possible."""
    preflop = q.street == PREFLOP
    if preflop:
        rnd = limits.preflop(structure)
        opening: int | None = structure.big_blind
    else:
        rnd = limits.next_round(structure, q.street)
        opening = None
    seats: dict[str, _Seat] = {}
    posted = 0
    posting = preflop
    for index, a in enumerate(q.actions):
        bad = _complaint(index, a)
        if a.action not in ACTIONS:
            raise bad(
                _(
                    "action %(number)s (%(player)s %(action)s): unknown action: use one of "
                    "%(actions)s"
                ),
                actions=", ".join(ACTIONS),
            )
        if a.to < 0:
            raise bad(_("action %(number)s (%(player)s %(action)s): an amount cannot be negative"))
        seat = seats.setdefault(a.player, _Seat())
        if seat.folded:
            raise bad(_("action %(number)s (%(player)s %(action)s): the player has folded already"))
        if seat.all_in:
            raise bad(_("action %(number)s (%(player)s %(action)s): the player is all-in already"))
        if a.action == POST:
            if not posting:
                raise bad(
                    _(
                        "action %(number)s (%(player)s %(action)s): blinds are posted pre-flop, "
                        "before anyone acts"
                    )
                )
            if seat.posted or not 0 < a.to <= structure.big_blind:
                raise bad(
                    _(
                        "action %(number)s (%(player)s %(action)s): a blind is one post of at "
                        "most the big blind (%(big_blind)s)"
                    ),
                    big_blind=amount_text(structure.big_blind),
                )
            seat.total, seat.posted = a.to, True
            posted += a.to
            continue
        posting = False
        if a.action in (CHECK, FOLD):
            if a.to not in (0, seat.total):
                raise bad(
                    {
                        CHECK: _(
                            "action %(number)s (%(player)s %(action)s): a check adds no chips: "
                            "give 0"
                        ),
                        FOLD: _(
                            "action %(number)s (%(player)s %(action)s): a fold adds no chips: "
                            "give 0"
                        ),
                    }[a.action]
                )
            if a.action == FOLD:
                seat.folded = True
            elif seat.total < rnd.current_bet:
                raise bad(
                    _(
                        "action %(number)s (%(player)s %(action)s): cannot check facing a bet "
                        "of %(bet)s (TDA 55): enter what it was ruled, a call or a fold"
                    ),
                    bet=amount_text(rnd.current_bet),
                )
            else:
                seat.acted_at = rnd.current_bet
            continue
        if a.to < seat.total:
            raise bad(
                _(
                    "action %(number)s (%(player)s %(action)s): %(to)s is below the %(total)s "
                    "the player had in already"
                ),
                to=amount_text(a.to),
                total=amount_text(seat.total),
            )
        if a.action == CALL or (a.action == ALL_IN and a.to <= rnd.current_bet):
            if a.to > rnd.current_bet:
                raise bad(
                    _(
                        "action %(number)s (%(player)s %(action)s): a call is to the current "
                        "bet of %(bet)s, not more"
                    ),
                    bet=amount_text(rnd.current_bet),
                )
            if a.to == seat.total and seat.total < rnd.current_bet:
                raise bad(_("action %(number)s (%(player)s %(action)s): a call puts chips in"))
            # Less than the bet can only be a call all-in for less.
            seat.all_in = a.action == ALL_IN or a.to < rnd.current_bet
            seat.total, seat.acted_at = a.to, rnd.current_bet
            continue
        if a.to <= rnd.current_bet:  # a bet or raise: an all-in this low is a call
            raise bad(
                {
                    BET: _(
                        "action %(number)s (%(player)s %(action)s): a bet must go above the "
                        "current bet of %(bet)s"
                    ),
                    RAISE: _(
                        "action %(number)s (%(player)s %(action)s): a raise must go above the "
                        "current bet of %(bet)s"
                    ),
                }[a.action],
                bet=amount_text(rnd.current_bet),
            )
        in_hand = sum(1 for s in seats.values() if not s.folded)
        block = limits.raise_block(
            structure,
            rnd,
            seat=index,
            can_call_only=False,
            no_one_left=False,
            acted_at=seat.acted_at,
            in_hand=in_hand,
        )
        if block is not None:
            raise _prior_block(bad, block, structure, rnd, seat)
        low = limits.min_raise_to(structure, rnd)
        if a.action != ALL_IN and a.to < low:
            raise bad(
                _(
                    "action %(number)s (%(player)s %(action)s): the minimum is to %(low)s; "
                    "enter a short all-in as 'all-in', or the corrected amount (TDA 52-A)"
                ),
                low=amount_text(low),
            )
        # The largest legal wager (TDA 54, fixed limit); None when unlimited, or in pot
        # limit when no pot was given: then the prior wager is not held to a ceiling.
        high = _ceiling(
            q,
            structure,
            rnd,
            street_bets=sum(s.total for s in seats.values()),
            posted=posted,
            to_call=rnd.current_bet - seat.total,
        )
        if high is not None and a.to > high:
            if structure.fixed:
                over = _(
                    "action %(number)s (%(player)s %(action)s): more than the fixed limit of "
                    "%(high)s"
                )
            else:
                over = _(
                    "action %(number)s (%(player)s %(action)s): more than the pot limit of %(high)s"
                )
            raise bad(over, high=amount_text(high))
        rnd = limits.after_wager(structure, rnd, seat=index, to=a.to, in_hand=in_hand)
        if opening is None:
            opening = a.to
        seat.total, seat.acted_at, seat.all_in = a.to, a.to, a.action == ALL_IN
    spot = _Spot(q, structure, rnd, seats, opening, posted)
    _check_actor(spot)
    return spot


def _complaint(index: int, a: PriorAction):
    """The BadQuestion for the action at `index`: its templates start with the action
    they complain about, "action %(number)s (%(player)s %(action)s): ..."."""

    def bad(template: str, **params) -> BadQuestion:
        return BadQuestion(
            "actions", template, number=index + 1, player=a.player, action=a.action, **params
        )

    return bad


def _prior_block(bad, block: limits.Block, structure: Structure, rnd: Round, seat: _Seat):
    """Why a prior action could not raise: 47 (not reopened) or 48 (the cap)."""
    rule, reason = block
    if rule in ("TDA 47-A", "TDA 47-B"):
        return bad(
            _(
                "action %(number)s (%(player)s %(action)s): the player may not raise here: the "
                "betting was not reopened for them, as %(faced)s more since they acted is less "
                "than a full raise (%(rule)s)"
            ),
            faced=amount_text(rnd.current_bet - (seat.acted_at or 0)),
            rule=rule,
        )
    if rule == "TDA 48":
        return bad(
            _(
                "action %(number)s (%(player)s %(action)s): the player may not raise here: the "
                "betting on this street is capped (bets: %(cap)s; TDA 48)"
            ),
            cap=structure.cap,
        )
    # Not reached: the replay rules out table stakes and TDA 16, the other blocks.
    return bad(
        _("action %(number)s (%(player)s %(action)s): the player may not raise here (%(rule)s)"),
        rule=rule,
        reason=reason,
    )


def _check_actor(spot: _Spot) -> None:
    q, me = spot.q, spot.seats.get(spot.q.player)
    if me is None:
        if q.in_front:
            raise BadQuestion(
                "in_front",
                _("%(player)s has no bet in this street's actions, so nothing in front"),
                player=q.player,
            )
        return
    if me.folded:
        raise BadQuestion("player", _("%(player)s has folded"), player=q.player)
    if me.all_in:
        raise BadQuestion(
            "player", _("%(player)s is all-in and does not act again"), player=q.player
        )
    if q.in_front != me.total:
        raise BadQuestion(
            "in_front",
            _("%(player)s's last total in the actions is %(total)s, not %(in_front)s"),
            player=q.player,
            total=amount_text(me.total),
            in_front=amount_text(q.in_front),
        )
    if me.acted_at is not None and me.acted_at >= spot.current:
        raise BadQuestion(
            "player",
            _("%(player)s already acted on the current bet: the action is not on them"),
            player=q.player,
        )

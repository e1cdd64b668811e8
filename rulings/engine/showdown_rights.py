"""May this player have that hand tabled? Showdown rights (TDA 16, 17-B, 18).

The floor is asked at showdown, once the betting is over. The question names the players
still in the hand, what each has done with their cards, the final betting round's actions
in order, who asks and whose hand they want to see. The answer is one of:

- "yes": the hand is tabled. TDA 16: with a player all-in and the betting over, every
  hand in the main and side pots is tabled, asked or not. TDA 18-B: a caller of a river
  bet who tabled or kept their cards may have the last aggressor's hand tabled (the hand
  they paid to see).
- "discretion": TDA 18-B leaves every other request to the TD: another caller's hand, or
  any hand when there was no bet on the river.
- "no": TDA 18-A: a player who no longer holds cards, or who mucked face down without
  tabling, has no right to see any hand; TDA 17-B: once all but one have mucked face down
  the last player with live cards wins without tabling; a hand already killed into the
  muck (TDA 14) is no longer there to be shown.

The cards of a player: "tabled" (turned face up), "held" (kept in hand), "pushed"
(pushed forward face down, not yet killed: the player gave up their rights, the cards can
still be asked for), "mucked" (killed by the dealer into the muck).
"""

from dataclasses import dataclass

from rulings.engine.errors import BadQuestion, Note, _, explain

TABLED = "tabled"
HELD = "held"
PUSHED = "pushed"
MUCKED = "mucked"
CARDS = (TABLED, HELD, PUSHED, MUCKED)
LIVE = (TABLED, HELD)  # the player tabled or retains the cards (TDA 18-A, 18-B)

RIVER_ACTIONS = ("check", "bet", "raise", "call", "fold")
AGGRESSIVE = ("bet", "raise")

YES = "yes"
DISCRETION = "discretion"
NO = "no"


@dataclass(frozen=True)
class ShowdownPlayer:
    name: str
    cards: str  # one of CARDS
    all_in: bool = False


@dataclass(frozen=True)
class RiverAction:
    player: str
    action: str  # one of RIVER_ACTIONS


@dataclass(frozen=True)
class ShowdownRightsQuestion:
    players: tuple[ShowdownPlayer, ...]  # the players still in the hand at showdown
    river: tuple[RiverAction, ...]  # the final betting round, in order
    asker: str
    target: str


@dataclass(frozen=True)
class ShowdownRightsAnswer:
    answer: str  # YES, DISCRETION or NO
    must_table: bool  # the target's hand is tabled (TDA 16, 18-B)
    last_aggressor: str | None  # the last player to bet or raise on the river
    rules: tuple[str, ...]
    explanation: str
    notes: tuple[Note, ...]


def showdown_rights(q: ShowdownRightsQuestion) -> ShowdownRightsAnswer:
    players = _check(q)
    asker, target = players[q.asker], players[q.target]
    last_aggressor = _last_aggressor(q.river)
    params = {"asker": q.asker, "target": q.target, "aggressor": last_aggressor or ""}

    if any(p.all_in for p in q.players) and target.cards != MUCKED:
        # TDA 16 does not wait for anyone to ask.
        return _answer(
            YES,
            True,
            last_aggressor,
            ["TDA 16"],
            _(
                "A player is all-in and the betting is over: every hand in the main and "
                "side pots is tabled at once, so %(target)s's hand is turned up whoever "
                "asks (TDA 16)."
            ),
            params,
        )
    if target.cards == MUCKED:
        return _answer(
            NO,
            False,
            last_aggressor,
            ["TDA 14"],
            _(
                "%(target)s's cards were killed into the muck: there is no hand left to "
                "show (TDA 14)."
            ),
            params,
        )
    others_gone = all(p.cards in (PUSHED, MUCKED) for p in q.players if p.name != q.target)
    if others_gone and asker.cards not in LIVE:
        return _answer(
            NO,
            False,
            last_aggressor,
            ["TDA 17-B", "TDA 18-A"],
            _(
                "Everyone but %(target)s mucked face down: the showdown is uncontested and "
                "%(target)s wins without tabling (TDA 17-B). %(asker)s mucked without "
                "tabling and has no right to see a hand (TDA 18-A)."
            ),
            params,
        )
    if asker.cards not in LIVE:
        return _answer(
            NO,
            False,
            last_aggressor,
            ["TDA 18-A"],
            _(
                "%(asker)s no longer holds cards or mucked them face down without tabling, "
                "and so has no right to ask to see any hand (TDA 18-A)."
            ),
            params,
        )
    if last_aggressor is None:
        return _answer(
            DISCRETION,
            False,
            last_aggressor,
            ["TDA 18-B"],
            _(
                "Nobody bet on the river, so nobody paid to see %(target)s's hand: "
                "%(asker)s may ask, and the TD decides (TDA 18-B)."
            ),
            params,
        )
    if q.target == last_aggressor and _called(q.river, q.asker):
        return _answer(
            YES,
            True,
            last_aggressor,
            ["TDA 18-B"],
            _(
                "%(target)s made the last bet or raise on the river and %(asker)s called it "
                "and still has cards: %(asker)s paid to see that hand and it is tabled on "
                "request (TDA 18-B)."
            ),
            params,
        )
    return _answer(
        DISCRETION,
        False,
        last_aggressor,
        ["TDA 18-B"],
        _(
            "Only a caller asking for the last aggressor's hand (%(aggressor)s) has a "
            "right to see it; this request is for the TD to decide (TDA 18-B)."
        ),
        params,
    )


def _answer(answer, must_table, last_aggressor, rules, template, params) -> ShowdownRightsAnswer:
    notes = (Note(template, params),)
    return ShowdownRightsAnswer(
        answer=answer,
        must_table=must_table,
        last_aggressor=last_aggressor,
        rules=tuple(rules),
        explanation=explain(notes),
        notes=notes,
    )


def _last_aggressor(river) -> str | None:
    aggressors = [a.player for a in river if a.action in AGGRESSIVE]
    return aggressors[-1] if aggressors else None


def _called(river, player: str) -> bool:
    """Whether `player` called after the river's last bet or raise."""
    last = max(i for i, a in enumerate(river) if a.action in AGGRESSIVE)
    return any(a.player == player and a.action == "call" for a in river[last + 1 :])


def _check(q: ShowdownRightsQuestion) -> dict[str, ShowdownPlayer]:
    players: dict[str, ShowdownPlayer] = {}
    for p in q.players:
        if p.name in players:
            raise BadQuestion("players", _("%(name)s is listed twice."), name=p.name)
        if p.cards not in CARDS:
            raise BadQuestion("players", _("Unknown cards state %(cards)s."), cards=p.cards)
        players[p.name] = p
    if len(players) < 2:
        raise BadQuestion("players", _("A showdown needs at least two players in the hand."))
    for field, name in (("asker", q.asker), ("target", q.target)):
        if name not in players:
            raise BadQuestion(field, _("%(name)s is not among the players."), name=name)
    if q.asker == q.target:
        raise BadQuestion("target", _("A player does not ask to see their own hand."))
    for a in q.river:
        if a.player not in players:
            raise BadQuestion(
                "river",
                _("%(name)s acts on the river but is not among the players."),
                name=a.player,
            )
        if a.action not in RIVER_ACTIONS:
            raise BadQuestion("river", _("Unknown action %(action)s."), action=a.action)
    return players

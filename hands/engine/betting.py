"""Betting in a board game (hold'em, Omaha) as an immutable state, one action at a time.

`start_hand` posts the blinds and the big blind ante and kills the hands of the seats
dealt in dead (a player on penalty, TDA 71-C); `HandState.apply` checks an action
against the rules and returns the next state, or raises `IllegalAction` naming the rule
and the player's options, leaving the state as it was. The state knows whose turn it
is, what it costs to call, the smallest and largest bet or raise, whether the betting
was reopened for a player (TDA 47) and when a street or the hand is over.

An action out of turn is held (`HandState.declare`) and applied or let go when the
action reaches its seat; substantial action out of turn after a skipped seat holds the
betting for the floor's ruling (`HandState.rule_skipped`): TDA 53, the rule in
`out_of_turn`. A hand killed during play (`HandState.kill`, TDA 65-A, 66: the rule in
`killed`) folds out of turn and takes back an uncalled bet or raise. `replay` reads a
hand's log with all of them, so it replays alike.

Amounts are whole chips. "Raise to" and "bet" amounts are the player's total in front
of them for the street, as TDA 43-B reads a declared raise.
"""

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, replace

from . import killed, limits
from . import out_of_turn as oot
from .limits import SHOWDOWN, STREETS, Round, Structure
from .pots import Pot, build_pots

FOLD = "fold"
CHECK = "check"
CALL = "call"
BET = "bet"
RAISE = "raise"
ALL_IN = "all-in"
KINDS = (FOLD, CHECK, CALL, BET, RAISE, ALL_IN)


@dataclass(frozen=True)
class Action:
    kind: str
    seat: int
    amount: int | None = None  # bet/raise: the total for the street; call: chips added
    all_in: bool = False

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown action {self.kind!r}")
        if self.kind in (BET, RAISE) and self.amount is None:
            raise ValueError(f"a {self.kind} needs an amount")


def fold(seat: int) -> Action:
    return Action(FOLD, seat)


def check(seat: int) -> Action:
    return Action(CHECK, seat)


def call(seat: int) -> Action:
    return Action(CALL, seat)


def bet(seat: int, amount: int) -> Action:
    return Action(BET, seat, amount)


def raise_to(seat: int, amount: int) -> Action:
    return Action(RAISE, seat, amount)


def all_in(seat: int) -> Action:
    return Action(ALL_IN, seat)


@dataclass(frozen=True)
class LegalActions:
    """What the player to act may do. `call` is what calling costs (less than the bet
    when all-in for less), 0 when they may check; `min_to`/`max_to` bound a bet or raise
    (`wager`) as a street total, both equal to the stack when only an all-in is left."""

    seat: int
    call: int
    wager: str | None = None  # BET, RAISE or None when the player may not raise
    min_to: int | None = None
    max_to: int | None = None
    # Stud's third street (hands.engine.stud): the opener must bet at least the bring-in,
    # no check (RP-10 E).
    forced: bool = False

    @property
    def can_check(self) -> bool:
        return self.call == 0 and not self.forced

    def describe(self) -> str:
        options = ["fold"]
        if self.can_check or self.call:
            options.append("check" if self.can_check else f"call {self.call}")
        if self.wager:
            span = (
                f"{self.min_to}" if self.min_to == self.max_to else f"{self.min_to}-{self.max_to}"
            )
            options.append(f"{'raise to' if self.wager == RAISE else 'bet'} {span}")
        return f"seat {self.seat} may " + ", ".join(options[:-1]) + f" or {options[-1]}"


class IllegalAction(ValueError):
    """An action the rules do not allow; `rule` cites the rule, `options` are what the
    player to act may do instead (None when nobody is to act)."""

    def __init__(self, rule: str, message: str, options: LegalActions | None):
        self.rule = rule
        self.message = message
        self.options = options
        hint = f" ({options.describe()})" if options else ""
        super().__init__(f"{rule}: {message}{hint}")


@dataclass(frozen=True)
class Player:
    seat: int
    stack: int  # chips behind
    bet: int = 0  # live chips in front on this street
    total: int = 0  # live chips put in during the hand: side pots are built from it
    # Dead money, never part of a live bet: the big blind ante (RP-11) and blinds made up
    # after dodging them (older TDA 22). It joins the main pot.
    ante: int = 0
    folded: bool = False
    acted_at: int | None = None  # the bet this player last matched or made this street
    # TDA 71-C, 30: dealt in and posted, but the hand is dead from the deal (a player on
    # penalty): folded before anyone acts, never in the order of action nor a contender.
    dead: bool = False

    @property
    def can_act(self) -> bool:
        return not self.folded and self.stack > 0

    @property
    def all_in(self) -> bool:
        return not self.folded and self.stack == 0


@dataclass(frozen=True)
class HandState:
    structure: Structure
    button: int
    players: tuple[Player, ...]  # dealing order: the first seat left of the button first
    small_blind_seat: int | None
    big_blind_seat: int
    round: Round
    to_act: int | None = None
    finished_at: str | None = None  # SHOWDOWN once no more betting can happen
    history: tuple[Action, ...] = ()
    lines: int = 0  # the log lines read: actions in turn and out of turn, floor rulings
    # TDA 53 (hands.engine.out_of_turn): actions out of turn held until their turn; the
    # skipped seats the floor is to rule on (the betting holds); the seats it limited to
    # check, call or fold this betting round, or whose hands it ruled dead; and what
    # became of each action out of turn.
    pending: tuple[oot.Pending, ...] = ()
    awaiting: tuple[int, ...] = ()
    limited: frozenset[int] = frozenset()
    ruled_dead: frozenset[int] = frozenset()
    outcomes: tuple[oot.Outcome, ...] = ()
    # TDA 65-A, 66 (hands.engine.killed): the hands killed during play, and the round as
    # each bet or raise of this street found it, so an uncalled one can be taken back.
    kills: tuple[killed.Kill, ...] = ()
    wagers: tuple[Round, ...] = ()
    kill_refund: str = killed.REFUND_TDA  # the house's reading (killed_hand_refund)

    # --- Reading the state ------------------------------------------------------------

    @property
    def street(self) -> str:
        return self.finished_at or self.round.street

    @property
    def current_bet(self) -> int:
        return self.round.current_bet

    @property
    def aggressor(self) -> int | None:
        """The last to bet or raise on the current street, or the final one (TDA 17)."""
        return self.round.aggressor

    @property
    def hand_aggressor(self) -> int | None:
        """The last to bet or raise on any street (casino §42); blinds are no bets."""
        wagers = [a.seat for a in self.history if a.kind in (BET, RAISE)]
        return wagers[-1] if wagers else None

    @property
    def finished(self) -> bool:
        return self.finished_at is not None or len(self.in_hand) == 1

    @property
    def in_hand(self) -> tuple[int, ...]:
        return tuple(p.seat for p in self.players if not p.folded)

    @property
    def dead(self) -> tuple[int, ...]:
        """The seats dealt a dead hand (TDA 71-C): their blinds and antes stay in the pot."""
        return tuple(p.seat for p in self.players if p.dead)

    @property
    def pot(self) -> int:
        return sum(p.total + p.ante for p in self.players)

    @property
    def stacks(self) -> dict[int, int]:
        return {p.seat: p.stack for p in self.players}

    @property
    def contributions(self) -> dict[int, int]:
        return {p.seat: p.total + p.ante for p in self.players}

    @property
    def all_in_showdown(self) -> bool:
        """TDA 16: a player is all-in and no more betting can happen: every hand is
        tabled at once, before the rest of the board is dealt."""
        return (
            self.finished_at == SHOWDOWN
            and len(self.in_hand) > 1
            and any(p.all_in for p in self.players)
        )

    def player(self, seat: int) -> Player:
        for p in self.players:
            if p.seat == seat:
                return p
        raise KeyError(seat)

    def pots(self) -> list[Pot]:
        """Main and side pots; antes are dead money for the main pot (RP-11)."""
        live = {p.seat: p.total for p in self.players}
        folded = {p.seat for p in self.players if p.folded}
        return build_pots(live, folded, dead=sum(p.ante for p in self.players))

    def legal_actions(self) -> LegalActions | None:
        if self.to_act is None:
            return None
        p = self.player(self.to_act)
        options = LegalActions(p.seat, min(self.current_bet - p.bet, p.stack))
        if self._raise_block(p) is not None:
            return options
        pot = self._pot_for_limit()
        low, high = limits.bounds(self.structure, self.round, bet=p.bet, stack=p.stack, pot=pot)
        wager = BET if self.current_bet == 0 else RAISE
        return replace(options, wager=wager, min_to=low, max_to=high)

    # --- Acting -----------------------------------------------------------------------

    def apply(self, action: Action) -> "HandState":
        """The state after `action`, or IllegalAction with the rule and the options.
        An action out of turn held for the next seats is applied, or let go, as the
        action reaches them (TDA 53-A)."""
        if self.awaiting:
            message = f"the floor rules on skipped seat {self.awaiting[0]} first"
            raise IllegalAction("TDA 53-B", message, self.legal_actions())
        return replace(self._act(action), lines=self.lines + 1)

    def _act(self, action: Action) -> "HandState":
        options = self.legal_actions()
        if options is None:
            raise IllegalAction("TDA 53-A", "the betting is over: no one is to act", None)
        if action.seat != self.to_act:
            message = f"seat {action.seat} acted out of turn: action is on seat {self.to_act}"
            raise IllegalAction("TDA 53-A", message, options)
        p = self.player(action.seat)
        if action.kind == FOLD:
            # Folding when a check was possible is binding though non-standard (TDA 58).
            return self._after(replace(p, folded=True), Action(FOLD, p.seat))
        if action.kind == CHECK:
            if options.call:
                message = f"seat {p.seat} cannot check facing a bet of {self.current_bet}"
                raise IllegalAction("TDA 55", message, options)
            return self._after(replace(p, acted_at=self.current_bet), Action(CHECK, p.seat))
        if action.kind == CALL:
            return self._call(p, options)
        target = p.bet + p.stack if action.kind == ALL_IN else action.amount
        return self._wager(p, target, options)

    def _call(self, p: Player, options: LegalActions) -> "HandState":
        if options.call == 0:  # TDA 55-A: "call" with no bet to call is a check
            return self._after(replace(p, acted_at=self.current_bet), Action(CHECK, p.seat))
        moved = _put_in(p, options.call, acted_at=self.current_bet)
        return self._after(moved, Action(CALL, p.seat, options.call, all_in=moved.stack == 0))

    def _wager(self, p: Player, target: int, options: LegalActions) -> "HandState":
        everything = p.bet + p.stack
        if target > everything:
            message = f"seat {p.seat} has {everything} in all for this street, not {target}"
            raise IllegalAction("table stakes", message, options)
        if target <= self.current_bet:
            if target == everything:  # all-in for no more than the call
                return self._call(p, options)
            message = f"a raise must go above the current bet of {self.current_bet}"
            raise IllegalAction("TDA 43", message, options)
        block = self._raise_block(p)
        if block is not None:
            raise IllegalAction(*block, options)
        if target < options.min_to:
            rule = "TDA 52-A" if self.structure.fixed else "TDA 43"
            message = f"the smallest {options.wager} is to {options.min_to}, not {target}"
            raise IllegalAction(rule, message, options)
        if target > options.max_to:
            rule, message = limits.over_limit(
                self.structure, self.round, target=target, most=options.max_to
            )
            raise IllegalAction(rule, message, options)
        kind = BET if self.current_bet == 0 else RAISE
        rnd = limits.after_wager(
            self.structure, self.round, seat=p.seat, to=target, in_hand=len(self.in_hand)
        )
        moved = _put_in(p, target - p.bet, acted_at=target)
        action = Action(kind, p.seat, target, all_in=moved.stack == 0)
        return replace(self, round=rnd, wagers=self.wagers + (self.round,))._after(moved, action)

    def _raise_block(self, p: Player) -> limits.Block | None:
        if p.seat in self.limited:
            message = f"the floor limited seat {p.seat} to check, call or fold"
            return ("TDA 53-B", message)
        return limits.raise_block(
            self.structure,
            self.round,
            seat=p.seat,
            can_call_only=p.stack <= self.current_bet - p.bet,
            no_one_left=not any(q.can_act for q in self.players if q.seat != p.seat),
            acted_at=p.acted_at,
            in_hand=len(self.in_hand),
        )

    def _pot_for_limit(self) -> int:
        """TDA 54-B: pre-flop every pot bet assumes full blinds, dead or short ones
        included; TDA 54-C: afterwards the pot as it is."""
        if self.round.street != STREETS[0]:
            return self.pot
        s = self.structure
        missing = s.big_blind - min(self.player(self.big_blind_seat).total, s.big_blind)
        sb_paid = 0 if self.small_blind_seat is None else self.player(self.small_blind_seat).total
        missing += s.small_blind - min(sb_paid, s.small_blind)
        return self.pot + missing

    # --- Moving on ----------------------------------------------------------------------

    def _after(self, moved: Player, action: Action) -> "HandState":
        """Record the action, then find who acts next, or end the street or the hand."""
        players = tuple(moved if q.seat == moved.seat else q for q in self.players)
        state = replace(self, players=players, history=self.history + (action,))
        if len(state.in_hand) == 1:
            return replace(state._return_uncalled()._round_over(), to_act=None)
        following = state._next_to_act(state._index(moved.seat))
        if following is not None:
            return replace(state, to_act=following)._turn_reached()
        return state._end_street()

    def _end_street(self) -> "HandState":
        state = self._return_uncalled()._round_over()
        can_act = [p for p in state.players if p.can_act]
        if state.round.street == STREETS[-1] or len(can_act) < 2:
            # TDA 16: nobody can bet any more; the rest of the board is run out.
            return replace(state, finished_at=SHOWDOWN, to_act=None)
        street = STREETS[STREETS.index(state.round.street) + 1]
        fresh = replace(
            state,
            round=limits.next_round(self.structure, street),
            players=tuple(replace(p, bet=0, acted_at=None) for p in state.players),
        )
        return replace(fresh, to_act=fresh._next_to_act(-1))._turn_reached()

    # --- A hand killed (TDA 65-A, 66, hands.engine.killed) ------------------------------

    @property
    def is_stud(self) -> bool:
        return False

    def facing_action(self, seat: int) -> bool:
        """The betting is on and `seat` still has to act in it: facing a bet, or not yet
        acted this betting round (TDA 66)."""
        if self.to_act is None or seat not in self.in_hand:
            return False
        return self._still_to_act(self.player(seat))

    def kill(self, seat: int, reason: str) -> "HandState":
        """`seat`'s hand is dead at once, whoever's turn it is (TDA 65-A, 66).

        The chips it called stay in the pot; an uncalled bet or raise it made goes back
        and the betting round is as it was before that wager (TDA 65-A). An action it
        held out of turn is void. The order of action goes on for the others: killed in
        turn, the next seat acts; out of turn, the seat in turn still does (or the round
        ends when nobody else has to act). One live hand left wins, as when everyone
        folds. Refused (IllegalAction) for a seat not in the hand, the last live hand,
        and the cases `killed.refusal` names (TDA 65-B, 66)."""
        options = self.legal_actions()
        rule = killed.RULES.get(reason, "TDA 65-A")
        if seat not in self.in_hand or seat in self.ruled_dead:
            raise IllegalAction(rule, f"seat {seat} is not in the hand", options)
        if self.in_hand == (seat,):
            raise IllegalAction(rule, f"seat {seat} holds the last live hand", options)
        refused = killed.refusal(reason, stud=self.is_stud, facing_action=self.facing_action(seat))
        if refused is not None:
            raise IllegalAction(rule, refused, options)
        p = self.player(seat)
        others = max(q.bet for q in self.players if q.seat != seat)
        back = killed.uncalled(
            bet=p.bet,
            others=others,
            initiated=self.aggressor == seat,
            # an opening bet: no full bet or raise before it this street (the bring-in none)
            opened=bool(self.wagers) and self.wagers[-1].bets == 0,
            refund=self.kill_refund,
        )
        rnd, wagers = self.round, self.wagers
        if back and wagers:  # the round as the wager taken back found it
            rnd = replace(wagers[-1], current_bet=max(wagers[-1].current_bet, p.bet - back))
            wagers = wagers[:-1]
        dead = replace(p, folded=True, stack=p.stack + back, bet=p.bet - back, total=p.total - back)
        kill = killed.Kill(seat, reason, rule, returned=back, line=self.lines + 1)
        state = replace(
            self,
            players=tuple(dead if q.seat == seat else q for q in self.players),
            round=rnd,
            wagers=wagers,
            pending=tuple(h for h in self.pending if h.seat != seat),
            awaiting=tuple(s for s in self.awaiting if s != seat),
            kills=self.kills + (kill,),
            lines=self.lines + 1,
        )
        for held in self.pending:  # its action out of turn never reaches it now
            if held.seat == seat:
                state = state._outcome(held, oot.VOID)
        if len(state.in_hand) == 1:  # as when everyone folds: the last live hand wins
            return replace(state._return_uncalled()._round_over(), to_act=None)
        if self.to_act is None:  # at showdown, or between stud streets
            if state.finished_at is None and sum(p.can_act for p in state.players) < 2:
                return state._no_more_betting()  # TDA 16: nobody left to bet with
            return state
        start = state._index(seat) if seat == self.to_act else state._index(self.to_act) - 1
        following = state._next_to_act(start)
        if following is None:
            return state._end_street()
        state = replace(state, to_act=following)
        if following != self.to_act or (self.awaiting and not state.awaiting):
            return state._turn_reached()
        return state

    # --- Action out of turn (TDA 53, hands.engine.out_of_turn) ---------------------------

    def declare(self, action: Action) -> "HandState":
        """TDA 53-A: `action` made out of turn, held until the action reaches its seat.

        It is checked as if it were the seat's turn now, with the actions out of turn
        already held for seats before it taken as made; what the seat answers then is
        what must not change for it to stand. Refused (IllegalAction) when the betting is
        over or holds for the floor, for the seat in turn, a seat not in the hand, all-in,
        with nothing to act on, or already holding an action. Substantial action out of
        turn after a skipped seat (TDA 36) holds the betting for the floor (TDA 53-B)."""
        options = self.legal_actions()
        if options is None:
            raise IllegalAction("TDA 53-A", "the betting is over: no one is to act", None)
        if self.awaiting:
            message = f"the floor rules on skipped seat {self.awaiting[0]} first"
            raise IllegalAction("TDA 53-B", message, options)
        seat = action.seat
        if seat == self.to_act:
            raise IllegalAction("TDA 53-A", f"seat {seat} is to act: it acts in turn", options)
        if seat not in self.in_hand or seat in self.ruled_dead:
            raise IllegalAction("TDA 53-A", f"seat {seat} is not in the hand", options)
        if not self.player(seat).can_act:
            raise IllegalAction("TDA 53-A", f"seat {seat} is all-in", options)
        if any(p.seat == seat for p in self.pending):
            message = f"seat {seat} already acted out of turn: it waits for its turn"
            raise IllegalAction("TDA 53-A", message, options)
        seen = self._as_seen_by(seat)
        if not seen._still_to_act(seen.player(seat)):
            message = f"seat {seat} has acted: nothing is to it now"
            raise IllegalAction("TDA 53-A", message, options)
        made = replace(seen, to_act=seat)._act(action).history[len(seen.history)]
        held = oot.Pending(
            seat=seat,
            kind=made.kind,
            amount=made.amount,
            facing=seen.current_bet,
            line=self.lines + 1,
        )
        state = replace(self, pending=self.pending + (held,), lines=self.lines + 1)
        return state._skipped_check()

    def rule_skipped(self, seat: int, ruling: str) -> "HandState":
        """TDA 53-B: the floor's ruling on a skipped seat's hand, dead or limited to check,
        call or fold this betting round. Once every skipped seat is ruled on, the betting
        goes on: a dead hand folds when the action reaches it."""
        if ruling not in oot.RULINGS:
            raise ValueError(f"unknown TDA 53-B ruling {ruling!r}")
        if seat not in self.awaiting:
            message = f"seat {seat} waits for no ruling"
            raise IllegalAction("TDA 53-B", message, self.legal_actions())
        state = replace(
            self,
            awaiting=tuple(s for s in self.awaiting if s != seat),
            limited=self.limited | {seat} if ruling == oot.LIMITED else self.limited,
            ruled_dead=self.ruled_dead | {seat} if ruling == oot.DEAD else self.ruled_dead,
            lines=self.lines + 1,
        )
        return state if state.awaiting else state._turn_reached()

    def _no_more_betting(self) -> "HandState":
        return replace(self, finished_at=SHOWDOWN, to_act=None)

    def _from_turn(self, seat: int) -> int:
        """How many places after the seat in turn `seat` sits, clockwise."""
        return (self._index(seat) - self._index(self.to_act)) % len(self.players)

    def _still_to_act(self, p: Player) -> bool:
        return p.can_act and (p.bet < self.current_bet or p.acted_at is None)

    def _as_seen_by(self, seat: int) -> "HandState":
        """The betting as an out-of-turn `seat` found it: the actions out of turn held for
        seats between the seat in turn and it, taken as made (one that no longer fits is
        left out: it will not stand either)."""
        seen = replace(self, pending=(), awaiting=())
        for held in sorted(self.pending, key=lambda p: self._from_turn(p.seat)):
            if self._from_turn(held.seat) > self._from_turn(seat):
                break
            try:
                seen = replace(seen, to_act=held.seat)._act(_held_action(held))
            except IllegalAction:
                continue
        return seen

    def _skipped_check(self) -> "HandState":
        """TDA 53-B: substantial action out of turn after a skipped seat holds the betting
        until the floor rules on that seat's hand; the actions out of turn after it stand."""
        order = sorted((p.seat for p in self.players), key=self._from_turn)
        held = {p.seat: p.kind for p in self.pending}
        last = max(self._from_turn(seat) for seat in held)
        skipped = {
            p.seat
            for p in self.players
            if p.seat not in held
            and p.seat not in self.limited | self.ruled_dead
            and self._from_turn(p.seat) < last
            and self._still_to_act(p)
        }
        awaiting = oot.skipped_to_rule(order, held, skipped)
        if not awaiting:
            return self
        first = self._from_turn(awaiting[0])
        pending = tuple(
            replace(p, substantial=True) if self._from_turn(p.seat) > first else p
            for p in self.pending
        )
        return replace(self, awaiting=tuple(awaiting), pending=pending)

    def _turn_reached(self) -> "HandState":
        """The action reaches `to_act`: a hand the floor ruled dead folds (TDA 53-B); an
        action out of turn held for the seat stands or is let go (TDA 53-A)."""
        seat = self.to_act
        if seat is None or self.awaiting:
            return self
        if seat in self.ruled_dead:
            return self._act(Action(FOLD, seat))
        held = next((p for p in self.pending if p.seat == seat), None)
        if held is None:
            return self
        state = replace(self, pending=tuple(p for p in self.pending if p is not held))
        if oot.binding(held, current_bet=self.current_bet):
            try:
                return state._outcome(held, oot.BINDING)._act(_held_action(held))
            except IllegalAction:
                pass  # it no longer fits the betting: it cannot stand
        return state._outcome(held, oot.FREED)

    def _outcome(self, held: oot.Pending, result: str) -> "HandState":
        outcome = oot.Outcome(
            seat=held.seat,
            kind=held.kind,
            amount=held.amount,
            line=held.line,
            result=result,
            rule=oot.rule_of(held, result),
        )
        return replace(self, outcomes=self.outcomes + (outcome,))

    def _round_over(self) -> "HandState":
        """The betting round (or the hand) ends: actions out of turn the action never
        reached are void, and a limit the floor set lasted this round only (TDA 53-B)."""
        state = replace(self, pending=(), awaiting=(), limited=frozenset(), wagers=())
        for held in self.pending:
            state = state._outcome(held, oot.VOID)
        return state

    def _return_uncalled(self) -> "HandState":
        """The part of the largest bet nobody matched goes back to its owner, a player
        still in the hand. A dead hand's blind is never given back: what a player on
        penalty posted stays in the pot (TDA 30, 71-C), even when it is the largest."""
        live = [p for p in self.players if not p.folded]
        if not live:
            return self
        top = max(live, key=lambda p: p.bet)
        second = max((p.bet for p in self.players if p.seat != top.seat), default=0)
        excess = top.bet - second
        if excess <= 0:
            return self
        back = replace(top, stack=top.stack + excess, bet=second, total=top.total - excess)
        players = tuple(back if q.seat == top.seat else q for q in self.players)
        return replace(self, players=players, round=replace(self.round, current_bet=second))

    def _index(self, seat: int) -> int:
        return next(i for i, p in enumerate(self.players) if p.seat == seat)

    def _next_to_act(self, index: int) -> int | None:
        """The first player after position `index` (clockwise) who still has to act:
        facing a bet, or not yet acted this street while someone else could respond."""
        n = len(self.players)
        for step in range(1, n + 1):
            p = self.players[(index + step) % n]
            if not p.can_act:
                continue
            facing = p.bet < self.current_bet
            others = any(q.can_act for q in self.players if q.seat != p.seat)
            if facing or (p.acted_at is None and others):
                return p.seat
        return None


def _held_action(held: oot.Pending) -> Action:
    return Action(held.kind, held.seat, held.amount)


def replay(state: HandState, lines: Iterable[tuple[int, str, int | None, str]]) -> HandState:
    """The betting after a hand's log: (seat, kind, amount, out_of_turn) lines in order,
    as hands.HandAction keeps them: actions in turn, actions out of turn (TDA 53-A),
    the floor's rulings on skipped hands (TDA 53-B, the ruling as the kind) and hands
    killed (TDA 65-A, 66, the reason as the kind)."""
    for seat, kind, amount, out_of_turn in lines:
        if out_of_turn == oot.DECLARED:
            state = state.declare(Action(kind, seat, amount))
        elif out_of_turn == oot.RULED:
            state = state.rule_skipped(seat, kind)
        elif out_of_turn == killed.KILLED:
            state = state.kill(seat, kind)
        else:
            state = state.apply(Action(kind, seat, amount))
    return state


def _put_in(p: Player, chips: int, *, acted_at: int) -> Player:
    return replace(
        p, stack=p.stack - chips, bet=p.bet + chips, total=p.total + chips, acted_at=acted_at
    )


def start_hand(
    structure: Structure,
    seats: Iterable[tuple[int, int]],
    *,
    button: int,
    small_blind: int | None,
    big_blind: int,
    dead: Collection[int] = (),
    dead_money: Mapping[int, int] | None = None,
) -> HandState:
    """A new hand: (seat, stack) pairs in dealing order, the first seat left of the
    button first. `small_blind` is None for a dead small blind. Blinds and the big
    blind ante are posted, all-in for less where the stack is short.

    Pre-flop the bet to call is the full big blind even when the big blind is short.

    `dead` are the seats dealt in with a dead hand, players on penalty (TDA 71-C; the
    caller decides who, when the hand is dealt). They post their blinds and the big
    blind ante like anyone, and the chips stay in the pot (TDA 30); their hands are
    killed at once: never in the order of action, never a contender for any pot, and
    never given back an uncalled blind. A dead big blind must still be called in full;
    when everyone else folds to one player, that player wins the blinds. One live seat
    at the deal wins them at once; a hand needs at least one live seat.

    `dead_money` are blinds a seat dodged and makes up (older TDA 22): posted after the
    seat's own blind, all-in for less when short, as dead money. It counts in the pot
    (the main pot, which anyone still in may win) but never in the seat's bet: what the
    player must call, and the blinds, stay as they are.
    """
    players = [Player(seat, stack) for seat, stack in seats]
    _check_seats(players, button, small_blind, big_blind)
    dead = frozenset(dead)
    if not dead <= {p.seat for p in players}:
        raise ValueError("a dead hand must be dealt to a seat in the hand")
    owed = dict(dead_money or {})
    if not set(owed) <= {p.seat for p in players} or any(c < 0 for c in owed.values()):
        raise ValueError("dead money is owed by a seat in the hand, and never negative")
    if len(dead) == len(players):
        raise ValueError("a hand needs a live seat: every seat dealt in is dead")
    posted = []
    for p in players:
        if p.seat == small_blind:
            p = _put_in(p, min(p.stack, structure.small_blind), acted_at=None)
        elif p.seat == big_blind:
            p = _post_big_blind(p, structure)
        if owed.get(p.seat):  # older TDA 22: the dodged blinds, made up as dead money
            made_up = min(p.stack, owed[p.seat])
            p = replace(p, stack=p.stack - made_up, ante=p.ante + made_up)
        if p.seat in dead:  # TDA 71-C: killed after the deal, the posted chips stay
            p = replace(p, folded=True, dead=True)
        posted.append(p)
    state = HandState(
        structure=structure,
        button=button,
        players=tuple(posted),
        small_blind_seat=small_blind,
        big_blind_seat=big_blind,
        round=limits.preflop(structure),
    )
    if len(state.in_hand) == 1:  # every other seat is dead: the live one wins the blinds
        return replace(state._return_uncalled(), to_act=None)
    following = state._next_to_act(state._index(big_blind))
    if following is None:
        return state._end_street()
    return replace(state, to_act=following)


def _post_big_blind(p: Player, structure: Structure) -> Player:
    """RP-11: the big blind pays the ante too; big blind first unless the house says
    otherwise, so a short stack keeps as much of its live bet as it can."""
    if structure.ante_first:
        ante = min(p.stack, structure.ante)
        blind = min(p.stack - ante, structure.big_blind)
    else:
        blind = min(p.stack, structure.big_blind)
        ante = min(p.stack - blind, structure.ante)
    p = _put_in(p, blind, acted_at=None)
    return replace(p, stack=p.stack - ante, ante=ante)


def _check_seats(players: list[Player], button: int, small: int | None, big: int) -> None:
    seats = [p.seat for p in players]
    if len(players) < 2 or len(set(seats)) != len(seats):
        raise ValueError("a hand needs at least two different seats")
    if any(p.stack <= 0 for p in players):
        raise ValueError("every seat dealt in needs chips")
    if big not in seats or (small is not None and small not in seats) or small == big:
        raise ValueError("the blinds must be posted by two different seats in the hand")
    if button in seats and seats[-1] != button:
        raise ValueError("seats must be in dealing order: the button is dealt last")

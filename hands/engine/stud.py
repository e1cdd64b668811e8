"""Seven-card stud, stud/8 and razz: the bring-in, who acts first on each street, and
the betting, as an immutable state like the board games' (hands.engine.betting).

The dealer enters each player's upcards as they are dealt (the door card on third
street, one more on fourth to sixth; seventh street is dealt down), because the upcards
decide the order:

- third street: the low card by suit brings it in in stud and stud/8, the high card in
  razz (aces low), suits ranked clubs, diamonds, hearts, spades (TDA 20-B, casino §20);
  a bring-in player all-in for the ante has no bring-in to post: betting starts on the
  left and the opener must bet at least the bring-in or fold (RP-10 E);
- later streets: the best hand showing acts first, the highest in stud, the lowest in
  razz; matching hands go by the high card by suit (RP-10 D); seventh street keeps
  sixth street's order, its card being down.

Fixed limit: the small bet on third and fourth street, the big bet from fifth on. On
third street the opener posts the bring-in or "completes" to the small bet; the
bring-in is no full bet, so completing it is the street's first bet toward the cap
(TDA 48). An open pair on fourth street: the TDA does not double the bet (RP-10 F);
some houses allow the upper limit (casino §38), the house setting `stud_open_pair`.
"""

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from seating.engine.blinds import RANKS, SUITS

from . import limits
from .betting import BET, CHECK, FOLD, RAISE, Action, HandState, IllegalAction, Player
from .limits import FIXED_LIMIT, SHOWDOWN, STUD_STREETS, Round, Structure

STUD = "stud"
STUD_HI_LO = "stud8"
RAZZ = "razz"
GAMES = (STUD, STUD_HI_LO, RAZZ)

OPEN_PAIR_TDA = "tda"  # RP-10 F: no bigger bet for a pair showing on fourth street
OPEN_PAIR_UPPER = "upper_limit"  # casino §38: the upper limit may be bet
OPEN_PAIR_READINGS = (OPEN_PAIR_TDA, OPEN_PAIR_UPPER)

THIRD, FOURTH, FIFTH, SIXTH, SEVENTH = STUD_STREETS
_RAZZ_RANKS = "A23456789TJQK"  # aces are low in razz
# The house's game codes (a tournament's game, a clock level's game) of stud games.
GAME_CODES = {"stud": STUD, "stud8": STUD_HI_LO, "razz": RAZZ}


def stud_game(code: str) -> str | None:
    """The stud game a game code names, None for board games."""
    return GAME_CODES.get((code or "").lower())


def button_frozen(code: str) -> bool:
    """TDA 11-B: in a mixed game the button does not move during stud; after the last
    hold'em hand it stands where the next hold'em hand would have it, and hold'em starts
    there again. Balancing meanwhile moves whoever would be that hand's big blind."""
    return stud_game(code) is not None


# --- Cards and the order of action --------------------------------------------------------


def card(text: str) -> tuple[int, int]:
    """(rank, suit) of a card such as "As", aces high; ValueError for anything else."""
    value = text.strip()
    rank, suit = value[:-1].upper(), value[-1:].lower()
    rank = "T" if rank == "10" else rank
    if len(rank) != 1 or rank not in RANKS or len(suit) != 1 or suit not in SUITS:
        raise ValueError(f"not a card: {text!r}")
    return RANKS.index(rank), SUITS.index(suit)


def normal(text: str) -> str:
    """A card written the one way: "As", "Td"."""
    rank, suit = card(text)
    return RANKS[rank] + SUITS[suit]


def _ranked(text: str, game: str) -> tuple[int, int]:
    rank, suit = card(text)
    if game == RAZZ:
        rank = _RAZZ_RANKS.index(RANKS[rank])
    return rank, suit


def bring_in_seat(door_cards: Mapping[int, str], game: str) -> int:
    """The seat that brings it in: the lowest door card by suit in stud and stud/8, the
    highest in razz, aces low (TDA 20-B's suit order; RP-10 E for who then acts)."""
    _check_game(game)
    values = {seat: _ranked(door, game) for seat, door in door_cards.items()}
    if not values:
        raise ValueError("no door cards")
    if game == RAZZ:
        return max(values, key=values.__getitem__)
    return min(values, key=values.__getitem__)


def showing(upcards: Sequence[str], game: str) -> tuple:
    """How good the upcards are for the order of action: the greater, the sooner to act.
    Stud: quads, trips, two pair, a pair, then the high cards. Razz: the lowest hand,
    unpaired before paired, aces low. Ties of this value are matching hands (RP-10 D)."""
    ranks = [_ranked(c, game)[0] for c in upcards]
    groups = sorted(((n, rank) for rank, n in Counter(ranks).items()), reverse=True)
    key = tuple(groups)
    if game == RAZZ:  # the lower the better: pairs are worst, then the highest card
        return tuple((-n, -rank) for n, rank in key)
    return key


def first_to_act(upcards: Mapping[int, Sequence[str]], game: str) -> int:
    """Who acts first on fourth street and later: the high hand showing in stud and
    stud/8, the low hand in razz; between matching hands the one holding the high card
    by suit (RP-10 D), in razz as in stud."""
    _check_game(game)
    if not upcards:
        raise ValueError("nobody to act")

    def order(seat: int) -> tuple:
        cards = upcards[seat]
        high = max((_ranked(c, game) for c in cards), default=(-1, -1))
        return showing(cards, game), high

    return max(upcards, key=order)


def open_pair(upcards: Iterable[Sequence[str]]) -> bool:
    """Fourth street: somebody still in shows a pair on their two upcards."""
    for cards in upcards:
        ranks = [card(c)[0] for c in cards]
        if len(ranks) != len(set(ranks)):
            return True
    return False


def _check_game(game: str) -> None:
    if game not in GAMES:
        raise ValueError(f"game must be one of {GAMES}, not {game!r}")


# --- The betting --------------------------------------------------------------------------


@dataclass(frozen=True)
class StudState(HandState):
    """A stud hand's betting. Between streets nobody is to act until the dealer enters
    the next upcards (`upcards_due` names the street, `deal` goes on)."""

    game: str = STUD
    bring_in: int = 0
    open_pair_rule: str = OPEN_PAIR_TDA
    upcards: tuple[tuple[int, tuple[str, ...]], ...] = ()  # seat → upcards, dealing order
    upcards_due: str | None = None  # the street whose upcards the dealer is to enter

    # --- Reading the state ------------------------------------------------------------

    @property
    def is_stud(self) -> bool:
        return True

    @property
    def cards_up(self) -> dict[int, tuple[str, ...]]:
        return dict(self.upcards)

    @property
    def bring_in_seat(self) -> int:
        """The low card by suit (high in razz): whoever acts first on third street."""
        return bring_in_seat({seat: cards[0] for seat, cards in self.upcards}, self.game)

    @property
    def hand_aggressor(self) -> int | None:
        """The last to bet or raise on any street (casino §42): the bring-in is forced,
        no aggression; completing it is."""
        wagers = [a for a in self.history if a.kind in (BET, RAISE)]
        if wagers and wagers[0].kind == BET and wagers[0].amount == self.bring_in:
            wagers = wagers[1:]
        return wagers[-1].seat if wagers else None

    def act_order(self) -> tuple[int, ...]:
        """The players still in, in the order they act on this street (on seventh street
        and at showdown as on sixth): the first by upcards, then clockwise (TDA 17-A)."""
        live = [p.seat for p in self.players if not p.folded]
        if self.round.street == THIRD:
            first = self.bring_in_seat
            seats = [p.seat for p in self.players]
        else:
            up = self.cards_up
            first = first_to_act({seat: up[seat] for seat in live}, self.game)
            seats = [p.seat for p in self.players]
        i = seats.index(first)
        return tuple(s for s in seats[i:] + seats[:i] if s in live)

    def legal_actions(self):
        options = super().legal_actions()
        if options is None or options.wager is None:
            return options
        p = self.player(options.seat)
        everything = p.bet + p.stack
        if self._opening_third():
            # RP-10 E: the bring-in, or complete to the small bet; no check.
            low = min(self.bring_in, everything)
            high = min(self.structure.unit(THIRD), everything)
            return replace(options, forced=True, min_to=low, max_to=high)
        if self._upper_limit_now():
            big = self.structure.big_bet or 2 * self.structure.unit(FOURTH)
            if not self._big_made():
                return replace(options, max_to=min(self.round.level + big, everything))
            top = min(self.round.level + big, everything)
            return replace(options, min_to=top, max_to=top)
        return options

    # --- Acting -----------------------------------------------------------------------

    def apply(self, action: Action) -> "StudState":
        if self.upcards_due is not None:
            message = f"deal the upcards of {self.upcards_due} street first"
            raise IllegalAction("RP-10", message, None)
        options = self.legal_actions()
        if options is not None and action.seat == options.seat and options.forced:
            if action.kind == CHECK:
                message = f"seat {action.seat} must bring it in or complete, not check"
                raise IllegalAction("RP-10 E", message, options)
            if action.kind == FOLD and action.seat == self.bring_in_seat:
                message = f"seat {action.seat} has the low card and posts the bring-in"
                raise IllegalAction("TDA 30", message, options)
        if options is not None and options.wager and action.kind in (BET, RAISE):
            p = self.player(action.seat) if action.seat == options.seat else None
            allowed = {options.min_to, options.max_to}
            if p is not None and action.amount not in allowed | {p.bet + p.stack}:
                if options.min_to <= action.amount <= options.max_to:
                    rule = "RP-10 E" if options.forced else "casino §38"
                    message = (
                        f"the {options.wager} is to {options.min_to} or {options.max_to}, "
                        f"not {action.amount}"
                    )
                    raise IllegalAction(rule, message, options)
        state = super().apply(action)
        if self._opening_third() and action.kind == BET and state.current_bet == self.bring_in:
            if self.bring_in < self.structure.unit(THIRD):
                # The bring-in is no full bet: completing it is the first bet (TDA 48).
                rnd = replace(
                    state.round, level=0, bets=0, aggressor=None, last_full_raise=self.bring_in
                )
                state = replace(state, round=rnd)
        return state

    def _opening_third(self) -> bool:
        """Third street before anyone brought it in (RP-10 E: a player left of an all-in
        bring-in may fold first)."""
        return self.round.street == THIRD and self.current_bet == 0

    def _upper_limit_now(self) -> bool:
        """Casino §38: a pair showing on fourth street lets a player bet the upper limit;
        after an opening at the lower limit a raise may be of the upper limit."""
        if self.open_pair_rule != OPEN_PAIR_UPPER or self.round.street != FOURTH:
            return False
        up = self.cards_up
        return open_pair(up[p.seat][:2] for p in self.players if not p.folded)

    def _big_made(self) -> bool:
        big = self.structure.big_bet or 2 * self.structure.unit(FOURTH)
        return self.round.bets > 0 and self.round.last_full_raise >= big

    # --- Moving on ----------------------------------------------------------------------

    def _end_street(self) -> "StudState":
        state = self._return_uncalled()._round_over()
        can_act = [p for p in state.players if p.can_act]
        street = state.round.street
        if street == SEVENTH or len(can_act) < 2:
            return replace(state, finished_at=SHOWDOWN, to_act=None, upcards_due=None)
        following = STUD_STREETS[STUD_STREETS.index(street) + 1]
        fresh = replace(
            state,
            round=limits.next_round(self.structure, following),
            players=tuple(replace(p, bet=0, acted_at=None) for p in state.players),
            to_act=None,
            upcards_due=following,
        )
        if following == SEVENTH:  # dealt down: the order stays sixth street's (RP-10 H D)
            return fresh.deal({})
        return fresh

    def _no_more_betting(self) -> "StudState":
        return replace(self, finished_at=SHOWDOWN, to_act=None, upcards_due=None)

    def deal(self, cards: Mapping[int, str]) -> "StudState":
        """The upcards of the street awaited, one for each player still in (none on
        seventh street); then the first to act by the upcards (RP-10 D)."""
        if self.upcards_due is None:
            raise IllegalAction("RP-10", "no street is waiting for its cards", None)
        live = [p.seat for p in self.players if not p.folded]
        given = (
            {seat: normal(c) for seat, c in cards.items()} if self.upcards_due != SEVENTH else {}
        )
        if self.upcards_due != SEVENTH and set(given) != set(live):
            missing = sorted(set(live) - set(given)) or sorted(set(given) - set(live))
            message = f"one upcard for each player still in: seat {missing[0]}"
            raise IllegalAction("RP-10 C", message, None)
        seen = [c for _seat, up in self.upcards for c in up] + list(given.values())
        if len(seen) != len(set(seen)):
            raise IllegalAction("RP-10", "a card cannot show twice", None)
        upcards = tuple(
            (seat, up + ((given[seat],) if seat in given else ())) for seat, up in self.upcards
        )
        state = replace(self, upcards=upcards, upcards_due=None)
        first = state.act_order()[0]
        index = state._index(first)
        return replace(state, to_act=state._next_to_act(index - 1))._turn_reached()


def stud_structure(*, small_bet: int, big_bet: int, cap: int | None = 4) -> Structure:
    """Fixed limit with the small bet on third and fourth street, the big bet after."""
    return Structure(
        limit=FIXED_LIMIT,
        small_blind=0,
        big_blind=small_bet,
        small_bet=small_bet,
        big_bet=big_bet,
        cap=cap,
    )


def start_stud(
    structure: Structure,
    seats: Iterable[tuple[int, int]],
    *,
    game: str,
    ante: int,
    bring_in: int,
    door_cards: Mapping[int, str],
    button: int,
    open_pair_rule: str = OPEN_PAIR_TDA,
    dead: Iterable[int] = (),
) -> StudState:
    """A new stud hand: (seat, stack) pairs clockwise, the first seat left of the
    button first (in HORSE the button is frozen during stud, TDA 11-B). Everybody
    antes (dead money, all-in for less when short); the door cards decide the bring-in,
    who acts first (RP-10 E: on the left when that player is all-in for the ante).
    `dead`: seats on penalty, dealt in dead (TDA 71-C): they ante, and the one dealt
    the low card posts the bring-in (TDA 30), then their hands are folded."""
    _check_game(game)
    if open_pair_rule not in OPEN_PAIR_READINGS:
        raise ValueError(f"open pair reading must be one of {OPEN_PAIR_READINGS}")
    if not structure.fixed:
        raise ValueError("stud is dealt in fixed limit here")
    players = []
    for seat, stack in seats:
        if stack <= 0:
            raise ValueError("every seat dealt in needs chips")
        paid = min(stack, ante)
        players.append(Player(seat, stack - paid, ante=paid))
    order = [p.seat for p in players]
    if len(players) < 2 or len(set(order)) != len(order):
        raise ValueError("a hand needs at least two different seats")
    if set(door_cards) != set(order):
        raise ValueError("every player dealt in needs a door card")
    doors = {seat: normal(c) for seat, c in door_cards.items()}
    if len(set(doors.values())) != len(doors):
        raise ValueError("a card cannot show twice")
    if not 0 < bring_in <= structure.unit(THIRD):
        raise ValueError("the bring-in is more than nothing and at most the small bet")
    low = bring_in_seat(doors, game)
    dead = set(dead) & set(order)
    if len(dead) == len(players):
        raise ValueError("a hand needs a live seat: every seat dealt in is dead")
    rnd = Round(THIRD, last_full_raise=structure.unit(THIRD))
    for i, p in enumerate(players):
        if p.seat not in dead:
            continue
        if p.seat == low and p.stack:  # TDA 30: the absent player's bring-in is posted
            chips = min(p.stack, bring_in)
            p = replace(p, stack=p.stack - chips, bet=chips, total=chips, acted_at=chips)
            rnd = replace(rnd, current_bet=chips, last_full_raise=bring_in)
        players[i] = replace(p, folded=True, dead=True)
    state = StudState(
        structure=structure,
        button=button,
        players=tuple(players),
        small_blind_seat=None,
        big_blind_seat=low,
        round=rnd,
        game=game,
        bring_in=bring_in,
        open_pair_rule=open_pair_rule,
        upcards=tuple((seat, (doors[seat],)) for seat in order),
    )
    if len(state.in_hand) == 1:  # every other seat is dead: the live one wins
        return replace(state._return_uncalled(), to_act=None)
    if sum(1 for p in players if p.can_act) < 2:
        return replace(state, finished_at=SHOWDOWN)
    start = state._index(low) if low in dead else state._index(low) - 1
    return replace(state, to_act=state._next_to_act(start))

"""The showdown: who shows first, whose hand is best, who gets which pot.

Cards speak: hands are ranked by pokerkit, never by a home-made evaluator. Cards are
strings such as "As", "Td", "7h". Each pot from `pots.build_pots` is settled on its own
(TDA 21) among the players eligible for it who still hold cards.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pokerkit import (
    Card,
    EightOrBetterLowHand,
    Hand,
    OmahaEightOrBetterLowHand,
    OmahaHoldemHand,
    RankOrder,
    StandardHighHand,
    Suit,
)

from .pots import Pot, split_hi_lo

HOLDEM = "holdem"
OMAHA = "omaha"
OMAHA_HI_LO = "omaha8"
STUD = "stud"
STUD_HI_LO = "stud8"
GAMES = (HOLDEM, OMAHA, OMAHA_HI_LO, STUD, STUD_HI_LO)

_HIGH = {
    HOLDEM: StandardHighHand,
    OMAHA: OmahaHoldemHand,  # exactly two hole cards and three from the board
    OMAHA_HI_LO: OmahaHoldemHand,
    STUD: StandardHighHand,  # the best five of the player's seven cards
    STUD_HI_LO: StandardHighHand,
}
_LOW = {OMAHA_HI_LO: OmahaEightOrBetterLowHand, STUD_HI_LO: EightOrBetterLowHand}
_STUD = (STUD, STUD_HI_LO)
_SUITS = (Suit.CLUB, Suit.DIAMOND, Suit.HEART, Suit.SPADE)  # low to high, as in stud


@dataclass(frozen=True)
class ShowOrder:
    order: tuple[int, ...]
    all_at_once: bool  # TDA 16: every hand is tabled together
    rule: str


@dataclass(frozen=True)
class Award:
    pot: Pot
    high: tuple[int, ...]  # best high hand(s), in odd-chip order
    low: tuple[int, ...]  # best qualifying low hand(s); empty in high-only games
    shares: Mapping[int, int]


def show_order(
    final_round_order: Sequence[int], *, last_aggressor: int | None = None, all_in: bool = False
) -> ShowOrder:
    """Who tables first at showdown.

    `final_round_order` lists the players still in, in the order they would act on a
    final betting round (the first seat left of the button first in flop games).
    TDA 16: with a player all-in and the betting over, all hands are tabled at once.
    TDA 17-A: otherwise the last player to bet or raise on the final street shows first,
    the others following clockwise; with no bet on it, the first to act shows first.
    """
    order = tuple(final_round_order)
    if all_in:
        return ShowOrder(order, True, "TDA 16")
    if last_aggressor is not None and last_aggressor in order:
        i = order.index(last_aggressor)
        order = order[i:] + order[:i]
    return ShowOrder(order, False, "TDA 17-A")


def cards(value: str | Sequence[str]) -> tuple[Card, ...]:
    """Cards from "AsKd" or ["As", "Kd"]."""
    text = value if isinstance(value, str) else "".join(value)
    return tuple(Card.parse(text))


def cards_list(value: str | Sequence[str]) -> list[str]:
    """Cards as short strings, ["As", "Kd"], from "As Kd", "AsKd" or a list; ValueError
    when something is not a card."""
    return [repr(card) for card in cards(value)]


def best_high(game: str, hole: str | Sequence[str], board: str | Sequence[str] = ()) -> Hand:
    return _HIGH[_game(game)].from_game(cards(hole), cards(board))


def best_low(game: str, hole: str | Sequence[str], board: str | Sequence[str] = ()) -> Hand | None:
    """The best eight-or-better low, or None when the game has none or it does not qualify."""
    kind = _LOW.get(_game(game))
    return None if kind is None else kind.from_game_or_none(cards(hole), cards(board))


def award_pots(
    pots: Sequence[Pot],
    holdings: Mapping[int, str | Sequence[str]],
    board: str | Sequence[str] = (),
    *,
    game: str = HOLDEM,
    order_from_button: Sequence[int],
    smallest_chip: int = 1,
    odd_chips: str = "tda",
) -> list[Award]:
    """Winners and shares of every pot, main pot first.

    `holdings` are the cards of the players who tabled; a player eligible for a pot who
    did not table cannot win it, unless they are the only one left in it (TDA 17-B).
    Odd chips (TDA 20) go by `order_from_button` in board games, by the high card by
    suit in stud, and to the high half in high-low games.
    """
    high_hands = {seat: best_high(game, hole, board) for seat, hole in holdings.items()}
    low_hands = {seat: best_low(game, hole, board) for seat, hole in holdings.items()}
    lows = {seat: hand for seat, hand in low_hands.items() if hand is not None}
    awards = []
    for pot in pots:
        contenders = [seat for seat in pot.eligible if seat in holdings]
        if len(pot.eligible) == 1:
            contenders = list(pot.eligible)  # uncontested: no need to table (TDA 17-B)
        if not contenders:
            raise ValueError(f"no eligible player tabled cards for the pot of {pot.amount}")
        high = _best(contenders, high_hands)
        low = _best([s for s in contenders if s in lows], lows)
        high = _odd_chip_order(game, high, high_hands, order_from_button, RankOrder.STANDARD)
        low = _odd_chip_order(game, low, lows, order_from_button, RankOrder.EIGHT_OR_BETTER_LOW)
        shares = split_hi_lo(pot.amount, high, low, smallest_chip, odd_chips=odd_chips)
        awards.append(Award(pot, tuple(high), tuple(low), shares))
    return awards


def winnings(awards: Sequence[Award]) -> dict[int, int]:
    """What each seat takes from all pots together."""
    total: dict[int, int] = {}
    for award in awards:
        for seat, chips in award.shares.items():
            total[seat] = total.get(seat, 0) + chips
    return total


def _best(seats: Sequence[int], hands: Mapping[int, Hand]) -> list[int]:
    """The seats holding the strongest hand; pokerkit ranks low hands the same way (the
    better low compares greater). A lone seat wins without a hand to compare."""
    if len(seats) < 2:
        return list(seats)
    top = max(hands[s] for s in seats)
    return [s for s in seats if hands[s] == top]


def _odd_chip_order(
    game: str,
    seats: Sequence[int],
    hands: Mapping[int, Hand],
    order_from_button: Sequence[int],
    ranks: RankOrder,
) -> list[int]:
    """TDA 20-A: board games from the first seat left of the button; TDA 20-B: stud by
    the highest card, by rank then suit, of the player's winning five-card hand."""
    if game in _STUD and all(s in hands for s in seats):
        return sorted(seats, key=lambda s: _high_card(hands[s], ranks), reverse=True)
    position = {seat: i for i, seat in enumerate(order_from_button)}
    return sorted(seats, key=lambda s: position.get(s, len(position)))


def _high_card(hand: Hand, ranks: RankOrder) -> tuple[int, int]:
    return max((ranks.index(card.rank), _SUITS.index(card.suit)) for card in hand.cards)


def _game(game: str) -> str:
    if game not in GAMES:
        raise ValueError(f"game must be one of {GAMES}, not {game!r}")
    return game

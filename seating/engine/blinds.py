"""Button and blinds as pure functions: who posts what on a table's next hand.

No Django here. A table is its seats clockwise and who sits where (seat -> entry); the
last hand is given as its button, small blind and big blind seats. The button draw takes
the `random.Random` the caller passes in, seeded and stored, so it can be replayed.

The dead button rule (TDA 32, IFP 3.1, casino §16a) in one line: the big blind moves on
to the next player clockwise; the small blind takes the seat the big blind had and the
button the seat the small blind had, even when those seats have emptied. So nobody skips
the big blind or pays it twice, whoever busts.
"""

import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from clock.engine import ANTE_BIG_BLIND, ANTE_NONE, ANTE_TRADITIONAL

RANKS = "23456789TJQKA"
SUITS = "cdhs"  # low to high: clubs, diamonds, hearts, spades (IFP 2.1, older TDA 3)


# --- The first button ------------------------------------------------------------------


def card_value(card: str) -> tuple[int, int]:
    """(rank, suit) of a card written "As", "Td" or "10d": the higher, the better."""
    text = card.strip()
    rank, suit = text[:-1].upper(), text[-1:].lower()
    rank = "T" if rank == "10" else rank
    if len(rank) != 1 or rank not in RANKS or len(suit) != 1 or suit not in SUITS:
        raise ValueError(f"not a card: {card!r}")
    return RANKS.index(rank), SUITS.index(suit)


def first_button(cards: Mapping[int, str]) -> int:
    """IFP 2.1, casino §16: the seat dealt the highest card takes the button; of equal
    ranks the suit decides, spades over hearts over diamonds over clubs."""
    if not cards:
        raise ValueError("no cards dealt")
    values = {seat: card_value(card) for seat, card in cards.items()}
    if len(set(values.values())) < len(values):
        raise ValueError("the same card twice: the draw is from one deck")
    return max(values, key=values.__getitem__)


def button_draw(
    seats: Sequence[int], occupied: Mapping[int, int], rng: random.Random
) -> dict[int, str]:
    """One card from a shuffled deck to each occupied seat, clockwise (IFP 2.1)."""
    deck = [rank + suit for rank in RANKS for suit in SUITS]
    rng.shuffle(deck)
    players = [seat for seat in seats if seat in occupied]
    if len(players) > len(deck):
        raise ValueError("more players than cards")
    return dict(zip(players, deck, strict=False))


# --- Positions of one hand ---------------------------------------------------------------


@dataclass(frozen=True)
class Positions:
    """Who posts what on one hand. Seats, never entries."""

    button: int  # may be an empty seat: the dead button (TDA 32)
    small_blind: int | None  # None: nobody posts it, its player has left (IFP 3.1)
    big_blind: int
    small_blind_seat: int  # where the small blind is, posted or not: next hand's button
    dealt_in: tuple[int, ...]  # in the order of the deal: the seat after the button first
    waiting: tuple[int, ...] = ()  # new players between button and small blind (TDA 10-A)
    antes: tuple[int, ...] = ()  # seats that post an ante

    @property
    def heads_up(self) -> bool:
        return len(self.dealt_in) == 2

    @property
    def first_to_act_preflop(self) -> int:
        """The player after the big blind; heads-up that is the button (TDA 34-B)."""
        i = self.dealt_in.index(self.big_blind)
        return self.dealt_in[(i + 1) % len(self.dealt_in)]

    @property
    def first_to_act_postflop(self) -> int:
        """The first player after the button; heads-up the big blind (TDA 34-B)."""
        return self.dealt_in[0]


def next_positions(
    seats: Sequence[int],
    occupied: Mapping[int, int],
    *,
    button: int | None = None,
    small_blind: int | None = None,
    big_blind: int | None = None,
    new_players: Collection[int] = frozenset(),
    ante: str = ANTE_NONE,
) -> Positions:
    """Button, blinds, antes and who is dealt in on the table's next hand.

    `button`, `small_blind` and `big_blind` are last hand's seats, `small_blind` where
    the small blind was even when nobody posted it (`Positions.small_blind_seat`).
    Before the first hand give only `button`: the seat that won the draw. `new_players`
    are the entries not yet dealt a hand at this table (late entries, players moved in).
    """
    seats = tuple(seats)
    players = [seat for seat in seats if seat in occupied]
    if len(players) < 2:
        raise ValueError("a hand needs two players")
    if big_blind is None:
        if button is None:
            raise ValueError("draw for the button first")
        return _opening(seats, players, button, ante)
    if small_blind is None:
        small_blind = _seat_before(seats, big_blind)  # not recorded: assume next to it
    new = {seat for seat in players if occupied[seat] in new_players}
    return _moved_on(seats, players, new, small_blind, big_blind, ante)


def _opening(seats: tuple[int, ...], players: list[int], button: int, ante: str) -> Positions:
    """The first hand (IFP 2.2): the blinds are the two players after the button."""
    if len(players) == 2:
        if button not in players:
            button = _next_player(seats, button, players)
        # Seen from the button, the big blind is the other player: as if it had it last.
        return _heads_up(seats, players, button, ante)
    small_blind = _next_player(seats, button, players)
    big_blind = _next_player(seats, small_blind, players)
    return _positions(seats, button, small_blind, big_blind, players, [], ante)


def _moved_on(seats, players, new, last_small_blind, last_big_blind, ante) -> Positions:
    small_blind = last_big_blind  # IFP 3.1: the small blind is where the big blind was
    button = last_small_blind
    # TDA 10-A, casino §8b, §13: a new player between the button and the small blind
    # would get a hand without blinds; they are dealt in once the button has passed.
    waiting = [seat for seat in _between(seats, button, small_blind) if seat in new]
    if len(players) - len(waiting) < 3:
        waiting = []  # holding them out would leave a heads-up: everyone plays
    dealt = [seat for seat in players if seat not in waiting]
    if len(dealt) == 2:
        return _heads_up(seats, dealt, last_big_blind, ante)
    big_blind = _next_player(seats, small_blind, dealt)
    if big_blind == button or big_blind in _between(seats, button, small_blind):
        # The big blind came round to the button: too few players behind the blinds
        # (a heads-up table that gained a player). The button stands just before the
        # small blind; nobody waits and the big blind still moves one player on.
        button = _seat_before(seats, small_blind)
        waiting, dealt = [], players
        big_blind = _next_player(seats, small_blind, dealt)
    return _positions(seats, button, small_blind, big_blind, dealt, waiting, ante)


def _heads_up(seats, dealt, last_big_blind: int, ante: str) -> Positions:
    """TDA 34-B, IFP 3.7, casino §31: heads-up the button posts the small blind and acts
    first before the flop. The big blind moves on to the other player, so on the change
    to heads-up nobody has it twice in a row; the button is the player left over."""
    big_blind = _next_player(seats, last_big_blind, dealt)
    button = next(seat for seat in dealt if seat != big_blind)
    return _positions(seats, button, button, big_blind, dealt, [], ante)


def _positions(seats, button, small_blind, big_blind, dealt, waiting, ante) -> Positions:
    order = _clockwise_after(seats, button)
    dealt_in = tuple(seat for seat in order if seat in dealt)
    return Positions(
        button=button,
        small_blind=small_blind if small_blind in dealt_in else None,
        big_blind=big_blind,
        small_blind_seat=small_blind,
        dealt_in=dealt_in,
        waiting=tuple(seat for seat in order if seat in waiting),
        antes=_antes(dealt_in, big_blind, ante),
    )


def _antes(dealt_in: tuple[int, ...], big_blind: int, ante: str) -> tuple[int, ...]:
    if ante == ANTE_BIG_BLIND:
        return (big_blind,)  # RP-11: one ante, paid by the big blind
    if ante == ANTE_TRADITIONAL:
        return dealt_in  # IFP 2.2: every player dealt in
    if ante == ANTE_NONE:
        return ()
    raise ValueError(f"unknown ante type: {ante!r}")


# --- TDA 11-A, 11-D: for seating ----------------------------------------------------------


def big_blind_guess(seats: Sequence[int], occupied: Mapping[int, int]) -> int | None:
    """A guess at the seat due the big blind next, for a table that has logged neither a
    button nor a hand: as if its first hand were dealt with the button on its last
    occupied seat, so that the blinds are the first two players from seat 1 (IFP 2.2).
    Never taken for a fact: the floor is shown it as a guess, to check at the table."""
    seats = tuple(seats)
    players = [seat for seat in seats if seat in occupied]
    if len(players) < 2:
        return players[0] if players else None
    return _opening(seats, players, players[-1], ANTE_NONE).big_blind


def blinds_reached_open_seat(
    seats: Sequence[int], occupied: Mapping[int, int], *, big_blind: int | None
) -> bool:
    """TDA 11-D addendum: a short table halts once the big blind reaches an open seat,
    that is when the seat after last hand's big blind is empty: a player moved in there
    would take the big blind on the next hand."""
    if big_blind is None:
        return False
    return _clockwise_after(tuple(seats), big_blind)[0] not in occupied


# --- Seats clockwise ---------------------------------------------------------------------


def from_the_button(seats: Iterable[int], button: int) -> list[int]:
    """The seats in dealing order: the first seat left of the button first, the button
    (or where it stands) last. Odd chips go in this order (TDA 20-A)."""
    return sorted(seats, key=lambda seat: (seat <= button, seat))


def _clockwise_after(seats: tuple[int, ...], seat: int) -> list[int]:
    """All seats clockwise, from just after `seat` round to `seat` itself. Seat numbers
    rise clockwise; a seat no longer in play counts from where it would be."""
    if seat in seats:
        i = seats.index(seat) + 1
    else:
        i = sum(1 for s in seats if s < seat)
    return list(seats[i:] + seats[:i])


def _next_player(seats: tuple[int, ...], after: int, players: Collection[int]) -> int:
    for seat in _clockwise_after(seats, after):
        if seat in players:
            return seat
    raise ValueError("nobody to take the position")


def _between(seats: tuple[int, ...], start: int, end: int) -> list[int]:
    """The seats strictly after `start` and before `end`, clockwise."""
    result = []
    for seat in _clockwise_after(seats, start):
        if seat == end:
            break
        result.append(seat)
    return result


def _seat_before(seats: tuple[int, ...], seat: int) -> int:
    return [s for s in _clockwise_after(seats, seat) if s != seat][-1]

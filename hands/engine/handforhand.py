"""Hand-for-hand as pure functions: when to play it, its rounds, its clock, its end.

No Django here. Rules: RP-8 A-F and casino §29. Hand-for-hand: every table plays one
hand, then waits until all tables have finished theirs before the next is dealt, so
that players busting on the bubble are placed fairly (see places.py).
"""

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, replace

DEFAULT_SECONDS_PER_HAND = 120  # RP-8 C: two minutes a hand
MAX_SECONDS_PER_HAND = 180  # RP-8 B: never more than three


# --- Start and end -----------------------------------------------------------------------


def suggest(players_left: int, places_paid: int, margin: int = 1) -> bool:
    """Offer hand-for-hand to the TD once the field is within `margin` players of the
    money and not in it yet (casino §29: it applies before the paid places are reached)."""
    if margin < 1:
        raise ValueError("the margin is at least one player")
    return places_paid < players_left <= places_paid + margin


def bubble_burst(players_left: int, places_paid: int) -> bool:
    """Hand-for-hand ends by itself once every player left is paid (casino §29)."""
    return players_left <= places_paid


# --- Rounds ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Round:
    """One hand played at every table together.

    Round 0 is the hand in progress when the TD announces hand-for-hand: its busts are
    already placed together (RP-8 A).
    """

    number: int
    tables: frozenset[int]
    finished: frozenset[int] = frozenset()
    held: tuple[int, ...] = ()  # all-in and call, cards face down, in the order reported

    @property
    def playing(self) -> frozenset[int]:
        return self.tables - self.finished - set(self.held)

    @property
    def complete(self) -> bool:
        """Every table has finished: the next hand may be dealt everywhere (casino §29)."""
        return self.finished == self.tables


def announce(tables: Iterable[int]) -> Round:
    """RP-8 A: "finish the hand you are on, then hold up": round 0 is that hand."""
    return Round(number=0, tables=frozenset(tables))


def hold(current: Round, table: int) -> Round:
    """RP-8 F, casino §29a: an all-in and call; the cards stay face down and no further
    card is dealt until the floor says so."""
    if table not in current.playing:
        raise ValueError(f"table {table} is not playing this hand")
    return replace(current, held=(*current.held, table))


def finish(current: Round, table: int) -> Round:
    """A table reports its hand over. A held table shows down only in its turn."""
    if table in current.held:
        if showdown_next(current) != table:
            raise ValueError(f"table {table} waits: it shows down in its turn")
        held = tuple(t for t in current.held if t != table)
        return replace(current, held=held, finished=current.finished | {table})
    if table not in current.playing:
        raise ValueError(f"table {table} is not playing this hand")
    return replace(current, finished=current.finished | {table})


def showdown_order(current: Round) -> tuple[int, ...]:
    """Casino §29a: once all other tables have finished, the held tables show down one
    at a time. The first to hold shows first: its players have waited longest."""
    return current.held


def showdown_next(current: Round) -> int | None:
    """The held table whose cards are run out now; None while another table still plays."""
    if current.playing or not current.held:
        return None
    return current.held[0]


def deal(current: Round, tables: Iterable[int] | None = None) -> Round:
    """The next hand at every table, once all have finished. `tables` after a table
    broke or the final table formed between the hands."""
    if not current.complete:
        waiting_for = sorted(current.tables - current.finished)
        raise ValueError(f"tables still in their hand: {waiting_for}")
    following = current.tables if tables is None else frozenset(tables)
    return Round(number=current.number + 1, tables=following)


def bust_hand(*, table: int, hand: int, h4h_round: int | None) -> Hashable:
    """The hand key for places.Bust: hand-for-hand, every table's hand of one round is
    the same hand (casino §29b, RP-8 A); otherwise each table's hand is its own."""
    if h4h_round is not None:
        return ("hand-for-hand", h4h_round)
    return ("table", table, hand)


# --- The clock ---------------------------------------------------------------------------


def seconds_per_hand(setting: int | None = None) -> int:
    """What one hand-for-hand hand takes off the clock: two minutes unless the house
    says otherwise, never more than three (RP-8 B, C). Zero stops the clock."""
    if setting is None:
        return DEFAULT_SECONDS_PER_HAND
    if setting < 0:
        raise ValueError("a hand cannot give time back")
    return min(setting, MAX_SECONDS_PER_HAND)

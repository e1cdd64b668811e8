"""Finishing places as pure functions: who finished where, and who shares a place.

No Django here. The places come from the players left before the first bust and the
busts in the order they were recorded, so undoing a bust is recomputing without it.

Busts that happened in the same hand are placed together (the hand key says which). The
house reads them one of three ways (`tournaments.house`, same_hand_busts):
- "tda": at one table the bigger stack at the start of the hand finishes higher, equal
  stacks share (casino §29c); at different tables, which only happens hand-for-hand where
  every table plays one hand together, the players share the place (RP-8 A, casino §29b).
  Both at once: each table's busts are ranked by stack, and those holding the same rank
  at their tables share;
- "stack": the bigger starting stack finishes higher wherever it sat (IFP 4.27);
- "share": everyone out in the hand shares.
A shared place shows its best number, and the prizes of every place in the range are
pooled and split (RP-8 A: three bust on the bubble of 50 paid, all three share the
50th-place payout).
"""

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Bust:
    entry: int
    table: int
    stack: int  # chips at the start of the hand
    hand: Hashable  # the same key for busts in the same hand (see handforhand.bust_hand)


@dataclass(frozen=True)
class Place:
    entry: int
    place: int  # the best place of the range: what the results show
    shared: tuple[int, int]  # first and last place shared, (50, 52); alone (50, 50)

    @property
    def tied(self) -> bool:
        return self.shared[0] != self.shared[1]

    @property
    def places(self) -> range:
        return range(self.shared[0], self.shared[1] + 1)


SAME_HAND = ("tda", "stack", "share")


def finishing_places(
    players_left: int, busts: Sequence[Bust], *, same_hand: str = "tda"
) -> dict[int, Place]:
    """The place of every busted entry, in the order of `busts`.

    `players_left` is the field before the first of them. Busts of one hand are placed
    together wherever in the list they were recorded; the hands follow each other in the
    order their first bust was recorded.
    """
    _check(players_left, busts)
    if same_hand not in SAME_HAND:
        raise ValueError(f"same_hand is one of {SAME_HAND}")
    hands: dict[Hashable, list[Bust]] = {}
    for bust in busts:
        hands.setdefault(bust.hand, []).append(bust)
    places: dict[int, Place] = {}
    left = players_left
    for hand_busts in hands.values():
        places.update(_places_in_hand(left, hand_busts, same_hand))
        left -= len(hand_busts)
    return {bust.entry: places[bust.entry] for bust in busts}


def _check(players_left: int, busts: Sequence[Bust]) -> None:
    entries = [bust.entry for bust in busts]
    if len(set(entries)) != len(entries):
        raise ValueError("an entry busts once")
    if len(busts) >= players_left:
        raise ValueError("somebody has to win: more busts than players left")
    if any(bust.stack < 0 for bust in busts):
        raise ValueError("a stack is never negative")


def _places_in_hand(left: int, busts: list[Bust], same_hand: str) -> dict[int, Place]:
    """The places `left - len(busts) + 1` to `left`, best tier first."""
    tiers: dict[int, list[Bust]] = {}
    for bust in busts:
        tiers.setdefault(_rank(bust, busts, same_hand), []).append(bust)
    places = {}
    best = left - len(busts) + 1
    for rank in sorted(tiers):
        tier = tiers[rank]
        shared = (best, best + len(tier) - 1)
        places.update({bust.entry: Place(bust.entry, best, shared) for bust in tier})
        best += len(tier)
    return places


def _rank(bust: Bust, busts: list[Bust], same_hand: str) -> int:
    """0 for the biggest starting stack busted at its table (or anywhere, "stack"), 1 for
    the next smaller...; everyone 0 where the house shares the place."""
    if same_hand == "share":
        return 0
    rivals = busts if same_hand == "stack" else [b for b in busts if b.table == bust.table]
    return len({b.stack for b in rivals if b.stack > bust.stack})


def prize_shares(places: Mapping[int, Place], payouts: Mapping[int, int]) -> dict[int, int]:
    """What each place wins, in the smallest unit (cents). Tied players pool the prizes of
    every place they share and split them evenly (RP-8 A); a unit that does not split
    goes to the one recorded first, then the next."""
    groups: dict[tuple[int, int], list[int]] = {}
    for entry, place in places.items():
        groups.setdefault(place.shared, []).append(entry)
    shares = {}
    for (first, last), entries in groups.items():
        pool = sum(payouts.get(p, 0) for p in range(first, last + 1))
        each, odd = divmod(pool, len(entries))
        shares.update({entry: each + (i < odd) for i, entry in enumerate(entries)})
    return {entry: shares[entry] for entry in places}


def in_the_money(place: Place, places_paid: int) -> bool:
    """A shared range that reaches a paid place shares in its prize (RP-8 A)."""
    return place.shared[0] <= places_paid

"""Main and side pots, and how a pot is split between tied hands.

Pots are built from what each seat put in during the hand. A player all-in for less
can win from every other player only as much as they put in themselves, so the chips
are cut into layers at each contribution level; each layer goes to the players still
in the hand who reached it (TDA 21: each pot is settled on its own). Folded players'
chips stay in the layers they reached, but those players cannot win them.
"""

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Pot:
    amount: int
    eligible: tuple[int, ...]  # seats that may win it, in the order the caller gave


def build_pots(
    contributions: Mapping[int, int], folded: Collection[int] = (), *, dead: int = 0
) -> list[Pot]:
    """The main pot first, then each side pot.

    `contributions` are live chips per seat (bets, calls, blinds); `dead` is money no
    seat bet against anyone, such as a big blind ante (RP-11): it goes to the main pot,
    which anyone still in the hand may win, however little they put in.
    Layers with the same eligible players merge; a layer nobody in the hand reached
    (only folded players paid it) joins the pot below it, as no one else can claim it.
    """
    if any(amount < 0 for amount in contributions.values()) or dead < 0:
        raise ValueError("contributions cannot be negative")
    in_hand = [seat for seat in contributions if seat not in folded]
    if not in_hand:
        raise ValueError("a pot needs at least one player still in the hand")
    layers: list[tuple[int, tuple[int, ...]]] = []
    if dead:
        layers.append((dead, tuple(in_hand)))
    previous = 0
    for level in sorted({amount for amount in contributions.values() if amount > 0}):
        amount = sum(min(c, level) - min(c, previous) for c in contributions.values())
        eligible = tuple(seat for seat in in_hand if contributions[seat] >= level)
        layers.append((amount, eligible))
        previous = level
    return _merge(layers, tuple(in_hand))


def _merge(layers: list[tuple[int, tuple[int, ...]]], in_hand: tuple[int, ...]) -> list[Pot]:
    pots: list[Pot] = []
    orphan = 0  # chips of a layer no one in the hand reached, before any pot exists
    for amount, eligible in layers:
        if not eligible:
            if pots:
                pots[-1] = Pot(pots[-1].amount + amount, pots[-1].eligible)
            else:
                orphan += amount
        elif pots and pots[-1].eligible == eligible:
            pots[-1] = Pot(pots[-1].amount + amount, eligible)
        else:
            pots.append(Pot(amount + orphan, eligible))
            orphan = 0
    if orphan:
        pots.append(Pot(orphan, in_hand))
    return pots


ODD_CHIPS = ("tda", "worst_position")


def split_pot(
    amount: int, winners: Sequence[int], smallest_chip: int = 1, *, odd_chips: str = "tda"
) -> dict[int, int]:
    """Share `amount` equally between tied `winners`.

    `winners` are in odd-chip order: for board games the first seat left of the button
    first (TDA 20-A), for stud the high card by suit (TDA 20-B). The pot is counted in
    the smallest chip in play (TDA 20); chips left over after an equal share go one at a
    time to the winners in that order (TDA 20-A, IFP 3.6), or all to the first of them
    where the house reads casino §20 (`odd_chips` "worst_position"). Anything below the
    smallest chip (which should not happen) goes to the first winner, so no chip is ever
    lost.
    """
    if odd_chips not in ODD_CHIPS:
        raise ValueError(f"odd_chips is one of {ODD_CHIPS}")
    if not winners:
        raise ValueError("a pot needs at least one winner")
    if len(set(winners)) != len(winners):
        raise ValueError("a winner is listed twice")
    if smallest_chip < 1 or amount < 0:
        raise ValueError("the smallest chip must be positive and the amount not negative")
    units, dust = divmod(amount, smallest_chip)
    each, odd = divmod(units, len(winners))
    shares = {seat: each * smallest_chip for seat in winners}
    if odd_chips == "worst_position":
        shares[winners[0]] += odd * smallest_chip
    else:
        for seat in winners[:odd]:
            shares[seat] += smallest_chip
    shares[winners[0]] += dust
    return shares


def split_hi_lo(
    amount: int,
    high: Sequence[int],
    low: Sequence[int],
    smallest_chip: int = 1,
    *,
    odd_chips: str = "tda",
) -> dict[int, int]:
    """A high-low pot: half to the best high hand, half to the best qualifying low.

    TDA 20-C: an odd chip of the whole pot goes to the high half. With no qualifying
    low the high hand scoops. Each half is then shared with `split_pot`.
    """
    if not low:
        return split_pot(amount, high, smallest_chip, odd_chips=odd_chips)
    units, dust = divmod(amount, smallest_chip)
    low_amount = (units // 2) * smallest_chip
    shares = split_pot(amount - low_amount - dust, high, smallest_chip, odd_chips=odd_chips)
    shares[high[0]] += dust
    for seat, chips in split_pot(low_amount, low, smallest_chip, odd_chips=odd_chips).items():
        shares[seat] = shares.get(seat, 0) + chips
    return shares

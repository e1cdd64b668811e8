"""Final-table deals: what each player's chips are worth in prize money.

Casino §6: when the players left want a deal, the TD stops the clock and the players
negotiate; if they all agree on a split the tournament ends with it, otherwise play goes
on. These functions give the usual figures to start from: ICM, the chip chop, and a
deal that leaves an amount to play for.

Every function takes the players' chips (each at least 1, in the order given) and the
prizes still to be won in cents, best place first. There are as many places left as
players: fewer prizes are padded with zeros, more are an error. Results are per player,
in the order given.

ICM (Malmuth-Harville): a player finishes first with the share of the chips he holds;
once places are decided, the next place goes to each player still in with his share of
the chips among those still in.
"""

from collections.abc import Sequence
from fractions import Fraction
from itertools import pairwise

import numpy as np

from payouts.engine import money

EXACT_MAX = 20  # players; above this, ICM is estimated by Monte Carlo
PURE_PYTHON_MAX = 8  # exact ICM in plain Python up to this many players: numpy is faster above
TRIALS = 200_000
CHUNK = 10_000  # Monte Carlo finishing orders drawn at once, to bound memory


def _field(chips: Sequence[int], prizes: Sequence[int]) -> tuple[list[int], list[int]]:
    """The chips and the prizes padded to one per player, both checked."""
    chips = [int(stack) for stack in chips]
    prizes = [int(prize) for prize in prizes]
    if not chips:
        raise ValueError("a deal needs at least one player")
    if any(stack < 1 for stack in chips):
        raise ValueError("every player in the deal has chips")
    if len(prizes) > len(chips):
        raise ValueError("only as many places are left as players")
    if any(prize < 0 for prize in prizes):
        raise ValueError("a prize cannot be negative")
    if any(lower > higher for higher, lower in pairwise(prizes)):
        raise ValueError("a place cannot pay more than the place above it")
    return chips, prizes + [0] * (len(chips) - len(prizes))


def _paid(prizes: list[int]) -> int:
    """How many places pay something: only those can change a player's equity."""
    return sum(prize > 0 for prize in prizes)  # prizes never rise, so they come first


# --- ICM ------------------------------------------------------------------------------


def icm_exact(chips: Sequence[int], prizes: Sequence[int]) -> list[float]:
    """Each player's ICM equity in cents, exactly (up to float rounding).

    Works through the sets of players still unplaced, biggest first: the chance of
    reaching each set, and from it who takes the next place. With n players and k paid
    places it visits the sets of n, n-1, ..., n-k+1 players: at most 2^n sets, each with
    up to n players to place next, so O(n 2^n) time; the numpy path (above
    PURE_PYTHON_MAX players) also keeps O(2^n) memory.
    """
    chips, prizes = _field(chips, prizes)
    if len(chips) <= PURE_PYTHON_MAX:
        return _icm_python(chips, prizes)
    return _icm_numpy(chips, prizes)


def _icm_python(chips: list[int], prizes: list[int]) -> list[float]:
    n = len(chips)
    held = [0]  # chips held by each set of players (bit i: player i)
    for stack in chips:
        held += [chips_before + stack for chips_before in held]
    equity = [0.0] * n
    layer = {(1 << n) - 1: 1.0}  # set of players still unplaced -> chance of getting there
    for prize in prizes[: _paid(prizes)]:
        following: dict[int, float] = {}
        for left, chance in layer.items():
            per_chip = chance / held[left]
            for player in range(n):
                bit = 1 << player
                if left & bit:
                    takes = per_chip * chips[player]  # chance he takes this place
                    equity[player] += takes * prize
                    following[left ^ bit] = following.get(left ^ bit, 0.0) + takes
        layer = following
    return equity


def _icm_numpy(chips: list[int], prizes: list[int]) -> list[float]:
    """The same walk, one whole layer of sets (same size) at a time."""
    n = len(chips)
    stacks = np.array(chips, dtype=float)
    sets = np.arange(1 << n, dtype=np.int64)
    # Chips held by each set of players, built up one player at a time.
    held = np.zeros(1 << n)
    for player in range(n):
        held[1 << player : 2 << player] = held[: 1 << player] + stacks[player]
    sizes = np.bitwise_count(sets)
    by_size = np.argsort(sizes, kind="stable")
    ends = np.cumsum(np.bincount(sizes, minlength=n + 1))  # sets of size s: ends[s-1]:ends[s]
    chance = np.zeros(1 << n)
    chance[-1] = 1.0
    equity = np.zeros(n)
    for place, prize in enumerate(prizes[: _paid(prizes)]):
        size = n - place
        layer = by_size[ends[size - 1] : ends[size]]
        per_chip = chance[layer] / held[layer]
        for player in range(n):
            bit = 1 << player
            has = (layer & bit) != 0
            takes = per_chip[has] * stacks[player]
            equity[player] += takes.sum() * prize
            chance[layer[has] ^ bit] += takes  # each set is reached once per player
    return equity.tolist()


def icm_monte_carlo(
    chips: Sequence[int], prizes: Sequence[int], *, trials: int = TRIALS, seed: int | None = None
) -> list[float]:
    """ICM equities in cents estimated from `trials` random finishing orders.

    Sorting E_i / chips_i, with E_i drawn from Exp(1), gives a finishing order with
    exactly the Malmuth-Harville chances (the smallest finishes first). Only the paid
    places are sorted. The equities are scaled to add up to the prizes.
    """
    chips, prizes = _field(chips, prizes)
    if trials < 1:
        raise ValueError("at least one trial")
    paid = _paid(prizes)
    n = len(chips)
    if paid == 0:
        return [0.0] * n
    generator = np.random.Generator(np.random.PCG64(seed))
    stacks = np.array(chips, dtype=float)
    counts = np.zeros((paid, n))  # counts[place, player]: times he finished there
    done = 0
    while done < trials:
        size = min(CHUNK, trials - done)
        keys = generator.standard_exponential((size, n)) / stacks
        if paid < n:  # only the paid places need sorting
            top = np.argpartition(keys, paid - 1, axis=1)[:, :paid]
            ranks = np.argsort(np.take_along_axis(keys, top, axis=1), axis=1)
            order = np.take_along_axis(top, ranks, axis=1)
        else:
            order = np.argsort(keys, axis=1)
        for place in range(paid):
            counts[place] += np.bincount(order[:, place], minlength=n)
        done += size
    equity = np.array(prizes[:paid], dtype=float) @ counts
    return (equity * (sum(prizes) / equity.sum())).tolist()


def icm_equity(
    chips: Sequence[int], prizes: Sequence[int], *, seed: int | None = None
) -> list[float]:
    """ICM equities in cents: exact up to EXACT_MAX players, Monte Carlo beyond."""
    if len(chips) <= EXACT_MAX:
        return icm_exact(chips, prizes)
    return icm_monte_carlo(chips, prizes, seed=seed)


# --- Deals ----------------------------------------------------------------------------


def icm_deal(
    chips: Sequence[int], prizes: Sequence[int], *, unit: int = 1, seed: int | None = None
) -> list[int]:
    """The prizes split by ICM equity, rounded with `money.apportion` to `unit`."""
    chips, prizes = _field(chips, prizes)
    total = sum(prizes)
    if total == 0:
        return [0] * len(chips)
    return money.apportion(total, icm_equity(chips, prizes, seed=seed), unit=unit)


def chip_chop(chips: Sequence[int], prizes: Sequence[int], *, unit: int = 1) -> list[int]:
    """The prizes split by chip count.

    Everyone is sure of the smallest prize left, so each player gets it first; the rest
    is shared in proportion to the chips. Nobody gets more than first prize: a share
    above it is cut to it, and the excess shared among the others by their chips, until
    no share is above. Rounded with `money.apportion` to `unit`.
    """
    chips, prizes = _field(chips, prizes)
    total = sum(prizes)
    if total == 0:
        return [0] * len(chips)
    floor = prizes[-1]
    cap = prizes[0] - floor  # most a player may get on top of the floor
    extra: list[Fraction] = [Fraction(0)] * len(chips)
    sharing = set(range(len(chips)))
    rest = Fraction(total - floor * len(chips))
    while sharing:
        sharing_chips = sum(chips[player] for player in sharing)
        over = {player for player in sharing if rest * chips[player] / sharing_chips > cap}
        if not over:
            for player in sharing:
                extra[player] = rest * chips[player] / sharing_chips
            break
        for player in over:
            extra[player] = Fraction(cap)
            rest -= cap
        sharing -= over
    return money.apportion(total, [floor + amount for amount in extra], unit=unit)


def save_most(prizes: Sequence[int]) -> int:
    """The most a deal may leave in play for the winner: what first prize pays over
    second, so that the places never rise (all of it when one prize is left)."""
    if not prizes:
        return 0
    return prizes[0] - (prizes[1] if len(prizes) > 1 else 0)


def save_deal(
    chips: Sequence[int],
    prizes: Sequence[int],
    save: int,
    *,
    unit: int = 1,
    seed: int | None = None,
) -> list[int]:
    """An ICM deal that leaves `save` in play for whoever wins the tournament.

    `save` comes off first prize and stays on the table; the rest is split by ICM on the
    reduced prizes. It may be at most what first prize pays over second, so that the
    places still never rise. The amounts add up to the prizes less `save`.
    """
    chips, prizes = _field(chips, prizes)
    most = save_most(prizes)
    if not 0 < save <= most:
        raise ValueError(f"the amount left to play for is above 0 and at most {most}")
    return icm_deal(chips, [prizes[0] - save, *prizes[1:]], unit=unit, seed=seed)

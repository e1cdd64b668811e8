"""Prize payouts: how many places are paid, and what each place pays.

Money is integer cents, best place first. A payout table either comes from the
generator (a smooth curve from the winner's share down to the min cash) or from a
saved house table of shares (split as they are by `money.apportion`, in basis points);
a table the TD edits by hand is checked with `problems`.

Tied places (RP-8 A: players who finish together split the prizes of all the places
they share, in equal parts) are settled from these amounts by the caller: it adds up the
prizes of the shared places and splits the sum with `money.apportion` and equal weights.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

import numpy as np

from payouts.engine import money

# Adjustment codes: what `generate` had to change in what it was asked.
PLACES_REDUCED = "places_reduced"  # the pool cannot pay every place the min cash
MIN_CASH_LOWERED = "min_cash_lowered"  # the pool is less than one min cash
WINNER_SHARE_RAISED = "winner_share_raised"  # the winner would get less than an even split
WINNER_SHARE_LOWERED = "winner_share_lowered"  # the others would get less than the min cash


def places_paid(entries: int, *, percent: Decimal | None = None, fixed: int | None = None) -> int:
    """Places paid for a field of `entries`: a percentage of the field, or a fixed number.

    A percentage is rounded up, so 15 % of 101 pays 16. At least one place is paid as
    soon as there is an entry, and never more places than entries.
    """
    if (percent is None) == (fixed is None):
        raise ValueError("give either a percentage or a fixed number of places")
    if entries < 0:
        raise ValueError("entries cannot be negative")
    if entries == 0:
        return 0
    if fixed is not None:
        if fixed < 1:
            raise ValueError("at least one place is paid")
        return min(fixed, entries)
    share = Fraction(percent)
    if not 0 < share <= 100:
        raise ValueError("the percentage paid is above 0 and at most 100")
    return min(entries, max(1, math.ceil(entries * share / 100)))


def default_winner_share(places: int) -> Fraction:
    """The winner's share of the pool when the TD sets none.

    1 / (1 + 0.9 ln places): all of it for one place, then it falls slowly as more
    places are paid: 2 places 62 %, 3 places 50 %, 9 places 34 %, 150 places 18 %,
    1,500 places 13 %. Never below an even split (1 / places).
    """
    if places < 1:
        raise ValueError("at least one place is paid")
    share = Fraction(1 / (1 + 0.9 * math.log(places))).limit_denominator(10_000)
    return max(share, Fraction(1, places))


@dataclass(frozen=True)
class Generated:
    amounts: tuple[int, ...]  # best place first, cents
    places: int  # len(amounts); fewer than asked when places_reduced
    adjustments: tuple[str, ...]  # what the generator had to change, codes above


def generate(
    pool: int,
    places: int,
    *,
    buy_in: int,
    winner_share: Fraction | Decimal | None = None,
    min_cash_multiple: Fraction | Decimal = Decimal(2),
    unit: int = 100,
) -> Generated:
    """A smooth payout table: never rising with the place, adding up to `pool` exactly.

    - The last place paid gets the min cash: `min_cash_multiple` times the buy-in (what
      a player pays, fee included), rounded up to a multiple of `unit`, and at least one
      unit. If the pool cannot pay every place that much, fewer places are paid.
    - The winner gets `winner_share` of the pool (default: `default_winner_share`), but
      never less than an even split, and never so much that another place would get less
      than the min cash.
    - In between, place i of n gets min cash + (winner - min cash) * g(i), with
      g(i) = (i^-a - n^-a) / (1 - n^-a): 1 for the winner, 0 for the last place, and the
      steepness a chosen so that the places add up to the pool.
    - The amounts are rounded to multiples of `unit` with `money.apportion`, applied to
      what each place gets above the min cash: so the last place keeps the min cash, and
      the cents below one unit go to the winner.
    """
    _check_generate(pool, places, buy_in, winner_share, min_cash_multiple, unit)
    if pool == 0 or places == 0:
        return Generated((), 0, ())
    adjustments = []

    min_cash = max(unit, _round_up(Fraction(min_cash_multiple) * buy_in, unit))
    if places * min_cash > pool:
        fewer = max(1, pool // min_cash)
        if fewer < places:
            adjustments.append(PLACES_REDUCED)
            places = fewer
        if min_cash > pool:
            adjustments.append(MIN_CASH_LOWERED)  # the one place left takes the pool
    if places == 1:
        return Generated((pool,), 1, tuple(adjustments))

    share = default_winner_share(places) if winner_share is None else Fraction(winner_share)
    winner = share * pool
    lowest, highest = Fraction(pool, places), pool - (places - 1) * min_cash
    if winner < lowest:
        adjustments.append(WINNER_SHARE_RAISED)
        winner = lowest
    elif winner > highest:
        adjustments.append(WINNER_SHARE_LOWERED)
        winner = Fraction(highest)

    above_min_cash = pool - places * min_cash
    if above_min_cash == 0:  # every place is paid the min cash, nothing is left over
        return Generated((min_cash,) * places, places, tuple(adjustments))
    extras = money.apportion(above_min_cash, _shape(places, winner, pool, min_cash), unit=unit)
    amounts = tuple(min_cash + extra for extra in extras)
    return Generated(amounts, places, tuple(adjustments))


def _check_generate(
    pool: int,
    places: int,
    buy_in: int,
    winner_share: Fraction | Decimal | None,
    min_cash_multiple: Fraction | Decimal,
    unit: int,
) -> None:
    if pool < 0 or places < 0 or buy_in < 0:
        raise ValueError("the pool, the places and the buy-in cannot be negative")
    if winner_share is not None and not 0 < winner_share <= 1:
        raise ValueError("the winner's share is above 0 and at most 1")
    if min_cash_multiple < 0:
        raise ValueError("the min cash multiple cannot be negative")
    if unit < 1:
        raise ValueError("the unit is at least one cent")


def _round_up(amount: Fraction, unit: int) -> int:
    return -(-amount // unit) * unit


# The steepness a is searched as sinh(t) for t in this range: a from about -2.4e8, where
# every place but the last pays nearly what the winner gets, to about 74, where only the
# winner gets more than the min cash.
_T_FLAT, _T_STEEP = -20.0, 5.0
_BISECTIONS = 64


def _shape(places: int, winner: Fraction, pool: int, min_cash: int) -> list:
    """What each place gets above the min cash, in proportion (best place first).

    `winner` is above the min cash here, and the places add up to the pool when
    sum(g) = target, with target = (pool - places * min cash) / (winner - min cash).
    """
    if places == 2:  # no curve: the second place gets the rest
        return [winner - min_cash, pool - winner - min_cash]
    target = float((pool - places * min_cash) / (winner - min_cash))
    logs = np.log(np.arange(1, places + 1, dtype=float))
    if target >= _curve(logs, math.sinh(_T_FLAT)).sum():
        # Flatter than any curve, up to an even split: every place but the last pays
        # what the winner gets, and the last the rest: at least the min cash, but for a
        # float's rounding on the flattest curve, hence max().
        last = pool - (places - 1) * winner
        return [winner - min_cash] * (places - 1) + [max(0, last - min_cash)]
    # sum(g) falls as a grows: bisection, the steepest curve when target is below all.
    flat, steep = _T_FLAT, _T_STEEP
    for _ in range(_BISECTIONS):
        middle = (flat + steep) / 2
        if _curve(logs, math.sinh(middle)).sum() > target:
            flat = middle
        else:
            steep = middle
    g = _curve(logs, math.sinh(steep))
    # Float rounding must not let a place pay more than the one above it.
    return np.minimum.accumulate(g).tolist()


def _curve(logs: np.ndarray, a: float) -> np.ndarray:
    """g(i) = (i^-a - n^-a) / (1 - n^-a) for i = 1..n, given logs = ln(i).

    Written with expm1 so that it stays exact near a = 0 (where it tends to
    ln(n/i) / ln(n)) and does not overflow for large negative a.
    """
    log_n = logs[-1]
    if abs(a) < 1e-12:
        g = (log_n - logs) / log_n
    elif a > 0:
        g = (np.expm1(-a * logs) - math.expm1(-a * log_n)) / -math.expm1(-a * log_n)
    else:  # (1 - (i/n)^b) / (1 - n^-b) with b = -a > 0
        g = np.expm1(-a * (logs - log_n)) / math.expm1(a * log_n)
    g[0], g[-1] = 1.0, 0.0
    return np.clip(g, 0.0, 1.0)


NEGATIVE = "negative"
INCREASING = "increasing"
SUM = "sum"


@dataclass(frozen=True)
class Problem:
    code: str  # "sum" | "increasing" | "negative"
    place: int | None  # the place concerned, counted from 1
    difference: int | None  # for "sum": sum(amounts) - pool, positive when too much


def problems(amounts: Sequence[int], pool: int) -> list[Problem]:
    """What is wrong with a table the TD edited; empty when it can be paid.

    Each place pays at least 0, no place pays more than the place above it (the first
    that does is reported), and the amounts add up to the pool exactly.
    """
    found = []
    negative = next((place for place, amount in enumerate(amounts, 1) if amount < 0), None)
    if negative is not None:
        found.append(Problem(NEGATIVE, negative, None))
    rising = next(
        (place for place in range(2, len(amounts) + 1) if amounts[place - 1] > amounts[place - 2]),
        None,
    )
    if rising is not None:
        found.append(Problem(INCREASING, rising, None))
    difference = sum(amounts) - pool
    if difference:
        found.append(Problem(SUM, None, difference))
    return found


def place_groups(amounts: Sequence[int]) -> list[tuple[int, int, int]]:
    """The table as it is read out: consecutive places paying the same amount are one
    group, (first, last, amount), best first."""
    found: list[tuple[int, int, int]] = []
    for place, amount in enumerate(amounts, start=1):
        if found and found[-1][2] == amount:
            found[-1] = (found[-1][0], place, amount)
        else:
            found.append((place, place, amount))
    return found

"""Splitting money in proportion, to the cent, with a rule players can check.

Money is integer cents. The ideal shares are worked out exactly (integer arithmetic on
the weights' exact values, never floats), so a split does not depend on how a float
happened to round, and the shares always add up to the total.
"""

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from math import lcm

Weight = float | int | Fraction | Decimal


def apportion(total: int, weights: Sequence[Weight], *, unit: int = 1) -> list[int]:
    """Split `total` cents in proportion to `weights`; the shares add up to `total`.

    The rule:
    1. Every share is its exact part of the total rounded down to a multiple of `unit`.
    2. The whole units left over go one each to the shares that lost most by that
       rounding; on a tie, to the bigger weight, then to the earlier in the list.
    3. What is left below one unit goes to the share with the biggest weight (the
       earliest of them on a tie).
    A weight of 0 gets nothing, not even a leftover unit.

    So a bigger weight never gets less than a smaller one, and of two equal weights the
    earlier one never gets less.
    """
    if total < 0:
        raise ValueError("the total cannot be negative")
    if unit < 1:
        raise ValueError("the unit is at least one cent")
    scaled = _integer_weights(weights)
    weight_sum = sum(scaled)
    if weight_sum == 0:
        raise ValueError("at least one weight must be positive")

    # Share i is exactly total * w_i / weight_sum cents. In units of `unit`, divmod
    # gives the whole units and what rounding down lost, both over one common
    # denominator (weight_sum * unit), so losses compare as plain integers.
    denominator = weight_sum * unit
    units = []
    losses = []
    for weight in scaled:
        whole, lost = divmod(total * weight, denominator)
        units.append(whole)
        losses.append(lost)

    leftover = total - unit * sum(units)
    leftover_units, below_unit = divmod(leftover, unit)
    # Every leftover unit goes to a share that lost something: the losses add up to the
    # leftover and each is under one unit, so more shares lost something than there are
    # units to give. Zero weights lose nothing and are never chosen.
    order = sorted(
        (i for i, weight in enumerate(scaled) if weight > 0),
        key=lambda i: (-losses[i], -scaled[i], i),
    )
    for i in order[:leftover_units]:
        units[i] += 1
    shares = [unit * whole for whole in units]
    biggest = max(range(len(scaled)), key=lambda i: (scaled[i], -i))
    shares[biggest] += below_unit
    return shares


def _integer_weights(weights: Sequence[Weight]) -> list[int]:
    """The weights as integers in the same proportions, exactly.

    A float is converted through its exact binary value (as Fraction(w) would), so
    0.1 counts as 0.1000000000000000055511151231257827...; that is what the caller gave.
    """
    ratios = [_exact_ratio(weight) for weight in weights]
    if not ratios:
        raise ValueError("at least one weight must be positive")
    if any(numerator < 0 for numerator, _ in ratios):
        raise ValueError("weights cannot be negative")
    common = lcm(*(denominator for _, denominator in ratios))
    return [numerator * (common // denominator) for numerator, denominator in ratios]


def _exact_ratio(weight: Weight) -> tuple[int, int]:
    try:
        # int, float, Fraction and Decimal all give their exact value this way, and far
        # faster than building a Fraction for each.
        numerator, denominator = weight.as_integer_ratio()
    except AttributeError:
        numerator, denominator = Fraction(weight).as_integer_ratio()
    except (OverflowError, ValueError):
        raise ValueError(f"a weight must be a finite number, not {weight!r}") from None
    return int(numerator), int(denominator)  # numpy's integers would overflow

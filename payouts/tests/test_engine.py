"""The payout table's rules (exact splits, places paid, the curve), tested as pure functions
(no database)."""

from decimal import Decimal
from fractions import Fraction
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from payouts.engine import money, payouts
from payouts.engine.payouts import Generated, Problem

EURO = 100  # cents

# --- apportion ----------------------------------------------------------------------

weights = st.lists(
    st.one_of(
        st.integers(0, 10**6),
        st.floats(0, 1e6, allow_nan=False),
        st.fractions(0, 1000, max_denominator=1000),
    ),
    min_size=1,
    max_size=40,
).filter(lambda ws: any(w > 0 for w in ws))
units = st.sampled_from([1, 5, 100, 1000])


@given(total=st.integers(0, 10**12), weights=weights, unit=units)
def test_apportion_adds_up_to_the_total_exactly(total, weights, unit):
    assert sum(money.apportion(total, weights, unit=unit)) == total


@given(total=st.integers(0, 10**12), weights=weights, unit=units)
def test_apportion_bigger_weight_never_gets_less(total, weights, unit):
    shares = money.apportion(total, weights, unit=unit)
    for i, wi in enumerate(weights):
        for j, wj in enumerate(weights):
            # Equal weights: the earlier in the list never gets less.
            if wi > wj or (wi == wj and i < j):
                assert shares[i] >= shares[j]


@given(total=st.integers(0, 10**12), weights=weights, unit=units)
def test_apportion_pays_whole_units_except_the_remainder_to_the_biggest_weight(
    total, weights, unit
):
    shares = money.apportion(total, weights, unit=unit)
    biggest = max(range(len(weights)), key=lambda i: (weights[i], -i))
    exact = [Fraction(total) * Fraction(w) / sum(map(Fraction, weights)) for w in weights]
    for i, share in enumerate(shares):
        if i == biggest:
            assert share % unit == total % unit
        else:
            assert share % unit == 0
            assert abs(share - exact[i]) < unit  # rounded by at most one unit
        if weights[i] == 0:
            assert share == 0


def test_apportion_leftover_units_go_to_who_lost_most_by_rounding():
    # 100 / 7 * (1, 2, 4) = 14.29, 28.57, 57.14: 99 after rounding down; the cent left
    # goes to the second, which lost 0.57.
    assert money.apportion(100, [1, 2, 4]) == [14, 29, 57]


def test_apportion_tie_goes_to_the_bigger_weight_then_to_the_earlier():
    # 0.5, 1.5, 0.5, 1.5: every share lost half a cent; the two cents left go to the
    # bigger weights.
    assert money.apportion(4, [1, 3, 1, 3]) == [0, 2, 0, 2]
    # Equal weights: the earlier first.
    assert money.apportion(100, [1, 1, 1]) == [34, 33, 33]


def test_apportion_cents_below_one_unit_go_to_the_biggest_weight():
    # 10.55 EUR in whole euros by 1:2:1 = 2.6375, 5.275, 2.6375: 9 EUR after rounding
    # down, the euro left goes to the first (it lost 0.6375, as much as the third, with
    # the same weight, and comes earlier), and the 55 cents to the biggest weight.
    assert money.apportion(1055, [1, 2, 1], unit=EURO) == [300, 555, 200]


def test_apportion_zero_weight_gets_nothing():
    assert money.apportion(10, [0, 1, 1, 0], unit=3) == [0, 7, 3, 0]


def test_apportion_floats_count_at_their_exact_value():
    assert money.apportion(100, [0.1, 0.2, 0.7]) == money.apportion(
        100, [Fraction(0.1), Fraction(0.2), Fraction(0.7)]
    )


@pytest.mark.parametrize(
    "total, weights, unit",
    [
        (-1, [1], 1),
        (10, [1, -1], 1),
        (10, [0, 0], 1),
        (10, [], 1),
        (10, [1], 0),
        (10, [float("nan")], 1),
        (10, [float("inf")], 1),
    ],
)
def test_apportion_refuses_what_cannot_be_split(total, weights, unit):
    with pytest.raises(ValueError):
        money.apportion(total, weights, unit=unit)


# --- places paid ------------------------------------------------------------------------


def test_places_paid_percentage_is_rounded_up():
    assert payouts.places_paid(100, percent=Decimal(15)) == 15
    assert payouts.places_paid(101, percent=Decimal(15)) == 16
    assert payouts.places_paid(1, percent=Decimal(15)) == 1


def test_places_paid_never_more_than_the_field():
    assert payouts.places_paid(7, fixed=9) == 7
    assert payouts.places_paid(100, fixed=9) == 9
    assert payouts.places_paid(3, percent=Decimal(100)) == 3


def test_places_paid_nobody_without_entries():
    assert payouts.places_paid(0, percent=Decimal(15)) == 0
    assert payouts.places_paid(0, fixed=9) == 0


@pytest.mark.parametrize(
    "options",
    [{}, {"percent": Decimal(15), "fixed": 9}, {"percent": Decimal(0)}, {"fixed": 0}],
)
def test_places_paid_takes_one_valid_rule(options):
    with pytest.raises(ValueError):
        payouts.places_paid(100, **options)


# --- default winner's share --------------------------------------------------------------


def test_default_winner_share_falls_as_more_places_are_paid():
    assert payouts.default_winner_share(1) == 1
    assert 0.6 <= payouts.default_winner_share(2) <= 0.65
    assert 0.45 <= payouts.default_winner_share(3) <= 0.55
    assert 0.3 <= payouts.default_winner_share(9) <= 0.4
    assert 0.15 <= payouts.default_winner_share(150) <= 0.25
    assert 0.1 <= payouts.default_winner_share(1500) <= 0.15


@given(st.integers(1, 100_000))
def test_default_winner_share_never_below_an_even_split(places):
    share = payouts.default_winner_share(places)
    assert isinstance(share, Fraction)
    assert Fraction(1, places) <= share <= 1
    assert share <= payouts.default_winner_share(max(1, places - 1))


# --- generated tables ----------------------------------------------------------------


def min_cash(buy_in, multiple, unit):
    """The min cash target: the multiple of the buy-in rounded up to the unit."""
    return max(unit, -(-Fraction(multiple) * buy_in // unit) * unit)


@given(
    pool=st.integers(0, 10**10),
    places=st.integers(1, 2000),
    buy_in=st.integers(0, 10**6),
    unit=st.sampled_from([1, 100, 500, 1000]),
    winner_share=st.none() | st.integers(1, 10_000).map(lambda bp: Decimal(bp) / 10_000),
    multiple=st.decimals(0, 5, places=2),
)
def test_generate_adds_up_and_never_rises(pool, places, buy_in, unit, winner_share, multiple):
    table = payouts.generate(
        pool,
        places,
        buy_in=buy_in,
        unit=unit,
        winner_share=winner_share,
        min_cash_multiple=multiple,
    )
    assert sum(table.amounts) == pool
    assert table.places == len(table.amounts) <= places
    assert all(a >= b for a, b in pairwise(table.amounts))
    if payouts.PLACES_REDUCED not in table.adjustments:
        assert table.places == (places if pool else 0)
    target = min_cash(buy_in, multiple, unit)
    if pool >= target:
        assert table.amounts[-1] >= target  # even when fewer places had to be paid
    # Whole units, except the cents below one unit, which go to the winner.
    assert all(amount % unit == 0 for amount in table.amounts[1:])
    if pool:
        assert table.amounts[0] % unit == pool % unit


def test_generate_hundred_entries_fifteen_places():
    # 100 entries x 100 EUR; the pool is 10,000.50 EUR to show where the cents go.
    table = payouts.generate(
        1_000_050, 15, buy_in=100 * EURO, winner_share=Decimal("0.25"), unit=EURO
    )
    assert table.places == 15
    assert table.adjustments == ()
    assert abs(table.amounts[0] - 250_000) <= 2 * EURO  # the share asked, near enough
    assert table.amounts[0] % EURO == 50  # the 50 cents go to the winner
    assert table.amounts[-1] == 200 * EURO  # the min cash: twice the buy-in
    assert all(amount % EURO == 0 for amount in table.amounts[1:])
    assert sum(table.amounts) == 1_000_050


def test_generate_ten_thousand_entries_pays_fifteen_percent():
    places = payouts.places_paid(10_000, percent=Decimal(15))
    table = payouts.generate(10_000 * 90 * EURO, places, buy_in=100 * EURO)
    assert table.places == 1500
    assert table.amounts[-1] == 200 * EURO
    assert table.amounts[0] / 900_000_00 == pytest.approx(
        float(payouts.default_winner_share(1500)), abs=0.001
    )


def test_generate_pays_fewer_places_when_the_pool_cannot_pay_the_min_cash():
    # 1,000 EUR cannot pay 10 places 200 EUR each: 5 places, all at the min cash.
    table = payouts.generate(1000 * EURO, 10, buy_in=100 * EURO)
    assert table == Generated(
        (200 * EURO,) * 5, 5, (payouts.PLACES_REDUCED, payouts.WINNER_SHARE_LOWERED)
    )


def test_generate_winner_takes_a_pool_smaller_than_one_min_cash():
    table = payouts.generate(150 * EURO, 3, buy_in=100 * EURO)
    assert table == Generated((150 * EURO,), 1, (payouts.PLACES_REDUCED, payouts.MIN_CASH_LOWERED))


def test_generate_winner_share_raised_to_an_even_split():
    table = payouts.generate(
        10_000 * EURO, 10, buy_in=100 * EURO, winner_share=Decimal("0.01"), unit=EURO
    )
    assert table.adjustments == (payouts.WINNER_SHARE_RAISED,)
    assert table.amounts == (1000 * EURO,) * 10


def test_generate_winner_share_lowered_so_everyone_keeps_the_min_cash():
    table = payouts.generate(
        10_000 * EURO, 10, buy_in=100 * EURO, winner_share=Decimal("0.9"), unit=EURO
    )
    assert table.adjustments == (payouts.WINNER_SHARE_LOWERED,)
    assert table.amounts == (8200 * EURO,) + (200 * EURO,) * 9


def test_generate_two_places_second_gets_the_rest():
    table = payouts.generate(
        1000 * EURO, 2, buy_in=100 * EURO, winner_share=Decimal("0.7"), unit=EURO
    )
    assert table.amounts == (700 * EURO, 300 * EURO)


def test_generate_freeroll_pays_every_place_at_least_one_unit():
    table = payouts.generate(1000 * EURO, 50, buy_in=0, unit=EURO)
    assert table.places == 50
    assert table.amounts[-1] == EURO


def test_generate_nothing_to_pay():
    assert payouts.generate(0, 10, buy_in=100) == Generated((), 0, ())
    assert payouts.generate(1000, 0, buy_in=100) == Generated((), 0, ())


# --- saved house tables ------------------------------------------------------------------


def test_house_table_shares_in_basis_points():
    # A house table is split by money.apportion (payouts.selectors.generated_amounts); its
    # shares are checked where they are saved (prizes.services.settings_check).
    # 50 % / 30 % / 20 % of 1,000.50 EUR: whole euros, the 50 cents to the winner.
    assert money.apportion(100_050, [5000, 3000, 2000], unit=EURO) == [50_050, 30_000, 20_000]


# --- tables edited by the TD -------------------------------------------------------------


def test_problems_none_in_a_good_table():
    assert payouts.problems([500, 300, 200], 1000) == []


def test_problems_a_place_paying_more_than_the_one_above():
    assert payouts.problems([500, 200, 300, 400], 1400) == [Problem("increasing", 3, None)]


def test_problems_negative_amount_and_wrong_sum():
    assert payouts.problems([900, 200, -100], 900) == [
        Problem("negative", 3, None),
        Problem("sum", None, 100),  # 100 too much
    ]
    assert payouts.problems([500, 300], 1000) == [Problem("sum", None, -200)]

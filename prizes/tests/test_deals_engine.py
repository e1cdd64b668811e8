"""Final-table deals (casino §6), tested as pure functions (no database)."""

import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prizes.engine import deals


def harville_by_brute_force(chips, prizes):
    """Every finishing order with its Malmuth-Harville chance: each place goes to a
    player with his share of the chips still in play."""
    prizes = list(prizes) + [0] * (len(chips) - len(prizes))
    equity = [0.0] * len(chips)
    for order in itertools.permutations(range(len(chips))):
        chance = 1.0
        left = sum(chips)
        for player in order:
            chance *= chips[player] / left
            left -= chips[player]
        for place, player in enumerate(order):
            equity[player] += chance * prizes[place]
    return equity


@st.composite
def final_tables(draw, max_players=7):
    players = draw(st.integers(2, max_players))
    chips = draw(st.lists(st.integers(1, 10**7), min_size=players, max_size=players))
    paid = draw(st.integers(1, players))
    prizes = sorted(draw(st.lists(st.integers(0, 10**8), min_size=paid, max_size=paid)))
    return chips, prizes[::-1]


# --- ICM ------------------------------------------------------------------------------


@settings(max_examples=40)
@given(final_tables())
def test_icm_exact_matches_every_finishing_order(table):
    chips, prizes = table
    expected = harville_by_brute_force(chips, prizes)
    assert deals.icm_exact(chips, prizes) == pytest.approx(expected, rel=1e-6, abs=1e-6)


@settings(max_examples=20)
@given(final_tables(max_players=11))
def test_icm_exact_python_and_numpy_agree(table):
    chips, prizes = table
    prizes = prizes + [0] * (len(chips) - len(prizes))
    python = deals._icm_python(chips, prizes)
    assert deals._icm_numpy(chips, prizes) == pytest.approx(python, rel=1e-9, abs=1e-6)


def test_icm_three_players_by_hand():
    # 5,000 / 3,000 / 2,000 chips, prizes 50 / 30 / 20.
    # First: A 5/10 = 0.5, B 0.3, C 0.2.
    # Second: A = 0.3 * 5/7 + 0.2 * 5/8 = 0.339286 (B or C won, A has 5 of the 7 or 8
    #   thousand left); B = 0.5 * 3/5 + 0.2 * 3/8 = 0.375; C = 0.5 * 2/5 + 0.3 * 2/7 = 0.285714.
    # Third: what is left: A 0.160714, B 0.325, C 0.514286.
    # A = 50 * 0.5 + 30 * 0.339286 + 20 * 0.160714 = 38.39 (1075/28)
    # B = 50 * 0.3 + 30 * 0.375 + 20 * 0.325 = 32.75
    # C = 50 * 0.2 + 30 * 0.285714 + 20 * 0.514286 = 28.86 (202/7)
    equity = deals.icm_exact([5000, 3000, 2000], [50, 30, 20])
    assert equity == pytest.approx([Fraction(1075, 28), 32.75, Fraction(202, 7)], rel=1e-12)


def test_icm_equal_stacks_share_equally():
    equity = deals.icm_exact([1000] * 6, [600, 400, 200, 100])
    assert equity == pytest.approx([1300 / 6] * 6)


@given(final_tables())
def test_icm_chip_leader_never_gets_more_than_first_prize(table):
    chips, prizes = table
    chips[0] = 10**12  # nearly every chip in play
    equity = deals.icm_exact(chips, prizes)
    assert max(equity) <= prizes[0] * (1 + 1e-12)


def test_icm_monte_carlo_close_to_exact_for_eight_players():
    chips = [12_000, 30_500, 8_000, 55_000, 21_000, 4_500, 40_000, 17_000]
    prizes = [500_000, 300_000, 200_000, 150_000, 100_000, 80_000, 60_000, 50_000]
    exact = deals.icm_exact(chips, prizes)
    estimate = deals.icm_monte_carlo(chips, prizes, seed=8)
    assert sum(estimate) == pytest.approx(sum(prizes))
    # 200,000 orders: the error is about 500 cents; allow five times that.
    assert estimate == pytest.approx(exact, abs=2_500)


def test_icm_monte_carlo_same_seed_same_result():
    chips, prizes = [3, 5, 8, 13], [100, 50]
    first = deals.icm_monte_carlo(chips, prizes, trials=1000, seed=1)
    assert deals.icm_monte_carlo(chips, prizes, trials=1000, seed=1) == first


def test_icm_equity_exact_up_to_exact_max_players_then_monte_carlo():
    rng = random.Random(20)
    prizes = [1000, 600, 400]
    chips = [rng.randint(100, 10_000) for _ in range(deals.EXACT_MAX + 1)]
    at_max = chips[: deals.EXACT_MAX]
    assert deals.icm_equity(at_max, prizes) == deals.icm_exact(at_max, prizes)
    assert deals.icm_equity(chips, prizes, seed=3) == deals.icm_monte_carlo(chips, prizes, seed=3)


# --- deals ----------------------------------------------------------------------------


@given(final_tables(), st.sampled_from([1, 100, 500]))
def test_icm_deal_adds_up_to_the_prizes(table, unit):
    chips, prizes = table
    amounts = deals.icm_deal(chips, prizes, unit=unit)
    assert sum(amounts) == sum(prizes)
    assert all(amount >= 0 for amount in amounts)


@given(final_tables(), st.sampled_from([1, 100, 500]))
def test_chip_chop_adds_up_to_the_prizes(table, unit):
    chips, prizes = table
    assert sum(deals.chip_chop(chips, prizes, unit=unit)) == sum(prizes)


def test_chip_chop_everyone_gets_the_last_prize_then_by_chips():
    # 200 each, then the 400 left by 6 : 3 : 1.
    assert deals.chip_chop([6000, 3000, 1000], [500, 300, 200]) == [440, 320, 240]


def test_chip_chop_nobody_gets_more_than_first_prize():
    # The leader's share of the 400 above the floor would be almost all of it; he gets
    # first prize, and the 100 beyond it goes to the others by their chips.
    assert deals.chip_chop([1_000_000, 1, 1], [500, 300, 200]) == [500, 250, 250]


def test_chip_chop_with_fewer_prizes_than_players_has_no_floor():
    assert deals.chip_chop([2, 1, 1], [600, 400]) == [500, 250, 250]


def test_save_deal_leaves_the_amount_to_play_for():
    chips, prizes = [5000, 3000, 2000], [5000, 3000, 2000]
    amounts = deals.save_deal(chips, prizes, 1000)
    assert sum(amounts) == sum(prizes) - 1000
    assert amounts == deals.icm_deal(chips, [4000, 3000, 2000])


@pytest.mark.parametrize("save", [0, -1, 2001])
def test_save_deal_amount_at_most_first_prize_over_second(save):
    with pytest.raises(ValueError):
        deals.save_deal([5000, 3000, 2000], [5000, 3000, 2000], save)


@pytest.mark.parametrize(
    "chips, prizes",
    [
        ([100, 200], [300, 200, 100]),  # more places than players
        ([100, 200], [200, 300]),  # second pays more than first
        ([100, 200], [300, -1]),  # a negative prize
        ([100, 0], [300, 200]),  # a player without chips
        ([], []),  # nobody
    ],
)
def test_deals_refuse_a_field_that_cannot_be(chips, prizes):
    for deal in (deals.icm_exact, deals.icm_monte_carlo, deals.icm_deal, deals.chip_chop):
        with pytest.raises(ValueError):
            deal(chips, prizes)

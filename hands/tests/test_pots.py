"""Side pots (TDA 21) and splitting pots with odd chips (TDA 20)."""

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from hands.engine.pots import Pot, build_pots, split_hi_lo, split_pot

# --- TDA 21: side pots ----------------------------------------------------------------------


def test_one_pot_when_nobody_is_all_in_for_less():
    assert build_pots({1: 500, 2: 500, 3: 500}) == [Pot(1500, (1, 2, 3))]


def test_each_all_in_level_starts_a_side_pot():
    pots = build_pots({1: 100, 2: 300, 3: 500, 4: 500})
    assert pots == [Pot(400, (1, 2, 3, 4)), Pot(600, (2, 3, 4)), Pot(400, (3, 4))]


def test_folded_chips_stay_in_the_pots_but_the_folder_cannot_win():
    pots = build_pots({1: 100, 2: 500, 3: 500, 4: 200}, folded={4})
    assert pots == [Pot(400, (1, 2, 3)), Pot(900, (2, 3))]


def test_a_folded_bigger_contribution_does_not_open_a_pot_of_its_own():
    pots = build_pots({1: 100, 2: 100, 3: 300}, folded={3})
    assert pots == [Pot(500, (1, 2))]


def test_dead_money_goes_to_the_main_pot():
    """RP-11: the big blind ante is dead money anyone still in the hand may win."""
    assert build_pots({1: 300, 2: 300, 3: 300}, dead=100) == [Pot(1000, (1, 2, 3))]


def test_player_all_in_for_the_ante_alone_can_win_only_the_dead_money():
    pots = build_pots({1: 0, 2: 400, 3: 400}, dead=100)
    assert pots == [Pot(100, (1, 2, 3)), Pot(800, (2, 3))]


def test_pots_need_someone_still_in_the_hand():
    with pytest.raises(ValueError):
        build_pots({1: 100, 2: 100}, folded={1, 2})


# --- TDA 20: odd chips ------------------------------------------------------------------------


def test_even_split():
    assert split_pot(600, [4, 1]) == {4: 300, 1: 300}


def test_odd_chip_goes_to_the_first_winner_left_of_the_button():
    """TDA 20-A: winners are given in order from the button."""
    assert split_pot(1005, [6, 2], smallest_chip=5) == {6: 505, 2: 500}


def test_pot_is_broken_down_to_the_smallest_chip_in_play():
    # 110 in 5-chips is 22 chips: 7 each and one odd chip for the first winner.
    assert split_pot(110, [3, 5, 8], smallest_chip=5) == {3: 40, 5: 35, 8: 35}


def test_several_odd_chips_go_one_each_clockwise():
    assert split_pot(1100, [3, 5, 8], smallest_chip=100) == {3: 400, 5: 400, 8: 300}


def test_hi_lo_odd_chip_goes_to_the_high_side():
    """TDA 20-C."""
    assert split_hi_lo(1500, high=[2], low=[7], smallest_chip=100) == {2: 800, 7: 700}


def test_hi_lo_halves_are_split_again_among_tied_hands():
    shares = split_hi_lo(1200, high=[2], low=[4, 7], smallest_chip=100)
    assert shares == {2: 600, 4: 300, 7: 300}
    assert split_hi_lo(1000, high=[2], low=[4, 7], smallest_chip=100) == {2: 500, 4: 300, 7: 200}


def test_hi_lo_without_a_qualifying_low_the_high_hand_scoops():
    assert split_hi_lo(1500, high=[2], low=[], smallest_chip=100) == {2: 1500}


def test_one_player_may_win_both_halves():
    assert split_hi_lo(1500, high=[2, 3], low=[2], smallest_chip=100) == {2: 1100, 3: 400}


def test_split_needs_a_winner():
    with pytest.raises(ValueError):
        split_pot(100, [])


# --- Properties -------------------------------------------------------------------------------


@st.composite
def contributions(draw):
    seats = draw(st.lists(st.integers(1, 10), min_size=1, max_size=9, unique=True))
    amounts = {seat: draw(st.integers(0, 5000)) for seat in seats}
    folded = set(draw(st.lists(st.sampled_from(seats), max_size=len(seats) - 1)))
    return amounts, folded, draw(st.integers(0, 500))


@settings(max_examples=500)
@given(contributions())
def test_pots_hold_exactly_what_was_put_in(case):
    amounts, folded, dead = case
    pots = build_pots(amounts, folded, dead=dead)
    assert sum(p.amount for p in pots) == sum(amounts.values()) + dead
    for pot in pots:
        assert pot.eligible and not set(pot.eligible) & folded


@settings(max_examples=500)
@given(contributions())
def test_a_player_can_win_from_each_opponent_only_what_they_put_in_themselves(case):
    amounts, folded, _ = case
    live = set(amounts) - folded
    # As in a real hand, nobody who folded put in more than the largest live stake.
    assume(max(amounts.values()) == max(amounts[s] for s in live))
    pots = build_pots(amounts, folded)
    for seat in live:
        reachable = sum(p.amount for p in pots if seat in p.eligible)
        assert reachable == sum(min(c, amounts[seat]) for c in amounts.values())


@settings(max_examples=500)
@given(
    st.integers(0, 100_000),
    st.lists(st.integers(1, 10), min_size=1, max_size=9, unique=True),
    st.lists(st.integers(1, 10), max_size=9, unique=True),
    st.sampled_from([1, 5, 25, 100]),
)
def test_splitting_conserves_chips(amount, high, low, chip):
    shares = split_hi_lo(amount, high, low, chip)
    assert sum(shares.values()) == amount
    if amount % chip == 0:
        assert all(v % chip == 0 for v in shares.values())
    even = split_pot(amount, high, chip)
    assert max(even.values()) - min(even.values()) <= chip + amount % chip

"""Showdown order (TDA 16, 17) and who wins which pot, by pokerkit's hand rankings."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hands.engine.betting import all_in, bet, call, check, start_hand
from hands.engine.limits import NO_LIMIT, Structure
from hands.engine.pots import Pot, build_pots
from hands.engine.showdown import (
    HOLDEM,
    OMAHA,
    OMAHA_HI_LO,
    STUD,
    ShowOrder,
    award_pots,
    best_high,
    best_low,
    show_order,
    winnings,
)

# --- TDA 16, 17: who shows first ------------------------------------------------------------


def test_last_aggressor_on_the_river_shows_first():
    """TDA 17-A; the others follow clockwise."""
    assert show_order([1, 3, 5], last_aggressor=3) == ShowOrder((3, 5, 1), False, "TDA 17-A")


def test_without_a_river_bet_the_first_seat_left_of_the_button_shows_first():
    assert show_order([1, 3, 5]) == ShowOrder((1, 3, 5), False, "TDA 17-A")


def test_all_hands_are_tabled_at_once_when_someone_is_all_in():
    """TDA 16."""
    assert show_order([1, 3, 5], last_aggressor=3, all_in=True).all_at_once


def test_show_order_from_a_played_hand():
    state = start_hand(Structure(NO_LIMIT, 50, 100), [(1, 1000), (2, 1000), (3, 1000)], button=3,
                       small_blind=1, big_blind=2)  # fmt: skip
    state = state.apply(call(3)).apply(call(1)).apply(check(2))
    for _ in range(2):  # flop and turn checked through
        state = state.apply(check(1)).apply(check(2)).apply(check(3))
    state = state.apply(check(1)).apply(bet(2, 300)).apply(call(3)).apply(call(1))
    order = show_order(state.in_hand, last_aggressor=state.aggressor, all_in=state.all_in_showdown)
    assert order == ShowOrder((2, 3, 1), False, "TDA 17-A")


# --- Cards speak: hold'em, Omaha, stud ------------------------------------------------------


def test_best_holdem_hand_wins_the_pot():
    board = "Ks Qd 7c 4h 2s".split()
    holdings = {1: ["As", "Kd"], 2: ["Kh", "Jc"]}
    (award,) = award_pots([Pot(600, (1, 2))], holdings, board, order_from_button=[1, 2])
    assert award.high == (1,) and award.shares == {1: 600}


def test_board_plays_and_the_odd_chip_goes_left_of_the_button():
    """TDA 20-A: seat 6 sits first left of the button."""
    board = "As Ks Qs Js Ts"
    holdings = {2: "2c3d", 6: "4h5h"}
    (award,) = award_pots(
        [Pot(1005, (2, 6))], holdings, board, order_from_button=[6, 2], smallest_chip=5
    )
    assert award.high == (6, 2)
    assert award.shares == {6: 505, 2: 500}


def test_omaha_uses_exactly_two_hole_cards():
    board = "Ah Kh Qh 2h 7c"
    one_heart = "Jh3c4d5s"
    assert best_high(HOLDEM, one_heart, board).entry.label == "Flush"
    assert best_high(OMAHA, one_heart, board).entry.label != "Flush"
    holdings = {1: one_heart, 2: "9s9d8c8d"}
    (award,) = award_pots([Pot(400, (1, 2))], holdings, board, game=OMAHA, order_from_button=[1, 2])
    assert award.high == (2,)


def test_stud_uses_the_best_five_of_seven():
    holdings = {1: "AsAdKcKd2h3h9s", 2: "7c8c9cTc2c3d4d"}
    (award,) = award_pots([Pot(900, (1, 2))], holdings, game=STUD, order_from_button=[1, 2])
    assert award.high == (2,)


def test_stud_odd_chip_goes_to_the_high_card_by_suit():
    """TDA 20-B: both play A-K-Q-J-9; the ace of spades beats the ace of clubs."""
    holdings = {1: "AsKdQhJc9s3c2d", 2: "AcKsQdJh9c4h2h"}
    (award,) = award_pots(
        [Pot(1005, (1, 2))], holdings, game=STUD, order_from_button=[2, 1], smallest_chip=5
    )
    assert award.shares == {1: 505, 2: 500}


def test_omaha_hi_lo_splits_between_high_and_qualifying_low():
    """TDA 20-C: the odd chip goes to the high half."""
    board = "Ac 2d 7h Kc Qs"
    holdings = {1: "KdKh9s9c", 2: "3h4sJdJh"}
    (award,) = award_pots(
        [Pot(1500, (1, 2))],
        holdings,
        board,
        game=OMAHA_HI_LO,
        order_from_button=[1, 2],
        smallest_chip=100,
    )
    assert (award.high, award.low) == ((1,), (2,))
    assert award.shares == {1: 800, 2: 700}


def test_omaha_hi_lo_without_a_qualifying_low_high_scoops():
    board = "Kc Qs Js 9h 2d"
    assert best_low(OMAHA_HI_LO, "Ad3c4h5s", board) is None
    holdings = {1: "Ad3c4h5s", 2: "KdKh8s8c"}
    (award,) = award_pots(
        [Pot(1500, (1, 2))], holdings, board, game=OMAHA_HI_LO, order_from_button=[1, 2]
    )
    assert award.low == () and award.shares == {2: 1500}


def test_high_only_games_have_no_low():
    assert best_low(HOLDEM, "Ad2c", "3h4s5d") is None


# --- TDA 21: each pot on its own --------------------------------------------------------------


def test_short_stack_wins_the_main_pot_and_the_next_best_the_side_pot():
    board = "9s 8d 7c 4h 2s"
    holdings = {1: "AsAd", 2: "KhKd", 3: "QhJc"}
    pots = [Pot(300, (1, 2, 3)), Pot(400, (2, 3))]
    awards = award_pots(pots, holdings, board, order_from_button=[1, 2, 3])
    assert [a.shares for a in awards] == [{1: 300}, {2: 400}]
    assert winnings(awards) == {1: 300, 2: 400}


def test_uncontested_pot_needs_no_cards():
    """TDA 17-B: the last player with live cards wins without tabling."""
    (award,) = award_pots([Pot(400, (2,))], {}, "Ks Qd 7c 4h 2s", order_from_button=[1, 2])
    assert award.shares == {2: 400}


def test_a_player_who_mucked_cannot_win():
    holdings = {2: "3c2d"}
    (award,) = award_pots([Pot(400, (1, 2))], holdings, "Ks Qd 7c 4h 9s", order_from_button=[1, 2])
    assert award.shares == {2: 400}


def test_a_contested_pot_needs_a_tabled_hand():
    with pytest.raises(ValueError):
        award_pots([Pot(400, (1, 2))], {}, "Ks Qd 7c 4h 9s", order_from_button=[1, 2])


def test_unknown_game_is_refused():
    with pytest.raises(ValueError):
        best_high("badugi", "As2d", "3c4h5s")


def test_a_hand_from_the_first_bet_to_the_payout():
    stacks = {1: 1000, 2: 3000, 3: 400}
    state = start_hand(Structure(NO_LIMIT, 50, 100), stacks.items(), button=3, small_blind=1,
                       big_blind=2)  # fmt: skip
    state = state.apply(all_in(3)).apply(all_in(1)).apply(call(2))
    assert state.all_in_showdown
    holdings = {1: "KhKd", 2: "QhQd", 3: "AsAd"}
    awards = award_pots(state.pots(), holdings, "2c 7d 9h Js 3c", order_from_button=[1, 2, 3])
    final = {seat: state.stacks[seat] + won for seat, won in winnings(awards).items()}
    assert final == {1: 1200, 3: 1200}
    assert sum(state.stacks.values()) + sum(winnings(awards).values()) == sum(stacks.values())


# --- Properties -------------------------------------------------------------------------------

DECK = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]


@st.composite
def showdowns(draw):
    game = draw(st.sampled_from([HOLDEM, OMAHA, OMAHA_HI_LO]))
    seats = draw(st.lists(st.integers(1, 9), min_size=2, max_size=6, unique=True))
    deck = draw(st.permutations(DECK))
    per_player = 2 if game == HOLDEM else 4
    holdings = {s: deck[i * per_player : (i + 1) * per_player] for i, s in enumerate(seats)}
    board = deck[-5:]
    amounts = {s: draw(st.integers(0, 2000)) for s in seats}
    folded = set(draw(st.lists(st.sampled_from(seats), max_size=len(seats) - 1, unique=True)))
    return game, seats, holdings, board, amounts, folded, draw(st.sampled_from([1, 5, 25]))


@settings(max_examples=200, deadline=None)
@given(showdowns())
def test_winnings_add_up_and_stay_within_each_players_pots(case):
    game, seats, holdings, board, amounts, folded, chip = case
    pots = build_pots(amounts, folded)
    tabled = {s: cards for s, cards in holdings.items() if s not in folded}
    awards = award_pots(pots, tabled, board, game=game, order_from_button=seats, smallest_chip=chip)
    won = winnings(awards)
    assert sum(won.values()) == sum(amounts.values())
    for seat, chips in won.items():
        assert seat not in folded
        assert chips <= sum(p.amount for p in pots if seat in p.eligible)
    for award in awards:
        assert set(award.shares) <= set(award.pot.eligible)

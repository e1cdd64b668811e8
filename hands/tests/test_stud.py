"""Stud, stud/8 and razz in the betting engine (hands.engine.stud), against TDA RP-10,
TDA 30, TDA 48 and casino §38. Limits 20/40 with a 5 ante and a 10 bring-in unless a
test says otherwise; seats 1-4, the button on seat 4 (frozen in HORSE, TDA 11-B)."""

import pytest

from hands.engine.betting import IllegalAction, bet, call, check, fold, raise_to
from hands.engine.limits import SHOWDOWN
from hands.engine.pots import Pot
from hands.engine.showdown import award_pots
from hands.engine.stud import (
    OPEN_PAIR_UPPER,
    RAZZ,
    STUD,
    bring_in_seat,
    first_to_act,
    start_stud,
    stud_structure,
)

LIMITS = stud_structure(small_bet=20, big_bet=40)


def deal(doors, *, game=STUD, stacks=None, ante=5, bring_in=10, open_pair="tda"):
    seats = sorted(doors)
    stacks = stacks or {}
    return start_stud(
        LIMITS,
        [(seat, stacks.get(seat, 1000)) for seat in seats],
        game=game,
        ante=ante,
        bring_in=bring_in,
        door_cards=doors,
        button=seats[-1],
        open_pair_rule=open_pair,
    )


def play(state, *actions):
    for action in actions:
        state = state.apply(action)
    return state


# --- The bring-in and the order of action ---------------------------------------------------


def test_the_low_card_by_suit_brings_it_in_in_stud():
    # Two deuces: clubs is the lowest suit (TDA 20-B's order), so the 2 of clubs.
    assert bring_in_seat({1: "Kh", 2: "2d", 3: "2c", 4: "9s"}, STUD) == 3


def test_the_high_card_brings_it_in_in_razz_aces_low():
    # Kings are the highest in razz (the ace is low); of two kings, spades is the higher.
    assert bring_in_seat({1: "Ah", 2: "Kd", 3: "Ks", 4: "Qs"}, RAZZ) == 3


def test_third_street_the_bring_in_acts_first_and_may_post_or_complete():
    state = deal({1: "Kh", 2: "7d", 3: "2c", 4: "9s"})
    assert state.to_act == 3
    options = state.legal_actions()
    assert (options.min_to, options.max_to, options.can_check) == (10, 20, False)
    assert state.pot == 20  # four antes of 5
    with pytest.raises(IllegalAction) as refused:
        state.apply(check(3))
    assert refused.value.rule == "RP-10 E"
    with pytest.raises(IllegalAction) as refused:
        state.apply(fold(3))  # TDA 30: the player dealt the bring-in card posts it
    assert refused.value.rule == "TDA 30"
    with pytest.raises(IllegalAction):
        state.apply(bet(3, 15))  # the bring-in or the complete, nothing between


def test_completing_the_bring_in_is_the_first_bet_toward_the_cap():
    state = play(deal({1: "Kh", 2: "7d", 3: "2c", 4: "9s"}), bet(3, 10))
    assert state.to_act == 4
    options = state.legal_actions()
    assert (options.call, options.min_to, options.max_to) == (10, 20, 20)  # call or complete
    state = play(state, raise_to(4, 20), raise_to(1, 40), raise_to(2, 60), raise_to(3, 80))
    # TDA 48: complete and three raises; the fourth raise is refused.
    assert state.to_act == 4
    assert state.legal_actions().wager is None


def test_everybody_calls_the_bring_in_and_fourth_street_waits_for_the_upcards():
    state = play(deal({1: "Kh", 2: "7d", 3: "2c", 4: "9s"}), bet(3, 10), call(4), call(1), call(2))
    assert state.upcards_due == "fourth" and state.to_act is None and not state.finished
    with pytest.raises(IllegalAction) as refused:
        state.apply(check(1))
    assert refused.value.rule == "RP-10"
    # Fourth street: seat 2 shows a pair of sevens, the high hand, and acts first.
    state = state.deal({1: "Qh", 2: "7s", 3: "Ac", 4: "Jd"})
    assert state.to_act == 2
    assert state.legal_actions().max_to == 20  # RP-10 F: no doubling for the open pair


def test_rp10_d_matching_hands_showing_the_high_card_by_suit_acts_first():
    # Both show K-7: the king of spades acts first.
    assert first_to_act({1: ("Kh", "7d"), 2: ("Ks", "7c"), 3: ("Qc", "Jd")}, STUD) == 2
    # Razz: the low hand acts first; two 7-4s, the seven of spades is the high card.
    razz = {1: ("7h", "4d"), 2: ("7s", "4c"), 3: ("Kc", "2d"), 4: ("3c", "3d")}
    assert first_to_act(razz, RAZZ) == 2
    # A pair is the worst razz hand, but it is the best stud hand showing.
    assert first_to_act({1: ("3c", "3d"), 2: ("Kc", "Qd")}, RAZZ) == 2
    assert first_to_act({1: ("3c", "3d"), 2: ("Kc", "Qd")}, STUD) == 1


def test_rp10_e_bring_in_all_in_for_the_ante_betting_starts_on_the_left():
    state = deal({1: "Kh", 2: "7d", 3: "2c", 4: "9s"}, stacks={3: 5})
    assert state.player(3).all_in
    assert state.to_act == 4
    options = state.legal_actions()
    assert (options.min_to, options.max_to, options.can_check) == (10, 20, False)
    with pytest.raises(IllegalAction):
        state.apply(check(4))
    state = state.apply(fold(4))  # the opener may fold rather than bet
    assert state.to_act == 1 and state.legal_actions().min_to == 10


def test_later_streets_use_the_big_bet_and_seventh_keeps_sixth_streets_order():
    state = play(deal({1: "Kh", 2: "7d", 3: "2c", 4: "9s"}), bet(3, 10), call(4), fold(1), call(2))
    state = state.deal({2: "3d", 3: "4c", 4: "Ad"})  # seat 4: A-9, the high hand
    state = play(state, check(4), check(2), check(3))
    state = state.deal({2: "3s", 3: "5c", 4: "Kd"})  # seat 2: a pair of threes
    assert state.street == "fifth" and state.to_act == 2
    assert state.legal_actions().max_to == 40  # the big bet
    state = play(state, bet(2, 40), call(3), call(4))
    state = state.deal({2: "8c", 3: "6c", 4: "Kc"})  # seat 4 pairs kings
    state = play(state, check(4), check(2), check(3))
    assert state.street == "seventh" and state.to_act == 4  # dealt down: same order
    state = play(state, check(4), bet(2, 40), call(3), fold(4))
    assert state.finished_at == SHOWDOWN
    assert state.aggressor == 2
    assert state.act_order() == (2, 3)


# --- An open pair on fourth street: the house setting ---------------------------------------


def to_fourth(open_pair):
    state = play(
        deal({1: "Kh", 2: "7d", 3: "2c", 4: "9s"}, open_pair=open_pair),
        bet(3, 10),
        call(4),
        call(1),
        call(2),
    )
    return state.deal({1: "Qh", 2: "7s", 3: "Ac", 4: "Jd"})  # seat 2 pairs its sevens


def test_rp10_f_tda_bets_are_not_doubled_for_an_open_pair():
    state = to_fourth("tda")
    with pytest.raises(IllegalAction):
        state.apply(bet(2, 40))
    assert state.apply(bet(2, 20)).current_bet == 20


def test_casino_38_an_open_pair_allows_the_upper_limit():
    state = to_fourth(OPEN_PAIR_UPPER)
    options = state.legal_actions()
    assert (options.min_to, options.max_to) == (20, 40)
    with pytest.raises(IllegalAction) as refused:
        state.apply(bet(2, 30))
    assert refused.value.rule == "casino §38"
    # Opened at the lower limit and raised at the lower limit: the opener may raise
    # by the upper limit.
    state = play(state, bet(2, 20), raise_to(3, 40), call(4), call(1))
    assert state.to_act == 2
    assert (state.legal_actions().min_to, state.legal_actions().max_to) == (60, 80)
    state = state.apply(raise_to(2, 80))
    # After a raise of the upper limit, raises are of the upper limit.
    assert (state.legal_actions().min_to, state.legal_actions().max_to) == (120, 120)


def test_casino_38_without_an_open_pair_fourth_street_is_the_small_bet():
    state = play(
        deal({1: "Kh", 2: "7d", 3: "2c", 4: "9s"}, open_pair=OPEN_PAIR_UPPER),
        bet(3, 10),
        call(4),
        call(1),
        call(2),
    )
    state = state.deal({1: "Qh", 2: "8s", 3: "Ac", 4: "Jd"})
    assert state.legal_actions().max_to == 20


def test_the_dealer_must_give_one_new_upcard_to_each_player_still_in():
    state = play(deal({1: "Kh", 2: "7d", 3: "2c", 4: "9s"}), bet(3, 10), fold(4), call(1), call(2))
    with pytest.raises(IllegalAction):
        state.deal({1: "Qh", 2: "8s"})
    with pytest.raises(IllegalAction):
        state.deal({1: "Qh", 2: "8s", 3: "Kh"})  # the king of hearts already shows
    assert state.deal({1: "Qh", 2: "8s", 3: "Ac"}).to_act == 3


def test_a_hand_folded_to_the_bring_in_is_over():
    state = play(deal({1: "Kh", 2: "7d", 3: "2c", 4: "9s"}), bet(3, 10), fold(4), fold(1), fold(2))
    assert state.finished and state.in_hand == (3,)


def test_the_bring_in_is_no_aggression_completing_it_is():
    state = play(deal({1: "Kh", 2: "7d", 3: "2c", 4: "9s"}), bet(3, 10), call(4), call(1), call(2))
    assert state.hand_aggressor is None
    state = play(deal({1: "Kh", 2: "7d", 3: "2c", 4: "9s"}), bet(3, 10), raise_to(4, 20))
    assert state.hand_aggressor == 4


# --- The showdown: razz, and the odd chip (TDA 20-B) ---------------------------------------


def test_razz_the_best_low_of_seven_wins_aces_low_pairs_count_against():
    holdings = {
        1: "As 2d 3c 4h 6s Kd Kc",  # 6-4-3-2-A
        2: "Ah 2c 3d 5s 7c Qs Qd",  # 7-5-3-2-A
        3: "Kh Kd 9c 9d 8s 8h Qc",  # paired everywhere
    }
    awards = award_pots([Pot(900, (1, 2, 3))], holdings, game=RAZZ, order_from_button=[1, 2, 3])
    assert dict(awards[0].shares) == {1: 900}


def test_tda_20b_the_odd_chip_goes_to_the_high_card_by_suit():
    # Both make the same ace-high straight; seat 2 holds the ace of spades.
    holdings = {1: "Ah Kd Qc Jd Tc 2c 3d", 2: "As Kc Qd Jh Th 2d 3h"}
    awards = award_pots([Pot(301, (1, 2))], holdings, game=STUD, order_from_button=[1, 2])
    assert dict(awards[0].shares) == {2: 151, 1: 150}

"""The betting engine against the TDA rules and their Illustration Addendum examples.

Seats are numbered in dealing order: seat 1 is the first left of the button, the last
seat has the button. Unless a test says otherwise seat 1 posts the small blind and
seat 2 the big blind, so pre-flop seat 3 acts first and after the flop seat 1 does.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hands.engine.betting import (
    BET,
    CALL,
    RAISE,
    Action,
    IllegalAction,
    all_in,
    bet,
    call,
    check,
    fold,
    raise_to,
    start_hand,
)
from hands.engine.limits import FIXED_LIMIT, NO_LIMIT, POT_LIMIT, SHOWDOWN, Structure
from hands.engine.pots import Pot


def deal(structure, stacks, *, small_blind=1, big_blind=2, seats=None):
    seats = seats or list(range(1, len(stacks) + 1))
    return start_hand(
        structure,
        list(zip(seats, stacks, strict=True)),
        button=seats[-1],
        small_blind=small_blind,
        big_blind=big_blind,
    )


def play(state, *actions):
    for action in actions:
        state = state.apply(action)
    return state


def limp_to(state, street):
    """Everyone calls or checks until `street` begins."""
    while state.street != street:
        options = state.legal_actions()
        state = state.apply(call(options.seat) if options.call else check(options.seat))
    return state


def nl(small, big, **kw):
    return Structure(NO_LIMIT, small, big, **kw)


def illegal(state, action):
    before = state
    with pytest.raises(IllegalAction) as caught:
        state.apply(action)
    assert state == before  # nothing changes
    return caught.value


# --- Turn order and streets ---------------------------------------------------------------


def test_preflop_action_starts_left_of_the_big_blind():
    state = deal(nl(50, 100), [1000] * 5)
    assert state.to_act == 3
    assert state.stacks == {1: 950, 2: 900, 3: 1000, 4: 1000, 5: 1000}
    assert state.legal_actions().call == 100


def test_after_the_flop_action_starts_left_of_the_button():
    state = limp_to(deal(nl(50, 100), [1000] * 5), "flop")
    assert state.to_act == 1
    assert state.pot == 500
    assert state.legal_actions().can_check


def test_big_blind_has_the_option_when_everyone_limps():
    state = play(deal(nl(50, 100), [1000] * 3), call(3), call(1))
    options = state.legal_actions()
    assert (options.seat, options.call, options.wager, options.min_to) == (2, 0, RAISE, 200)


def test_heads_up_the_button_posts_the_small_blind_and_acts_first_only_preflop():
    # Dealing order heads-up: the big blind (seat 7), then the button (seat 3).
    state = start_hand(nl(50, 100), [(7, 1000), (3, 1000)], button=3, small_blind=3, big_blind=7)
    assert state.to_act == 3
    state = limp_to(state, "flop")
    assert state.to_act == 7


def test_hand_ends_when_all_fold_and_the_uncalled_bet_goes_back():
    state = play(limp_to(deal(nl(50, 100), [1000] * 3), "flop"), bet(1, 250), fold(2), fold(3))
    assert state.finished and state.to_act is None
    assert state.stacks == {1: 900, 2: 900, 3: 900}  # the 250 came back to seat 1
    assert state.pots() == [Pot(300, (1,))]


def test_streets_follow_in_order_to_the_showdown():
    state = deal(nl(50, 100), [1000] * 3)
    for street in ("flop", "turn", "river", SHOWDOWN):
        state = limp_to(state, street)
    assert state.finished and not state.all_in_showdown
    assert state.aggressor is None


def test_river_bettor_is_the_last_aggressor():
    """TDA 17-A needs the last aggressive player on the final street."""
    state = limp_to(deal(nl(50, 100), [1000] * 3), "river")
    state = play(state, check(1), bet(2, 200), call(3), raise_to(1, 600), call(2), call(3))
    assert state.street == SHOWDOWN
    assert state.aggressor == 1


def test_call_with_nothing_to_call_is_a_check():
    """TDA 55-A: declaring "call" facing no bet is a check."""
    state = limp_to(deal(nl(50, 100), [1000] * 3), "flop")
    assert play(state, call(1)).history[-1].kind == "check"


def test_folding_instead_of_checking_is_binding():
    """TDA 58: non-standard but binding."""
    state = limp_to(deal(nl(50, 100), [1000] * 3), "flop")
    assert 1 not in play(state, fold(1)).in_hand


# --- TDA 43: raise amounts ----------------------------------------------------------------


def test_tda_43_example_1_min_raise_is_the_last_raise_not_the_total():
    state = limp_to(deal(nl(100, 200), [10_000] * 5), "flop")
    state = play(state, bet(1, 600), raise_to(2, 1600), raise_to(3, 3600))
    assert state.legal_actions().min_to == 5600
    assert illegal(state, raise_to(4, 5500)).rule == "TDA 43"
    assert play(state, raise_to(4, 5600)).current_bet == 5600


def test_tda_43_example_2_short_all_in_preflop_keeps_the_big_blind_as_min_raise():
    state = play(deal(nl(50, 100), [1000, 1000, 150, 1000, 1000]), all_in(3))
    options = state.legal_actions()
    assert (options.seat, options.call, options.min_to) == (4, 150, 250)


def test_tda_43_example_3_min_raise_after_a_raise_on_the_turn():
    state = limp_to(deal(nl(100, 200), [10_000] * 4), "turn")
    state = play(state, bet(1, 300), raise_to(2, 1000))
    options = state.legal_actions()
    assert (options.call, options.min_to) == (1000, 1700)


def test_tda_43_example_4a_largest_raise_of_the_street_sets_the_minimum():
    state = play(deal(nl(25, 50), [5000] * 7), raise_to(3, 125), raise_to(4, 200), raise_to(5, 500))
    assert state.legal_actions().min_to == 800


def test_tda_43_example_4b_one_big_raise_then_calls():
    state = play(deal(nl(25, 50), [5000] * 7), raise_to(3, 500), call(4), call(5))
    options = state.legal_actions()
    assert (options.call, options.min_to) == (500, 950)


def test_opening_bet_is_at_least_the_big_blind():
    state = limp_to(deal(nl(100, 200), [10_000] * 3), "flop")
    assert state.legal_actions().min_to == 200
    assert illegal(state, bet(1, 150)).rule == "TDA 43"


def test_all_in_below_the_minimum_raise_is_allowed():
    state = play(deal(nl(50, 100), [1000, 1000, 1000, 400]), raise_to(3, 300))
    options = state.legal_actions()
    assert (options.min_to, options.max_to) == (400, 400)  # only an all-in is left
    state = play(state, raise_to(4, 400))
    assert state.history[-1] == Action(RAISE, 4, 400, all_in=True)
    assert state.legal_actions().min_to == 600  # the short all-in did not move the minimum


def test_raise_to_the_whole_stack_below_the_bet_is_an_all_in_call():
    state = play(deal(nl(50, 100), [1000, 1000, 1000, 180]), raise_to(3, 300))
    state = play(state, raise_to(4, 180))
    assert state.history[-1] == Action(CALL, 4, 180, all_in=True)


# --- TDA 47: reopening the betting ----------------------------------------------------------


def _short_all_ins_after_a_bet():
    """TDA 47, example 1: NLHE 50-100, post-flop A bets 100, B all-in 125, C calls, D
    all-in 200, E calls."""
    state = limp_to(deal(nl(50, 100), [10_000, 225, 10_000, 300, 10_000]), "flop")
    return play(state, bet(1, 100), all_in(2), call(3), all_in(4), call(5))


def test_tda_47_example_1_short_all_ins_adding_up_to_a_full_raise_reopen():
    options = _short_all_ins_after_a_bet().legal_actions()
    assert (options.seat, options.call, options.wager, options.min_to) == (1, 100, RAISE, 300)


def test_tda_47_example_1a_player_facing_less_than_a_full_raise_may_not_raise():
    state = play(_short_all_ins_after_a_bet(), call(1))
    options = state.legal_actions()
    assert (options.seat, options.call, options.wager) == (3, 75, None)
    error = illegal(state, raise_to(3, 400))
    assert error.rule == "TDA 47-A"
    assert error.options == options


def test_tda_47_example_1b_a_full_raise_reopens_for_everyone():
    state = play(_short_all_ins_after_a_bet(), raise_to(1, 300))
    options = state.legal_actions()
    assert (options.seat, options.call, options.wager) == (3, 175, RAISE)


def test_tda_47_example_2_min_raise_stays_the_last_full_bet():
    state = limp_to(deal(nl(50, 100), [10_000, 600, 750, 900, 10_000, 10_000]), "flop")
    state = play(state, bet(1, 300), all_in(2), all_in(3), all_in(4), call(5))
    options = state.legal_actions()
    assert (options.seat, options.call, options.min_to) == (6, 800, 1100)


def _short_all_in_before_the_big_blind():
    """TDA 47, example 3: blinds 2000-4000, A calls, B folds, C all-in 7500, the small
    blind folds."""
    state = deal(nl(2000, 4000), [100_000, 100_000, 100_000, 100_000, 7500])
    return play(state, call(3), fold(4), all_in(5), fold(1))


def test_tda_47_example_3a_big_blind_who_has_not_acted_may_raise():
    options = _short_all_in_before_the_big_blind().legal_actions()
    assert (options.seat, options.call, options.min_to) == (2, 3500, 11_500)


def test_tda_47_example_3a_caller_facing_a_short_all_in_may_only_call():
    state = play(_short_all_in_before_the_big_blind(), call(2))
    options = state.legal_actions()
    assert (options.seat, options.call, options.wager) == (3, 3500, None)
    assert illegal(state, raise_to(3, 15_500)).rule == "TDA 47-A"


def test_tda_47_example_3b_big_blind_min_raise_reopens_for_the_caller():
    state = play(_short_all_in_before_the_big_blind(), raise_to(2, 11_500))
    options = state.legal_actions()
    assert (options.seat, options.call, options.wager) == (3, 7500, RAISE)


def test_a_short_all_in_bet_does_not_reopen_for_a_player_who_checked():
    state = limp_to(deal(nl(50, 100), [10_000, 150, 10_000]), "flop")
    state = play(state, check(1), all_in(2), call(3))
    assert state.legal_actions().wager is None


# --- Fixed limit: TDA 47-B, TDA 48 --------------------------------------------------------


def fl(**kw):
    return Structure(FIXED_LIMIT, 50, 100, **kw)


def test_limit_bets_are_the_small_bet_then_the_big_bet():
    flop = limp_to(deal(fl(), [10_000] * 3), "flop")
    assert (flop.legal_actions().min_to, flop.legal_actions().max_to) == (100, 100)
    assert illegal(flop, bet(1, 150)).rule == "fixed limit"
    assert illegal(flop, bet(1, 50)).rule == "TDA 52-A"
    turn = limp_to(flop, "turn")
    assert turn.legal_actions().min_to == 200


def test_limit_cap_is_a_bet_and_three_raises():
    """TDA 48: the big blind is the bet pre-flop; three raises cap it."""
    state = play(deal(fl(), [10_000] * 4), raise_to(3, 200), raise_to(4, 300), raise_to(1, 400))
    options = state.legal_actions()
    assert (options.seat, options.call, options.wager) == (2, 300, None)
    assert illegal(state, raise_to(2, 500)).rule == "TDA 48"


def test_limit_cap_holds_heads_up_under_tda_48():
    state = limp_to(deal(fl(), [10_000] * 2, small_blind=2, big_blind=1), "flop")
    state = play(state, bet(1, 100), raise_to(2, 200), raise_to(1, 300), raise_to(2, 400))
    assert illegal(state, raise_to(1, 500)).rule == "TDA 48"


def test_house_cap_lifts_heads_up_when_set():
    state = limp_to(
        deal(fl(cap_lifts_heads_up=True), [10_000] * 2, small_blind=2, big_blind=1), "flop"
    )
    state = play(state, bet(1, 100), raise_to(2, 200), raise_to(1, 300), raise_to(2, 400))
    assert play(state, raise_to(1, 500)).current_bet == 500


def test_no_cap_set_means_unlimited_raises():
    state = play(deal(fl(cap=None), [10_000] * 3), raise_to(3, 200), raise_to(1, 300))
    state = play(state, raise_to(2, 400), raise_to(3, 500))
    assert state.legal_actions().max_to == 600


def test_tda_47b_limit_all_in_of_half_a_bet_reopens():
    state = limp_to(deal(fl(), [10_000, 10_000, 250]), "flop")  # seat 3 has 150 left
    state = play(state, check(1), bet(2, 100), all_in(3), call(1))
    options = state.legal_actions()
    assert (options.seat, options.call, options.wager, options.min_to) == (2, 50, RAISE, 250)


def test_tda_47b_limit_all_in_under_half_a_bet_does_not_reopen():
    state = limp_to(deal(fl(), [10_000, 10_000, 240]), "flop")  # seat 3 has 140 left
    state = play(state, check(1), bet(2, 100), all_in(3), call(1))
    assert state.legal_actions().wager is None
    assert illegal(state, raise_to(2, 240)).rule == "TDA 47-B"


def test_limit_player_yet_to_act_completes_a_short_all_in_raise():
    # Seat 2 is all-in for 130 over a 100 bet: seat 3 calls 130 or raises to 200.
    state = limp_to(deal(fl(), [10_000, 230, 10_000, 10_000]), "flop")
    state = play(state, bet(1, 100), all_in(2))
    options = state.legal_actions()
    assert (options.call, options.min_to, options.max_to) == (130, 200, 200)


# --- Pot limit: TDA 54 ----------------------------------------------------------------------


def pl(**kw):
    return Structure(POT_LIMIT, 100, 200, **kw)


def test_tda_54b_example_1_dead_small_blind_counts_as_posted():
    state = deal(pl(), [10_000] * 4, small_blind=None, big_blind=2, seats=[2, 3, 4, 9])
    options = state.legal_actions()
    assert (options.seat, options.max_to) == (3, 700)
    assert illegal(state, raise_to(3, 800)).rule == "TDA 54-B"


def test_tda_54b_example_2_short_big_blind_counts_as_a_full_one():
    state = deal(pl(), [10_000, 100, 10_000, 10_000])
    assert state.legal_actions().max_to == 700


def test_tda_54c_after_the_flop_the_actual_pot_counts():
    state = limp_to(deal(pl(), [10_000] * 3), "flop")
    assert state.legal_actions().max_to == 600
    state = play(state, bet(1, 600))
    assert state.legal_actions().max_to == 2400  # call 600, then raise the 1800 pot
    assert illegal(state, raise_to(2, 2500)).rule == "TDA 54-C"


# --- RP-11: big blind ante --------------------------------------------------------------------


def test_big_blind_ante_is_dead_money_outside_the_live_bet():
    state = deal(nl(50, 100, ante=100), [1000] * 4)
    bb = state.player(2)
    assert (bb.bet, bb.ante, bb.stack) == (100, 100, 800)
    assert state.pot == 250
    assert state.legal_actions().call == 100


def test_short_big_blind_pays_the_blind_before_the_ante():
    bb = deal(nl(50, 100, ante=100), [1000, 150, 1000]).player(2)
    assert (bb.bet, bb.ante) == (100, 50)


def test_house_may_take_the_ante_first():
    bb = deal(nl(50, 100, ante=100, ante_first=True), [1000, 150, 1000]).player(2)
    assert (bb.bet, bb.ante) == (50, 100)


def test_pot_limit_counts_the_ante_in_the_pot():
    state = deal(Structure(POT_LIMIT, 50, 100, ante=100), [1000] * 4)
    assert state.legal_actions().max_to == 450  # pot 250, call 100, raise 350


def test_ante_goes_to_the_main_pot():
    state = play(deal(nl(50, 100, ante=100), [1000, 1000, 300]), all_in(3), call(1), call(2))
    state = limp_to(state, SHOWDOWN)
    assert state.pots() == [Pot(1000, (1, 2, 3))]


# --- All-ins and the run-out: TDA 16 ------------------------------------------------------------


def test_tda_16_example_1_all_in_and_call_on_the_turn_goes_face_up():
    state = limp_to(deal(nl(50, 100), [500, 2000]), "turn")
    state = play(state, all_in(1), call(2))
    assert state.street == SHOWDOWN and state.all_in_showdown


def test_tda_16_example_2_cards_stay_down_while_two_can_still_bet():
    state = play(deal(nl(50, 100), [2000, 2000, 700]), all_in(3), call(1), call(2))
    assert state.street == "flop" and not state.all_in_showdown
    state = play(limp_to(state, "turn"), all_in(1), call(2))
    assert state.all_in_showdown
    assert [p.amount for p in state.pots()] == [2100, 2600]


def test_tda_16_example_3_all_hands_tabled_after_river_checks():
    state = play(deal(nl(50, 100), [5000, 5000, 700]), all_in(3), call(1), call(2))
    state = play(limp_to(state, "turn"), bet(1, 1000), call(2))
    state = limp_to(state, SHOWDOWN)
    assert state.all_in_showdown
    assert state.pots() == [Pot(2100, (1, 2, 3)), Pot(2000, (1, 2))]


def test_no_raise_when_every_other_player_is_all_in():
    state = play(deal(nl(50, 100), [5000, 5000, 700]), all_in(3), fold(1))
    options = state.legal_actions()
    assert (options.call, options.wager) == (600, None)
    assert illegal(state, raise_to(2, 2000)).rule == "TDA 16"


def test_short_big_blind_must_still_be_called_in_full():
    state = deal(nl(50, 100), [1000, 60, 1000])
    assert state.legal_actions().call == 100
    state = play(state, call(3), fold(1))
    assert state.street == SHOWDOWN  # the big blind is all-in, seat 3 alone has chips
    assert state.stacks[3] == 940  # the 40 nobody could match came back
    assert state.pots() == [Pot(170, (2, 3))]


def test_blinds_all_in_run_straight_to_showdown():
    state = start_hand(nl(50, 100), [(1, 2000), (2, 40)], button=2, small_blind=2, big_blind=1)
    assert state.street == SHOWDOWN and state.to_act is None
    assert state.pot == 80


def test_call_for_less_is_all_in():
    state = play(deal(nl(50, 100), [1000, 1000, 5000, 400]), raise_to(3, 1000))
    options = state.legal_actions()
    assert options.call == 400 and options.wager is None
    state = play(state, call(4))
    assert state.player(4).all_in


# --- TDA 71-C, 30: a player on penalty is dealt a dead hand --------------------------------


def deal_dead(structure, stacks, dead, **kw):
    """As `deal`, with `dead` the seats of players on penalty (decided at the deal)."""
    seats = kw.pop("seats", None) or list(range(1, len(stacks) + 1))
    return start_hand(
        structure,
        list(zip(seats, stacks, strict=True)),
        button=seats[-1],
        small_blind=kw.get("small_blind", 1),
        big_blind=kw.get("big_blind", 2),
        dead=dead,
    )


def test_tda_71c_a_dead_seat_posts_its_blind_and_ante_and_they_stay_in_the_pot():
    state = deal_dead(nl(50, 100, ante=100), [1000] * 4, dead={2})
    bb = state.player(2)
    assert (bb.bet, bb.ante, bb.stack, bb.folded, bb.dead) == (100, 100, 800, True, True)
    assert state.pot == 250 and state.dead == (2,)
    assert state.legal_actions().call == 100  # the dead big blind must still be called
    state = limp_to(state, SHOWDOWN)
    assert state.pots() == [Pot(500, (1, 3, 4))]  # its 200 stay, it can win none of it


def test_tda_71c_the_order_of_action_skips_the_dead_seat_on_every_street():
    state = deal_dead(nl(50, 100), [1000] * 4, dead={4})
    seen = []
    while not state.finished:
        options = state.legal_actions()
        seen.append(options.seat)
        state = state.apply(call(options.seat) if options.call else check(options.seat))
    assert 4 not in seen and seen[:3] == [3, 1, 2]  # pre-flop: seat 3, the button is dead
    assert state.in_hand == (1, 2, 3) and state.stacks[4] == 1000


def test_tda_71c_everyone_folds_to_a_dead_big_blind_the_last_live_hand_wins():
    state = deal_dead(nl(50, 100), [1000] * 3, dead={2})
    state = play(state, fold(3))
    assert state.finished and state.to_act is None and state.in_hand == (1,)
    assert state.pots() == [Pot(150, (1,))]  # the dead blind is not given back
    assert state.stacks == {1: 950, 2: 900, 3: 1000}


def test_tda_71c_a_raise_over_a_dead_big_blind_gets_back_only_what_is_unmatched():
    state = play(deal_dead(nl(50, 100), [1000] * 3, dead={2}), raise_to(3, 400), fold(1))
    assert state.stacks == {1: 950, 2: 900, 3: 900}  # 300 back: the blind's 100 matched
    assert state.pots() == [Pot(250, (3,))]


def test_tda_71c_a_dead_big_blind_all_in_from_posting_is_never_a_contender():
    state = deal_dead(nl(50, 100), [1000, 60, 1000], dead={2})
    bb = state.player(2)
    assert bb.stack == 0 and not bb.all_in and bb.dead
    state = play(state, call(3), call(1))  # the small blind completes: the betting closes
    assert state.street == "flop" and state.to_act == 1
    state = limp_to(state, SHOWDOWN)
    assert not state.all_in_showdown and state.in_hand == (1, 3)
    assert state.pots() == [Pot(260, (1, 3))]


def test_tda_71c_one_live_seat_at_the_deal_wins_the_blinds_at_once():
    state = deal_dead(nl(50, 100), [1000, 1000], dead={1}, small_blind=2, big_blind=1)
    assert state.finished and state.to_act is None and state.legal_actions() is None
    assert state.pots() == [Pot(150, (2,))] and state.stacks == {1: 900, 2: 950}
    alone = deal_dead(nl(50, 100), [1000, 1000], dead={2}, small_blind=2, big_blind=1)
    assert alone.stacks == {1: 950, 2: 950} and alone.pots() == [Pot(100, (1,))]


def test_tda_71c_a_dead_seat_is_refused_when_it_would_act():
    state = deal_dead(nl(50, 100), [1000] * 4, dead={3})
    assert state.to_act == 4
    assert illegal(state, fold(3)).rule == "TDA 53-A"


def test_a_hand_needs_a_live_seat_and_dead_seats_dealt_in():
    with pytest.raises(ValueError, match="live seat"):
        deal_dead(nl(50, 100), [1000] * 3, dead={1, 2, 3})
    with pytest.raises(ValueError, match="seat in the hand"):
        deal_dead(nl(50, 100), [1000] * 3, dead={7})


# --- Illegal actions: the rule, the options, and nothing changes ---------------------------


def test_action_out_of_turn_is_refused_with_the_options_of_the_player_to_act():
    state = deal(nl(50, 100), [1000] * 4)
    error = illegal(state, call(4))
    assert error.rule == "TDA 53-A"
    assert error.options.seat == 3
    assert "out of turn" in error.message


def test_check_facing_a_bet_is_refused():
    state = play(limp_to(deal(nl(50, 100), [1000] * 3), "flop"), bet(1, 200))
    error = illegal(state, check(2))
    assert error.rule == "TDA 55"
    assert (error.options.call, error.options.min_to, error.options.max_to) == (200, 400, 900)


def test_betting_more_than_the_stack_is_refused():
    state = limp_to(deal(nl(50, 100), [1000] * 3), "flop")
    assert illegal(state, bet(1, 901)).rule == "table stakes"


def test_raise_not_above_the_current_bet_is_refused():
    state = play(deal(nl(50, 100), [1000] * 3), raise_to(3, 300))
    assert illegal(state, raise_to(1, 300)).rule == "TDA 43"


def test_acting_after_the_hand_is_over_is_refused():
    state = play(deal(nl(50, 100), [1000] * 3), fold(3), fold(1))
    error = illegal(state, check(2))
    assert error.rule == "TDA 53-A" and error.options is None


def test_illegal_action_message_lists_the_options():
    state = play(deal(nl(50, 100), [1000] * 3), raise_to(3, 300))
    error = illegal(state, raise_to(1, 400))
    assert str(error) == (
        "TDA 43: the smallest raise is to 500, not 400 "
        "(seat 1 may fold, call 250 or raise to 500-1000)"
    )


def test_every_action_is_recorded():
    state = play(deal(nl(50, 100), [1000] * 3), raise_to(3, 300), fold(1), all_in(2))
    assert [(a.kind, a.seat, a.amount, a.all_in) for a in state.history] == [
        (RAISE, 3, 300, False),
        ("fold", 1, None, False),
        (RAISE, 2, 1000, True),
    ]
    assert state.legal_actions().wager is None  # seat 3 faces 700: more than a full raise...
    assert state.legal_actions().call == 700  # ...but nobody is left to call a re-raise


def test_seats_must_come_in_dealing_order_with_two_blinds():
    with pytest.raises(ValueError):  # the button is dealt last
        start_hand(nl(50, 100), [(3, 1000), (1, 1000)], button=3, small_blind=3, big_blind=1)
    with pytest.raises(ValueError):
        deal(nl(50, 100), [1000, 1000], small_blind=2, big_blind=2)
    with pytest.raises(ValueError):
        deal(nl(50, 100), [1000, 0, 1000])


def test_first_bet_on_a_street_is_a_bet():
    state = limp_to(deal(nl(50, 100), [1000] * 3), "flop")
    assert state.legal_actions().wager == BET


# --- Properties ---------------------------------------------------------------------------------

STRUCTURES = [
    Structure(NO_LIMIT, 50, 100),
    Structure(NO_LIMIT, 50, 100, ante=100),
    Structure(POT_LIMIT, 100, 200),
    Structure(FIXED_LIMIT, 50, 100),
    Structure(FIXED_LIMIT, 50, 100, cap=None, ante=25, ante_first=True),
]


@st.composite
def hands(draw):
    structure = draw(st.sampled_from(STRUCTURES))
    stacks = draw(st.lists(st.integers(1, 3000), min_size=2, max_size=7))
    dead_small = len(stacks) > 2 and draw(st.booleans())
    small, big = (None, 1) if dead_small else ((2, 1) if len(stacks) == 2 else (1, 2))
    # TDA 71-C: some players on penalty, dealt dead; at least one live seat.
    seats = range(1, len(stacks) + 1)
    dead = draw(st.sets(st.sampled_from(seats), max_size=len(stacks) - 1))
    return start_hand(
        structure,
        list(zip(seats, stacks, strict=True)),
        button=len(stacks),
        small_blind=small,
        big_blind=big,
        dead=dead,
    )


def random_action(data, options):
    choices = ["fold", "call"] + (["raise"] * 2 if options.wager else [])
    kind = data.draw(st.sampled_from(choices))
    if kind == "fold":
        return fold(options.seat)
    if kind == "call":
        return call(options.seat)
    return raise_to(options.seat, data.draw(st.integers(options.min_to, options.max_to)))


@settings(max_examples=300, deadline=None)
@given(hands(), st.data())
def test_chips_are_conserved_through_any_legal_hand(state, data):
    total = sum(state.stacks.values()) + state.pot
    dead = {p.seat: p.stack for p in state.players if p.dead}
    for _ in range(200):
        options = state.legal_actions()
        if options is None:
            break
        assert options.seat not in dead  # TDA 71-C: never in the order of action
        state = state.apply(random_action(data, options))
        assert sum(state.stacks.values()) + state.pot == total
        assert all(stack >= 0 for stack in state.stacks.values())
        assert sum(p.amount for p in state.pots()) == state.pot
    assert state.finished
    assert state.legal_actions() is None
    # A dead hand is no contender for any pot and gets nothing back (TDA 71-C, 30).
    assert not any(set(pot.eligible) & set(dead) for pot in state.pots())
    assert all(state.stacks[seat] == stack for seat, stack in dead.items())


@settings(max_examples=300, deadline=None)
@given(hands(), st.data())
def test_a_wager_is_accepted_exactly_when_the_legal_options_allow_it(state, data):
    for _ in range(30):
        options = state.legal_actions()
        if options is None:
            break
        p = state.player(options.seat)
        target = data.draw(st.integers(0, p.bet + p.stack + 100))
        in_range = options.wager is not None and options.min_to <= target <= options.max_to
        all_in_call = target == p.bet + p.stack and target <= state.current_bet
        try:
            after = state.apply(raise_to(options.seat, target))
        except IllegalAction as error:
            assert not (in_range or all_in_call), error
            assert error.options == options
        else:
            assert in_range or all_in_call
            assert after.history[-1].seat == options.seat
        state = state.apply(random_action(data, options))

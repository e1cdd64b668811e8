"""TDA 53 in the betting engine: an action out of turn is held, and stands or is let go
when the action reaches its seat (53-A, with the Illustration Addendum's examples); a
fold out of turn stands (TDA 58); substantial action out of turn after a skipped player
(TDA 36) holds the betting for the floor's ruling on that hand (53-B).

Seats 1-8 in dealing order, the button on seat 8: seat 1 posts the small blind, seat 2
the big blind, seat 3 is under the gun. After the flop seat 1 acts first; the examples'
"Seat 3 opens" is played by letting seats 1 and 2 check first where it matters.
"""

import pytest

from hands.engine import out_of_turn as oot
from hands.engine.betting import (
    CALL,
    FOLD,
    RAISE,
    Action,
    IllegalAction,
    bet,
    call,
    check,
    fold,
    raise_to,
    replay,
    start_hand,
)
from hands.engine.limits import NO_LIMIT, Structure


def deal(small=50, big=100, seats=8, stack=20000):
    return start_hand(
        Structure(NO_LIMIT, small, big),
        [(seat, stack) for seat in range(1, seats + 1)],
        button=seats,
        small_blind=1,
        big_blind=2,
    )


def play(state, *actions):
    for action in actions:
        state = state.apply(action)
    return state


def to_flop(state):
    while state.street == "preflop":
        options = state.legal_actions()
        state = state.apply(call(options.seat) if options.call else check(options.seat))
    return state


def flop_seat_3_opens_300():
    """THE 50-100, post flop: seats 1 and 2 check, seat 3 opens for 300, seat 4 folds;
    the action is on seat 5."""
    return play(to_flop(deal()), check(1), check(2), bet(3, 300), fold(4))


def refused(state, action, *, declare=True):
    before = state
    with pytest.raises(IllegalAction) as caught:
        state.declare(action) if declare else state.apply(action)
    assert state == before  # nothing changes
    return caught.value


def outcome(state, seat):
    return next(o for o in state.outcomes if o.seat == seat)


# --- TDA 53-A, Illustration Addendum, Example 1 -------------------------------------------


def test_53a_example_1_the_oot_raise_is_held_and_action_backs_up_to_seat_5():
    state = flop_seat_3_opens_300().declare(raise_to(6, 800))

    assert state.to_act == 5  # step 1: back to the correct player
    assert state.legal_actions().call == 300  # facing the 300 bet
    assert state.player(6).bet == 0  # the 800 is held, not in the pot
    assert [(p.seat, p.kind, p.amount, p.facing) for p in state.pending] == [(6, RAISE, 800, 300)]
    assert state.awaiting == ()  # one action out of turn is no substantial action


@pytest.mark.parametrize("seat_5", [call(5), fold(5)])
def test_53a_example_1_seat_5_calls_or_folds_the_oot_raise_to_800_is_binding(seat_5):
    state = play(flop_seat_3_opens_300().declare(raise_to(6, 800)), seat_5)

    assert state.history[-1] == Action(RAISE, 6, 800)
    assert state.player(6).bet == 800
    assert state.to_act == 7 and state.legal_actions().call == 800
    assert (outcome(state, 6).result, outcome(state, 6).rule) == (oot.BINDING, "TDA 53-A")
    assert state.pending == ()


def test_53a_example_1_seat_5_raises_to_600_seat_6_gets_the_chips_back_and_all_options():
    state = play(flop_seat_3_opens_300().declare(raise_to(6, 800)), raise_to(5, 600))

    options = state.legal_actions()
    assert state.to_act == 6
    assert state.player(6).bet == 0 and state.player(6).stack == 19900  # the 800 back
    assert (options.call, options.wager, options.min_to) == (600, RAISE, 900)  # or fold
    assert (outcome(state, 6).result, outcome(state, 6).rule) == (oot.FREED, "TDA 53-A")
    assert play(state, call(6)).player(6).bet == 600  # the player chose: a call now


# --- TDA 53-A, Illustration Addendum, Example 2 -------------------------------------------


def flop_seats_3_and_4_check():
    return play(to_flop(deal()), check(1), check(2), check(3), check(4))


def test_53a_example_2_seat_5_checks_the_oot_check_is_binding():
    state = play(flop_seats_3_and_4_check().declare(check(6)), check(5))

    assert state.history[-1] == check(6)
    assert state.to_act == 7
    assert outcome(state, 6).result == oot.BINDING


def test_53a_example_2_seat_5_bets_300_seat_6_may_call_raise_to_600_or_fold():
    state = play(flop_seats_3_and_4_check().declare(check(6)), bet(5, 300))

    options = state.legal_actions()
    assert state.to_act == 6
    assert (options.call, options.wager, options.min_to) == (300, RAISE, 600)
    assert outcome(state, 6).result == oot.FREED


# --- A fold out of turn (TDA 53-A, TDA 58) -------------------------------------------------


def test_an_oot_fold_stands_even_after_a_raise_in_between():
    state = play(flop_seat_3_opens_300().declare(fold(6)), raise_to(5, 900))

    assert state.player(6).folded
    assert state.history[-1] == fold(6)
    assert state.to_act == 7
    assert (outcome(state, 6).result, outcome(state, 6).rule) == (oot.BINDING, "TDA 58")


def test_a_call_in_between_leaves_an_oot_call_binding_at_the_same_price():
    state = play(flop_seat_3_opens_300().declare(call(7)), call(5), call(6))

    assert state.history[-1] == Action(CALL, 7, 300)
    assert state.player(7).bet == 300


# --- TDA 53-B: substantial action out of turn --------------------------------------------


def preflop_utg_makes_it_600():
    """NLHE 100-200: UTG (seat 3) makes it 600; the action is on seat 4."""
    return play(deal(100, 200), raise_to(3, 600))


def test_53b_example_1_a_call_and_a_fold_oot_after_seat_4_hold_for_the_floor():
    state = preflop_utg_makes_it_600().declare(call(5)).declare(fold(6))

    assert state.awaiting == (4,)  # the floor rules on seat 4's hand
    assert all(p.substantial for p in state.pending)
    assert refused(state, call(4), declare=False).rule == "TDA 53-B"  # the betting holds
    assert refused(state, fold(7)).rule == "TDA 53-B"


def test_53b_example_1_seat_4_limited_to_check_call_or_fold_then_the_oot_actions_stand():
    held = preflop_utg_makes_it_600().declare(call(5)).declare(fold(6))

    state = held.rule_skipped(4, oot.LIMITED)

    options = state.legal_actions()
    assert state.to_act == 4 and (options.call, options.wager) == (600, None)
    assert refused(state, raise_to(4, 1800), declare=False).rule == "TDA 53-B"
    after = play(state, call(4))
    assert after.history[-3:] == (Action(CALL, 4, 600), Action(CALL, 5, 600), fold(6))
    assert (outcome(after, 5).rule, outcome(after, 6).rule) == ("TDA 53-B", "TDA 58")
    assert after.to_act == 7


def test_53b_example_1_seat_4_ruled_dead_folds_and_the_oot_actions_stand():
    state = preflop_utg_makes_it_600().declare(call(5)).declare(fold(6)).rule_skipped(4, oot.DEAD)

    assert state.player(4).folded
    assert state.history[-3:] == (fold(4), Action(CALL, 5, 600), fold(6))
    assert state.to_act == 7


def test_the_limit_lasts_the_betting_round_only():
    state = preflop_utg_makes_it_600().declare(call(5)).declare(fold(6))
    state = play(state.rule_skipped(4, oot.LIMITED), call(4), fold(7), fold(8), fold(1), call(2))

    assert state.street == "flop" and state.limited == frozenset()
    assert state.legal_actions().wager is not None


def test_two_checks_out_of_turn_are_not_substantial_three_are():
    turn = play(to_flop(deal()), check(1), check(2))  # seat 3 to act, then 4, 5, 6 check

    two = turn.declare(check(4)).declare(check(5))
    three = two.declare(check(6))

    assert two.awaiting == ()
    assert three.awaiting == (3,)


def test_substantial_action_after_two_skipped_seats_puts_both_to_the_floor():
    state = preflop_utg_makes_it_600().declare(call(6)).declare(call(7))

    assert state.awaiting == (4, 5)
    assert state.rule_skipped(4, oot.DEAD).awaiting == (5,)  # still holding for seat 5
    assert refused(state.rule_skipped(4, oot.DEAD), call(4), declare=False).rule == "TDA 53-B"


def test_an_oot_player_answers_the_actions_out_of_turn_before_them():
    """Seat 5 raises out of turn to 1800; seat 7 then calls out of turn: 1800, not 600."""
    state = preflop_utg_makes_it_600().declare(raise_to(5, 1800)).declare(call(7))

    assert [(p.seat, p.kind, p.facing) for p in state.pending] == [
        (5, RAISE, 600),
        (7, CALL, 1800),
    ]


# --- Refused: nothing changes ---------------------------------------------------------------


def test_the_seat_in_turn_acts_in_turn_not_out_of_it():
    assert refused(flop_seat_3_opens_300(), call(5)).rule == "TDA 53-A"


def test_a_seat_not_in_the_hand_cannot_act_out_of_turn():
    state = flop_seat_3_opens_300()  # seat 4 folded; there is no seat 9

    assert "not in the hand" in refused(state, call(4)).message
    assert "not in the hand" in refused(state, call(9)).message


def test_a_second_action_out_of_turn_for_the_same_seat_is_refused():
    state = flop_seat_3_opens_300().declare(call(6))

    assert "already acted out of turn" in refused(state, raise_to(6, 900)).message


def test_an_illegal_action_out_of_turn_cites_its_rule():
    state = flop_seat_3_opens_300()

    assert refused(state, raise_to(6, 500)).rule == "TDA 43"  # the smallest raise is to 600
    assert refused(state, check(6)).rule == "TDA 55"  # facing a bet


def test_nothing_out_of_turn_once_the_betting_is_over():
    state = play(flop_seat_3_opens_300(), *(fold(seat) for seat in (5, 6, 7, 8, 1, 2)))

    assert state.finished
    assert refused(state, fold(3)).rule == "TDA 53-A"


def test_a_seat_that_has_acted_and_faces_nothing_has_nothing_to_act_on():
    state = play(to_flop(deal()), check(1), check(2))  # seat 3 to act

    assert "has acted" in refused(state, bet(1, 300)).message


def test_a_ruling_for_a_seat_not_skipped_is_refused():
    state = preflop_utg_makes_it_600().declare(call(5)).declare(fold(6))

    with pytest.raises(IllegalAction):
        state.rule_skipped(7, oot.DEAD)
    with pytest.raises(ValueError):
        state.rule_skipped(4, "raise")


# --- The log replays alike ------------------------------------------------------------------


def test_a_log_with_actions_out_of_turn_and_a_ruling_replays_to_the_same_state():
    lines = [
        (3, RAISE, 600, ""),
        (5, CALL, None, oot.DECLARED),
        (6, FOLD, None, oot.DECLARED),
        (4, oot.LIMITED, None, oot.RULED),
        (4, CALL, None, ""),
    ]
    played = play(
        preflop_utg_makes_it_600().declare(call(5)).declare(fold(6)).rule_skipped(4, oot.LIMITED),
        call(4),
    )

    replayed = replay(deal(100, 200), lines)

    assert replayed == played
    assert replayed.lines == len(lines)
    assert [(o.line, o.result) for o in replayed.outcomes] == [(2, oot.BINDING), (3, oot.BINDING)]

"""RP-22: a bet made with an item of no value (bounty chip, clock token) stands for a call
or all-in, by the house policy or the floor's ruling; the item itself is never chips.

Seats in dealing order: seat 1 posts the small blind, seat 2 the big blind, the last seat
has the button and acts first pre-flop."""

import pytest

from hands.engine import items
from hands.engine.betting import CALL, CHECK, Action, IllegalAction, all_in, call, start_hand
from hands.engine.limits import NO_LIMIT, POT_LIMIT, Structure

NL = Structure(NO_LIMIT, 100, 200)


def deal(stacks, structure=NL):
    seats = list(range(1, len(stacks) + 1))
    return start_hand(
        structure,
        list(zip(seats, stacks, strict=True)),
        button=seats[-1],
        small_blind=1,
        big_blind=2,
    )


def chips(state) -> int:
    return sum(state.stacks.values()) + state.pot


@pytest.mark.parametrize(
    ("policy", "ruling"), [("floor", None), ("call", "call"), ("all_in", "all_in")]
)
def test_the_house_policy_rules_unless_it_leaves_it_to_the_floor(policy, ruling):
    assert items.house_ruling(policy) == ruling


def test_an_unknown_policy_or_ruling_is_refused():
    with pytest.raises(ValueError):
        items.house_ruling("fold")
    with pytest.raises(ValueError):
        items.item_action(deal([20000] * 3), "fold")


def test_ruled_a_call_the_item_calls_what_there_is_to_call():
    state = deal([20000] * 3)  # seat 3 faces the big blind of 200

    action = items.item_action(state, items.CALL)
    after = state.apply(action)

    assert action == call(3)
    assert after.stacks[3] == 20000 - 200
    assert after.history[-1] == Action(CALL, 3, 200)


def test_ruled_a_call_with_nothing_to_call_the_item_is_a_check_tda_55_a():
    state = deal([20000] * 3).apply(call(3)).apply(call(1))  # the big blind's option

    action = items.item_action(state, items.CALL)

    assert (action.kind, action.seat) == (CHECK, 2)
    assert state.apply(action).stacks == state.stacks


def test_ruled_all_in_the_item_puts_the_whole_stack_in():
    state = deal([20000, 20000, 7500])

    action = items.item_action(state, items.ALL_IN)
    after = state.apply(action)

    assert action == all_in(3)
    assert after.stacks[3] == 0 and after.current_bet == 7500


def test_ruled_all_in_facing_no_bet_the_item_bets_everything():
    preflop = deal([20000] * 3).apply(call(3)).apply(call(1))
    state = preflop.apply(items.item_action(preflop, items.CALL))  # the big blind checks
    assert (state.street, state.to_act, state.current_bet) == ("flop", 1, 0)

    after = state.apply(items.item_action(state, items.ALL_IN))

    assert after.stacks[1] == 0 and after.current_bet == 19800


def test_all_in_in_pot_limit_is_the_largest_bet_the_pot_allows_tda_54():
    state = deal([20000] * 3, Structure(POT_LIMIT, 100, 200))

    action = items.item_action(state, items.ALL_IN)

    # TDA 54-B: the pot of 300 plus the call of 200: a raise of 500, to 700.
    assert (action.kind, action.seat, action.amount) == ("raise", 3, 700)
    assert state.apply(action).stacks[3] == 20000 - 700


def test_all_in_where_the_betting_was_not_reopened_is_a_call_tda_47():
    # Seat 3 calls; the small blind goes all-in for 300, less than a full raise; the big
    # blind calls: seat 3 may only call the extra 100 (TDA 47-A).
    state = deal([300, 20000, 20000]).apply(call(3)).apply(all_in(1)).apply(call(2))

    action = items.item_action(state, items.ALL_IN)
    after = state.apply(action)

    assert action == call(3)
    assert after.stacks[3] == 20000 - 300


@pytest.mark.parametrize("ruling", items.RULINGS)
def test_the_item_itself_adds_no_chips(ruling):
    state = deal([20000, 20000, 7500])

    after = state.apply(items.item_action(state, ruling))

    assert chips(after) == chips(state) == 47500


def test_an_item_once_the_betting_is_over_is_refused():
    state = deal([20000] * 3).apply(all_in(3)).apply(call(1)).apply(call(2))

    assert state.to_act is None
    with pytest.raises(IllegalAction) as refused:
        items.item_action(state, items.CALL)
    assert refused.value.rule == "TDA 53-A"

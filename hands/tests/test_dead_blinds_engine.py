"""Dodged blinds made up as dead money (older TDA 22) in the betting engine: the chips go
into the next pot, count in it, and are never part of the player's bet, so they change
neither what the player must call nor the blinds.

Seats in dealing order: seat 1 posts the small blind (100), seat 2 the big blind (200),
seat 3 acts first pre-flop, seat 4 has the button.
"""

import pytest

from hands.engine.betting import call, check, fold, raise_to, start_hand
from hands.engine.limits import NO_LIMIT, POT_LIMIT, Structure
from hands.engine.pots import Pot
from rulings.engine import dodged_blinds as dodges


def deal(stacks, dead_money=None, *, kind=NO_LIMIT):
    seats = list(range(1, len(stacks) + 1))
    return start_hand(
        Structure(kind, 100, 200),
        list(zip(seats, stacks, strict=True)),
        button=seats[-1],
        small_blind=1,
        big_blind=2,
        dead_money=dead_money,
    )


def test_older_tda_22_the_made_up_blinds_are_in_the_pot_not_in_the_bet():
    state = deal([10_000] * 4, {3: 300})
    player = state.player(3)
    assert (player.bet, player.ante, player.stack) == (0, 300, 9_700)
    assert state.pot == 600  # 100 + 200 blinds, 300 dead
    assert state.to_act == 3
    assert state.legal_actions().call == 200  # the full big blind, as for anyone
    assert state.legal_actions().min_to == 400  # the raise counts from the big blind


def test_older_tda_22_dead_money_goes_to_the_main_pot_and_is_not_given_back():
    state = deal([10_000] * 4, {3: 300})
    for seat in (3, 4, 1):
        state = state.apply(fold(seat))
    assert state.finished
    assert state.pots() == [Pot(500, (2,))]  # the big blind wins the blinds and the dead
    assert state.stacks[3] == 9_700


def test_older_tda_22_the_big_blind_posts_its_blind_and_the_dead_money_apart():
    state = deal([10_000] * 4, {2: 300})
    player = state.player(2)
    assert (player.bet, player.ante) == (200, 300)
    state = state.apply(call(3)).apply(call(4)).apply(call(1))
    assert state.legal_actions().seat == 2
    assert state.legal_actions().call == 0  # the option: nothing more to call
    assert state.apply(check(2)).street == "flop"


def test_older_tda_22_a_short_stack_is_all_in_for_what_it_has():
    state = deal([10_000, 10_000, 250, 10_000], {3: 300})
    assert (state.player(3).ante, state.player(3).stack) == (250, 0)
    assert state.to_act == 4  # all-in: nothing left to act with


def test_pot_limit_counts_the_dead_money_in_the_pot():
    without = deal([10_000] * 4, kind=POT_LIMIT)
    with_dead = deal([10_000] * 4, {4: 300}, kind=POT_LIMIT)
    assert with_dead.legal_actions().max_to == without.legal_actions().max_to + 300


def test_dead_money_is_owed_by_a_seat_in_the_hand():
    with pytest.raises(ValueError):
        deal([10_000] * 4, {7: 300})
    with pytest.raises(ValueError):
        deal([10_000] * 4, {3: -1})


def test_the_log_replays_alike_with_dead_money():
    state = deal([10_000] * 4, {3: 300})
    state = state.apply(raise_to(3, 600)).apply(call(4)).apply(fold(1)).apply(fold(2))
    assert state.pot == 100 + 200 + 300 + 600 + 600


# --- The ruling (rulings.engine.dodged_blinds) --------------------------------------------------


def test_tda_33_a_penalty_and_nothing_made_up():
    ruling = dodges.dodge_ruling("tda", blinds="both", small_blind=100, big_blind=200)
    assert ruling.rules == ("TDA 33", "TDA 71-B")
    assert (ruling.small_blind, ruling.big_blind, ruling.dead_money) == (100, 200, 0)
    assert ruling.penalty_due


@pytest.mark.parametrize("blinds, dead", [("small", 100), ("big", 200), ("both", 300)])
def test_older_tda_22_the_blinds_dodged_are_owed_as_dead_money(blinds, dead):
    ruling = dodges.dodge_ruling("make_up", blinds=blinds, small_blind=100, big_blind=200)
    assert ruling.rules == ("older TDA 22",)
    assert ruling.dead_money == dead
    assert not ruling.penalty_due  # a penalty stays possible, not required


@pytest.mark.parametrize(
    "reading, blinds, small, big",
    [("loudest", "big", 100, 200), ("tda", "ante", 100, 200), ("make_up", "big", 0, 0)],
)
def test_a_ruling_needs_a_reading_a_blind_and_a_level_with_blinds(reading, blinds, small, big):
    with pytest.raises(ValueError):
        dodges.dodge_ruling(reading, blinds=blinds, small_blind=small, big_blind=big)

"""TDA 65 and 66 in the betting engine: a hand killed during play is dead at once,
whoever's turn it is; what the player called stays in the pot, an uncalled bet or raise
goes back (65-A); a fouled hand that can be identified plays on (65-B); in stud, picking
up the upcards while facing action kills the hand (66). No database.

No limit 50/100, seats 1-4 with 10,000 each, the button on seat 4: seat 1 posts the
small blind, seat 2 the big blind, seat 3 is first to act pre-flop.
"""

from dataclasses import replace

import pytest

from hands.engine import killed
from hands.engine import out_of_turn as oot
from hands.engine.betting import (
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
from hands.engine.limits import NO_LIMIT, SHOWDOWN, Structure
from hands.engine.stud import STUD, start_stud, stud_structure


def deal(seats=4, stack=10000):
    return start_hand(
        Structure(NO_LIMIT, 50, 100),
        [(seat, stack) for seat in range(1, seats + 1)],
        button=seats,
        small_blind=1,
        big_blind=2,
    )


def play(state, *actions):
    for action in actions:
        state = state.apply(action)
    return state


def flop(*actions):
    """Seat 3 raises to 300, seat 4 calls, the small blind folds, the big blind calls:
    950 in the pot, seats 2, 3 and 4 see the flop; seat 2 acts first."""
    state = play(deal(), raise_to(3, 300), call(4), fold(1), call(2))
    assert state.street == "flop" and state.pot == 950
    return play(state, *actions)


# --- TDA 65-A: dead at once, no refund of calls ------------------------------------------


def test_65a_a_hand_the_dealer_kills_by_mistake_keeps_its_called_bets_in_the_pot():
    state = flop(check(2))
    assert state.to_act == 3
    after = state.kill(4, killed.MISTAKE)
    assert after.in_hand == (2, 3)
    assert after.pot == 950  # seat 4's 300 called pre-flop stays in the pot
    assert after.stacks[4] == 9700  # no redress: nothing comes back
    assert after.to_act == 3  # the action stays where it was
    assert after.kills == (killed.Kill(4, killed.MISTAKE, "TDA 65-A", returned=0, line=6),)


def test_65a_a_killed_hand_is_no_contender_for_any_pot():
    state = flop(check(2)).kill(4, killed.FOULED)
    state = play(state, check(3))
    assert state.street == "turn"
    assert {seat for pot in state.pots() for seat in pot.eligible} == {2, 3}


def test_65a_an_uncalled_raise_goes_back_the_call_inside_it_stays():
    # Seat 3 bets 500, seat 4 raises to 1,500, then the dealer mucks seat 4's cards.
    state = flop(check(2), bet(3, 500), raise_to(4, 1500))
    assert state.to_act == 2
    after = state.kill(4, killed.MISTAKE)
    assert after.kills[-1].returned == 1000  # the raise nobody called
    assert after.stacks[4] == 10000 - 300 - 500  # the 500 matching seat 3's bet stays
    assert after.pot == 950 + 500 + 500
    # The betting is as seat 3's bet left it: seat 2 faces 500, a raise is to 1,000 at least.
    assert after.to_act == 2
    assert after.current_bet == 500
    assert after.aggressor == 3
    legal = after.legal_actions()
    assert (legal.call, legal.min_to) == (500, 1000)


def test_65a_an_uncalled_bet_goes_back_and_the_action_stays_on_the_seat_in_turn():
    # Seat 3 bets 500 with seat 4 in turn; seat 3's hand is killed out of turn.
    state = flop(check(2), bet(3, 500))
    assert state.to_act == 4
    after = state.kill(3, killed.MISTAKE)
    assert after.stacks[3] == 10000 - 300  # the bet nobody called comes back
    assert after.pot == 950
    assert after.to_act == 4 and after.legal_actions().can_check  # no bet to face now
    after = play(after, check(4))
    assert after.street == "turn" and after.in_hand == (2, 4)


def test_ifp_4_8_where_only_a_raise_goes_back_an_uncalled_opening_bet_stays():
    state = replace(flop(check(2), bet(3, 500)), kill_refund=killed.REFUND_RAISE)
    after = state.kill(3, killed.MISTAKE)
    assert after.kills[-1].returned == 0
    assert after.stacks[3] == 10000 - 300 - 500
    assert after.pot == 950 + 500
    # Seat 4 still faces the dead bet: it calls it or folds, or raises.
    assert after.to_act == 4 and after.legal_actions().call == 500


def test_ifp_4_8_an_uncalled_raise_still_goes_back():
    state = flop(check(2), bet(3, 500), raise_to(4, 1500))
    after = replace(state, kill_refund=killed.REFUND_RAISE).kill(4, killed.MISTAKE)
    assert after.kills[-1].returned == 1000
    assert after.stacks[4] == 10000 - 300 - 500


def test_65a_a_bet_already_called_stays_in_the_pot():
    state = flop(bet(2, 500), call(3))
    assert state.to_act == 4
    after = state.kill(2, killed.MISTAKE)
    assert after.kills[-1].returned == 0
    assert after.stacks[2] == 10000 - 300 - 500
    assert after.to_act == 4 and after.legal_actions().call == 500


def test_65a_a_big_blind_is_no_bet_the_player_made_it_is_not_given_back():
    state = deal().kill(2, killed.MISTAKE)
    assert state.stacks[2] == 9900 and state.pot == 150
    assert state.to_act == 3 and state.legal_actions().call == 100


def test_a_hand_killed_in_turn_passes_the_action_to_the_next_seat():
    state = deal()
    assert state.to_act == 3
    after = state.kill(3, killed.FOULED)
    assert after.to_act == 4
    assert after.stacks[3] == 10000


def test_a_hand_killed_before_its_turn_is_skipped_when_the_action_comes_round():
    state = play(deal(), raise_to(3, 300))
    assert state.to_act == 4
    after = state.kill(1, killed.MISTAKE)  # the small blind, not yet in turn
    assert after.to_act == 4
    after = play(after, call(4))
    assert after.to_act == 2  # seat 1 is passed over
    assert after.pot == 50 + 100 + 300 + 300


def test_a_hand_killed_when_nobody_else_is_left_to_act_ends_the_betting_round():
    # Seat 3 bets, seat 4 calls; seat 2 is in turn and seat 2's hand is killed.
    state = flop(check(2), bet(3, 500), call(4))
    assert state.street == "flop" and state.to_act == 2
    after = state.kill(2, killed.MISTAKE)
    assert after.street == "turn" and after.in_hand == (3, 4)
    assert after.to_act == 3


def test_65a_the_last_live_hand_wins_as_when_everyone_folds():
    # Two seats: seat 1 completes the small blind, seat 2 checks its option; on the flop
    # seat 1 bets 400.
    state = play(deal(seats=2), call(1), check(2), bet(1, 400))
    assert state.to_act == 2
    after = state.kill(2, killed.MISTAKE)
    assert after.finished and after.in_hand == (1,)
    assert after.to_act is None
    assert after.stacks[1] == 10000 - 100  # its bet nobody called came back
    assert [pot.eligible for pot in after.pots()] == [(1,)]
    assert after.pot == 200


def test_the_last_live_hand_cannot_be_killed():
    state = play(deal(seats=2), call(1), check(2), bet(1, 400)).kill(2, killed.MISTAKE)
    with pytest.raises(IllegalAction) as refused:
        state.kill(1, killed.MISTAKE)
    assert refused.value.rule == "TDA 65-A"


def test_65a_at_showdown_the_killed_hand_loses_its_claim():
    state = play(deal(seats=3), Action("all-in", 3), call(1), call(2))
    assert state.finished_at == SHOWDOWN and state.to_act is None
    after = state.kill(1, killed.MISTAKE)  # the dealer mucks seat 1's hand before it is read
    assert after.in_hand == (2, 3)
    assert after.pot == 30000
    assert {seat for pot in after.pots() for seat in pot.eligible} == {2, 3}


def test_a_seat_not_in_the_hand_or_already_out_cannot_be_killed():
    state = play(deal(), fold(3))
    with pytest.raises(IllegalAction):
        state.kill(3, killed.MISTAKE)  # folded
    with pytest.raises(IllegalAction):
        state.kill(7, killed.MISTAKE)  # never dealt in
    after = state.kill(4, killed.MISTAKE)
    with pytest.raises(IllegalAction):
        after.kill(4, killed.FOULED)  # already killed


def test_an_action_out_of_turn_held_by_the_killed_seat_never_counts():
    state = play(deal(), raise_to(3, 300)).declare(call(1))
    after = state.kill(1, killed.MISTAKE)
    assert after.pending == ()
    assert [(o.seat, o.result) for o in after.outcomes] == [(1, oot.VOID)]
    after = play(after, call(4))
    assert after.to_act == 2


# --- TDA 65-B: fouled but identifiable ---------------------------------------------------


def test_65b_a_fouled_hand_that_can_be_identified_stays_in_play():
    state = flop(check(2))
    with pytest.raises(IllegalAction) as refused:
        state.kill(4, killed.IDENTIFIABLE)
    assert refused.value.rule == "TDA 65-B"
    assert killed.refusal(killed.IDENTIFIABLE, stud=False, facing_action=True) == (
        "kill_identifiable"
    )


def test_an_unknown_reason_is_no_ruling():
    with pytest.raises(ValueError):
        killed.refusal("bored", stud=False, facing_action=True)


# --- TDA 66: stud, the upcards picked up facing action -----------------------------------

LIMITS = stud_structure(small_bet=20, big_bet=40)


def stud_deal():
    """Seat 3 has the deuce of clubs and brings it in; seats 1-4 with 1,000, ante 5."""
    return start_stud(
        LIMITS,
        [(seat, 1000) for seat in (1, 2, 3, 4)],
        game=STUD,
        ante=5,
        bring_in=10,
        door_cards={1: "Kh", 2: "7d", 3: "2c", 4: "9s"},
        button=4,
    )


def test_66_stud_upcards_picked_up_facing_action_kill_the_hand():
    state = play(stud_deal(), bet(3, 10))
    assert state.to_act == 4
    after = state.kill(1, killed.UPCARDS)  # seat 1 has yet to act: it faces the bring-in
    assert after.kills[-1].rule == "TDA 66"
    assert after.stacks[1] == 995  # its ante stays in the pot
    assert after.to_act == 4
    after = play(after, call(4), call(2))
    assert after.upcards_due == "fourth" and after.in_hand == (2, 3, 4)


def test_66_a_stud_player_in_turn_faces_action():
    state = play(stud_deal(), bet(3, 10))
    after = state.kill(4, killed.UPCARDS)
    assert after.to_act == 1


def test_66_without_action_to_face_the_rule_does_not_kill_the_hand():
    state = play(stud_deal(), bet(3, 10), call(4))
    assert state.to_act == 1
    with pytest.raises(IllegalAction) as refused:
        state.kill(4, killed.UPCARDS)  # seat 4 has called: no action is on it now
    assert (refused.value.rule, refused.value.message) == ("TDA 66", "kill_not_facing")
    between = play(state, call(1), call(2))
    assert between.upcards_due == "fourth"
    with pytest.raises(IllegalAction):
        between.kill(2, killed.UPCARDS)


def test_66_is_a_stud_rule():
    with pytest.raises(IllegalAction) as refused:
        deal().kill(3, killed.UPCARDS)
    assert refused.value.message == "kill_not_stud"


def test_a_stud_hand_killed_by_mistake_between_streets_gets_no_upcard():
    state = play(stud_deal(), bet(3, 10), call(4), call(1), call(2))
    after = state.kill(1, killed.MISTAKE)
    assert after.upcards_due == "fourth" and after.in_hand == (2, 3, 4)
    after = after.deal({2: "7s", 3: "Ac", 4: "Jd"})
    assert after.to_act == 2


def test_a_stud_hand_killed_between_streets_leaving_one_to_bet_goes_to_showdown():
    state = start_stud(
        LIMITS,
        [(1, 1000), (2, 1000), (3, 15), (4, 1000)],
        game=STUD,
        ante=5,
        bring_in=10,
        door_cards={1: "Kh", 2: "7d", 3: "2c", 4: "9s"},
        button=4,
    )
    state = play(state, bet(3, 10), fold(4), call(1), call(2))  # seat 3 all-in bringing in
    assert state.upcards_due == "fourth"
    after = state.kill(2, killed.MISTAKE)
    assert after.finished_at == SHOWDOWN and after.upcards_due is None
    assert after.in_hand == (1, 3)


# --- The log replays alike ------------------------------------------------------------------


def test_a_log_with_a_killed_hand_replays_to_the_same_betting():
    log = [
        (3, "raise", 300, ""),
        (4, "call", None, ""),
        (1, "mistake", None, killed.KILLED),
        (2, "call", None, ""),
        (2, "check", None, ""),
        (3, "bet", 500, ""),
        (4, "fouled", None, killed.KILLED),
    ]
    state = replay(deal(), log)
    assert state.in_hand == (2, 3)
    assert [k.seat for k in state.kills] == [1, 4]
    assert state.to_act == 2 and state.legal_actions().call == 500
    assert state.lines == 7

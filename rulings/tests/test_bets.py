"""The bet-interpretation calculator against the TDA 2024 rules and their Illustration
Addendum (rules 43, 45, 46, 47, 51, 52-B), IFP 4.17 for unclear amounts, and the tablet's
own betting engine.

Players are letters; "X" is the player whose action is being ruled unless a test says
otherwise. Amounts are street totals, as in the rule book's examples ("raises to 1,600").
"""

import itertools

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from hands.engine import limits
from hands.engine.betting import Action, start_hand
from hands.engine.limits import FIXED_LIMIT, NO_LIMIT, POT_LIMIT, Structure
from rulings.engine.bets import BadQuestion, BetQuestion, PriorAction, interpret

BIG_STACK = 1_000_000


def post(player, to):
    return PriorAction(player, "post", to)


def bet(player, to):
    return PriorAction(player, "bet", to)


def raise_(player, to):
    return PriorAction(player, "raise", to)


def call(player, to):
    return PriorAction(player, "call", to)


def check(player):
    return PriorAction(player, "check", 0)


def fold(player):
    return PriorAction(player, "fold", 0)


def all_in(player, to):
    return PriorAction(player, "all-in", to)


def ask(
    *actions,
    blinds=(100, 200),
    street="flop",
    game="nlhe",
    player="X",
    stack=BIG_STACK,
    in_front=0,
    says=None,
    amount=None,
    chips=(),
    **extra,
):
    return interpret(
        BetQuestion(
            game=game,
            blinds=blinds,
            street=street,
            actions=tuple(actions),
            player=player,
            stack=stack,
            in_front=in_front,
            declaration=says,
            declared_amount=amount,
            chips=tuple(chips),
            **extra,
        )
    )


def preflop(blinds, *actions, **kw):
    """Pre-flop with the blinds posted by SB and BB, then `actions`."""
    small, big = blinds
    return ask(post("SB", small), post("BB", big), *actions, blinds=blinds, street="preflop", **kw)


# --- TDA 43: raise amounts ----------------------------------------------------------------


def test_43_addendum_1_the_minimum_reraise_adds_the_last_raise_not_the_total():
    # 100-200, flop: A 600, B to 1600, C to 3600: D must make it at least 5600.
    street = (bet("A", 600), raise_("B", 1600), raise_("C", 3600))
    assert ask(*street, player="D", says="raise").to == 5600
    assert ask(*street[:2], player="C", says="raise", amount=3600).min_raise_to == 5600


def test_43_addendum_1_a_declared_raise_short_of_the_minimum_is_made_a_full_raise():
    ruling = ask(bet("A", 600), raise_("B", 1600), raise_("C", 3600), says="raise", amount=4000)
    assert (ruling.action, ruling.to) == ("raise", 5600)
    assert "43-A" in ruling.rules


def test_43_addendum_2_a_short_all_in_leaves_the_big_blind_as_the_minimum_raise():
    # 50-100 pre-flop, UTG all-in to 150 (50 more): the next raise is to at least 250.
    utg = preflop((50, 100), player="UTG", stack=150, says="all-in")
    assert (utg.action, utg.to, utg.min_raise_to, utg.reopened) == ("all-in", 150, 250, False)
    assert "47-A" in utg.rules
    assert preflop((50, 100), all_in("UTG", 150), says="raise").to == 250


def test_43_addendum_3_two_500s_over_a_300_bet_raise_to_1000_and_the_next_minimum_is_1700():
    ruling = ask(bet("A", 300), street="turn", chips=(500, 500))
    assert (ruling.action, ruling.to, ruling.min_raise_to) == ("raise", 1000, 1700)
    assert ruling.rules == ("45-B", "43-A")


def test_43_addendum_4a_the_largest_raise_of_the_round_sets_the_minimum():
    # 25-50: A to 125, B to 200, C to 500: D must go to 800.
    actions = (raise_("A", 125), raise_("B", 200), raise_("C", 500))
    assert preflop((25, 50), *actions, player="D", says="raise").to == 800


def test_43_addendum_4b_one_raise_of_450_makes_the_minimum_950():
    actions = (raise_("A", 500), call("B", 500), call("C", 500))
    assert preflop((25, 50), *actions, player="D", says="raise").to == 950


def test_43a_saying_fourteen_hundred_over_a_1000_bet_is_a_call():
    ruling = ask(bet("A", 1000), amount=1400)
    assert (ruling.action, ruling.to, ruling.min_raise_to) == ("call", 1000, 2000)
    assert ruling.rules == ("40-C", "43-A")


def test_43a_pushing_1400_in_chips_over_1000_is_a_call_too():
    ruling = ask(bet("A", 1000), chips=(500, 500, 100, 100, 100, 100))
    assert (ruling.action, ruling.to) == ("call", 1000)


def test_43a_with_raise_declared_first_1400_becomes_a_full_raise_to_2000():
    ruling = ask(bet("A", 1000), says="raise", chips=(500, 500, 100, 100, 100, 100))
    assert (ruling.action, ruling.to, ruling.min_raise_to) == ("raise", 2000, 3000)


def test_43a_half_a_raise_or_more_said_alone_is_held_to_a_full_raise():
    assert ask(bet("A", 1000), amount=1500).to == 2000


def test_43b_raise_with_an_amount_names_the_total():
    ruling = ask(bet("A", 2000), says="raise", amount=8000)
    assert (ruling.action, ruling.to, ruling.min_raise_to) == ("raise", 8000, 14000)
    assert ruling.rules == ("43-B",)


# --- TDA 40 and 44: words first, overchips ------------------------------------------------


def test_40a_the_word_beats_the_chips_that_follow():
    ruling = ask(bet("A", 1000), says="call", chips=(5000,))
    assert (ruling.action, ruling.to) == ("call", 1000)
    assert ruling.rules == ("51-A",)


def test_40c_an_amount_alone_with_no_bet_is_a_bet_of_that_amount():
    ruling = ask(amount=600)
    assert (ruling.action, ruling.to, ruling.min_raise_to, ruling.reopened) == (
        "bet",
        600,
        1200,
        True,
    )


def test_44_a_silent_overchip_facing_a_bet_is_a_call():
    ruling = ask(bet("A", 1000), chips=(5000,))
    assert (ruling.action, ruling.to, ruling.rules) == ("call", 1000, ("44",))


def test_44_a_last_chip_overchip_is_a_call_not_all_in():
    assert ask(bet("A", 1000), stack=5000, chips=(5000,)).to == 1000


def test_44_preflop_first_to_act_a_lone_overchip_over_the_big_blind_is_a_call():
    ruling = preflop((100, 200), player="UTG", chips=(1000,))
    assert (ruling.action, ruling.to) == ("call", 200)


def test_44_raise_declared_then_an_overchip_raises_the_most_the_chip_allows():
    ruling = ask(bet("A", 1000), says="raise", chips=(5000,))
    assert (ruling.action, ruling.to) == ("raise", 5000)
    assert "44" in ruling.rules


def test_44_raise_declared_with_a_chip_short_of_a_raise_makes_a_full_raise():
    assert ask(bet("A", 1000), says="raise", chips=(1000,)).to == 2000


def test_44_an_overchip_with_no_bet_to_face_is_a_bet_of_its_value():
    ruling = ask(chips=(1000,))
    assert (ruling.action, ruling.to, ruling.rules) == ("bet", 1000, ("44",))


def test_bet_declared_facing_a_bet_is_a_raise_to_the_amount():
    ruling = ask(bet("A", 1000), says="bet", amount=3000)
    assert (ruling.action, ruling.to) == ("raise", 3000)


def test_an_amount_said_alone_short_of_the_opening_bet_is_an_undercall():
    ruling = ask(bet("A", 1000), amount=500)
    assert (ruling.action, ruling.to, ruling.rules) == ("call", 1000, ("40-C", "51-B"))


def test_pushing_exactly_the_call_is_a_call():
    ruling = ask(bet("A", 1000), chips=(500, 500))
    assert (ruling.action, ruling.to) == ("call", 1000)


# --- TDA 45: multiple chips ---------------------------------------------------------------


def test_45a_example_1_every_chip_is_needed_to_call_1100():
    # A opens 400, B raises to 1100, C silently puts out a 500 and a 1000.
    ruling = ask(bet("A", 400), raise_("B", 1100), player="C", chips=(500, 1000))
    assert (ruling.action, ruling.to, ruling.rules) == ("call", 1100, ("45-A",))


def test_45a_example_2_last_chips_all_needed_to_call_are_a_call_not_all_in():
    # 25-50, A opens 1050; B puts out his last two 1000s.
    ruling = ask(bet("A", 1050), blinds=(25, 50), player="B", stack=2000, chips=(1000, 1000))
    assert (ruling.action, ruling.to) == ("call", 1050)


def test_45_addendum_1a_two_1000s_call_a_1200_bet():
    ruling = ask(bet("A", 1200), player="B", chips=(1000, 1000))
    assert (ruling.action, ruling.to) == ("call", 1200)


def test_45_addendum_1b_a_500_and_a_1000_call_a_raise_to_1100():
    ruling = preflop((250, 500), raise_("UTG", 1100), player="UTG+1", chips=(500, 1000))
    assert (ruling.action, ruling.to) == ("call", 1100)


def test_45_addendum_2_a_1000_and_five_100s_is_a_raise_held_to_1700():
    ruling = preflop((250, 500), raise_("UTG", 1100), player="UTG+1", chips=(1000,) + (100,) * 5)
    assert (ruling.action, ruling.to, ruling.min_raise_to) == ("raise", 1700, 2300)
    assert ruling.rules == ("45-B", "43-A")


def test_45_addendum_3_a_1000_and_three_100s_is_a_call_and_200_goes_back():
    ruling = preflop((250, 500), raise_("UTG", 1100), player="UTG+1", chips=(1000, 100, 100, 100))
    assert (ruling.action, ruling.to) == ("call", 1100)
    assert "200 goes back" in ruling.explanation


def test_45_addendum_4a_a_1000_and_three_500s_over_1400_is_a_min_raise_to_2800():
    ruling = ask(bet("A", 1400), player="B", chips=(1000, 500, 500, 500))
    assert (ruling.action, ruling.to) == ("raise", 2800)


def test_45_addendum_4b_a_1000_and_two_500s_over_1400_is_a_call():
    ruling = ask(bet("A", 1400), player="B", chips=(1000, 500, 500))
    assert (ruling.action, ruling.to) == ("call", 1400)


def test_45_addendum_4_the_same_chips_as_the_last_ones_are_all_in_whatever_the_50_percent():
    short = ask(bet("A", 1400), player="B", stack=2000, chips=(1000, 500, 500))
    assert (short.action, short.to, short.reopened) == ("all-in", 2000, False)
    assert short.rules[:1] == ("45-B",) and "47-A" in short.rules
    full = ask(bet("A", 1400), player="B", stack=2500, chips=(1000, 500, 500, 500))
    assert (full.action, full.to, full.reopened) == ("all-in", 2500, False)


def test_45_addendum_4a_all_chips_needed_for_the_call_are_a_call_as_in_example_1():
    ruling = ask(bet("A", 1200), player="B", stack=2000, chips=(1000, 1000))
    assert (ruling.action, ruling.to) == ("call", 1200)


# --- TDA 46: chips in front not pulled in --------------------------------------------------


def bb_two_25s_facing_600(chips):
    # 25-50: the big blind posted two 25s; the button raised to 600.
    return preflop((25, 50), raise_("BTN", 600), player="BB", in_front=50, chips=chips)


def test_46_situation_1_an_overchip_onto_the_blind_is_a_call():
    ruling = bb_two_25s_facing_600((1000,))
    assert (ruling.action, ruling.to) == ("call", 600)


@pytest.mark.parametrize("chips", [(500, 500), (100, 500)])
def test_46_situation_1_new_chips_all_needed_with_the_blind_are_a_call(chips):
    ruling = bb_two_25s_facing_600(chips)
    assert (ruling.action, ruling.to, ruling.rules) == ("call", 600, ("45-A",))


def test_46_situation_1_a_1000_and_a_500_onto_the_blind_is_a_raise_to_1550():
    ruling = bb_two_25s_facing_600((1000, 500))
    assert (ruling.action, ruling.to) == ("raise", 1550)


# --- TDA 47: reopening the betting ----------------------------------------------------------

EX_47_1 = (
    bet("A", 100),
    all_in("B", 125),
    call("C", 125),
    all_in("D", 200),
    call("E", 200),
)


def test_47_addendum_1_two_short_all_ins_add_up_to_a_full_raise_for_a():
    d = ask(*EX_47_1[:3], blinds=(50, 100), player="D", stack=200, says="all-in")
    assert (d.action, d.to, d.reopened, d.min_raise_to) == ("all-in", 200, True, 300)
    a = ask(*EX_47_1, blinds=(50, 100), player="A", in_front=100, says="raise")
    assert (a.action, a.to) == ("raise", 300)


def test_47_addendum_1a_after_a_smooth_call_c_faces_only_75_and_cannot_raise():
    actions = (*EX_47_1, call("A", 200))
    ruling = ask(*actions, blinds=(50, 100), player="C", in_front=125, says="raise", amount=400)
    assert (ruling.action, ruling.to, ruling.rules) == ("call", 200, ("47-A",))


def test_47_addendum_1b_after_a_raise_to_300_c_faces_a_full_raise_and_may_reraise():
    actions = (*EX_47_1, raise_("A", 300))
    ruling = ask(*actions, blinds=(50, 100), player="C", in_front=125, says="raise")
    assert (ruling.action, ruling.to) == ("raise", 400)


def test_47_addendum_2_short_all_ins_leave_the_opening_bet_as_the_minimum_raise():
    # A opens 300; B, C, D all-in to 500, 650, 800; E calls: F calls 800 or raises to 1100.
    actions = (bet("A", 300), all_in("B", 500), all_in("C", 650), all_in("D", 800))
    e = ask(*actions, blinds=(50, 100), player="E", says="call")
    assert (e.action, e.to, e.min_raise_to) == ("call", 800, 1100)
    f = ask(*actions, call("E", 800), blinds=(50, 100), player="F", says="raise")
    assert (f.action, f.to) == ("raise", 1100)


EX_47_3 = (call("A", 4000), fold("B"), all_in("C", 7500), fold("SB"))


def test_47_addendum_3a_the_big_blind_has_not_acted_and_may_raise_to_11500():
    ruling = preflop((2000, 4000), *EX_47_3, player="BB", in_front=4000, says="raise")
    assert (ruling.action, ruling.to) == ("raise", 11500)


def test_47_addendum_3a_after_the_big_blind_calls_a_may_only_call_the_3500():
    actions = (*EX_47_3, call("BB", 7500))
    ruling = preflop((2000, 4000), *actions, player="A", in_front=4000, says="raise")
    assert (ruling.action, ruling.to, ruling.rules) == ("call", 7500, ("47-A",))


def test_47_addendum_3b_after_the_big_blind_raises_to_11500_a_may_reraise():
    actions = (*EX_47_3, raise_("BB", 11500))
    ruling = preflop((2000, 4000), *actions, player="A", in_front=4000, says="raise", amount=20000)
    assert (ruling.action, ruling.to, ruling.reopened) == ("raise", 20000, True)


def test_47_a_short_all_in_does_not_reopen_and_the_next_minimum_moves_with_it():
    ruling = ask(bet("A", 1000), player="B", stack=1300, says="all-in")
    assert (ruling.action, ruling.to, ruling.reopened, ruling.min_raise_to) == (
        "all-in",
        1300,
        False,
        2300,
    )


# --- Limit: fixed bets, 47-B, the cap --------------------------------------------------------


def lhe(*actions, **kw):
    # 100-200 limit: 200 a bet on the flop, 400 on the turn and river.
    return ask(*actions, game="lhe", blinds=(100, 200), **kw)


def test_limit_47b_an_all_in_of_half_a_bet_or_more_reopens_the_betting():
    b = lhe(bet("A", 200), player="B", stack=300, says="all-in")
    assert (b.action, b.to, b.reopened, b.min_raise_to) == ("all-in", 300, True, 500)
    a = lhe(bet("A", 200), all_in("B", 300), call("C", 300), player="A", in_front=200, says="raise")
    assert (a.action, a.to) == ("raise", 500)


def test_limit_47b_an_all_in_of_less_than_half_a_bet_does_not_reopen():
    b = lhe(bet("A", 200), player="B", stack=250, says="all-in")
    assert (b.reopened, b.min_raise_to) == (False, 400)
    assert "47-B" in b.rules
    a = lhe(bet("A", 200), all_in("B", 250), call("C", 250), player="A", in_front=200, says="raise")
    assert (a.action, a.to, a.rules) == ("call", 250, ("47-B",))


def test_limit_a_player_who_has_not_acted_completes_a_short_all_in():
    ruling = lhe(bet("A", 200), all_in("B", 250), player="C", says="raise")
    assert (ruling.action, ruling.to, ruling.reopened) == ("raise", 400, True)


def test_limit_any_raise_is_one_full_raise():
    assert lhe(bet("A", 200), says="raise", amount=1000).to == 400
    assert lhe(bet("A", 200), chips=(500, 100)).to == 400
    assert lhe(says="bet", street="turn").to == 400


def test_limit_chips_under_half_a_raise_over_the_call_are_a_call():
    ruling = lhe(bet("A", 200), chips=(100, 100, 25, 25))
    assert (ruling.action, ruling.to) == ("call", 200)


def test_limit_48_no_raise_once_the_street_is_capped():
    actions = (bet("A", 200), raise_("B", 400), raise_("C", 600), raise_("D", 800))
    ruling = lhe(*actions, player="E", says="raise")
    assert (ruling.action, ruling.to, ruling.rules) == ("call", 800, ("48",))


# --- Pot limit: 52-B and 54 -------------------------------------------------------------------


SUBSTANTIAL = {"substantial_action": True}


def plo_pot_10500(**kw):
    # PLO 500-1000, post-flop pot 10,500; A wants to bet the pot and asks for a count.
    return ask(game="plo", blinds=(500, 1000), pot=10500, player="A", **kw)


def test_52b_addendum_1_a_low_count_stands_after_substantial_action():
    ruling = plo_pot_10500(says="pot", chips=(5000, 1000, 1000, 1000, 1000, 500), **SUBSTANTIAL)
    assert (ruling.action, ruling.to) == ("bet", 9500)
    assert "52-B" in ruling.rules


def test_52b_addendum_2_a_low_count_is_corrected_before_substantial_action():
    ruling = plo_pot_10500(says="pot", chips=(5000, 1000, 1000, 1000, 1000, 500))
    assert (ruling.action, ruling.to) == ("bet", 10500)
    assert "52-B" in ruling.rules


def test_52b_addendum_3_an_overbet_of_the_pot_is_cut_even_after_substantial_action():
    for extra in ({}, SUBSTANTIAL):
        ruling = plo_pot_10500(says="pot", amount=11500, **extra)
        assert (ruling.action, ruling.to, ruling.min_raise_to) == ("bet", 10500, 21000)
        assert "52-B" in ruling.rules


def test_52b_a_bet_said_above_the_pot_is_cut_to_the_pot():
    ruling = plo_pot_10500(says="bet", amount=12000)
    assert (ruling.action, ruling.to) == ("bet", 10500)
    assert set(ruling.rules) >= {"52-B", "54-C"}


def test_plo_silent_chips_above_the_pot_are_cut_to_the_pot():
    ruling = plo_pot_10500(chips=(5000, 5000, 5000))
    assert (ruling.action, ruling.to) == ("bet", 10500)


@pytest.mark.parametrize(
    "posts", [(post("BB", 200),), (post("SB", 100), post("BB", 100))], ids=["dead SB", "short BB"]
)
def test_54b_preflop_the_pot_counts_full_blinds(posts):
    ruling = ask(*posts, game="plo", street="preflop", player="UTG", says="pot")
    assert (ruling.action, ruling.to) == ("raise", 700)


def test_plo_all_in_is_limited_to_the_pot():
    ruling = plo_pot_10500(says="all-in")
    assert (ruling.action, ruling.to) == ("bet", 10500)


def test_54d_pot_in_no_limit_binds_at_least_a_minimum_bet():
    ruling = ask(says="pot")
    assert (ruling.action, ruling.to, ruling.rules) == ("bet", 200, ("54-D",))


# --- TDA 51: calls and undercalls ----------------------------------------------------------


def test_51_addendum_1_an_undercall_of_a_raise_multi_way_is_the_tds_call():
    ruling = ask(bet("A", 2000), raise_("B", 8000), blinds=(1000, 2000), player="C", chips=(2000,))
    assert (ruling.action, ruling.to, ruling.rules) == ("call", 8000, ("51-B",))
    assert "discretion" in ruling.explanation


def test_51_addendum_2_an_undercall_of_the_opening_bet_is_a_full_call():
    ruling = ask(bet("A", 8000), blinds=(1000, 2000), player="B", chips=(2000,))
    assert (ruling.action, ruling.to, ruling.rules) == ("call", 8000, ("51-B",))
    assert "must be a full call" in ruling.explanation


def test_51_addendum_3_call_commits_to_the_whole_raise():
    ruling = ask(bet("A", 2000), raise_("B", 8000), blinds=(1000, 2000), player="C", says="call")
    assert (ruling.action, ruling.to, ruling.rules) == ("call", 8000, ("51-A",))


def test_51_addendum_4_a_500_chip_under_a_raise_to_1200_is_the_tds_call():
    ruling = ask(bet("O", 400), raise_("A", 1200), blinds=(200, 400), player="B", chips=(500,))
    assert (ruling.action, ruling.to) == ("call", 1200)
    assert "discretion" in ruling.explanation


def test_51b_an_undercall_heads_up_is_a_full_call():
    # A bets 1000, B raises to 3000, the rest fold; A adds 1000 more.
    actions = (bet("A", 1000), raise_("B", 3000), fold("C"), fold("D"))
    ruling = ask(*actions, player="A", in_front=1000, chips=(1000,))
    assert (ruling.action, ruling.to) == ("call", 3000)
    assert "heads-up" in ruling.explanation


def test_an_undercall_with_the_last_chips_is_a_call_all_in_for_less():
    ruling = ask(bet("A", 8000), player="B", stack=2000, chips=(1000, 1000))
    assert (ruling.action, ruling.to) == ("call", 2000)


# --- TDA 55 and 58: invalid declarations --------------------------------------------------


def test_55a_call_with_no_bet_to_call_is_a_check():
    ruling = ask(check("A"), says="call")
    assert (ruling.action, ruling.to, ruling.rules) == ("check", 0, ("55-A",))


def test_55a_call_on_the_big_blinds_option_is_a_check():
    ruling = preflop((100, 200), call("UTG", 200), player="BB", in_front=200, says="call")
    assert (ruling.action, ruling.to) == ("check", 200)


def test_55b_raise_with_no_bet_binds_at_least_a_minimum_bet():
    ruling = ask(says="raise")
    assert (ruling.action, ruling.to) == ("bet", 200)
    assert "55-B" in ruling.rules


def test_55_check_facing_a_bet_puts_nothing_in_and_leaves_call_or_fold():
    ruling = ask(bet("A", 600), says="check")
    assert (ruling.action, ruling.to, ruling.rules, ruling.min_raise_to) == (
        "check",
        0,
        ("55",),
        1200,
    )
    assert "call 600 or fold" in ruling.explanation


def test_55_check_facing_a_bet_with_chips_is_a_call_never_a_raise():
    ruling = ask(bet("A", 600), says="check", chips=(5000, 1000))
    assert (ruling.action, ruling.to) == ("call", 600)


def test_58_folding_with_no_bet_to_face_is_binding():
    ruling = ask(says="fold")
    assert (ruling.action, ruling.to, ruling.rules) == ("fold", 0, ("58",))


# --- TDA 57 and IFP 4.17: unclear amounts ----------------------------------------------------


def five(pot, ambiguous="tda"):
    # 200-400: "I bet five" could mean 500 or 5,000.
    return ask(blinds=(200, 400), pot=pot, declared_readings=(500, 5000), ambiguous=ambiguous)


def test_57_under_a_5000_pot_five_is_500():
    ruling = five(4000)
    assert (ruling.action, ruling.to, ruling.rules[0]) == ("bet", 500, "57")


def test_57_with_5000_or_more_in_the_pot_five_is_5000():
    assert five(5000).to == 5000


def test_ifp_4_17_takes_the_lowest_reading_whatever_the_pot():
    ruling = five(20000, ambiguous="ifp")
    assert (ruling.to, ruling.rules[0]) == (500, "IFP 4.17")


def test_57_the_pot_includes_bets_in_front():
    # Pot 4,600 plus A's bet of 400 in front: "raise five" reads as 5,000.
    ruling = ask(
        bet("A", 400), blinds=(200, 400), pot=4600, says="raise", declared_readings=(500, 5000)
    )
    assert (ruling.action, ruling.to) == ("raise", 5000)


def test_57_a_reading_the_player_cannot_afford_drops_out():
    ruling = ask(blinds=(200, 400), pot=20000, stack=3000, declared_readings=(500, 5000))
    assert ruling.to == 500


# --- Bad questions --------------------------------------------------------------------------


def bad(field, **kw):
    base = {
        "game": "nlhe",
        "blinds": (100, 200),
        "street": "flop",
        "actions": (bet("A", 1000),),
        "player": "X",
        "stack": 5000,
        "in_front": 0,
        "declaration": None,
        "declared_amount": None,
        "chips": (1000,),
    }
    with pytest.raises(BadQuestion) as caught:
        interpret(BetQuestion(**{**base, **kw}))
    assert caught.value.field == field, caught.value.message
    return caught.value


def test_bad_unknown_game_and_street():
    bad("game", game="stud")
    bad("street", street="showdown")


def test_bad_a_total_below_the_players_earlier_total():
    bad("actions", actions=(bet("A", 1000), raise_("B", 3000), call("A", 800)))


def test_bad_a_raise_that_does_not_raise():
    bad("actions", actions=(bet("A", 1000), raise_("B", 1000)))


def test_bad_an_action_after_folding():
    bad("actions", actions=(bet("A", 1000), fold("B"), call("B", 1000)))


def test_bad_a_check_facing_a_bet_among_the_actions():
    bad("actions", actions=(bet("A", 1000), check("B")))


def test_bad_an_underraise_not_marked_all_in():
    bad("actions", actions=(bet("A", 1000), raise_("B", 1500)))


def test_bad_negative_numbers():
    bad("stack", stack=-1)
    bad("in_front", in_front=-5)
    bad("chips", chips=(1000, -100))
    bad("actions", actions=(bet("A", -100),))
    bad("pot", pot=-1)


def test_bad_chips_or_amount_beyond_the_stack():
    bad("chips", chips=(5000, 1000))
    bad("declared_amount", chips=(), declaration="raise", declared_amount=5001)


def test_bad_the_acting_player_folded_already():
    bad("player", actions=(bet("A", 1000), fold("X")), player="X")


def test_bad_in_front_must_match_the_players_last_total():
    bad("in_front", actions=(bet("X", 1000), raise_("B", 3000)), in_front=500)
    bad("in_front", in_front=200)


def test_bad_plo_after_the_flop_needs_the_pot_to_size_a_wager():
    bad("pot", game="plo", declaration="pot", chips=())


def test_bad_unclear_amount_settings():
    bad("ambiguous", ambiguous="lowest")
    bad("declared_readings", chips=(), declared_amount=500, declared_readings=(500, 5000))


def test_bad_nothing_said_or_pushed():
    bad("declaration", chips=())


# --- Properties -----------------------------------------------------------------------------

DENOMINATIONS = (25, 100, 500, 1000, 5000)


@st.composite
def questions(draw):
    """A flop with an opening bet and maybe a raise, and any words or chips from X."""
    game = draw(st.sampled_from(["nlhe", "plo", "lhe"]))
    opener = draw(st.integers(2, 20)) * 100
    if game == "lhe":
        opener = 200
    actions = [bet("A", opener)]
    if game != "lhe" and draw(st.booleans()):
        actions.append(raise_("B", opener + draw(st.integers(opener // 100, 40)) * 100))
    elif game == "lhe" and draw(st.booleans()):
        actions.append(raise_("B", 400))
    stack = draw(st.integers(1, 200)) * 100
    chips = draw(st.lists(st.sampled_from(DENOMINATIONS), max_size=8))
    chips = tuple(c for i, c in enumerate(chips) if sum(chips[: i + 1]) <= stack)
    says = draw(st.sampled_from([None, "bet", "call", "raise", "all-in", "check", "fold", "pot"]))
    amount = None
    if says not in ("check", "fold") and draw(st.booleans()):
        amount = draw(st.integers(1, stack))
    if says is None and amount is None and not chips:
        chips = (min(stack, 100),) if stack >= 100 else ()
        amount = None if chips else stack
    return BetQuestion(
        game=game,
        blinds=(100, 200),
        street="flop",
        actions=tuple(actions),
        player="X",
        stack=stack,
        in_front=0,
        declaration=says,
        declared_amount=amount,
        chips=chips,
        # Pot limit: a pot that allows the opening bet and the raise drawn above.
        pot=draw(st.integers(40 if game == "plo" else 0, 200)) * 100,
    )


@settings(max_examples=400, deadline=None)
@given(questions())
def test_property_a_ruling_stays_within_the_chips_and_the_legal_sizes(question):
    ruling = interpret(question)
    everything = question.stack + question.in_front
    current = max(a.to for a in question.actions)
    assert 0 <= ruling.to <= everything
    if ruling.action == "call":
        assert ruling.to == min(current, everything)
    if ruling.action == "all-in":
        assert ruling.to == everything
    if ruling.action in ("bet", "raise"):
        totals = [0] + [a.to for a in question.actions]
        largest = max(after - before for before, after in itertools.pairwise(totals))
        smallest = current + (200 if question.game == "lhe" else max(largest, 200))
        assert ruling.to >= smallest
        assert ruling.to > current
    if ruling.action in ("bet", "raise", "all-in") and ruling.to > current:
        assert ruling.min_raise_to > ruling.to
    else:
        assert ruling.reopened is False
    assert ruling.rules and ruling.explanation


@st.composite
def tablet_hands(draw):
    """A hand played on the tablet's betting engine to a random point, as the tablet
    would hand it to the floor: this street's actions and the state behind them."""
    limit = draw(st.sampled_from([NO_LIMIT, POT_LIMIT, FIXED_LIMIT]))
    structure = Structure(limit, 50, 100)
    n = draw(st.integers(2, 6))
    stacks = draw(st.lists(st.integers(2, 60).map(lambda k: k * 100), min_size=n, max_size=n))
    seats = list(zip(range(1, n + 1), stacks, strict=True))
    state = start_hand(structure, seats, button=n, small_blind=1, big_blind=2)
    street_actions = [post("1", 50), post("2", 100)]
    pot_before = 0
    snapshot = (state, tuple(street_actions), pot_before)
    for _ in range(draw(st.integers(0, 14))):
        if state.to_act is None:
            break
        snapshot = (state, tuple(street_actions), pot_before)
        options = state.legal_actions()
        p = state.player(options.seat)
        kinds = ["fold", "call"] + (["wager", "all-in"] if options.wager else [])
        kind = draw(st.sampled_from(kinds))
        if kind == "fold":
            action, to = Action("fold", p.seat), 0
        elif kind == "call":
            action = Action("call" if options.call else "check", p.seat)
            to = p.bet + options.call if options.call else 0
        elif kind == "all-in" and limit == NO_LIMIT:
            action, to = Action("all-in", p.seat), p.bet + p.stack
        else:
            to = draw(st.integers(options.min_to, options.max_to))
            action = Action(options.wager, p.seat, to)
        street = state.street
        after = state.apply(action)
        moved = after.history[-1]
        named = "all-in" if moved.all_in else moved.kind
        street_actions.append(PriorAction(str(p.seat), named, to))
        state = after
        if state.street != street:
            street_actions, pot_before = [], state.pot
        if state.to_act is not None:
            snapshot = (state, tuple(street_actions), pot_before)
    return structure, *snapshot


GAME_OF = {NO_LIMIT: "nlhe", POT_LIMIT: "plo", FIXED_LIMIT: "lhe"}


def tablet_question(structure, state, actions, pot, **kw):
    p = state.player(state.to_act)
    return BetQuestion(
        game=GAME_OF[structure.limit],
        blinds=(structure.small_blind, structure.big_blind),
        street=state.street,
        actions=actions,
        player=str(p.seat),
        stack=p.stack,
        in_front=p.bet,
        pot=pot,
        **{"declaration": None, "declared_amount": None, "chips": (), **kw},
    )


@settings(max_examples=300, deadline=None)
@given(tablet_hands())
def test_property_the_calculator_agrees_with_the_tablet(hand):
    structure, state, actions, pot = hand
    assume(state.to_act is not None)
    options = state.legal_actions()
    p = state.player(state.to_act)
    others_can_act = any(q.can_act for q in state.players if q.seat != p.seat)

    called = interpret(tablet_question(structure, state, actions, pot, declaration="call"))
    assert called.to == (p.bet + options.call if options.call else p.bet)
    assert called.min_raise_to == limits.min_raise_to(structure, state.round)

    if not others_can_act:
        return  # the tablet forbids raising when nobody can answer (TDA 16); no data here
    raised = interpret(tablet_question(structure, state, actions, pot, declaration="raise"))
    if options.wager is None:
        assert (raised.action, raised.to) == ("call", p.bet + options.call)
        return
    assert raised.to == options.min_to
    if structure.limit == POT_LIMIT:
        potted = interpret(tablet_question(structure, state, actions, pot, declaration="pot"))
        assert potted.to == options.max_to
    after = state.apply(Action(options.wager, p.seat, raised.to))
    if after.street == state.street and after.to_act is not None:
        assert raised.min_raise_to == limits.min_raise_to(structure, after.round)

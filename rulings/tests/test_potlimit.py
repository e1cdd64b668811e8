"""The pot-limit calculator against TDA 54 and its examples, and against the tablet."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hands.engine.betting import call, fold, raise_to, start_hand
from hands.engine.limits import POT_LIMIT, STREETS, Structure
from rulings.engine.errors import BadQuestion
from rulings.engine.potlimit import PotLimitQuestion, pot_limit

# --- TDA 54-B: pre-flop, full blinds are assumed ---------------------------------------------


def test_tda_54b_example_1_dead_small_blind_counts_as_posted():
    """PLO 100-200, dead small blind, the big blind posts 200: first to act may pot to 700."""
    answer = pot_limit(PotLimitQuestion(blinds=(100, 200), posted=(0, 200), bets=(200,)))
    assert (answer.max_to, answer.to_call, answer.pot_after_call) == (700, 200, 500)
    assert answer.rules == ("TDA 54-B",)
    assert "small blind is dead" in answer.explanation


def test_tda_54b_example_2_short_big_blind_counts_as_a_full_one():
    """The small blind posts 100, the big blind is short and posts 100: still 700."""
    answer = pot_limit(PotLimitQuestion(blinds=(100, 200), posted=(100, 100), bets=(100, 100)))
    assert (answer.max_to, answer.to_call, answer.pot_after_call) == (700, 200, 500)
    assert "big blind posted only 100 of 200" in answer.explanation


def test_full_blinds_give_the_same_700():
    answer = pot_limit(PotLimitQuestion(blinds=(100, 200), bets=(100, 200)))
    assert answer.max_to == 700
    assert answer.explanation.startswith("The pot holds 300.")


def test_small_blind_pots_by_completing_first():
    answer = pot_limit(PotLimitQuestion(blinds=(100, 200), bets=(200,), in_front=100))
    assert (answer.max_to, answer.to_call, answer.pot_after_call) == (600, 100, 400)


def test_big_blind_option_after_limpers():
    answer = pot_limit(PotLimitQuestion(blinds=(100, 200), bets=(200, 200), in_front=200))
    assert (answer.max_to, answer.to_call) == (800, 0)


def test_re_pot_pre_flop_still_assumes_full_blinds():
    """Dead small blind, the first player pots to 700: the next re-pots to 2,400, counting
    the missing 100 as TDA 54-B says all re-pot bets do."""
    answer = pot_limit(PotLimitQuestion(blinds=(100, 200), posted=(0, 200), bets=(200, 700)))
    assert (answer.to_call, answer.pot_after_call, answer.max_to) == (700, 1700, 2400)


def test_ante_is_in_the_pot_before_the_flop():
    """RP-11 big blind ante of 100 at 50-100: pot 250, call 100, raise 350 (as the tablet)."""
    answer = pot_limit(PotLimitQuestion(blinds=(50, 100), pot=100, bets=(50, 100)))
    assert answer.max_to == 450


# --- TDA 54-C: after the flop, the actual pot ----------------------------------------------


def test_tda_54c_opening_bet_is_the_actual_pot():
    """The pot of Addendum 52-B: 10,500 after the flop, so a pot bet is 10,500."""
    answer = pot_limit(PotLimitQuestion(blinds=(500, 1000), street="flop", pot=10_500))
    assert (answer.max_to, answer.to_call, answer.pot_after_call) == (10_500, 0, 10_500)
    assert answer.rules == ("TDA 54-C",)


def test_tda_54c_raise_facing_a_bet():
    answer = pot_limit(PotLimitQuestion(blinds=(100, 200), street="flop", pot=600, bets=(600,)))
    assert (answer.to_call, answer.pot_after_call, answer.max_to) == (600, 1800, 2400)


def test_multi_raise_pot():
    """Turn, pot 2,000: A bets 500, B pots to 3,500 (call 500, pot 3,000), C folds, and A,
    with 500 in, re-pots: call 3,000, the pot is then 9,000, so a raise to 12,500."""
    question = PotLimitQuestion(
        blinds=(100, 200), street="turn", pot=2000, bets=(3500, 0), in_front=500
    )
    answer = pot_limit(question)
    assert (answer.to_call, answer.pot_after_call, answer.max_to) == (3000, 9000, 12_500)


def test_multi_raise_pot_pre_flop():
    """UTG pots to 700, the button re-pots to 2,400; the small blind, with 100 in, may go
    to 8,100: call 2,300, making the pot 5,700, and raise by that."""
    answer = pot_limit(PotLimitQuestion(blinds=(100, 200), bets=(200, 700, 2400), in_front=100))
    assert (answer.to_call, answer.pot_after_call, answer.max_to) == (2300, 5700, 8100)


def test_opening_bet_is_never_less_than_the_big_blind():
    answer = pot_limit(PotLimitQuestion(blinds=(100, 200), street="river", pot=150))
    assert answer.max_to == 200
    assert "smallest bet" in answer.explanation


# --- Bad questions ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "question, field",
    [
        (PotLimitQuestion(blinds=(100, 200), street="showdown"), "street"),
        (PotLimitQuestion(blinds=(100, 200), street="fourth"), "street"),
        (PotLimitQuestion(blinds=(200, 100), bets=(200, 100)), "blinds"),
        (PotLimitQuestion(blinds=(0, 0)), "blinds"),
        (PotLimitQuestion(blinds=(100, 200), street="flop", pot=-1), "pot"),
        (PotLimitQuestion(blinds=(100, 200), street="flop", pot=600, bets=(-5,)), "bets"),
        (PotLimitQuestion(blinds=(100, 200), street="flop", bets=(300,), in_front=-1), "in_front"),
        (PotLimitQuestion(blinds=(100, 200), posted=(100,), bets=(100, 200)), "posted"),
        (PotLimitQuestion(blinds=(100, 200), posted=(100, 300), bets=(100, 300)), "posted"),
        (PotLimitQuestion(blinds=(100, 200), posted=(0, 200), street="flop", pot=600), "posted"),
    ],
)
def test_bad_question_names_the_field(question, field):
    with pytest.raises(BadQuestion) as error:
        pot_limit(question)
    assert error.value.field == field


def test_pre_flop_blinds_must_be_among_the_bets():
    with pytest.raises(BadQuestion) as error:
        pot_limit(PotLimitQuestion(blinds=(100, 200), bets=(700,)))
    assert error.value.field == "bets"


def test_a_player_holding_the_highest_bet_has_nothing_to_decide():
    """The bets should have gone above the player's own: otherwise the betting is over."""
    with pytest.raises(BadQuestion) as error:
        pot_limit(PotLimitQuestion(blinds=(100, 200), street="flop", bets=(300,), in_front=600))
    assert error.value.field == "in_front"
    with pytest.raises(BadQuestion):
        pot_limit(PotLimitQuestion(blinds=(100, 200), street="flop", bets=(600,), in_front=600))
    with pytest.raises(BadQuestion):
        pot_limit(PotLimitQuestion(blinds=(100, 200), bets=(100, 700), in_front=700))


# --- Agreement with the tablet ----------------------------------------------------------------

PL = Structure(POT_LIMIT, 100, 200)


@st.composite
def pot_limit_hands(draw):
    stacks = draw(st.lists(st.integers(1, 20_000), min_size=2, max_size=6))
    dead_small = len(stacks) > 2 and draw(st.booleans())
    small, big = (None, 1) if dead_small else ((2, 1) if len(stacks) == 2 else (1, 2))
    seats = list(range(1, len(stacks) + 1))
    return start_hand(
        PL,
        list(zip(seats, stacks, strict=True)),
        button=seats[-1],
        small_blind=small,
        big_blind=big,
    )


def question_from(state, posted) -> PotLimitQuestion:
    seat = state.to_act
    on_street = sum(p.bet for p in state.players)
    return PotLimitQuestion(
        blinds=(PL.small_blind, PL.big_blind),
        posted=posted if state.round.street == STREETS[0] else (),
        street=state.round.street,
        pot=state.pot - on_street,
        bets=tuple(p.bet for p in state.players if p.seat != seat),
        in_front=state.player(seat).bet,
    )


@settings(max_examples=300, deadline=None)
@given(pot_limit_hands(), st.data())
def test_calculator_quotes_the_tablets_maximum(state, data):
    small = state.player(state.small_blind_seat).bet if state.small_blind_seat else 0
    posted = (small, state.player(state.big_blind_seat).bet)
    for _ in range(40):
        options = state.legal_actions()
        if options is None:
            break
        p = state.player(options.seat)
        if options.wager and options.max_to < p.bet + p.stack:  # not cut short by the stack
            answer = pot_limit(question_from(state, posted))
            assert answer.max_to == options.max_to
            assert answer.to_call == options.call
        kind = data.draw(st.sampled_from(["fold", "call", "raise", "raise"]))
        if kind == "raise" and options.wager:
            action = raise_to(options.seat, data.draw(st.integers(options.min_to, options.max_to)))
        elif kind == "fold":
            action = fold(options.seat)
        else:
            action = call(options.seat)
        state = state.apply(action)

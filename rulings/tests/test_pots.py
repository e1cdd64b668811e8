"""The pots calculator: side pots (TDA 21) and split pots with odd chips (TDA 20)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulings.engine.errors import BadQuestion
from rulings.engine.pots import Contribution, PotShare, PotsQuestion, pots


def question(*contributions, **kw) -> PotsQuestion:
    return PotsQuestion(contributions=tuple(Contribution(*c) for c in contributions), **kw)


# --- TDA 21: side pots --------------------------------------------------------------------------


def test_three_way_all_in_makes_two_side_pots():
    """Seat 1 all-in for 500, seat 2 for 1,500, seat 3 for 4,000, seat 4 calls."""
    answer = pots(
        question((1, 500), (2, 1500), (3, 4000), (4, 4000), winners=((1,), (2,), (4,)), button=4)
    )
    assert answer.pots == (
        PotShare(0, 2000, (1, 2, 3, 4), {1: 2000}),
        PotShare(1, 3000, (2, 3, 4), {2: 3000}),
        PotShare(2, 5000, (3, 4), {4: 5000}),
    )
    assert answer.totals == {1: 2000, 2: 3000, 4: 5000}
    assert answer.rules == ("TDA 21",)


def test_pots_are_only_built_without_winners():
    answer = pots(question((1, 500), (2, 1500), (3, 1500)))
    assert [(p.amount, p.eligible, p.awards) for p in answer.pots] == [
        (1500, (1, 2, 3), {}),
        (2000, (2, 3), {}),
    ]
    assert answer.totals == {}


def test_folded_players_chips_stay_in_the_pot():
    answer = pots(question((1, 400, True), (2, 1000), (3, 1000), (5, 200, True), winners=((3,),)))
    assert answer.pots == (PotShare(0, 2600, (2, 3), {3: 2600}),)
    assert "before folding" in answer.explanation


def test_dead_money_goes_to_the_main_pot():
    answer = pots(question((1, 300), (2, 800), (3, 800), dead=200, winners=((1,), (3,))))
    assert [p.amount for p in answer.pots] == [1100, 1000]
    assert answer.totals == {1: 1100, 3: 1000}
    assert "RP-11" in answer.rules


def test_a_pot_only_one_player_can_win_need_not_be_named():
    """Seat 3 bet 1,000 that nobody could match: that layer is its own and goes back."""
    answer = pots(question((1, 500), (2, 500), (3, 1500), winners=((1,),)))
    assert answer.totals == {1: 1500, 3: 1000}


# --- TDA 20: odd chips --------------------------------------------------------------------------


def test_odd_chip_goes_to_the_first_winner_left_of_the_button():
    """Button on 5: clockwise the winners come 7 then 3, so seat 7 has the odd 25."""
    answer = pots(
        question((3, 500), (5, 25, True), (7, 500), winners=((3, 7),), button=5, smallest_chip=25)
    )
    assert answer.totals == {7: 525, 3: 500}
    assert answer.rules == ("TDA 20-A", "IFP 3.6")
    assert "seat 7" in answer.explanation


def test_odd_chip_order_wraps_round_the_table():
    """Button on 8 of 10 seats: seat 9 is first, then 2."""
    answer = pots(question((2, 5), (9, 5), (4, 1, True), winners=((2, 9),), button=8, seats=10))
    assert answer.totals == {9: 6, 2: 5}


def test_button_winner_gets_the_odd_chip_last():
    answer = pots(question((1, 100), (3, 1, True), (4, 100), winners=((1, 4),), button=1, seats=6))
    assert answer.totals == {4: 101, 1: 100}


def test_split_down_to_the_smallest_chip():
    """1,050 in chips of 25 is 42 chips, 21 each."""
    answer = pots(question((1, 525), (2, 525), winners=((1, 2),), button=9, smallest_chip=25))
    assert answer.totals == {1: 525, 2: 525}
    assert "TDA 20-A" not in answer.rules  # nothing odd


def test_split_with_an_odd_25_chip():
    """1,075 is 43 chips of 25: seat 2, first after the button on 1, gets 22 of them."""
    answer = pots(
        question((1, 525), (2, 525), (3, 25, True), winners=((1, 2),), button=1, smallest_chip=25)
    )
    assert answer.totals == {2: 550, 1: 525}


def test_two_odd_chips_of_a_three_way_split():
    """107 three ways: 35 each and two odd chips, for seats 3 and 1 after the button on 2."""
    answer = pots(
        question((1, 35), (2, 35), (3, 35), (4, 2, True), winners=((1, 2, 3),), button=2, seats=4)
    )
    assert answer.totals == {3: 36, 1: 36, 2: 35}
    assert "go one each to seats 3, 1" in answer.explanation


def test_an_even_split_needs_no_button():
    answer = pots(question((1, 300), (2, 300), winners=((1, 2),)))
    assert answer.totals == {1: 300, 2: 300}


# --- Bad questions ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "q, field",
    [
        (question((1, 500), (2, 1000), winners=((1,), (1,))), "winners"),  # one pot only
        (question((1, 500), (2, 1000), (3, 1000), winners=((1,), (1,))), "winners"),
        (question((1, 500, True), (2, 500), winners=((1,),)), "winners"),  # folded
        (question((1, 500), (2, 500), winners=((),)), "winners"),
        (question((1, 500), (2, 500), winners=((1, 1),)), "winners"),
        (question((1, 500), (2, 500), winners=((4,),)), "winners"),
        (question((1, 500), (2, 1000), (3, 1000), winners=((1,),)), "winners"),  # side pot
        (question((1, 500), (1, 500)), "contributions"),
        (question((0, 500), (2, 500)), "contributions"),
        (question((1, 500), (11, 500)), "contributions"),
        (question((1, -5), (2, 500)), "contributions"),
        (question((1, 500, True), (2, 500, True)), "contributions"),
        (question((1, 510), (2, 500), smallest_chip=25), "contributions"),
        (question(), "contributions"),
        (question((1, 500), (2, 500), dead=-100), "dead"),
        (question((1, 500), (2, 500), button=12), "button"),
        (question((1, 5, True), (2, 500), (3, 500), winners=((2, 3),), smallest_chip=5), "button"),
        (question((1, 500), (2, 500), smallest_chip=0), "smallest_chip"),
        (question((1, 500), seats=1), "seats"),
    ],
)
def test_bad_question_names_the_field(q, field):
    with pytest.raises(BadQuestion) as error:
        pots(q)
    assert error.value.field == field


# --- Properties ---------------------------------------------------------------------------------


@st.composite
def settled_hands(draw):
    chip = draw(st.sampled_from([1, 5, 25]))
    seats = draw(st.lists(st.integers(1, 10), min_size=2, max_size=10, unique=True))
    contributions = tuple(
        Contribution(seat, chip * draw(st.integers(0, 400)), draw(st.booleans())) for seat in seats
    )
    if all(c.folded for c in contributions):
        contributions = (Contribution(seats[0], contributions[0].total), *contributions[1:])
    built = pots(PotsQuestion(contributions, smallest_chip=chip))
    winners = tuple(
        tuple(draw(st.lists(st.sampled_from(p.eligible), min_size=1, unique=True)))
        for p in built.pots
    )
    button = draw(st.integers(1, 10))
    return PotsQuestion(contributions, winners, button=button, smallest_chip=chip)


@settings(max_examples=300, deadline=None)
@given(settled_hands())
def test_every_chip_is_paid_out_in_whole_chips_to_eligible_winners(q):
    answer = pots(q)
    assert sum(answer.totals.values()) == sum(c.total for c in q.contributions)
    for share, winners in zip(answer.pots, q.winners, strict=True):
        assert sum(share.awards.values()) == share.amount
        assert set(share.awards) == set(winners) <= set(share.eligible)
        assert all(chips % q.smallest_chip == 0 for chips in share.awards.values())
        assert max(share.awards.values()) - min(share.awards.values()) <= q.smallest_chip

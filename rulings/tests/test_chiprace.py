"""The chip race calculator against TDA 24 and casino §18."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulings.engine.chiprace import ChipRaceQuestion, RaceResult, RaceSeat, chip_race
from rulings.engine.errors import BadQuestion
from seating.engine.blinds import RANKS, SUITS, card_value


def race(*seats, removed=25, next_chip=100):
    return chip_race(ChipRaceQuestion(removed, next_chip, tuple(seats)))


def test_three_seats_with_a_tie_broken_by_suit():
    """Six odd 25s are 150, 1.5 chips of 100, rounded up to 2. Seat 2's king of spades
    beats seat 1's king of hearts for the first chip; seat 1 still takes the second."""
    answer = race(
        RaceSeat(1, 3, ("Kh", "4c", "9d"), stack_other=5000),
        RaceSeat(2, 2, ("2d", "Ks"), stack_other=3000),
        RaceSeat(3, 1, ("Qc",), stack_other=800),
    )
    assert answer.results == (
        RaceResult(1, 0, 1, 5075, 5100),
        RaceResult(2, 0, 1, 3050, 3100),
        RaceResult(3, 0, 0, 825, 800),
    )
    assert (answer.chips_to_race, answer.new_chips_raced) == (6, 2)
    assert answer.rules == ("TDA 24-A", "casino §18")
    assert "Chip 1 of the race goes to seat 2, with Ks." in answer.explanation
    assert "decided by suit" in answer.explanation


def test_odd_chips_worth_175_race_off_two_chips_one_each():
    """Odd 25s worth 50, 75 and 50 = 175: 1.75 chips of 100 round up to 2, and the two
    best cards (seats 4 and 7) win one each; nobody is left without chips."""
    answer = race(
        RaceSeat(1, 2, ("3c", "2d"), stack_other=5000),
        RaceSeat(4, 3, ("As", "4c", "5d"), stack_other=0),
        RaceSeat(7, 2, ("Kh", "6c"), stack_other=800),
    )
    assert answer.new_chips_raced == 2
    assert [r.seat for r in answer.results if r.won] == [4, 7]
    assert not any(r.protected for r in answer.results)


def test_a_player_raced_out_of_the_last_chips_keeps_one_tda_24a():
    """Two odd 25s are 50, half a chip of 100, rounded up to one: seat 3 wins it, and
    seat 2, whose 25 was all it had, keeps one chip of 100."""
    answer = race(
        RaceSeat(2, 1, ("4c",), stack_other=0),
        RaceSeat(3, 1, ("Kd",), stack_other=0),
    )
    assert answer.new_chips_raced == 1
    assert [r.seat for r in answer.results if r.won] == [3]
    assert [(r.seat, r.protected, r.value_after) for r in answer.results] == [
        (2, True, 100),
        (3, False, 100),
    ]


def test_no_player_wins_more_than_one_chip():
    """Seat 1 holds the three best cards but wins one chip; seat 2 wins the other."""
    answer = race(
        RaceSeat(1, 3, ("As", "Ah", "Ad"), stack_other=1000),
        RaceSeat(2, 3, ("2c", "3c", "4c"), stack_other=1000),
    )
    assert answer.new_chips_raced == 2
    assert [r.won for r in answer.results] == [1, 1]


def test_nobody_is_raced_out():
    """Seat 2 has nothing but one 25 and loses the race: it gets one chip of 100."""
    answer = race(
        RaceSeat(1, 1, ("Ac",), stack_other=2000),
        RaceSeat(2, 1, ("Kc",)),
    )
    assert answer.new_chips_raced == 1  # 50 is half a chip: rounded up
    assert answer.results[1] == RaceResult(2, 0, 0, 25, 100, protected=True)
    assert "nobody is raced out" in answer.explanation


def test_a_player_with_other_chips_is_not_protected():
    answer = race(RaceSeat(1, 1, ("Ac",), stack_other=2000), RaceSeat(2, 1, ("Kc",), 500))
    assert answer.results[1] == RaceResult(2, 0, 0, 525, 500)


def test_full_sets_are_exchanged_before_the_race():
    """Nine 25s: two sets of four become two 100s at equal value, one 25 races."""
    answer = race(
        RaceSeat(1, 9, ("7h",)),
        RaceSeat(2, 1, ("8h",), stack_other=400),
    )
    assert answer.results == (
        RaceResult(1, 2, 0, 225, 200),
        RaceResult(2, 0, 1, 425, 500),
    )
    assert answer.chips_to_race == 2
    assert "TDA 24-C" in answer.rules


def test_exchange_alone_keeps_a_player_in():
    """Four 25s make a 100: nothing left to race, so no race and no protection needed."""
    answer = race(RaceSeat(1, 4))
    assert answer.results == (RaceResult(1, 1, 0, 100, 100),)
    assert (answer.chips_to_race, answer.new_chips_raced) == (0, 0)


def test_less_than_half_a_chip_is_removed_without_compensation():
    """One odd 25 against a 100: a quarter, rounded to no chip at all."""
    answer = race(RaceSeat(1, 1, ("As",), stack_other=1000), RaceSeat(3, 4, (), 0))
    assert answer.new_chips_raced == 0
    assert answer.results[0] == RaceResult(1, 0, 0, 1025, 1000)
    assert "without compensation" in answer.explanation


def test_results_come_in_seat_order_from_seat_1():
    answer = race(RaceSeat(7, 2, ("2s", "3s"), 100), RaceSeat(2, 2, ("4s", "5s"), 100))
    assert [r.seat for r in answer.results] == [2, 7]
    assert answer.explanation.index("Seat 2 gets 4s 5s") < answer.explanation.index(
        "Seat 7 gets 2s 3s"
    )


# --- Bad questions ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "q, field",
    [
        (ChipRaceQuestion(100, 100, (RaceSeat(1, 1),)), "next_chip"),
        (ChipRaceQuestion(100, 25, (RaceSeat(1, 1),)), "next_chip"),
        (ChipRaceQuestion(25, 60, (RaceSeat(1, 1),)), "next_chip"),
        (ChipRaceQuestion(0, 100, (RaceSeat(1, 1),)), "removed"),
        (ChipRaceQuestion(25, 100, ()), "seats"),
        (ChipRaceQuestion(25, 100, (RaceSeat(1, 1, ("As",)), RaceSeat(1, 1, ("Ks",)))), "seats"),
        (ChipRaceQuestion(25, 100, (RaceSeat(0, 1, ("As",)),)), "seats"),
        (ChipRaceQuestion(25, 100, (RaceSeat(1, -1),)), "chips"),
        (ChipRaceQuestion(25, 100, (RaceSeat(1, 0),)), "chips"),
        (ChipRaceQuestion(25, 100, (RaceSeat(1, 1, ("As",), stack_other=-5),)), "stack_other"),
        (ChipRaceQuestion(25, 100, (RaceSeat(1, 2, ("As",)),)), "cards"),  # too few
        (ChipRaceQuestion(25, 100, (RaceSeat(1, 5, ("As", "Ks")),)), "cards"),  # 4 exchanged
        (ChipRaceQuestion(25, 100, (RaceSeat(1, 1, ("Zs",)),)), "cards"),
        (ChipRaceQuestion(25, 100, (RaceSeat(1, 1, ("Ax",)),)), "cards"),
        (ChipRaceQuestion(25, 100, (RaceSeat(1, 1, ("As",)), RaceSeat(2, 1, ("As",)))), "cards"),
        (ChipRaceQuestion(25, 100, (RaceSeat(1, 2, ("Td", "10d")),)), "cards"),
    ],
)
def test_bad_question_names_the_field(q, field):
    with pytest.raises(BadQuestion) as error:
        chip_race(q)
    assert error.value.field == field


# --- Properties ---------------------------------------------------------------------------------

DECK = [rank + suit for rank in RANKS for suit in SUITS]


@st.composite
def races(draw):
    removed, next_chip = draw(st.sampled_from([(25, 100), (5, 25), (100, 500), (500, 1000)]))
    per_chip = next_chip // removed
    seats = draw(st.lists(st.integers(1, 10), min_size=1, max_size=10, unique=True))
    deck = draw(st.permutations(DECK))
    result = []
    for seat in seats:
        chips = draw(st.integers(0, 3 * per_chip))
        other = draw(st.sampled_from([0, next_chip, 20 * next_chip])) if chips else next_chip
        odd = chips % per_chip
        cards, deck = tuple(deck[:odd]), deck[odd:]
        result.append(RaceSeat(seat, chips, cards, other))
    return ChipRaceQuestion(removed, next_chip, tuple(result))


@settings(max_examples=300, deadline=None)
@given(races())
def test_race_properties(q):
    answer = chip_race(q)
    seats = {s.seat: s for s in q.seats}
    assert sum(r.won for r in answer.results) == answer.new_chips_raced
    assert all(r.won in (0, 1) for r in answer.results)
    assert all(r.value_after > 0 for r in answer.results)  # nobody raced out
    pooled_value = answer.chips_to_race * q.removed
    assert abs(answer.new_chips_raced * q.next_chip - pooled_value) <= q.next_chip / 2
    for r in answer.results:
        s = seats[r.seat]
        kept = s.stack_other + r.exchanged * q.next_chip
        # Whole sets are exchanged at equal value; only the odd chips are at stake.
        assert s.chips * q.removed - r.exchanged * q.next_chip < q.next_chip
        assert r.value_after == kept + r.won * q.next_chip + (q.next_chip if r.protected else 0)
    winners = [seats[r.seat] for r in answer.results if r.won]
    losers = [seats[r.seat] for r in answer.results if not r.won and seats[r.seat].cards]
    if winners and losers:
        worst_winner = min(max(map(card_value, s.cards)) for s in winners)
        best_loser = max(max(map(card_value, s.cards)) for s in losers)
        assert worst_winner > best_loser

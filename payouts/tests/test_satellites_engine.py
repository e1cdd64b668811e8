"""A satellite's pool buys seats in its target (issue 17): whole seats at the target's
buy-in with its fee, the cash left to the next place or shared by the seat winners in
whole house units, to the cent. Pure rules: no database."""

import pytest

from payouts.engine import satellites
from payouts.engine.satellites import NEXT_PLACE, SHARED, Seats


def test_the_pool_buys_whole_seats_and_leaves_the_rest_as_cash():
    # 23 players at €50 into a €100 + €10 main event: €1,150 buys 10 seats, €50 left.
    assert satellites.seats(115_000, 11_000) == Seats(count=10, left=5_000)


def test_a_pool_that_buys_seats_exactly_leaves_nothing():
    assert satellites.seats(44_000, 11_000) == Seats(count=4, left=0)


def test_a_pool_smaller_than_one_seat_buys_none():
    assert satellites.seats(10_999, 11_000) == Seats(count=0, left=10_999)


def test_never_more_seats_than_players():
    """A guarantee can buy more seats than there are players: the rest is cash."""
    assert satellites.seats(110_000, 11_000, players=8) == Seats(count=8, left=22_000)


def test_a_seat_worth_nothing_or_a_negative_pool_is_an_error():
    with pytest.raises(ValueError):
        satellites.seats(10_000, 0)
    with pytest.raises(ValueError):
        satellites.seats(-1, 11_000)


def test_next_place_gets_the_cash_left_and_the_seat_winners_none():
    lines = satellites.cash_lines(Seats(3, 7_654), remainder=NEXT_PLACE, unit=100)

    assert lines == (0, 0, 0, 7_654)  # to the cent: the next place is paid what is left
    assert satellites.places_paid(Seats(3, 7_654), lines) == 4


def test_next_place_with_nothing_left_pays_only_the_seats():
    lines = satellites.cash_lines(Seats(3, 0), remainder=NEXT_PLACE)

    assert lines == (0, 0, 0)
    assert satellites.places_paid(Seats(3, 0), lines) == 3


def test_shared_cash_is_split_evenly_in_whole_house_units():
    # €76.54 among 3 seat winners in whole euros: €25 each, €1.54 to the next place.
    lines = satellites.cash_lines(Seats(3, 7_654), remainder=SHARED, unit=100)

    assert lines == (2_500, 2_500, 2_500, 154)
    assert sum(lines) == 7_654


def test_shared_cash_to_the_cent_with_a_unit_of_one_cent():
    lines = satellites.cash_lines(Seats(3, 7_654), remainder=SHARED, unit=1)

    assert lines == (2_551, 2_551, 2_551, 1)
    assert sum(lines) == 7_654


def test_shared_cash_that_splits_exactly_has_no_next_place_line():
    lines = satellites.cash_lines(Seats(4, 6_000), remainder=SHARED, unit=100)

    assert lines == (1_500, 1_500, 1_500, 1_500)
    assert satellites.places_paid(Seats(4, 6_000), lines) == 4


def test_no_seat_gives_no_line():
    assert satellites.cash_lines(Seats(0, 9_000), remainder=NEXT_PLACE) == ()


def test_play_stops_when_as_many_players_are_left_as_seats():
    assert satellites.play_over(players_left=4, seats_won=4, registration_open=False)
    assert not satellites.play_over(players_left=5, seats_won=4, registration_open=False)
    # Players can still come: the pool, and so the seats, may still grow.
    assert not satellites.play_over(players_left=4, seats_won=4, registration_open=True)
    assert not satellites.play_over(players_left=1, seats_won=0, registration_open=False)

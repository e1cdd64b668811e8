"""The survivor rule of Day 2 (issue 17, item 4), without a database: a player who
survived two flights plays Day 2 with one bag, by the house rule."""

from tournaments.engine import day2
from tournaments.engine.day2 import BagView, FlightReady, Forfeit

ANNA, BO, CY = 1, 2, 3


def bags():
    """Anna survived Day 1A (30,000) and Day 1B (52,000); Bo only Day 1A."""
    return [
        BagView(bag=10, player=ANNA, chips=30000, flight_order=0),
        BagView(bag=11, player=BO, chips=41000, flight_order=0),
        BagView(bag=20, player=ANNA, chips=52000, flight_order=1),
    ]


def test_a_player_of_one_flight_carries_their_bag():
    outcome = day2.survivors([BagView(11, BO, 41000, 0)], day2.LARGER)
    assert outcome.carried == (11,)
    assert outcome.forfeits == ()
    assert outcome.ready


def test_the_larger_stack_plays_day_2_and_the_other_bag_is_forfeited():
    outcome = day2.survivors(bags(), day2.LARGER)
    assert outcome.carried == (11, 20)
    assert outcome.forfeits == (Forfeit(bag=10, kept=20, why=day2.LARGER),)
    assert outcome.doubles == {ANNA: (10, 20)}


def test_equal_stacks_keep_the_first_flights_bag():
    equal = [BagView(10, ANNA, 40000, 0), BagView(20, ANNA, 40000, 1)]
    assert day2.survivors(equal, day2.LARGER).carried == (10,)


def test_the_first_flights_stack_plays_day_2_even_when_smaller():
    outcome = day2.survivors(bags(), day2.FIRST)
    assert outcome.carried == (10, 11)
    assert outcome.forfeits == (Forfeit(bag=20, kept=10, why=day2.FIRST),)


def test_the_first_flight_is_the_earlier_one_not_the_lower_bag_id():
    late_first = [BagView(5, ANNA, 10000, 1), BagView(9, ANNA, 20000, 0)]
    assert day2.survivors(late_first, day2.FIRST).carried == (9,)


def test_where_the_player_chooses_nothing_is_decided_for_them():
    outcome = day2.survivors(bags(), day2.CHOOSE)
    assert outcome.choosing == (ANNA,)
    assert not outcome.ready
    assert outcome.carried == (11,)
    assert outcome.forfeits == ()


def test_three_flights_survived_forfeit_two_bags():
    three = [BagView(1, CY, 10000, 0), BagView(2, CY, 90000, 1), BagView(3, CY, 50000, 2)]
    outcome = day2.survivors(three, day2.LARGER)
    assert outcome.carried == (2,)
    assert [f.bag for f in outcome.forfeits] == [1, 3]


def test_a_late_entry_into_day_2_only_where_the_house_allows_it_and_once_it_began():
    def refusal(**kwargs):
        return day2.late_entry_refusal(**{"has_flights": True, **kwargs})

    assert refusal(allowed=False, started=True) == "day2_late_entry_not_allowed"
    assert refusal(allowed=True, started=False) == "day2_not_started"
    assert refusal(allowed=True, started=True) is None
    # An event without flights sells its entries as always.
    assert day2.late_entry_refusal(has_flights=False, allowed=False, started=False) is None


def ready(name="1A", **kwargs):
    return FlightReady(
        **{"name": name, "cancelled": False, "stopped": True, "confirmed": True, **kwargs}
    )


def test_day_2_starts_once_every_flight_stopped_and_its_bags_are_confirmed():
    fine = day2.survivors(bags(), day2.LARGER)

    def refusal(flights, outcome=fine, started=False):
        return day2.start_refusal(flights, outcome, started=started, closed=False)

    assert refusal([ready(), ready("1B")]) is None
    assert refusal([ready(), ready("1B", stopped=False, confirmed=False)]) == (
        "flights_not_stopped",
        {"flights": "1B"},
    )
    assert refusal([ready(confirmed=False), ready("1B", confirmed=False)]) == (
        "bags_not_confirmed",
        {"flights": "1A, 1B"},
    )
    # A cancelled flight has no survivors: Day 2 does not wait for it.
    assert refusal([ready(), ready("1C", cancelled=True, stopped=False)]) is None
    assert refusal([]) == ("no_flights", {})
    assert refusal([ready()], started=True) == ("day2_started", {})
    choosing = day2.survivors(bags(), day2.CHOOSE)
    assert refusal([ready()], choosing) == ("bag_choice_missing", {"players": 1})
    assert refusal([ready()], day2.survivors([], day2.LARGER)) == ("no_bags", {})

"""Day 2 of an event with flights (issue 17, items 4 and 5): the survivors of every flight
meet with their bagged chips, redrawn at random (TDA 7); a player who survived two
flights plays one bag; late entry straight into Day 2 where the house allows it."""

import random

import pytest

from clock import engine as clock_engine
from clock import services as clock_services
from clock.selectors import clock_public
from clock.tests.factories import with_structure
from floorman.audit import AuditEntry
from floorman.errors import Conflict, NotFound
from floorman.tests.concurrency import at_once
from seating.engine import TableView
from seating.engine.day2 import day2_redraw
from seating.models import Seat, SeatingAction, Table
from seating.services.day2 import day2_start
from seating.tests.factories import add_tables
from tournaments.models import Bag, BagStatus, Entry, FlightEnd, Tournament, Transaction
from tournaments.services.day2 import bag_choose
from tournaments.tests import factories
from tournaments.tests.festival_factories import (
    bagged,
    confirm,
    enter,
    event_with_flights,
    player,
)
from tournaments.tests.flights import main_event, running_flight

pytestmark = pytest.mark.django_db


def two_flights(*, first_table: int = 1, **overrides):
    """Day 1A: Anna (30,000) and Bo (41,000) survive, Cleo busted. Day 1B: Anna again
    (52,000) and Dana (18,000) survive. The event has two tables of nine for Day 2."""
    event, (a, b) = event_with_flights("1A", "1B", **overrides)
    anna, bo, cleo, dana = (player(n) for n in ("Anna", "Bo", "Cleo", "Dana"))
    in_a = {p.name: enter(a, p) for p in (anna, bo, cleo)}
    in_b = {p.name: enter(b, p) for p in (anna, dana)}
    Entry.objects.filter(pk=in_a["Cleo"].pk).update(status="busted")
    bags_a = bagged(a, {in_a["Anna"]: 30000, in_a["Bo"]: 41000})
    bags_b = bagged(b, {in_b["Anna"]: 52000, in_b["Dana"]: 18000})
    add_tables(event, 2, first=first_table)
    return event, (a, b), bags_a + bags_b


def day2_chips(event) -> dict[str, int]:
    return dict(Entry.objects.filter(tournament=event).values_list("player__name", "chips"))


def refused(code: str, call) -> Conflict:
    with pytest.raises(Conflict) as caught:
        call()
    assert caught.value.code == code
    return caught.value


# --- Day 2 starts ---------------------------------------------------------------------------


def test_the_survivors_play_day_2_with_their_bags_and_the_double_survivor_keeps_the_larger():
    event, _flights, (anna_a, bo, anna_b, dana) = two_flights()

    entries = day2_start(actor=factories.staff("director"), event_id=event.pk)

    assert day2_chips(event) == {"Anna": 52000, "Bo": 41000, "Dana": 18000}
    assert sum(e.chips for e in entries) == sum(
        Bag.objects.filter(status=BagStatus.CARRIED).values_list("chips", flat=True)
    )
    anna_a.refresh_from_db()
    assert anna_a.status == BagStatus.FORFEITED
    assert "larger stack, bag 1B-1" in anna_a.forfeit_reason
    assert Bag.objects.count() == 4  # forfeited, not deleted
    for bag in (bo, anna_b, dana):
        bag.refresh_from_db()
        assert bag.status == BagStatus.CARRIED
        assert bag.day2_entry.chips == bag.chips
    # No money moves on Day 2: it was paid in the flights.
    assert not Transaction.objects.filter(tournament=event).exists()


def test_day_2_is_a_seeded_redraw_with_every_player_seated_and_the_event_registering():
    event, _flights, _bags = two_flights()

    entries = day2_start(actor=None, event_id=event.pk, seed="replay-me")

    action = SeatingAction.objects.get(tournament=event)
    assert action.kind == "draw" and action.seed == "replay-me"
    assert action.params["day2"] is True
    seats = dict(Seat.objects.filter(entry__isnull=False).values_list("entry_id", "table__number"))
    assert sorted(seats) == sorted(e.pk for e in entries)
    # Replayed from its seed, the same draw seats everyone where they sit.
    views = [TableView(n, tuple(range(1, 10)), break_order=n) for n in action.params["tables"]]
    replay = day2_redraw(
        sorted(views, key=lambda v: -v.break_order),
        {e.pk: e.chips for e in entries},
        random.Random("replay-me"),
        spread=False,
    )
    assert {a.entry: a.table for a in replay} == seats
    event.refresh_from_db()
    assert event.status == "registering"
    assert AuditEntry.objects.filter(action="day2.start").exists()


def test_the_first_flights_stack_where_the_house_says_so():
    event, _flights, _bags = two_flights(survivor_keeps="first")
    day2_start(actor=None, event_id=event.pk)
    assert day2_chips(event)["Anna"] == 30000


def test_day_2_waits_for_every_flight_to_stop_and_its_bags_to_be_confirmed():
    event, (a, b) = event_with_flights("1A", "1B")
    bagged(a, {enter(a, player("Anna")): 30000, enter(a, player("Bo")): 20000})
    enter(b, player("Dana"))  # Day 1B still playing
    add_tables(event, 1)

    error = refused("flights_not_stopped", lambda: day2_start(actor=None, event_id=event.pk))
    assert "1B" in error.message

    bagged(b, {b.entries.get(): 18000}, confirmed=False)
    refused("bags_not_confirmed", lambda: day2_start(actor=None, event_id=event.pk))
    assert not Entry.objects.filter(tournament=event).exists()

    confirm(b)
    assert len(day2_start(actor=None, event_id=event.pk)) == 3


def test_day_2_starts_once():
    event, _flights, _bags = two_flights()
    day2_start(actor=None, event_id=event.pk)
    refused("day2_started", lambda: day2_start(actor=None, event_id=event.pk))
    assert Entry.objects.filter(tournament=event).count() == 3


def test_an_event_without_flights_has_no_day_2():
    event = factories.tournament()
    refused("no_flights", lambda: day2_start(actor=None, event_id=event.pk))


def test_too_few_seats_refuse_the_start_and_write_nothing():
    event, _flights, _bags = two_flights()
    Tournament.objects.filter(pk=event.pk).update(table_size=2)
    event.tables.exclude(number=1).delete()
    event.tables.get().seat_set.filter(number__gt=2).delete()

    refused("not_enough_seats", lambda: day2_start(actor=None, event_id=event.pk))

    assert not Entry.objects.filter(tournament=event).exists()
    assert not Bag.objects.filter(status=BagStatus.FORFEITED).exists()


def test_day_2s_clock_starts_at_the_highest_level_the_flights_stopped_at():
    event = main_event(flight_end_level=2)
    with_structure(event)
    a, _seats = running_flight(event, "Day 1A")
    b, _seats = running_flight(event, "Day 1B", layout={3: [1, 2, 3], 4: [1, 2, 3]})
    for _step in range(3):  # level 2, the break, level 3: Day 1A's day is over
        clock_services.clock_act(actor=None, tournament_id=a.pk, action="next")
    clock_services.clock_act(actor=None, tournament_id=b.pk, action="next")  # level 2
    clock_services.flight_stop(actor=None, tournament_id=b.pk)  # the director, in level 2
    for flight in (a, b):
        for n, entry in enumerate(flight.entries.filter(status="active"), start=1):
            Bag.objects.create(flight=flight, entry=entry, number=n, chips=entry.chips)
        confirm(flight)
    add_tables(event, 2, first=5)

    # Day 1A played its last level (2): level 3 next; Day 1B was in level 2.
    assert dict(FlightEnd.objects.values_list("flight__flight_name", "resume_level")) == {
        "Day 1A": 3,
        "Day 1B": 2,
    }
    day2_start(actor=None, event_id=event.pk)

    clock = clock_public(event)
    assert clock["status"] == clock_engine.NOT_STARTED
    assert clock["level"]["number"] == 3
    assert Tournament.objects.get(pk=event.pk).current_level == 3


# --- The player chooses ---------------------------------------------------------------------


def test_where_the_player_chooses_day_2_waits_for_the_choice():
    event, _flights, (anna_a, _bo, anna_b, _dana) = two_flights(survivor_keeps="choose")

    refused("bag_choice_missing", lambda: day2_start(actor=None, event_id=event.pk))

    bag_choose(actor=None, bag_id=anna_a.pk)
    anna_b.refresh_from_db()
    assert anna_b.status == BagStatus.FORFEITED
    assert "chose bag 1A-1" in anna_b.forfeit_reason

    # A change of mind before Day 2: the other bag is sealed again.
    bag_choose(actor=None, bag_id=anna_b.pk)
    anna_a.refresh_from_db()
    anna_b.refresh_from_db()
    assert (anna_a.status, anna_b.status) == (BagStatus.FORFEITED, BagStatus.SEALED)
    assert AuditEntry.objects.filter(action="bag.choose").count() == 2

    day2_start(actor=None, event_id=event.pk)
    assert day2_chips(event)["Anna"] == 52000


def test_a_choice_is_refused_where_the_house_rule_decides_or_there_is_nothing_to_choose():
    event, _flights, (anna_a, bo, _anna_b, _dana) = two_flights()
    refused("bag_choice_not_allowed", lambda: bag_choose(actor=None, bag_id=anna_a.pk))
    Tournament.objects.filter(pk=event.pk).update(survivor_keeps="choose")
    refused("bag_choice_single", lambda: bag_choose(actor=None, bag_id=bo.pk))
    with pytest.raises(NotFound):
        bag_choose(actor=None, bag_id=99999)


def test_no_choice_once_day_2_has_started():
    event, _flights, (anna_a, _bo, anna_b, _dana) = two_flights(survivor_keeps="choose")
    bag_choose(actor=None, bag_id=anna_b.pk)
    day2_start(actor=None, event_id=event.pk)
    refused("day2_started", lambda: bag_choose(actor=None, bag_id=anna_a.pk))


# --- Late entry into Day 2 --------------------------------------------------------------------


def test_a_late_entry_into_day_2_gets_the_day_2_stack_and_a_seat():
    event, _flights, _bags = two_flights(day2_late_entry=True, day2_late_stack=60000)
    day2_start(actor=None, event_id=event.pk)

    late = factories.register(event, "Erik").entry

    assert late.chips == 60000
    assert Seat.objects.filter(entry=late).exists()  # TDA 8-A
    line = Transaction.objects.get(entry=late)
    assert (line.kind, line.prize_share) == ("buy_in", event.buy_in)


def test_the_starting_stack_where_the_house_names_no_day_2_stack():
    event, _flights, _bags = two_flights(day2_late_entry=True)
    day2_start(actor=None, event_id=event.pk)
    assert factories.register(event, "Erik").entry.chips == event.starting_stack


def test_late_entry_into_day_2_is_refused_before_it_starts_and_where_the_house_says_no():
    event, _flights, _bags = two_flights(day2_late_entry=True)
    Tournament.objects.filter(pk=event.pk).update(status="registering")
    refused("day2_not_started", lambda: factories.register(event, "Erik"))

    closed, _flights, _bags = two_flights(first_table=3)
    day2_start(actor=None, event_id=closed.pk)
    refused("day2_late_entry_not_allowed", lambda: factories.register(closed, "Erik"))
    assert not Transaction.objects.filter(tournament__in=[event, closed]).exists()


# --- Two directors at once -------------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_starts_at_once_one_wins():
    event, _flights, _bags = two_flights()

    results = at_once(
        lambda: day2_start(actor=None, event_id=event.pk),
        lambda: day2_start(actor=None, event_id=event.pk),
    )

    won = [r for r in results if isinstance(r, list)]
    lost = [r for r in results if isinstance(r, Conflict)]
    assert len(won) == 1 and len(lost) == 1
    assert lost[0].code == "day2_started"
    assert Entry.objects.filter(tournament=event).count() == 3
    assert SeatingAction.objects.filter(tournament=event).count() == 1


def test_day_2_hands_the_flights_tables_back_to_the_venue():
    event, (a, b), _bags = two_flights(first_table=3)
    add_tables(a, 2)
    add_tables(b, 1, first=5)

    day2_start(actor=None, event_id=event.pk)

    assert not Table.objects.filter(tournament__in=(a, b), broken_at=None).exists()
    assert Table.objects.filter(tournament=event, broken_at=None).count() == 2

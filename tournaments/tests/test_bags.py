"""Bags at the end of a flight (issue 17, item 3): each survivor's chips counted into a
numbered bag, at the floor or on the table's tablet; the bags checked against the chips
in play; the director's confirmation, a difference only with a note."""

import pytest

from clock import services as clock_services
from floorman.errors import Conflict, Invalid, NotFound
from floorman.models import AuditEntry
from floorman.tests.concurrency import at_once
from hands.services import busts
from tournaments.models import Bag, FlightEnd
from tournaments.selectors import flight_bag_check
from tournaments.services.bags import bag_record, flight_bags_confirm
from tournaments.tests.factories import staff
from tournaments.tests.flights import main_event, running_flight, stopped_flight

pytestmark = pytest.mark.django_db


def bag(flight, entry, chips, actor=None):
    return bag_record(actor=actor, tournament_id=flight.pk, entry_id=entry.pk, chips=chips)


def test_bags_get_the_flights_next_number_and_a_recount_corrects_the_count():
    flight, seats = stopped_flight(main_event())
    floor = staff("floor")

    first = bag(flight, seats[(1, 1)], 41000, floor)
    second = bag(flight, seats[(2, 3)], 18500, floor)
    recount = bag(flight, seats[(1, 1)], 40000, floor)

    assert (first.number, second.number) == (1, 2)
    assert recount.pk == first.pk and recount.number == 1 and recount.chips == 40000
    assert Bag.objects.filter(flight=flight).count() == 2
    actions = list(
        AuditEntry.objects.filter(action__startswith="bag.")
        .order_by("pk")
        .values_list("action", flat=True)
    )
    assert actions == ["bag.record", "bag.record", "bag.correct"]


def test_only_a_survivor_of_a_stopped_flight_is_bagged_and_with_chips():
    flight, seats = running_flight(main_event())
    busts.entry_bust(actor=None, tournament_id=flight.pk, entry_id=seats[(1, 3)].pk)

    with pytest.raises(Conflict) as running:
        bag(flight, seats[(1, 1)], 20000)
    clock_services.flight_stop(actor=None, tournament_id=flight.pk)
    with pytest.raises(Conflict) as busted:
        bag(flight, seats[(1, 3)], 20000)
    with pytest.raises(Invalid) as empty:
        bag(flight, seats[(1, 1)], 0)
    with pytest.raises(NotFound):
        bag_record(actor=None, tournament_id=flight.pk, entry_id=999999, chips=100)

    assert running.value.code == "flight_not_stopped"
    assert busted.value.code == "not_a_survivor"
    assert "chips" in empty.value.fields
    assert not Bag.objects.exists()


def test_the_bag_check_shows_expected_bagged_difference_and_who_has_no_bag():
    flight, seats = stopped_flight(main_event())
    for place in [(1, 1), (1, 2), (1, 3), (2, 1), (2, 2)]:
        bag(flight, seats[place], 20000)
    bag(flight, seats[(1, 1)], 19000)  # a recount: 1,000 short

    check = flight_bag_check(flight)

    assert (check.expected, check.bagged, check.difference) == (120000, 99000, -21000)
    assert check.without_bag == [seats[(2, 3)]]


def test_the_director_confirms_only_once_every_survivor_has_a_bag():
    flight, seats = stopped_flight(main_event())
    for place in [(1, 1), (1, 2), (1, 3), (2, 1), (2, 2)]:
        bag(flight, seats[place], 20000)

    with pytest.raises(Conflict) as missing:
        flight_bags_confirm(actor=None, tournament_id=flight.pk)

    assert missing.value.code == "bags_missing"
    assert "1" in missing.value.message
    assert FlightEnd.objects.get(flight=flight).confirmed_at is None


def test_a_difference_needs_the_directors_word_and_a_note():
    flight, seats = stopped_flight(main_event())
    for place, entry in seats.items():
        bag(flight, entry, 19500 if place == (2, 2) else 20000)
    director = staff("director")

    with pytest.raises(Conflict) as differs:
        flight_bags_confirm(actor=director, tournament_id=flight.pk)
    with pytest.raises(Conflict) as no_note:
        flight_bags_confirm(actor=director, tournament_id=flight.pk, accept_difference=True)
    confirmed = flight_bags_confirm(
        actor=director,
        tournament_id=flight.pk,
        accept_difference=True,
        note="A 500 chip found under table 2 after the count",
    )

    assert differs.value.code == "bags_differ" and "-500" in differs.value.message
    assert no_note.value.code == "bags_note_needed"
    assert confirmed.confirmed_by == director and confirmed.confirmed_at is not None
    assert confirmed.difference == -500
    assert confirmed.note.startswith("A 500 chip")
    assert AuditEntry.objects.get(action="flight.bags_confirm").after["difference"] == -500


def test_bags_that_add_up_are_confirmed_at_once_and_then_no_longer_change():
    flight, seats = stopped_flight(main_event())
    for entry in seats.values():
        bag(flight, entry, 20000)

    confirmed = flight_bags_confirm(actor=None, tournament_id=flight.pk)
    with pytest.raises(Conflict) as recount:
        bag(flight, seats[(1, 1)], 25000)
    with pytest.raises(Conflict) as again:
        flight_bags_confirm(actor=None, tournament_id=flight.pk)

    assert confirmed.difference == 0
    assert recount.value.code == again.value.code == "bags_confirmed"
    assert Bag.objects.get(entry=seats[(1, 1)]).chips == 20000


@pytest.mark.django_db(transaction=True)
def test_two_desks_bagging_at_once_give_out_two_numbers():
    flight, seats = stopped_flight(main_event())

    results = at_once(
        lambda: bag(flight, seats[(1, 1)], 30000), lambda: bag(flight, seats[(2, 1)], 10000)
    )

    assert sorted(b.number for b in results) == [1, 2]

"""Chip counts during play (issue 18): a table's counts from its tablet, the floor's
count of any player, the count sweep, and the counts against the chips in play."""

import pytest

from floorman.errors import Conflict, Invalid, NotFound
from floorman.models import AuditEntry
from seating import services
from seating.models import Seat
from seating.selectors import sweep_report
from seating.services.counts import (
    count_sweep_close,
    count_sweep_start,
    entry_count_record,
    table_counts_record,
)
from seating.services.day2 import day2_start
from seating.tests.factories import add_tables
from seating.tests.test_day2 import two_flights
from tournaments.models import ChipCount, CountSweep, Entry, Tournament
from tournaments.selectors import chip_standings, count_check, entry_rank
from tournaments.tests.factories import bust_in_order, field, staff, tournament
from tournaments.tests.flights import main_event, stopped_flight

pytestmark = pytest.mark.django_db


def seated_event(players: int = 6, tables: int = 2, first: int = 1, **settings):
    """A running event at level 3, its field drawn at `tables` tables."""
    event = tournament(table_size=-(-players // tables), **settings)  # the tables full
    add_tables(event, tables, first=first)
    entries = field(event, players)
    services.seating_draw(actor=None, tournament_id=event.pk)
    Tournament.objects.filter(pk=event.pk).update(status="running", current_level=3)
    event.refresh_from_db()
    return event, entries


def seats_at(event, table: int) -> dict[int, int]:
    """{seat: entry id} at the table."""
    return dict(
        Seat.objects.filter(table__tournament=event, table__number=table, entry__isnull=False)
        .order_by("number")
        .values_list("number", "entry_id")
    )


def chips_of(entry_id: int) -> int:
    return Entry.objects.get(pk=entry_id).chips


# --- A table's counts from its tablet ----------------------------------------------------


def test_a_tables_counts_become_the_stacks_stamped_with_level_and_time():
    event, _ = seated_event()
    dealer = staff("dealer")
    seats = seats_at(event, 1)
    counts = {seat: 15_000 + 1_000 * i for i, seat in enumerate(seats)}

    made = table_counts_record(actor=dealer, tournament_id=event.pk, number=1, counts=counts)

    assert len(made) == len(seats)
    for seat, chips in counts.items():
        assert chips_of(seats[seat]) == chips
        count = ChipCount.objects.get(entry_id=seats[seat])
        assert (count.chips, count.level, count.table_number, count.seat) == (chips, 3, 1, seat)
        assert count.source == "tablet"
        assert count.counted_by == dealer
        assert count.counted_at is not None
    assert AuditEntry.objects.filter(action="counts.table", tournament=event).count() == 1


def test_the_chip_leaders_follow_a_count():
    event, _ = seated_event()
    seat, entry_id = next(iter(seats_at(event, 2).items()))
    table_counts_record(actor=None, tournament_id=event.pk, number=2, counts={seat: 90_000})

    standings = chip_standings(event, limit=3)

    leader = standings.leaders[0]
    assert (leader.entry_id, leader.chips, leader.counted_level) == (entry_id, 90_000, 3)
    assert standings.chips == 5 * 20_000 + 90_000
    assert entry_rank(Entry.objects.get(pk=entry_id)) == 1


def test_a_count_for_an_empty_seat_is_refused_and_writes_nothing():
    event, _ = seated_event()
    seats = seats_at(event, 1)
    empty = next(n for n in range(1, 10) if n not in seats)
    first = next(iter(seats))

    with pytest.raises(Invalid) as refused:
        table_counts_record(
            actor=None, tournament_id=event.pk, number=1, counts={first: 30_000, empty: 5_000}
        )

    assert f"seat_{empty}" in refused.value.fields
    assert not ChipCount.objects.exists()
    assert chips_of(seats[first]) == 20_000


@pytest.mark.parametrize("chips", [0, -5, "many", 1.5, True])
def test_a_count_of_nothing_or_not_a_number_is_refused(chips):
    """A player without chips is out: the floor busts them (TDA 20 ff.) instead."""
    event, _ = seated_event()
    seat = next(iter(seats_at(event, 1)))

    with pytest.raises(Invalid):
        table_counts_record(actor=None, tournament_id=event.pk, number=1, counts={seat: chips})

    assert not ChipCount.objects.exists()


def test_no_counts_at_all_is_refused():
    event, _ = seated_event()
    with pytest.raises(Invalid):
        table_counts_record(actor=None, tournament_id=event.pk, number=1, counts={})


def test_a_table_that_does_not_exist_is_not_found():
    event, _ = seated_event()
    with pytest.raises(NotFound):
        table_counts_record(actor=None, tournament_id=event.pk, number=9, counts={1: 100})


def test_a_finished_event_takes_no_counts():
    event, _ = seated_event()
    seat = next(iter(seats_at(event, 1)))
    Tournament.objects.filter(pk=event.pk).update(status="finished")

    with pytest.raises(Conflict) as refused:
        table_counts_record(actor=None, tournament_id=event.pk, number=1, counts={seat: 100})

    assert refused.value.http_status == 409
    assert not ChipCount.objects.exists()


def test_a_stopped_flight_bags_instead_of_counting():
    event = main_event()
    flight, seats = stopped_flight(event)
    entry = next(iter(seats.values()))

    with pytest.raises(Conflict) as refused:
        entry_count_record(actor=None, tournament_id=flight.pk, entry_id=entry.pk, chips=1)

    assert refused.value.code == "flight_stopped"
    assert not ChipCount.objects.exists()


# --- The floor's count of any player -------------------------------------------------------


def test_the_floor_counts_a_player_at_their_seat():
    event, entries = seated_event()
    floor = staff("floor")
    entry = entries[4]
    seat = Seat.objects.select_related("table").get(entry=entry)

    count = entry_count_record(actor=floor, tournament_id=event.pk, entry_id=entry.pk, chips=7_500)

    assert (count.chips, count.level, count.source) == (7_500, 3, "floor")
    assert (count.table_number, count.seat) == (seat.table.number, seat.number)
    assert chips_of(entry.pk) == 7_500
    audit = AuditEntry.objects.get(action="count.entry")
    assert (audit.before, audit.after["chips"]) == ({"chips": 20_000}, 7_500)


def test_a_player_who_is_out_cannot_be_counted():
    event, entries = seated_event()
    bust_in_order(event, entries[0])

    with pytest.raises(Conflict) as refused:
        entry_count_record(actor=None, tournament_id=event.pk, entry_id=entries[0].pk, chips=100)

    assert refused.value.code == "count_not_active"
    assert not ChipCount.objects.exists()


def test_another_events_entry_is_not_found():
    event, _ = seated_event()
    _other, others = seated_event(first=5)
    with pytest.raises(NotFound):
        entry_count_record(actor=None, tournament_id=event.pk, entry_id=others[0].pk, chips=100)


# --- The sweep -----------------------------------------------------------------------------


def test_a_sweep_shows_which_tables_have_reported():
    event, entries = seated_event(players=9, tables=3)
    director = staff("director")
    sweep = count_sweep_start(actor=director, tournament_id=event.pk)
    seat = next(iter(seats_at(event, 2)))
    table_counts_record(actor=None, tournament_id=event.pk, number=2, counts={seat: 21_000})
    entry_on_3 = next(iter(seats_at(event, 3).values()))
    entry_count_record(actor=None, tournament_id=event.pk, entry_id=entry_on_3, chips=19_000)

    report = sweep_report(event)

    assert report.sweep == sweep and sweep.level == 3
    assert [t.number for t in report.reported] == [2, 3]
    assert [t.number for t in report.waiting] == [1]
    assert ChipCount.objects.filter(sweep=sweep).count() == 2


def test_one_sweep_open_at_a_time_and_closing_it():
    event, _ = seated_event()
    count_sweep_start(actor=None, tournament_id=event.pk)

    with pytest.raises(Conflict) as refused:
        count_sweep_start(actor=None, tournament_id=event.pk)
    assert refused.value.code == "sweep_open"

    closed = count_sweep_close(actor=None, tournament_id=event.pk)
    assert closed.closed_at is not None
    seat = next(iter(seats_at(event, 1)))
    table_counts_record(actor=None, tournament_id=event.pk, number=1, counts={seat: 100})
    assert ChipCount.objects.get().sweep is None  # counted after the sweep closed
    with pytest.raises(Conflict) as refused:
        count_sweep_close(actor=None, tournament_id=event.pk)
    assert refused.value.code == "no_sweep"
    assert CountSweep.objects.count() == 1


# --- The check -----------------------------------------------------------------------------


def test_the_counts_are_checked_against_the_chips_in_play():
    """Six players with 20,000 each sold 120,000 chips: two counted 1,000 short show a
    difference of -1,000; the players never counted stand in with their stacks."""
    event, _ = seated_event()
    seats = list(seats_at(event, 1).items())
    (seat_a, _a), (seat_b, _b) = seats[:2]
    table_counts_record(
        actor=None, tournament_id=event.pk, number=1, counts={seat_a: 30_000, seat_b: 9_000}
    )

    check = count_check(event)

    assert check.expected == 120_000
    assert check.counted == 30_000 + 9_000 + 4 * 20_000
    assert check.difference == -1_000
    assert check.uncounted == 4
    assert check.rows[0].chips == 30_000


def test_day_2s_counts_are_checked_against_the_bags_carried():
    """An event with flights: its chips in play on Day 2 are the bags it carried (the
    larger of Anna's two; Bo's and Dana's): 52,000 + 41,000 + 18,000."""
    event, _flights, _bags = two_flights()
    day2_start(actor=None, event_id=event.pk)
    Tournament.objects.filter(pk=event.pk).update(status="running")
    bo = Entry.objects.get(tournament=event, player__name="Bo")
    entry_count_record(actor=None, tournament_id=event.pk, entry_id=bo.pk, chips=40_000)

    check = count_check(event)

    assert check.expected == 111_000
    assert check.counted == 52_000 + 40_000 + 18_000
    assert check.difference == -1_000

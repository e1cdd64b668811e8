"""No two players in one seat and no player in two seats, ever (issue item 16).

Seating services queue up behind the tournament's row lock and lock the seats they fill;
below them the database refuses a second row for one chair, a second seat for one entry
and a player in a blocked seat, even when code bypasses the services. The threaded tests
run real transactions side by side and need PostgreSQL (SQLite has no row locks).
"""

import pytest
from django.db import IntegrityError, transaction

from floorman.errors import Conflict
from floorman.tests.concurrency import at_once
from seating import services
from seating.models import Seat, SeatingAction
from seating.tests.factories import add_tables, field
from tournaments.tests.factories import staff, tournament


def _drawn(count: int, *, tables: int = 1):
    """A tournament whose `count` entries were drawn to tables of 9."""
    event = tournament()
    add_tables(event, tables)
    entries = field(event, count)
    services.seating_draw(actor=None, tournament_id=event.pk)
    return event, entries


def _open_seats(event) -> list[Seat]:
    return list(Seat.objects.filter(table__tournament=event, entry=None).order_by("number"))


def _seats_of(entry) -> list[tuple[int, int]]:
    return list(Seat.objects.filter(entry=entry).values_list("table__number", "number"))


def _occupied(event) -> int:
    return Seat.objects.filter(table__tournament=event, entry__isnull=False).count()


# --- Two floor people at once (services) -------------------------------------------------


@pytest.mark.parametrize("_run", range(3))
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_players_moved_into_one_open_seat_at_once_one_sits_there(_run):
    event, entries = _drawn(5)
    ada, bo = entries[0], entries[1]
    target = _open_seats(event)[0].number
    floor_a, floor_b = staff("floor"), staff("floor")

    results = at_once(
        lambda: services.entry_move(
            actor=floor_a, tournament_id=event.pk, entry_id=ada.pk, to_table=1, to_seat=target
        ),
        lambda: services.entry_move(
            actor=floor_b, tournament_id=event.pk, entry_id=bo.pk, to_table=1, to_seat=target
        ),
    )

    moved = [r for r in results if isinstance(r, SeatingAction)]
    refused = [r for r in results if isinstance(r, Conflict)]
    assert (len(moved), len(refused)) == (1, 1), results
    assert refused[0].code == "seat_taken"
    winner = moved[0].moves.get().entry_id
    assert Seat.objects.get(table__tournament=event, number=target).entry_id == winner
    assert (len(_seats_of(ada)), len(_seats_of(bo))) == (1, 1)
    assert _occupied(event) == 5


@pytest.mark.parametrize("_run", range(3))
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_one_player_moved_to_two_seats_at_once_sits_in_one(_run):
    event, entries = _drawn(5)
    ada = entries[0]
    first, second = (seat.number for seat in _open_seats(event)[:2])

    results = at_once(
        lambda: services.entry_move(
            actor=None, tournament_id=event.pk, entry_id=ada.pk, to_table=1, to_seat=first
        ),
        lambda: services.entry_move(
            actor=None, tournament_id=event.pk, entry_id=ada.pk, to_table=1, to_seat=second
        ),
    )

    # The moves queue up: the later one takes the player on from where the first put them.
    assert all(isinstance(r, SeatingAction) for r in results), results
    earlier, later = sorted((r.moves.get() for r in results), key=lambda m: m.pk)
    assert (later.from_table, later.from_seat) == (earlier.to_table, earlier.to_seat)
    assert _seats_of(ada) == [(later.to_table, later.to_seat)]
    assert _occupied(event) == 5


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_draws_at_once_seat_every_entry_once():
    event = tournament()
    add_tables(event, 2)
    entries = field(event, 12)

    results = at_once(
        lambda: services.seating_draw(actor=None, tournament_id=event.pk),
        lambda: services.seating_draw(actor=None, tournament_id=event.pk),
    )

    codes = sorted(getattr(r, "code", "drawn") for r in results)
    assert codes == ["drawn", "nobody_to_seat"], results
    assert all(len(_seats_of(e)) == 1 for e in entries)
    assert _occupied(event) == 12


# --- The database itself, bypassing the services -------------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_database_refuses_one_entry_in_two_seats_writtenat_once():
    """Two raw transactions seat one entry in two different chairs at the same moment: the
    unique index makes the second wait for the first and then refuse."""
    event = tournament()
    add_tables(event, 1)
    (ada,) = field(event, 1)
    one, two = _open_seats(event)[:2]

    def sit(seat):
        with transaction.atomic():
            Seat.objects.filter(pk=seat.pk).update(entry=ada)

    results = at_once(lambda: sit(one), lambda: sit(two))

    assert sorted(type(r).__name__ for r in results) == ["IntegrityError", "NoneType"], results
    assert len(_seats_of(ada)) == 1


@pytest.mark.django_db
def test_database_refuses_an_entry_in_a_second_seat():
    event, entries = _drawn(2)
    free = _open_seats(event)[0]

    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.filter(pk=free.pk).update(entry=entries[0])

    assert len(_seats_of(entries[0])) == 1


@pytest.mark.django_db
def test_database_refuses_a_second_row_for_one_chair():
    """A seat holds one entry; a second `Seat` for the same table and number would let a
    second player in, and the database refuses it."""
    event, entries = _drawn(1)
    (taken,) = Seat.objects.filter(entry=entries[0])
    (newcomer,) = field(event, 1, prefix="Newcomer")
    Seat.objects.filter(entry=newcomer).update(entry=None)  # seated late: unseat again

    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(table=taken.table, number=taken.number, entry=newcomer)

    assert list(Seat.objects.filter(table=taken.table, number=taken.number)) == [taken]


@pytest.mark.django_db
def test_database_refuses_a_player_in_a_blocked_seat():
    event, entries = _drawn(1)

    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.filter(entry=entries[0]).update(blocked=True)

    assert not Seat.objects.filter(blocked=True).exists()

"""Taking a bust-out back (issue 16, item 6): the desk's undo says where the player sits
again; a table's tablet may take back its own last bust while nothing depends on it
(hands.selectors.table_last_bust)."""

import pytest

from clock.tests.factories import with_structure
from floorman.errors import Conflict
from floorman.models import AuditEntry
from hands.models import Elimination
from hands.selectors import table_last_bust
from hands.services import busts
from hands.tests.factories import button_at, deal, finish, seat_players
from seating import services as seating
from seating.models import Seat, Table
from tournaments.models import Entry, EntryStatus
from tournaments.tests.factories import register, tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    event = tournament()
    with_structure(event)  # level 1: 100/200
    return event


def seat_of(entry) -> tuple[int, int] | None:
    seat = Seat.objects.select_related("table").filter(entry=entry).first()
    return (seat.table.number, seat.number) if seat else None


def last_bust(event, number: int = 1):
    return table_last_bust(Table.objects.get(tournament=event, number=number))


def undo_at_table(event, entry, number: int = 1):
    return busts.table_bust_undo(
        actor=None, tournament_id=event.pk, number=number, entry_id=entry.pk
    )


def refused_at_table(event, entry, code: str, number: int = 1) -> None:
    """The tablet's undo is refused with `code` and changes nothing."""
    audited = AuditEntry.objects.count()
    with pytest.raises(Conflict) as refused:
        undo_at_table(event, entry, number)
    assert refused.value.code == code
    assert Entry.objects.get(pk=entry.pk).status == EntryStatus.BUSTED
    assert Elimination.objects.filter(entry=entry).exists()
    assert AuditEntry.objects.count() == audited


def test_the_tablet_takes_back_its_last_bust_into_the_seat_left(event):
    seated = seat_players(event, {1: [1, 2, 3, 4]})
    button_at(event, 1, 1)
    finish(event, 1, deal(event, 1), busts=[3])
    out = seated[(1, 3)]

    shown = last_bust(event)
    entry = undo_at_table(event, out)

    assert (shown.entry, shown.seat, shown.refusal) == (out.pk, 3, "")
    assert entry.status == EntryStatus.ACTIVE
    assert seat_of(out) == (1, 3)
    assert (entry.seat_restored.table, entry.seat_restored.seat) == (1, 3)
    assert entry.seat_restored.same
    assert not Elimination.objects.exists()


def test_the_tablet_may_not_take_back_a_bust_once_the_next_hand_is_dealt(event):
    seated = seat_players(event, {1: [1, 2, 3, 4]})
    button_at(event, 1, 1)
    finish(event, 1, deal(event, 1), busts=[3])
    deal(event, 1)

    assert last_bust(event).refusal == "bust_hand_since"
    refused_at_table(event, seated[(1, 3)], "bust_hand_since")


def test_the_tablet_may_not_take_back_a_bust_once_another_player_went_out(event):
    """Anywhere: the later player's place would change (IFP 4.27)."""
    seated = seat_players(event, {1: [1, 2, 3], 2: [1, 2, 3]})
    button_at(event, 1, 1)
    finish(event, 1, deal(event, 1), busts=[3])
    busts.entry_bust(actor=None, tournament_id=event.pk, entry_id=seated[(2, 2)].pk)

    refused_at_table(event, seated[(1, 3)], "bust_places")


def test_the_tablet_may_not_take_back_one_of_two_busts_of_a_hand(event):
    seat_players(event, {1: [1, 2, 3, 4]})
    button_at(event, 1, 1)
    finish(event, 1, deal(event, 1), busts=[2, 3])
    last = last_bust(event)

    assert last.refusal == "bust_places"
    refused_at_table(event, Entry.objects.get(pk=last.entry), "bust_places")


def test_the_tablet_takes_back_only_its_last_bust(event):
    seated = seat_players(event, {1: [1, 2, 3, 4, 5]})
    button_at(event, 1, 1)
    busts.table_busts_record(actor=None, tournament_id=event.pk, number=1, seats=[2])
    busts.table_busts_record(actor=None, tournament_id=event.pk, number=1, seats=[3])

    refused_at_table(event, seated[(1, 2)], "bust_not_last")
    undo_at_table(event, seated[(1, 3)])

    assert seat_of(seated[(1, 3)]) == (1, 3)


def test_the_tablet_may_not_take_back_a_bust_once_someone_sat_down_at_the_table(event):
    seated = seat_players(event, {1: [1, 2, 3, 4]})
    button_at(event, 1, 1)
    finish(event, 1, deal(event, 1), busts=[3])
    register(event, "Late Larry")  # seated at once at the only table (TDA 8-A)

    refused_at_table(event, seated[(1, 3)], "bust_moves_since")


def test_the_tablet_may_not_take_back_a_bust_once_its_seat_is_blocked(event):
    seated = seat_players(event, {1: [1, 2, 3, 4]})
    button_at(event, 1, 1)
    finish(event, 1, deal(event, 1), busts=[3])
    seating.seat_set(actor=None, tournament_id=event.pk, number=1, seat=3, blocked=True)

    refused_at_table(event, seated[(1, 3)], "bust_seat_taken")


def test_another_tables_tablet_cannot_take_back_this_tables_bust(event):
    seated = seat_players(event, {1: [1, 2, 3], 2: [1, 2, 3]})
    busts.table_busts_record(actor=None, tournament_id=event.pk, number=1, seats=[3])

    assert last_bust(event, 2) is None
    refused_at_table(event, seated[(1, 3)], "bust_not_last", number=2)


def test_the_desks_undo_says_a_new_seat_when_the_old_one_was_taken(event):
    seated = seat_players(event, {1: [1, 2, 3], 2: [1, 2]})
    out = seated[(1, 3)]
    busts.entry_bust(actor=None, tournament_id=event.pk, entry_id=out.pk)
    mover = seated[(2, 2)]
    seating.entry_move(actor=None, tournament_id=event.pk, entry_id=mover.pk, to_table=1, to_seat=3)

    entry = busts.entry_bust_undo(actor=None, tournament_id=event.pk, entry_id=out.pk)

    assert not entry.seat_restored.same
    assert seat_of(out) == (entry.seat_restored.table, entry.seat_restored.seat) != (1, 3)

"""The tournament's status follows play (issue 16): the last bust, leaving one player once
no more can come, finishes the tournament as the desk would (clock stopped, tables
closed), and undoing that bust lets it run again. A deal that ended it is final."""

import pytest

from clock import services as clock_services
from clock.models import Clock
from clock.tests.factories import with_structure
from floorman.errors import Conflict
from floorman.models import AuditEntry
from hands import services
from hands.selectors import finishing_places
from hands.services import busts as bust_services
from hands.tests.factories import button_at, deal, finish, seat_players
from prizes import services as prize_services
from rulings import services as rulings
from seating.models import Seat, Table
from tournaments.models import Tournament
from tournaments.tests.factories import tournament

pytestmark = pytest.mark.django_db


def event_in_play(seats=(1, 2, 3), **overrides):
    """Players at table 1 in `seats`, the clock started: the event runs (no late
    registration unless `overrides` say so)."""
    event = tournament(**overrides)
    with_structure(event)
    seated = seat_players(event, {1: list(seats)})
    clock_services.clock_act(actor=None, tournament_id=event.pk, action="start")
    event.refresh_from_db()
    assert event.status == "running"
    return event, {seat: seated[(1, seat)] for seat in seats}


def status_of(event) -> str:
    return Tournament.objects.get(pk=event.pk).status


def test_the_last_bust_finishes_the_tournament_and_winds_it_up():
    event, seated = event_in_play()
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=seated[3].pk)
    assert status_of(event) == "running"

    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=seated[2].pk)

    assert status_of(event) == "finished"
    assert Clock.objects.get(pk=event.pk).status == "finished"
    assert not Table.objects.filter(tournament=event, broken_at=None).exists()
    assert AuditEntry.objects.filter(action="tournament.finished").count() == 1
    places = finishing_places(event.pk)
    assert {seat: places[seated[seat].pk].place for seat in (1, 2, 3)} == {1: 1, 2: 2, 3: 3}


def test_the_last_bust_in_a_hands_result_finishes_the_tournament():
    event, seated = event_in_play(seats=(1, 2))
    button_at(event, 1, 1)

    finish(event, 1, deal(event, 1), busts=[2])

    assert status_of(event) == "finished"


def test_players_a_table_busts_together_to_the_last_finish_the_tournament():
    event, seated = event_in_play(seats=(1, 2, 3))

    services.table_busts_record(actor=None, tournament_id=event.pk, number=1, seats=[2, 3])

    assert status_of(event) == "finished"


def test_a_disqualification_that_leaves_one_player_finishes_the_tournament():
    """TDA 71-D: the player left has won."""
    event, seated = event_in_play(seats=(1, 2))

    rulings.penalty_give(
        actor=None,
        tournament_id=event.pk,
        data={"entry": seated[2].pk, "kind": "disqualification", "rules": ["71-D"]},
    )

    assert status_of(event) == "finished"


def test_during_late_registration_one_player_left_has_not_won_yet():
    """TDA 8-A: more may still buy in, so the event runs on."""
    event, seated = event_in_play(seats=(1, 2), late_reg_until_level=3)

    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=seated[2].pk)

    assert status_of(event) == "running"
    assert Clock.objects.get(pk=event.pk).status == "running"


def test_undoing_the_deciding_bust_lets_the_tournament_run_again():
    """A wrong last bust is a click away: its undo opens the table again, pauses the
    clock where it stopped and puts the player back in the seat."""
    event, seated = event_in_play(seats=(1, 2))
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=seated[2].pk)
    assert status_of(event) == "finished"

    bust_services.entry_bust_undo(actor=None, tournament_id=event.pk, entry_id=seated[2].pk)

    assert status_of(event) == "running"
    assert Table.objects.get(tournament=event, number=1).broken_at is None
    assert Clock.objects.get(pk=event.pk).status == "paused"
    assert Seat.objects.get(entry=seated[2]).number == 2
    assert finishing_places(event.pk) == {}
    assert AuditEntry.objects.filter(action="tournament.running").count() == 2  # start, undo


def test_a_bust_cannot_be_undone_once_a_deal_ended_the_tournament():
    """Casino §6: the deal among the players left is final."""
    event, seated = event_in_play(seats=(1, 2, 3))
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=seated[3].pk)
    left = [seated[1], seated[2]]
    figures = prize_services.deal_calculate(
        tournament_id=event.pk, method="chip_chop", chips=[30000, 30000]
    )
    prize_services.deal_record(
        actor=None,
        tournament_id=event.pk,
        method="chip_chop",
        players=[
            {"entry": entry.pk, "chips": 30000, "amount": row["amount"]}
            for entry, row in zip(left, figures["players"], strict=True)
        ],
    )
    assert status_of(event) == "finished"

    with pytest.raises(Conflict) as refused:
        bust_services.entry_bust_undo(actor=None, tournament_id=event.pk, entry_id=seated[3].pk)

    assert refused.value.code == "tournament_closed"
    assert status_of(event) == "finished"

"""A satellite ends when as many players are left as its pool buys seats in the target
event (issue 17, casino and TDA practice): play stops, every player left wins a seat (a
ticket worth the target's buy-in and fee), and none of them is ranked above another.
Undoing the bust that ended it takes the tickets back while none was used."""

from types import SimpleNamespace

import pytest

from clock import services as clock_services
from clock.models import Clock
from clock.tests.factories import with_structure
from floorman.celery import SATELLITE_SEATS_CHECK
from floorman.celery import app as celery_app
from floorman.errors import Conflict
from floorman.models import AuditEntry
from hands.services import busts
from hands.tests.factories import seat_players
from payouts.models import PayoutStructure
from payouts.selectors import payout_table
from prizes.selectors import results
from seating.services import desk
from tournaments.models import Entry, EntryStatus, Ticket, TicketStatus, Tournament
from tournaments.tests.factories import tournament
from web.tasks import satellite_seats_check

pytestmark = pytest.mark.django_db


def main_event(**overrides):
    return tournament(name="Main Event", buy_in=10_000, fee=1_000, **overrides)


def satellite_in_play(target, players=10, **overrides):
    """A €50 + €5 satellite into `target`, `players` seated at two tables, the clock
    started: 10 players make a pool of €500, which buys 4 seats of €110 and leaves €60."""
    sat = tournament(name="Satellite", buy_in=5_000, fee=500, satellite_target=target, **overrides)
    with_structure(sat)
    first = list(range(1, min(players, 9) + 1))
    layout = {1: first} if players <= 9 else {1: first, 2: list(range(1, players - 9 + 1))}
    seated = list(seat_players(sat, layout).values())
    clock_services.clock_act(actor=None, tournament_id=sat.pk, action="start")
    sat.refresh_from_db()
    assert sat.status == "running"
    return sat, seated


def bust(sat, *entries):
    for entry in entries:
        busts.entry_bust(actor=None, tournament_id=sat.pk, entry_id=entry.pk)


def status_of(event) -> str:
    return Tournament.objects.get(pk=event.pk).status


def test_the_payout_table_shows_the_seats_and_the_cash_left_to_the_next_place():
    target = main_event()
    sat, _seated = satellite_in_play(target)

    table = payout_table(sat)

    assert (table.seats, table.seat_value) == (4, 11_000)
    assert table.amounts == (0, 0, 0, 0, 6_000)  # place 5, first out of the seats: €60
    assert table.places_paid == 5
    assert table.balanced and table.difference == 0


def test_shared_cash_goes_to_the_seat_winners_in_whole_house_units():
    target = main_event()
    sat, _seated = satellite_in_play(target, satellite_remainder="shared")
    PayoutStructure.objects.create(tournament=sat, unit=100)

    table = payout_table(sat)

    assert table.amounts == (1_500, 1_500, 1_500, 1_500)
    assert table.places_paid == 4


def test_a_pool_that_buys_no_seat_is_a_problem_for_the_director():
    target = main_event()
    sat, _seated = satellite_in_play(target, players=2)  # €100: not one seat of €110

    table = payout_table(sat)

    assert table.seats == 0
    assert [problem.code for problem in table.problems] == ["no_seat"]


def test_play_stops_when_the_players_left_equal_the_seats_and_each_wins_a_ticket():
    target = main_event()
    sat, seated = satellite_in_play(target)

    bust(sat, *seated[:5])
    assert status_of(sat) == "running"  # 5 left, 4 seats
    assert not Ticket.objects.exists()

    bust(sat, seated[5])

    assert status_of(sat) == "finished"
    assert Clock.objects.get(pk=sat.pk).status == "finished"
    winners = seated[6:]
    tickets = Ticket.objects.filter(satellite=sat).order_by("won_by__number")
    assert [t.won_by_id for t in tickets] == [e.pk for e in winners]
    assert [t.holder_id for t in tickets] == [e.player_id for e in winners]
    assert {(t.target_id, t.buy_in, t.fee, t.status) for t in tickets} == {
        (target.pk, 10_000, 1_000, TicketStatus.ISSUED)
    }
    assert AuditEntry.objects.filter(action="tickets.issue").count() == 1
    # The winners stay in: nobody busts them, nobody ranks them.
    assert set(Entry.objects.filter(tournament=sat, status=EntryStatus.ACTIVE)) == set(winners)


def test_the_seat_winners_share_the_seat_places_and_the_next_place_gets_the_cash():
    target = main_event()
    sat, seated = satellite_in_play(target)
    bust(sat, *seated[:6])

    found = results(sat)

    by_entry = {row.entry_id: row for row in found.rows}
    for entry in seated[6:]:
        row = by_entry[entry.pk]
        assert row.seat and row.shared == (1, 4) and row.prize == 0
    bubble = by_entry[seated[5].pk]
    assert (bubble.place, bubble.seat, bubble.prize) == (5, False, 6_000)
    assert not found.conflicts


def test_shared_cash_is_each_seat_winners_prize():
    target = main_event()
    sat, seated = satellite_in_play(target, satellite_remainder="shared")
    bust(sat, *seated[:6])

    found = results(sat)

    prizes = {row.entry_id: row.prize for row in found.rows if row.seat}
    assert sorted(prizes.values()) == [1_500] * 4


def test_the_ticket_is_worth_the_targets_buy_in_and_fee_at_that_moment():
    target = main_event()
    sat, seated = satellite_in_play(target)
    Tournament.objects.filter(pk=target.pk).update(buy_in=20_000, fee=2_000)

    bust(sat, *seated[:8])  # €500 buys 2 seats of €220 now, €60 left

    assert status_of(sat) == "finished"
    assert {(t.buy_in, t.fee) for t in Ticket.objects.all()} == {(20_000, 2_000)}
    assert Ticket.objects.count() == 2


def test_undoing_the_bust_that_ended_it_takes_the_tickets_back():
    target = main_event()
    sat, seated = satellite_in_play(target)
    bust(sat, *seated[:6])

    busts.entry_bust_undo(actor=None, tournament_id=sat.pk, entry_id=seated[5].pk)

    assert status_of(sat) == "running"
    assert not Ticket.objects.exists()
    assert AuditEntry.objects.filter(action="tickets.take_back").count() == 1
    # And play can end again, with the same seats.
    bust(sat, seated[5])
    assert Ticket.objects.count() == 4


def test_the_undo_is_refused_once_a_ticket_was_used():
    target = main_event()
    sat, seated = satellite_in_play(target)
    bust(sat, *seated[:6])
    ticket = Ticket.objects.first()
    desk.entry_register(
        actor=None, tournament_id=target.pk, player_id=ticket.holder_id, ticket_id=ticket.pk
    )

    with pytest.raises(Conflict) as refused:
        busts.entry_bust_undo(actor=None, tournament_id=sat.pk, entry_id=seated[5].pk)

    assert refused.value.code == "tickets_used"
    assert status_of(sat) == "finished"
    assert Ticket.objects.count() == 4


def test_an_ordinary_event_still_ends_with_one_player():
    event = main_event()
    with_structure(event)
    seated = list(seat_players(event, {1: [1, 2, 3]}).values())
    clock_services.clock_act(actor=None, tournament_id=event.pk, action="start")

    bust(event, seated[0], seated[1])

    assert status_of(event) == "finished"
    assert not Ticket.objects.exists()


def test_the_public_results_say_seat_won():
    from django.test import Client
    from django.urls import reverse

    target = main_event()
    sat, seated = satellite_in_play(target)
    bust(sat, *seated[:6])

    page = Client(HTTP_X_FORWARDED_PROTO="https").get(reverse("results-public", args=[sat.pk]))

    assert page.content.decode().count("Seat won") == 4


def test_a_satellite_down_to_its_seats_ends_when_the_clock_closes_late_registration(
    monkeypatch, django_capture_on_commit_callbacks
):
    target = main_event()
    sat, seated = satellite_in_play(target, late_reg_until_level=1)
    bust(sat, *seated[4:])  # four left for four seats, but players may still come
    assert status_of(sat) == "running"
    sent = []
    monkeypatch.setattr(  # the worker's part: the web task runs the hands' check
        celery_app,
        "signature",
        lambda name, args: SimpleNamespace(apply_async=lambda: sent.append((name, args))),
    )

    with django_capture_on_commit_callbacks(execute=True):  # level 2: registration over
        clock_services.clock_act(actor=None, tournament_id=sat.pk, action="next")
    assert sent == [(SATELLITE_SEATS_CHECK, (sat.pk,))]
    satellite_seats_check(sat.pk)

    assert status_of(sat) == "finished"
    assert Ticket.objects.filter(satellite=sat, status=TicketStatus.ISSUED).count() == 4


def test_a_satellite_down_to_its_seats_ends_when_the_director_closes_late_registration():
    target = main_event()
    sat, seated = satellite_in_play(target, late_reg_until_level=5)
    bust(sat, *seated[4:])

    busts.tournament_edit(actor=None, tournament_id=sat.pk, data={"late_reg_until_level": None})

    assert status_of(sat) == "finished"
    assert Ticket.objects.filter(satellite=sat).count() == 4

"""The chips a ticket's entry brings (issue 17, where flights, Day 2 and tickets meet):
a late entry into Day 2 paid with a ticket brings the Day 2 stack like one paid in
cash, and an entry paid with a ticket and cancelled brings none."""

import pytest

from seating.services import desk
from tournaments.models import Bag, BagStatus, Ticket, Tournament
from tournaments.selectors import chips_in_play, day2_chips_sold
from tournaments.tests.festival_factories import bagged, enter, event_with_flights, player

pytestmark = pytest.mark.django_db


def won_ticket(event, holder) -> Ticket:
    return Ticket.objects.create(target=event, holder=holder, buy_in=event.buy_in, fee=event.fee)


def enter_with(tournament, ticket):
    return desk.entry_register(
        actor=None, tournament_id=tournament.pk, player_id=ticket.holder_id, ticket_id=ticket.pk
    ).entry


def test_a_late_entry_into_day2_with_a_ticket_brings_the_day2_stack():
    event, (flight,) = event_with_flights("1A", day2_late_entry=True, day2_late_stack=50_000)
    survivor = enter(flight, player("Ada"))
    enter(flight, player("Ben"))
    bagged(flight, {survivor: 40_000})
    Bag.objects.filter(flight=flight).update(status=BagStatus.CARRIED)  # Day 2 has begun
    Tournament.objects.filter(pk=event.pk).update(status="registering")
    desk.entry_register(actor=None, tournament_id=event.pk, player_id=player("Cleo").pk)

    enter_with(event, won_ticket(event, player("Dora")))

    assert day2_chips_sold(event) == 40_000 + 2 * 50_000


def test_an_entry_paid_with_a_ticket_and_cancelled_brings_no_chips_to_its_flight():
    event, (flight,) = event_with_flights("1A")
    enter(flight, player("Ada"))
    entry = enter_with(flight, won_ticket(event, player("Ben")))
    assert chips_in_play(flight) == 2 * flight.starting_stack

    desk.entry_cancel(actor=None, tournament_id=flight.pk, entry_id=entry.pk)

    assert chips_in_play(flight) == flight.starting_stack

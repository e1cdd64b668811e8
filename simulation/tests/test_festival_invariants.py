"""The festival's invariants (issue 17) against a small festival written row by row:
they pass on a consistent one and name what broke on one broken on purpose."""

from datetime import timedelta

import pytest
from django.utils import timezone

from simulation.invariants import SimulationError
from simulation.invariants.festival import (
    bags_check,
    carried_check,
    day2_chips_check,
    tickets_check,
)
from tournaments.models import (
    Bag,
    BagStatus,
    Entry,
    EntryStatus,
    FlightEnd,
    Player,
    Ticket,
    TicketStatus,
    Tournament,
    TournamentStatus,
    Transaction,
    TransactionKind,
)
from tournaments.services.ledger import ledger_line_add

BUY_IN, FEE, STACK = 10_000, 1_000, 20_000


def _event(**fields) -> Tournament:
    fields = {"start_at": timezone.now(), **fields}
    return Tournament.objects.create(buy_in=BUY_IN, fee=FEE, starting_stack=STACK, **fields)


def _entry(tournament, player, number, *, chips, active=True, ticket=None) -> Entry:
    entry = Entry.objects.create(
        tournament=tournament,
        player=player,
        number=number,
        chips=chips,
        status=EntryStatus.ACTIVE if active else EntryStatus.BUSTED,
    )
    if ticket is None:
        ledger_line_add(
            tournament=tournament,
            entry=entry,
            kind=TransactionKind.BUY_IN,
            amount=BUY_IN + FEE,
            prize_share=BUY_IN,
            fee_share=FEE,
        )
    else:
        ticket_line(tournament, entry, ticket)
    return entry


def ticket_line(tournament, entry, ticket) -> Transaction:
    return ledger_line_add(
        tournament=tournament,
        entry=entry,
        kind=TransactionKind.TICKET,
        amount=BUY_IN,
        prize_share=BUY_IN,
        fee_share=0,
        ticket=ticket,
    )


def _flight_ends(flight, survivors, *, difference=0) -> None:
    FlightEnd.objects.create(
        flight=flight,
        reason=FlightEnd.Reason.SHARE,
        chips_in_play=sum(entry.chips for entry in survivors),
        confirmed_at=timezone.now(),
        difference=difference,
    )
    for number, entry in enumerate(survivors, start=1):
        Bag.objects.create(flight=flight, entry=entry, number=number, chips=entry.chips)


@pytest.fixture
def festival():
    """Day 1A: Anna and Ben survive, Clara busts. Day 1B: Ben survives again with less,
    Dora (with a satellite's ticket) busts. Day 2: Anna's and Ben's 1A bags carried, Ben's
    1B bag forfeited (the house keeps the larger stack)."""
    event = _event(name="Main Event", flight_end_percent=30)
    a, b = (
        _event(
            name=f"Main Event – {name}",
            parent=event,
            flight_name=name,
            status=TournamentStatus.FINISHED,
            start_at=timezone.now() + timedelta(days=day),
        )
        for day, name in enumerate(["Day 1A", "Day 1B"])
    )
    anna, ben, clara, dora = (
        Player.objects.create(name=n) for n in ["Anna", "Ben", "Clara", "Dora"]
    )
    satellite = _event(name="Satellite", satellite_target=event, status=TournamentStatus.FINISHED)
    ticket = Ticket.objects.create(
        target=event, satellite=satellite, holder=dora, buy_in=BUY_IN, fee=FEE
    )
    a_survivors = [_entry(a, anna, 1, chips=35_000), _entry(a, ben, 2, chips=25_000)]
    _entry(a, clara, 3, chips=0, active=False)
    b_survivors = [_entry(b, ben, 1, chips=15_000)]
    dora_entry = _entry(b, dora, 2, chips=0, active=False, ticket=ticket)
    Ticket.objects.filter(pk=ticket.pk).update(status=TicketStatus.USED, used_by=dora_entry)
    _flight_ends(a, a_survivors)
    _flight_ends(b, b_survivors)
    for number, bag in enumerate(Bag.objects.filter(flight=a).order_by("number"), start=1):
        entry = Entry.objects.create(
            tournament=event, player=bag.entry.player, number=number, chips=bag.chips
        )
        Bag.objects.filter(pk=bag.pk).update(status=BagStatus.CARRIED, day2_entry=entry)
    Bag.objects.filter(flight=b).update(
        status=BagStatus.FORFEITED, forfeit_reason="Ben keeps his larger Day 1A stack"
    )
    return event, a, b, ticket


def all_checks(event, flights):
    for flight in flights:
        bags_check(flight, step="test", confirmed=True)
    carried_check(event, step="test", day2_start=True)
    day2_chips_check(event, step="test")
    tickets_check(event, step="test")


@pytest.mark.django_db
def test_the_festival_checks_pass_on_a_consistent_festival(festival):
    event, a, b, _ticket = festival

    all_checks(event, [a, b])


@pytest.mark.django_db
def test_a_bag_with_chips_its_player_never_had_breaks_the_bag_invariant(festival):
    _event, a, _b, _ticket = festival
    Bag.objects.filter(flight=a, number=1).update(chips=36_000)

    with pytest.raises(SimulationError, match="the bags hold 61,000 chips; in play were 60,000"):
        bags_check(a, step="Day 1A, bags confirmed", confirmed=True)


@pytest.mark.django_db
def test_a_difference_the_director_confirmed_is_no_broken_invariant(festival):
    _event, a, _b, _ticket = festival
    Bag.objects.filter(flight=a, number=1).update(chips=35_100)
    FlightEnd.objects.filter(flight=a).update(difference=100)

    bags_check(a, step="test", confirmed=True)


@pytest.mark.django_db
def test_a_bag_for_a_player_who_busted_breaks_the_bag_invariant(festival):
    _event, a, _b, _ticket = festival
    Entry.objects.filter(tournament=a, number=2).update(status=EntryStatus.BUSTED)

    with pytest.raises(SimulationError, match=r"bags \[2\] belong to entries no longer in"):
        bags_check(a, step="test")


@pytest.mark.django_db
def test_a_player_carrying_two_bags_breaks_the_survivor_rule(festival):
    event, _a, b, _ticket = festival
    Bag.objects.filter(flight=b).update(status=BagStatus.CARRIED, forfeit_reason="")

    with pytest.raises(SimulationError, match="carries 2 bags to Day 2|not its player's Day 2"):
        carried_check(event, step="test")


@pytest.mark.django_db
def test_keeping_the_smaller_bag_breaks_the_larger_stack_rule(festival):
    event, a, b, _ticket = festival
    larger = Bag.objects.get(flight=a, number=2)
    smaller = Bag.objects.get(flight=b)
    entry = larger.day2_entry
    Bag.objects.filter(pk=larger.pk).update(
        status=BagStatus.FORFEITED, day2_entry=None, forfeit_reason="kept the other"
    )
    Bag.objects.filter(pk=smaller.pk).update(
        status=BagStatus.CARRIED, day2_entry=entry, forfeit_reason=""
    )

    with pytest.raises(SimulationError, match="keeps the smaller bag"):
        carried_check(event, step="test")


@pytest.mark.django_db
def test_a_day2_chip_from_no_bag_breaks_the_day2_chips_invariant(festival):
    event, *_rest = festival
    Entry.objects.filter(tournament=event, number=1).update(chips=35_001)

    with pytest.raises(SimulationError, match="Day 2 holds 60,001 chips; the bags carried 60,000"):
        day2_chips_check(event, step="Day 2, round 3: hands")


@pytest.mark.django_db
def test_a_ticket_paid_with_twice_breaks_the_ticket_invariant(festival):
    event, _a, b, ticket = festival
    ticket_line(b, ticket.used_by, ticket)

    with pytest.raises(SimulationError, match=f"ticket {ticket.pk} has 2 lines"):
        tickets_check(event, step="test")


@pytest.mark.django_db
def test_an_unused_ticket_with_a_line_breaks_the_ticket_invariant(festival):
    event, _a, _b, ticket = festival
    Ticket.objects.filter(pk=ticket.pk).update(status=TicketStatus.ISSUED, used_by=None)

    with pytest.raises(SimulationError, match="is issued but an entry paid with it"):
        tickets_check(event, step="test")

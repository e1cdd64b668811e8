"""A seat won in a satellite is a ticket (issue 17): entering the target with it costs
no money (a TICKET line, neither cash nor fee) while the prize pool counts it at the
full buy-in; it is used once; cancelling that entry gives the ticket back; the house
decides whether a ticket may go to another player or be paid out as cash."""

import pytest
from django.db import IntegrityError, transaction

from floorman.errors import Conflict, Invalid, NotFound
from floorman.models import AuditEntry
from floorman.tests.concurrency import at_once
from hands.services.busts import tournament_edit
from seating.services import desk
from tournaments import services
from tournaments.models import (
    Entry,
    Ticket,
    TicketStatus,
    TicketTransfer,
    Transaction,
    TransactionKind,
)
from tournaments.selectors import tournament_totals
from tournaments.services import tickets
from tournaments.tests.factories import register, tournament

pytestmark = pytest.mark.django_db


def player(name: str):
    return services.player_create(actor=None, data={"name": name})


def won_ticket(target, holder, *, satellite=None) -> Ticket:
    """A ticket as a satellite's end issues it: worth the target's buy-in and fee."""
    satellite = satellite or tournament(
        name="Satellite", buy_in=5_000, fee=500, satellite_target=target, status="finished"
    )
    return Ticket.objects.create(
        target=target, satellite=satellite, holder=holder, buy_in=target.buy_in, fee=target.fee
    )


def enter_with(target, ticket, holder=None):
    return desk.entry_register(
        actor=None,
        tournament_id=target.pk,
        player_id=(holder or ticket.holder).pk,
        ticket_id=ticket.pk,
    )


# --- Entering with a ticket ---------------------------------------------------------------


def test_a_ticket_enters_the_player_without_money_and_the_pool_counts_the_full_buy_in():
    target = tournament(buy_in=10_000, fee=1_000)
    register(target, "Paying Player")
    ada = player("Ada")
    ticket = won_ticket(target, ada)

    entry = enter_with(target, ticket).entry

    line = Transaction.objects.get(entry=entry)
    assert (line.kind, line.amount, line.prize_share, line.fee_share, line.ticket_id) == (
        TransactionKind.TICKET,
        10_000,
        10_000,
        0,
        ticket.pk,
    )
    ticket.refresh_from_db()
    assert (ticket.status, ticket.used_by_id) == (TicketStatus.USED, entry.pk)
    assert entry.chips == target.starting_stack
    totals = tournament_totals(target)
    assert totals.entries == 2  # the ticket's entry counts as an entry
    assert totals.tickets == 1
    assert totals.prize_pool.collected == 20_000  # both at the full buy-in
    assert totals.fees == 1_000  # only the paying player's fee
    cash_in = sum(
        Transaction.objects.filter(tournament=target)
        .exclude(kind=TransactionKind.TICKET)
        .values_list("amount", flat=True)
    )
    assert cash_in == 11_000  # the cashier took money from one player only
    assert AuditEntry.objects.filter(action="entry.register", after__ticket=ticket.pk).exists()


def test_a_ticket_is_used_once():
    target = tournament()
    ada = player("Ada")
    ticket = won_ticket(target, ada)
    entry = enter_with(target, ticket).entry
    desk.entry_cancel(actor=None, tournament_id=target.pk, entry_id=entry.pk)
    enter_with(target, ticket)
    other = tournament(name="Another event")

    with pytest.raises(Conflict) as refused:
        enter_with(target, ticket)

    assert refused.value.code == "ticket_used"
    with pytest.raises(Invalid):  # and never into another event
        enter_with(other, ticket)


def test_the_database_holds_a_used_ticket_to_one_entry():
    target = tournament()
    ada, bo = player("Ada"), player("Bo")
    first, second = won_ticket(target, ada), won_ticket(target, bo)
    entry = enter_with(target, first).entry

    with pytest.raises(IntegrityError), transaction.atomic():
        Ticket.objects.filter(pk=second.pk).update(status=TicketStatus.USED, used_by=entry)
    with pytest.raises(IntegrityError), transaction.atomic():
        Ticket.objects.filter(pk=second.pk).update(status=TicketStatus.USED)


def test_a_ticket_is_the_holders_and_for_its_event():
    target = tournament()
    ada, bo = player("Ada"), player("Bo")
    ticket = won_ticket(target, ada)

    with pytest.raises(Invalid) as wrong_player:
        enter_with(target, ticket, holder=bo)
    with pytest.raises(Invalid) as no_ticket:
        desk.entry_register(actor=None, tournament_id=target.pk, player_id=ada.pk, ticket_id=999)

    assert "ticket_id" in wrong_player.value.fields
    assert "ticket_id" in no_ticket.value.fields
    assert not Entry.objects.filter(tournament=target).exists()


def test_cancelling_an_entry_paid_with_a_ticket_gives_the_ticket_back_not_cash():
    target = tournament(buy_in=10_000, fee=1_000)
    ticket = won_ticket(target, player("Ada"))
    entry = enter_with(target, ticket).entry

    desk.entry_cancel(actor=None, tournament_id=target.pk, entry_id=entry.pk)

    ticket.refresh_from_db()
    assert (ticket.status, ticket.used_by_id) == (TicketStatus.ISSUED, None)
    lines = Transaction.objects.filter(tournament=target)
    assert set(lines.values_list("kind", flat=True)) == {TransactionKind.TICKET}
    assert not lines.filter(kind=TransactionKind.REFUND).exists()  # no cash went back
    totals = tournament_totals(target)
    assert (totals.entries, totals.tickets, totals.prize_pool.collected) == (0, 0, 0)
    assert AuditEntry.objects.get(action="entry.cancel").after["refunded"] == 0


@pytest.mark.parametrize("chosen", [False, True], ids=["listed", "chosen_at_admission"])
def test_an_alternate_with_a_ticket_enters_with_it_not_cash(chosen):
    """Casino §8b: sold out, the ticket holder waits; let in, the ticket pays."""
    target = tournament(capacity=1)
    paying = register(target, "Paying Player").entry
    ada = player("Ada")
    ticket = won_ticket(target, ada)
    listed = desk.entry_register(
        actor=None,
        tournament_id=target.pk,
        player_id=ada.pk,
        ticket_id=None if chosen else ticket.pk,
    ).alternate
    assert listed is not None  # sold out: on the alternates list
    desk.entry_cancel(actor=None, tournament_id=target.pk, entry_id=paying.pk)

    entry = desk.alternate_enter_next(
        actor=None, tournament_id=target.pk, ticket_id=ticket.pk if chosen else None
    )

    assert entry.player_id == ada.pk
    line = Transaction.objects.get(entry=entry)
    assert (line.kind, line.amount, line.fee_share) == (TransactionKind.TICKET, 10_000, 0)
    ticket.refresh_from_db()
    assert (ticket.status, ticket.used_by_id) == (TicketStatus.USED, entry.pk)


def test_a_flight_takes_a_ticket_for_its_event():
    event = tournament(name="Main Event")
    flight = tournament(name="Main Event Day 1A", parent=event, flight_name="1A")
    ticket = won_ticket(event, player("Ada"))

    entry = enter_with(flight, ticket).entry

    assert entry.tournament_id == flight.pk


# --- Transfer and refund --------------------------------------------------------------------


def test_a_ticket_goes_to_another_player_where_the_house_allows_it():
    target = tournament(tickets_transferable=True)
    ada, bo = player("Ada"), player("Bo")
    ticket = won_ticket(target, ada)

    tickets.ticket_transfer(actor=None, ticket_id=ticket.pk, player_id=bo.pk)

    ticket.refresh_from_db()
    assert ticket.holder_id == bo.pk
    transfer = TicketTransfer.objects.get(ticket=ticket)
    assert (transfer.from_player_id, transfer.to_player_id) == (ada.pk, bo.pk)
    assert AuditEntry.objects.filter(action="ticket.transfer").count() == 1
    enter_with(target, ticket)  # Bo enters with it


def test_a_transfer_is_refused_where_the_house_does_not_allow_it():
    target = tournament(tickets_transferable=False)
    ticket = won_ticket(target, player("Ada"))

    with pytest.raises(Conflict) as refused:
        tickets.ticket_transfer(actor=None, ticket_id=ticket.pk, player_id=player("Bo").pk)

    assert refused.value.code == "ticket_not_transferable"
    assert not TicketTransfer.objects.exists()


def test_a_used_ticket_is_not_transferred_nor_refunded():
    target = tournament(tickets_transferable=True, tickets_refundable=True)
    ticket = won_ticket(target, player("Ada"))
    enter_with(target, ticket)

    with pytest.raises(Conflict) as transfer:
        tickets.ticket_transfer(actor=None, ticket_id=ticket.pk, player_id=player("Bo").pk)
    with pytest.raises(Conflict) as refund:
        tickets.ticket_refund(actor=None, ticket_id=ticket.pk)

    assert transfer.value.code == refund.value.code == "ticket_closed"


def test_a_transfer_needs_another_existing_player():
    target = tournament(tickets_transferable=True)
    ada = player("Ada")
    ticket = won_ticket(target, ada)

    with pytest.raises(Invalid):
        tickets.ticket_transfer(actor=None, ticket_id=ticket.pk, player_id=ada.pk)
    with pytest.raises(Invalid):
        tickets.ticket_transfer(actor=None, ticket_id=ticket.pk, player_id=987_654)
    with pytest.raises(NotFound):
        tickets.ticket_transfer(actor=None, ticket_id=987_654, player_id=ada.pk)


def test_a_refund_pays_the_value_out_of_the_satellites_pool():
    target = tournament(buy_in=10_000, fee=1_000, tickets_refundable=True)
    ticket = won_ticket(target, player("Ada"))

    tickets.ticket_refund(actor=None, ticket_id=ticket.pk)

    ticket.refresh_from_db()
    assert ticket.status == TicketStatus.REFUNDED and ticket.closed_at is not None
    line = Transaction.objects.get(ticket=ticket)
    assert (line.tournament_id, line.kind, line.amount, line.fee_share) == (
        ticket.satellite_id,
        TransactionKind.PAYOUT,
        -11_000,
        0,
    )
    assert tournament_totals(target).prize_pool.collected == 0  # the target's pool untouched
    with pytest.raises(Conflict):
        enter_with(target, ticket)


def test_a_refund_is_refused_where_the_house_does_not_allow_it():
    target = tournament(tickets_refundable=False)
    ticket = won_ticket(target, player("Ada"))

    with pytest.raises(Conflict) as refused:
        tickets.ticket_refund(actor=None, ticket_id=ticket.pk)

    assert refused.value.code == "ticket_not_refundable"
    assert not Transaction.objects.exists()


# --- The satellite's target ---------------------------------------------------------------


def test_a_satellite_names_another_event_still_to_be_played_that_is_no_satellite():
    target = tournament(name="Main Event")
    data = {
        "name": "Satellite",
        "buy_in": 5_000,
        "starting_stack": 10_000,
        "start_at": target.start_at,
    }

    sat = services.tournament_create(actor=None, data={**data, "satellite_target_id": target.pk})
    assert sat.satellite_target_id == target.pk

    for bad in (sat.pk, tournament(status="finished").pk, tournament(status="cancelled").pk):
        with pytest.raises(Invalid) as refused:
            services.tournament_create(actor=None, data={**data, "satellite_target_id": bad})
        assert "satellite_target_id" in refused.value.fields
    with pytest.raises(Invalid):  # not itself
        tournament_edit(actor=None, tournament_id=sat.pk, data={"satellite_target_id": sat.pk})
    tournament_edit(actor=None, tournament_id=sat.pk, data={"satellite_target_id": None})
    assert not type(sat).objects.get(pk=sat.pk).is_satellite


# --- Two desks at once ------------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_desks_using_one_ticket_at_once_make_one_entry():
    target = tournament()
    ada = player("Ada")
    ticket = won_ticket(target, ada)

    def sell():
        return enter_with(target, ticket, holder=ada)

    results = at_once(sell, sell)

    codes = sorted(getattr(r, "code", "ok") for r in results)
    assert codes == ["ok", "ticket_used"]
    assert Entry.objects.filter(tournament=target).count() == 1
    assert Transaction.objects.filter(ticket=ticket).count() == 1

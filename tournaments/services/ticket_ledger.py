"""The ledger's side of a ticket (issue 17): the line of an entry paid with one, and the
ticket given back when that line is reversed. Parts of the sale and the refund in
tournaments.services, under their caller's lock; apart from tickets.py, which builds on
tournaments.services, so that the sale can call these without a circle."""

from django.utils import timezone

from floorman.audit import staff_user
from tournaments.models import Entry, Ticket, TicketStatus, Tournament, Transaction, TransactionKind
from tournaments.services.ledger import ledger_line_add


def ticket_line(*, actor, tournament: Tournament, entry: Entry, ticket: Ticket) -> Transaction:
    """The ledger line of an entry paid with a ticket, and the ticket used by it: kind
    TICKET, neither cash in nor fee. Its prize share is the event's buy-in (the prize
    pool counts the ticket at its full buy-in), its fee share 0, its bounty share the
    bounty the ticket was issued with (issue 18: the satellite paid it; kept apart from
    the prize pool), and `amount` their sum (the ledger's rule amount = prize share + fee
    share + bounty share). Under the caller's lock (tournaments.services.entry_sell)."""
    line = ledger_line_add(
        tournament=tournament,
        entry=entry,
        kind=TransactionKind.TICKET,
        amount=tournament.buy_in + ticket.bounty,
        prize_share=tournament.buy_in,
        fee_share=0,
        bounty_share=ticket.bounty,
        ticket=ticket,
        cashier=staff_user(actor),
    )
    ticket.status = TicketStatus.USED
    ticket.used_by = entry
    ticket.closed_at = timezone.now()
    ticket.save(update_fields=["status", "used_by", "closed_at"])
    return line


def ticket_give_back(ticket_id: int) -> None:
    """An entry paid with a ticket was cancelled (its TICKET line reversed): the ticket
    can be used again. Under the caller's lock (tournaments.services)."""
    Ticket.objects.filter(pk=ticket_id).update(
        status=TicketStatus.ISSUED, used_by=None, closed_at=None
    )

"""Tickets: the seats a satellite wins in its target event (issue 17).

A ticket is issued to each player left when a satellite's play stops
(`tickets_issue`, under the satellite's lock, called by hands.services.satellites), used
once to enter the target (`ticket_take`, under the target's lock, called by
seating.services.desk.entry_register; its ledger line in `ticket_ledger`), given back
when that entry is cancelled (its ledger line reversed), and, where the target's house allows
it, given to another player (`ticket_transfer`) or paid out as cash (`ticket_refund`).
Every change of a ticket after its issue happens under the target's lock; its row is
locked as well, so that the satellite's undo (`tickets_take_back`) and a desk using it
never both win.
"""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from floorman.audit import audit_record, staff_user
from floorman.errors import Invalid, NotFound
from tournaments.models import (
    EntryStatus,
    Player,
    Ticket,
    TicketStatus,
    TicketTransfer,
    Tournament,
    TransactionKind,
)
from tournaments.selectors import bounty_due
from tournaments.services import refuse, tournament_lock, tournament_publish
from tournaments.services.ledger import ledger_line_add


def ticket_public(ticket: Ticket) -> dict:
    """What the audit log keeps of a ticket (no contact data)."""
    return {
        "id": ticket.pk,
        "target": ticket.target_id,
        "holder": ticket.holder_id,
        "buy_in": ticket.buy_in,
        "fee": ticket.fee,
        "bounty": ticket.bounty,
        "status": ticket.status,
        "used_by": ticket.used_by_id,
    }


# --- Won in a satellite ------------------------------------------------------------------


def tickets_issue(*, actor, satellite: Tournament) -> list[Ticket]:
    """The tickets' part of a satellite's end, under the caller's lock
    (hands.services.satellites): one ticket to each player left, for the target event,
    worth the target's buy-in and fee at this moment, and in an event with bounties its
    bounty (issue 18: the seat pays all three), `won_by` the entry. Audited
    (tickets.issue) on the satellite; a live event on the target (the satellite's own is
    its status change)."""
    target = Tournament.objects.get(pk=satellite.satellite_target_id)
    bounty = bounty_due(target)
    winners = satellite.entries.filter(status=EntryStatus.ACTIVE).order_by("number")
    tickets = Ticket.objects.bulk_create(
        [
            Ticket(
                target=target,
                satellite=satellite,
                won_by=entry,
                holder_id=entry.player_id,
                buy_in=target.buy_in,
                fee=target.fee,
                bounty=bounty,
            )
            for entry in winners
        ]
    )
    audit_record(
        actor=actor,
        action="tickets.issue",
        obj=satellite,
        tournament=satellite,
        after={
            "target": target.pk,
            "buy_in": target.buy_in,
            "fee": target.fee,
            "bounty": bounty,
            "tickets": [{"id": t.pk, "entry": t.won_by_id, "holder": t.holder_id} for t in tickets],
        },
    )
    tournament_publish(target)  # the target's tickets changed
    return tickets


def tickets_won_count(satellite: Tournament) -> int:
    """The seats the satellite's end gave out (0 while it has not ended by its seats)."""
    return Ticket.objects.filter(satellite=satellite, won_by__isnull=False).count()


def tickets_take_back(*, actor, satellite: Tournament) -> int:
    """The tickets' part of undoing the bust that ended a satellite, under the caller's
    lock (hands.services.busts.bust_back): the tickets it issued are taken back, none may
    have been used, refunded or given to another player (409 `tickets_used`). Audited
    (tickets.take_back). Returns how many were taken back."""
    tickets = list(
        Ticket.objects.select_for_update()
        .filter(satellite=satellite, won_by__isnull=False)
        .order_by("pk")
    )
    if not tickets:
        return 0
    moved = TicketTransfer.objects.filter(ticket__in=tickets).exists()
    if moved or any(ticket.status != TicketStatus.ISSUED for ticket in tickets):
        raise refuse("tickets_used")
    ids = [ticket.pk for ticket in tickets]
    Ticket.objects.filter(pk__in=ids).delete()
    audit_record(
        actor=actor,
        action="tickets.take_back",
        obj=satellite,
        tournament=satellite,
        before={"tickets": ids},
        after={"tickets": []},
    )
    return len(ids)


# --- Entering with a ticket ----------------------------------------------------------------


def ticket_take(*, tournament: Tournament, ticket_id: int, player: Player) -> Ticket:
    """The ticket a registration pays with, locked, under the caller's lock on the
    target (seating.services.desk.entry_register): it must be for this event (or the
    event this flight belongs to), held by this player, and unused (409 `ticket_used`)."""
    ticket = Ticket.objects.select_for_update().filter(pk=ticket_id).first()
    if ticket is None:
        raise Invalid({"ticket_id": _("No ticket with this id.")})
    if ticket.target_id not in (tournament.pk, tournament.parent_id):
        raise Invalid({"ticket_id": _("This ticket is for another event.")})
    if ticket.holder_id != player.pk:
        raise Invalid({"ticket_id": _("This ticket belongs to another player.")})
    if ticket.status != TicketStatus.ISSUED:
        raise refuse("ticket_used")
    return ticket


# --- The cashier's intentions ----------------------------------------------------------


def _ticket_locked(ticket_id: int) -> tuple[Tournament, Ticket]:
    target_id = Ticket.objects.filter(pk=ticket_id).values_list("target_id", flat=True).first()
    if target_id is None:
        raise NotFound(_("No such ticket."))
    target = tournament_lock(target_id)
    ticket = Ticket.objects.select_for_update().filter(pk=ticket_id).first()
    if ticket is None:  # taken back while we waited
        raise NotFound(_("No such ticket."))
    return target, ticket


@transaction.atomic
def ticket_transfer(*, actor, ticket_id: int, player_id: int) -> Ticket:
    """A ticket given to another player, where the target's house allows it.

    1. Lock the target event, then the ticket.
    2. Checks: the house allows it (`tickets_transferable`, else 409), the ticket is
       unused (409), the player exists and is not the holder (400).
    3. The transfer kept (`TicketTransfer`), the new holder written.
    4. Audit (ticket.transfer) and the target's live event.
    """
    target, ticket = _ticket_locked(ticket_id)
    if not target.tickets_transferable:
        raise refuse("ticket_not_transferable")
    if ticket.status != TicketStatus.ISSUED:
        raise refuse("ticket_closed")
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise Invalid({"player_id": _("No player with this id.")})
    if player.pk == ticket.holder_id:
        raise Invalid({"player_id": _("The player already holds this ticket.")})
    before = ticket_public(ticket)
    TicketTransfer.objects.create(
        ticket=ticket, from_player_id=ticket.holder_id, to_player=player, by=staff_user(actor)
    )
    ticket.holder = player
    ticket.save(update_fields=["holder"])
    audit_record(
        actor=actor,
        action="ticket.transfer",
        obj=ticket,
        tournament=target,
        before=before,
        after=ticket_public(ticket),
    )
    tournament_publish(target)
    return ticket


@transaction.atomic
def ticket_refund(*, actor, ticket_id: int) -> Ticket:
    """A ticket paid out as cash, where the target's house allows it.

    1. Lock the target event, then the ticket.
    2. Checks: the house allows it (`tickets_refundable`, else 409), the ticket is
       unused (409).
    3. The ledger line paying its whole value out (buy-in, fee and, for an event with
       bounties, its bounty: issue 18): a PAYOUT of the satellite it was won in (the seat
       was that pool's prize), with the ticket named; the target's pool and bounty money
       are untouched. The ticket REFUNDED.
    4. Audit (ticket.refund) and the target's live event.
    """
    target, ticket = _ticket_locked(ticket_id)
    if not target.tickets_refundable:
        raise refuse("ticket_not_refundable")
    if ticket.status != TicketStatus.ISSUED:
        raise refuse("ticket_closed")
    before = ticket_public(ticket)
    ledger_line_add(
        tournament_id=ticket.satellite_id or target.pk,
        entry_id=ticket.won_by_id,
        kind=TransactionKind.PAYOUT,
        amount=-ticket.value,
        prize_share=-ticket.value,
        fee_share=0,
        ticket=ticket,
        cashier=staff_user(actor),
    )
    ticket.status = TicketStatus.REFUNDED
    ticket.closed_at = timezone.now()
    ticket.save(update_fields=["status", "closed_at"])
    audit_record(
        actor=actor,
        action="ticket.refund",
        obj=ticket,
        tournament=target,
        before=before,
        after={**ticket_public(ticket), "paid": ticket.value},
    )
    tournament_publish(target)
    return ticket

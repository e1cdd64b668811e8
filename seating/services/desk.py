"""The desk's intentions that seat or unseat a player, or close the tables: each one
service under one tournament lock, calling the tournaments' part and then the seating's.

Registration and re-entry with a late seat (TDA 8-A), an alternate let in (casino §8b),
rebuys and add-ons, an entry cancelled, and the event's status (finishing or cancelling it
winds up the clock and the tables). The sales read their deadlines against the level in
play, which the clock knows (clock.selectors.entry_rules), and a re-entry whether the
field is in the money, which the payout table knows (payouts.selectors.in_the_money):
both are read under the lock and passed down to the tournaments' part. Whether the field
is in the money is passed as a question the sale asks only of a re-entry: the payout
table costs four queries, and a first buy-in never needs it (issue 15).
"""

from django.db import transaction

from clock.selectors import entry_rules
from clock.services import clock_end_with_tournament
from payouts.selectors import in_the_money
from seating.services import seat_late_entry, seat_release, tables_close
from tournaments.models import Alternate, Entry, Ticket, Tournament, TournamentStatus
from tournaments.services import (
    Registration,
    addon_sell,
    alternate_admit,
    entry_locked,
    entry_refund,
    entry_sell,
    player_resolve,
    rebuy_sell,
    tournament_lock,
    tournament_status_change,
    tournament_status_record,
    tournament_status_write,
)
from tournaments.services.tickets import ticket_take


@transaction.atomic
def entry_register(
    *,
    actor,
    tournament_id: int,
    player_id: int | None = None,
    player_data: dict | None = None,
    reentry: bool = False,
    ticket_id: int | None = None,
) -> Registration:
    """Sell a buy-in or a re-entry at the desk, for money or with a ticket won in a
    satellite (`ticket_id`, issue 17).

    1. The player, found or created: a person needs no lock, so the desks queue only for
       the short part that decides places and numbers (pretix: lock as late as possible).
    2. Lock the tournament; with a ticket, the ticket (tournaments.services.tickets:
       for this event, this player's, unused, else 400 or 409).
    3. The sale (tournaments): the deadlines and limits against the level in play (the
       clock), no re-entry once the field is in the money (the payout table, casino §12),
       the entry with a full stack, its ledger line, the audit entry and the live event;
       when sold out, a place on the alternates list instead. Paid with a ticket, the
       line is a TICKET (no cash, no fee) and the ticket is used by the entry.
    4. Once the field is drawn, the new entry's seat (TDA 8-A).
    """
    player = player_resolve(player_id=player_id, player_data=player_data)
    tournament = tournament_lock(tournament_id)
    ticket = None
    if ticket_id is not None:
        ticket = ticket_take(tournament=tournament, ticket_id=ticket_id, player=player)
    registration = entry_sell(
        actor=actor,
        tournament=tournament,
        player=player,
        reentry=reentry,
        rules=entry_rules(tournament),
        in_the_money=lambda: in_the_money(tournament),
        ticket=ticket,
    )
    if registration.entry is not None:
        seat_late_entry(actor=actor, tournament=tournament, entry=registration.entry)
    return registration


@transaction.atomic
def alternate_enter_next(*, actor, tournament_id: int, ticket_id: int | None = None) -> Entry:
    """The first alternate in line takes a freed place (casino §8b).

    1. Lock the tournament.
    2. The alternate pays and becomes an entry (tournaments): the deadlines against the
       level in play (the clock); one waiting to re-enter is refused once the field is in
       the money (the payout table, casino §12). With a ticket won in a satellite (issue
       17): the one the desk chose now (`ticket_id`), else the one the player was listed
       with, checked and locked as at registration (`ticket_take`: this event's, the
       player's, unused, else 400 or 409); the line is a TICKET, no cash.
    3. Once the field is drawn, the entry's seat (TDA 8-A).
    """
    tournament = tournament_lock(tournament_id)

    def ticket_for(alternate: Alternate) -> Ticket | None:
        chosen = ticket_id or alternate.ticket_id
        if chosen is None:
            return None
        return ticket_take(tournament=tournament, ticket_id=chosen, player=alternate.player)

    entry = alternate_admit(
        actor=actor,
        tournament=tournament,
        rules=entry_rules(tournament),
        in_the_money=lambda: in_the_money(tournament),
        ticket_for=ticket_for,
    )
    return seat_late_entry(actor=actor, tournament=tournament, entry=entry)


@transaction.atomic
def entry_rebuy(*, actor, tournament_id: int, entry_id: int) -> Entry:
    """A rebuy at the desk: lock the tournament, then sell it (tournaments) while the
    rebuy period lasts, read against the level in play (the clock)."""
    tournament = tournament_lock(tournament_id)
    entry = entry_locked(tournament, entry_id)
    return rebuy_sell(
        actor=actor, tournament=tournament, entry=entry, rules=entry_rules(tournament)
    )


@transaction.atomic
def entry_addon(*, actor, tournament_id: int, entry_id: int) -> Entry:
    """The add-on at the desk: lock the tournament, then sell it (tournaments) at its
    break, read against the level in play (the clock)."""
    tournament = tournament_lock(tournament_id)
    entry = entry_locked(tournament, entry_id)
    return addon_sell(
        actor=actor, tournament=tournament, entry=entry, rules=entry_rules(tournament)
    )


@transaction.atomic
def entry_cancel(*, actor, tournament_id: int, entry_id: int) -> Entry:
    """An entry sold by mistake is taken back.

    1. Lock the tournament.
    2. Its lines are reversed and it is marked cancelled; the record stays (tournaments).
       An entry paid with a ticket gets its ticket back, not cash (issue 17).
    3. Its seat is freed.
    """
    tournament = tournament_lock(tournament_id)
    entry = entry_refund(
        actor=actor, tournament=tournament, entry=entry_locked(tournament, entry_id)
    )
    seat_release(tournament=tournament, entry=entry)
    return entry


@transaction.atomic
def tournament_status_set(*, actor, tournament_id: int, status: str) -> Tournament:
    """Move the tournament along planned → registering → running → finished, or cancel it.

    1. Lock the tournament.
    2. The check, and for a cancelled event the refunds (casino §7) (tournaments).
    3. The status saved; an event that is over is wound up: clock and tables.
    4. The audit entry and the live event (tournaments).
    """
    tournament = tournament_lock(tournament_id)
    change = tournament_status_change(actor=actor, tournament=tournament, status=status)
    tournament_status_save(actor=actor, tournament=tournament, status=status)
    tournament_status_record(actor=actor, tournament=tournament, change=change)
    return tournament


def tournament_status_save(*, actor, tournament: Tournament, status: str) -> None:
    """Save a status already allowed, under the caller's lock: the desk's change, a deal
    that ends the event (prizes) and the last bust that decides it (hands). An event
    that is over (finished, ended by a deal or by play, cancelled) is always wound up.
    (Play beginning only writes the status: tournaments.services.tournament_start.)"""
    tournament_status_write(tournament=tournament, status=status)
    if status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
        tournament_wind_up(actor=actor, tournament=tournament)


def tournament_wind_up(*, actor, tournament: Tournament) -> None:
    """The event is over: its clock stops and its tables close, handing the venue tables
    back for the next event."""
    clock_end_with_tournament(actor=actor, tournament_id=tournament.pk)
    tables_close(tournament=tournament)

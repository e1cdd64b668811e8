"""A satellite's end (issue 17): play stops when as many players are left as its prize
pool buys seats in the target event; each of them wins a seat (a ticket), and none is
ranked above another (casino and TDA practice). Part of every intention that busts
players, through `hands.services.busts.play_end`, under its caller's lock."""

from clock.selectors import registration_open
from payouts.engine import satellites
from payouts.selectors import satellite_seats
from seating.services.desk import tournament_status_save
from tournaments.models import Tournament, TournamentStatus
from tournaments.selectors import active_entry_count
from tournaments.services import StatusChange, tournament_status_record
from tournaments.services.tickets import tickets_issue


def satellite_play_end(*, actor, tournament: Tournament) -> bool | None:
    """The satellite's part of `play_end`, for a running satellite, under the caller's
    lock. None where the pool buys no seat (the director sees the problem on the payout
    table; the event then ends as any other, with one player left).

    1. The seats the pool buys (payouts.selectors.satellite_seats) against the players
       left, once no more can come (payouts.engine.satellites.play_over).
    2. The satellite is finished and wound up as the desk would: the status saved, the
       clock stopped and the tables closed (seating.services.desk).
    3. One ticket to every player left, worth the target's buy-in and fee now
       (tournaments.services.tickets.tickets_issue, audited tickets.issue).
    4. The audit entry of the status change and the live event (tournaments).
    True if play stopped."""
    found = satellite_seats(tournament)
    if found.count == 0:
        return None
    active = active_entry_count(tournament)
    if not satellites.play_over(
        players_left=active,
        seats_won=found.count,
        registration_open=registration_open(tournament),
    ):
        return False
    change = StatusChange(before=tournament.status, status=TournamentStatus.FINISHED, refunded=0)
    tournament_status_save(actor=actor, tournament=tournament, status=TournamentStatus.FINISHED)
    tickets_issue(actor=actor, satellite=tournament)
    tournament_status_record(actor=actor, tournament=tournament, change=change)
    return True

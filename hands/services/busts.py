"""Bust-outs: the one service for a bust from any desk, table or page, its undo, and
the `Elimination` that places the entry (hands.selectors). The last bust, leaving one
player once no more can come, finishes the tournament (`play_end`); undoing it lets the
tournament run again. Registration closing without a bust asks the same
(`play_end_check`, `tournament_edit`)."""

import secrets
from typing import NamedTuple

from django.db import transaction
from django.utils.translation import gettext as _

from clock.selectors import registration_open
from clock.services import clock_heads_up_sync, clock_reopen_with_tournament, flight_stop_at_share
from floorman.audit import staff_user
from floorman.errors import Invalid
from hands.models import Elimination, Hand, HandPlayer, KnockoutSource
from hands.selectors import hand_for_hand, hand_in_play, table_last_bust
from hands.services import bounties
from hands.services.common import refuse, table_of
from hands.services.satellites import satellite_play_end
from seating.models import Seat
from seating.selectors import table_now
from seating.services import seat_release, seat_restore, tables_reopen
from seating.services.desk import tournament_status_save
from tournaments import engine as tournaments_engine
from tournaments.models import Entry, EntryStatus, Tournament, TournamentStatus
from tournaments.selectors import active_entries_upto
from tournaments.services import (
    entry_back,
    entry_locked,
    entry_out,
    tournament_lock,
    tournament_reopen,
    tournament_status_change,
    tournament_status_record,
    tournament_update,
)
from tournaments.services.flights import flight_play_refuse
from tournaments.services.tickets import tickets_take_back


@transaction.atomic
def entry_bust(
    *,
    actor,
    tournament_id: int,
    entry_id: int,
    hand: Hand | None = None,
    eliminators: list[int] | None = None,
) -> Entry:
    """An entry is out of chips: from the desk, the floor's pages, a table's tablet, the
    API or the simulation. `hand` is the hand it busted in, where the table logs hands.
    `eliminators`: in a bounty event, the entries the floor names as the winners of the
    pot (issue 18); none named, the bounty stays unsettled until the floor names them
    (hands.services.bounties.knockout_correct).

    1. Lock the tournament: busts, seats and registrations queue up behind it.
    2. The eliminators checked (400: a player still in, not the busted one) and the
       bounty planned (hands.services.bounties.knockouts_plan).
    3. The entry leaves play: its status, the audit entry (entry.bust, with its
       knockouts) and its live event (tournaments).
    4. The elimination is recorded with its hand key, from the seat it still has: the
       place it finishes in (IFP 4.27, RP-8 A).
    5. The seat is freed (seating).
    6. The clock learns how many are left (casino §31: heads-up halves the levels).
    7. The knockouts are written (hands.models.Knockout).
    8. One player left and no more can come: the tournament is finished and wound up
       (`play_end`; the winner's own bounty).
    The live events go out when the transaction commits.
    """
    tournament = tournament_lock(tournament_id)
    flight_play_refuse(tournament)  # a flight that has stopped bags its chips (issue 17)
    named = bounties.eliminators_of_entries(tournament, [entry_id], eliminators)
    plan = bounties.knockouts_plan(
        actor=actor,
        tournament=tournament,
        hand=hand,
        busts={entry_id: named},
        source=KnockoutSource.FLOOR,
    )
    entry = bust_record(
        actor=actor, tournament=tournament, entry_id=entry_id, hand=hand, knockouts=plan
    )
    bounties.knockouts_save(plan)
    play_end(actor=actor, tournament=tournament)
    return entry


class Dealt(NamedTuple):
    """Where a hand dealt a busted player, and the chips it dealt them (IFP 4.27: the
    stack at the hand's start places them), as the hand's result has it."""

    table: int | None  # None: not seated
    seat: int | None
    stack: int


def play_end(*, actor, tournament: Tournament) -> bool:
    """The last step of every intention that busts players (here, a hand's result): the
    last bust left one player and no more can come (late registration over), so the
    running tournament is finished, as the desk would finish it: the check, the status
    saved with the wind-up (clock finished, tables closed; seating.services.desk), the
    audit entry and the live event. Last, so that the intention's own steps (a hand
    reported hand-for-hand) still find the clock and the tables. True if it ended.
    A satellite ends when as many players are left as it has seats (issue 17)."""
    if tournament.status != TournamentStatus.RUNNING:
        return False
    if flight_stop_at_share(actor=actor, tournament=tournament):  # issue 17: a flight's day
        return True
    if tournament.satellite_target_id:
        ended = satellite_play_end(actor=actor, tournament=tournament)
        if ended is not None:
            return ended
    active = active_entries_upto(tournament.pk, 2)  # one left decides; no more counted
    if active != 1 or not tournaments_engine.play_decided(
        tournament.status, active_entries=active, registration_open=registration_open(tournament)
    ):
        return False
    status = TournamentStatus.FINISHED
    change = tournament_status_change(actor=actor, tournament=tournament, status=status)
    tournament_status_save(actor=actor, tournament=tournament, status=status)
    tournament_status_record(actor=actor, tournament=tournament, change=change)
    bounties.winner_own_record(actor=actor, tournament=tournament)  # issue 18
    return True


@transaction.atomic
def play_end_check(*, actor, tournament_id: int) -> bool:
    """Registration closed without a bust: the clock's level change in a satellite (sent
    by the clock as soon as that change commits, web.tasks.satellite_seats_check). Under
    the lock, play ends where it now may (`play_end`): a satellite already down to its
    seats. True if it ended."""
    tournament = tournament_lock(tournament_id)
    return play_end(actor=actor, tournament=tournament)


@transaction.atomic
def tournament_edit(*, actor, tournament_id: int, data: dict) -> Tournament:
    """The director edits the event (its page and the tournaments API).

    1. Lock the tournament; whether late registration is open (the clock's deadlines).
    2. The edit itself: the checks, the fields saved, the audit entry and the live event
       (tournaments.services.tournament_update).
    3. Where it closed registration by hand (late registration's last level, or the
       level in play set without a clock), play ends where it now may, as after a bust
       (`play_end`): a flight already at its share stops, a satellite already down to
       its seats ends.
    """
    tournament = tournament_lock(tournament_id)
    was_open = registration_open(tournament)
    tournament = tournament_update(actor=actor, tournament=tournament, data=data)
    if was_open and not registration_open(tournament):
        play_end(actor=actor, tournament=tournament)
    return tournament


def bust_record(
    *,
    actor,
    tournament: Tournament,
    entry_id: int,
    hand: Hand | None,
    together: str = "",
    knockouts: bounties.Plan | None = None,
    dealt: Dealt | None = None,
) -> Entry:
    """Steps 3 to 6 of `entry_bust`, under the lock its caller holds: a table's busts
    at once (`table_busts_record`) or in a hand's result (hands.services.hands).
    `together` is the key of busts recorded together without their hand; `knockouts`
    the planned settlement, listed in the bust's audit entry (the caller saves it);
    `dealt` where the hand's result has it: the table, seat and stack it dealt the
    player."""
    entry = entry_locked(tournament, entry_id)
    audited = {}
    if knockouts is not None and bounties.bounty_event(tournament):
        audited["knockouts"] = knockouts.public(entry_id)
        audited["eliminator_named"] = entry_id not in knockouts.unnamed
    entry = entry_out(
        actor=actor, tournament=tournament, entry=entry, status=EntryStatus.BUSTED, **audited
    )
    elimination_add(
        actor=actor, tournament=tournament, entry=entry, hand=hand, together=together, dealt=dealt
    )
    seat_release(tournament=tournament, entry=entry)
    clock_heads_up_sync(tournament_id=tournament.pk)
    return entry


@transaction.atomic
def entry_bust_undo(*, actor, tournament_id: int, entry_id: int) -> Entry:
    """A bust entered by mistake is taken back, while the place it freed is still free.

    1. Lock the tournament.
    2. The entry is back in play: the checks (once the event is over, only where play
       finished it, not a deal), its status, the alternates list, the audit entry
       (entry.bust_undo) and its live event (tournaments).
    3. Its elimination goes: it has no place any more.
    4. A tournament this bust finished runs again: its status (tournaments), a
       satellite's tickets taken back (409 once one was used, refunded or given away:
       tournaments.services.tickets.tickets_take_back), the winner's own bounty
       reversed (409 once paid), the tables its players sit at open again (seating),
       its clock paused where it stopped.
    5. Its knockouts are reversed, a mystery prize back in the draw (409 once paid at
       the cage, or in a PKO once the eliminator's grown bounty was collected:
       hands.services.bounties.knockouts_take_back).
    6. It gets back the seat it left if still free, else a late entry's seat (seating).
    7. The clock learns how many are left (casino §31).
    """
    tournament = tournament_lock(tournament_id)
    flight_play_refuse(tournament)  # a stopped flight's survivors are bagging (issue 17)
    return bust_back(actor=actor, tournament=tournament, entry_id=entry_id)


@transaction.atomic
def table_bust_undo(*, actor, tournament_id: int, number: int, entry_id: int) -> Entry:
    """The table's tablet takes back its last bust-out (a player ticked by mistake), the
    one it showed (`entry_id`), while nothing depends on it (hands.selectors.
    table_last_bust): the player goes back to the seat they left.

    1. Lock the tournament.
    2. It must still be the table's last bust, with nothing depending on it; else 409.
    3. As `entry_bust_undo`, steps 2 to 7.
    """
    tournament = tournament_lock(tournament_id)
    flight_play_refuse(tournament)
    table = table_of(tournament, number)
    last = table_last_bust(table)
    if last is None or last.entry != entry_id:
        raise refuse("bust_not_last")
    if last.refusal:
        raise refuse(last.refusal)
    return bust_back(actor=actor, tournament=tournament, entry_id=entry_id)


def bust_back(*, actor, tournament: Tournament, entry_id: int) -> Entry:
    """Steps 2 to 7 of `entry_bust_undo`, under the lock its caller holds. The entry
    returned knows where it sits now (`seat_restored`: seating.services.SeatRestored, or
    None without a seat), for the page to say."""
    audited = {}
    if bounties.bounty_event(tournament):  # issue 18: the knockouts step 5 reverses
        audited["knockouts_reversed"] = bounties.knockouts_of_bust(tournament, entry_id)
    entry = entry_back(
        actor=actor, tournament=tournament, entry=entry_locked(tournament, entry_id), **audited
    )
    bust_remove(tournament=tournament, entry=entry)
    if tournament_reopen(actor=actor, tournament=tournament):
        tickets_take_back(actor=actor, satellite=tournament)  # a satellite's seats (issue 17)
        bounties.winner_own_take_back(actor=actor, tournament=tournament)  # issue 18
        tables_reopen(tournament=tournament)
        clock_reopen_with_tournament(actor=actor, tournament_id=tournament.pk)
    bounties.knockouts_take_back(actor=actor, tournament=tournament, entry=entry)
    entry.seat_restored = seat_restore(actor=actor, tournament=tournament, entry=entry)
    clock_heads_up_sync(tournament_id=tournament.pk)
    return entry


def elimination_add(
    *,
    actor,
    tournament: Tournament,
    entry: Entry,
    hand: Hand | None,
    together: str = "",
    dealt: Dealt | None = None,
) -> None:
    """A bust's record for places, made while the entry still has its seat.

    Busts share a hand key when they happened in the same hand: the hand itself, or
    hand-for-hand the round across every table (RP-8 A). A bust entered without its
    hand during hand-for-hand joins the round being played; players a table busts
    together without a logged hand (`together`) went out in one hand too (IFP 4.27).
    `dealt`: the seat and stack the hand dealt, where the caller has them."""
    if dealt is None:
        dealt = _dealt(entry, hand)
    if hand is not None and hand.h4h_round is not None:
        key = f"r{hand.h4h_round}"
    elif hand is not None:
        key = f"h{hand.pk}"
    elif (settings := hand_for_hand(tournament.pk)).active:  # read only without a hand
        key = f"r{settings.round}"
    elif together:
        key = together
    else:
        key = f"e{entry.pk}"
    # Audited with the bust itself (entry.bust) and the hand's result (hand.finish).
    Elimination.objects.create(
        tournament=tournament,
        entry=entry,
        hand=hand,
        hand_key=key,
        table_number=dealt.table,
        seat=dealt.seat,
        stack=dealt.stack,
        recorded_by=staff_user(actor),
    )


def _dealt(entry: Entry, hand: Hand | None) -> Dealt:
    """Where the entry sits now (None: nowhere) and its stack: the one its hand dealt
    it, else its last count."""
    seat = Seat.objects.select_related("table").filter(entry=entry).first()
    stack = entry.chips
    if hand is not None:
        played = HandPlayer.objects.filter(hand=hand, entry=entry).values_list("stack", flat=True)
        found = played.first()
        stack = stack if found is None else found
    if seat is None:
        return Dealt(None, None, stack)
    return Dealt(seat.table.number, seat.number, stack)


def bust_remove(*, tournament: Tournament, entry: Entry) -> None:
    """A bust undone: the entry has no place any more."""
    Elimination.objects.filter(tournament=tournament, entry=entry).delete()


@transaction.atomic
def table_busts_record(
    *,
    actor,
    tournament_id: int,
    number: int,
    seats: list[int],
    eliminators: list[int] | None = None,
) -> list[Entry]:
    """Players out of chips at a table, outside the hand's result: in the hand being
    played, or the table's last hand if none is (placed by the stacks they started it
    with, IFP 4.27). Players not dealt that hand, or at a table that logs no hands, bust
    in one hand together: the more chips at its start (the last count) finish higher,
    equal stacks share the place (IFP 4.27, casino §29c). `eliminators`: in a bounty
    event, the seats of the players who won the pot, for every player busted here
    (issue 18; a player at the table, not one busted now: else 400); none named, the
    bounties stay unsettled until the floor names them."""
    tournament = tournament_lock(tournament_id)
    flight_play_refuse(tournament)
    table = table_of(tournament, number)
    hand = hand_in_play(table) or Hand.objects.filter(table=table).order_by("-number").first()
    now = table_now(table)
    seats = list(dict.fromkeys(seats))
    empty = [seat for seat in seats if seat not in now.occupied]
    if empty:
        raise Invalid({"seats": _("Nobody sits in seat %(seat)s.") % {"seat": empty[0]}})
    if len(seats) >= len(now.occupied):
        raise Invalid({"seats": _("Somebody has to win: not every player can bust.")})
    named = bounties.eliminators_of_seats(now.occupied, seats, eliminators)
    dealt = dict(hand.players.values_list("entry_id", "stack")) if hand else {}
    busted_ids = [now.occupied[seat] for seat in seats]
    plan = bounties.knockouts_plan(
        actor=actor,
        tournament=tournament,
        hand=hand if all(entry in dealt for entry in busted_ids) else None,
        busts=dict.fromkeys(busted_ids, named),
        source=KnockoutSource.FLOOR,
        stacks=dealt,
    )
    together = f"t{table.number}-{secrets.token_hex(6)}"  # this call's busts, and no other's
    busted = [
        bust_record(
            actor=actor,
            tournament=tournament,
            entry_id=entry_id,
            hand=hand if entry_id in dealt else None,
            together=together,
            knockouts=plan,
        )
        for entry_id in busted_ids
    ]
    bounties.knockouts_save(plan)
    play_end(actor=actor, tournament=tournament)
    return busted

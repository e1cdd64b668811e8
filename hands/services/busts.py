"""Bust-outs: each one an `Elimination` that places the entry (hands.selectors)."""

from django.db import transaction
from django.utils.translation import gettext as _

from floorman.audit import staff_user
from floorman.errors import Invalid
from hands.models import Elimination, Hand, HandPlayer
from hands.selectors import hand_for_hand, hand_in_play, table_now
from hands.services.common import lock, table_of
from seating.models import Seat
from tournaments.models import Entry, Tournament


def bust_record(*, actor, tournament: Tournament, entry_id: int, hand: Hand | None) -> Entry:
    """Bust an entry, in a hand or not: the desk's service does the entry, the seat and
    the clock, and calls `elimination_add` below for the place."""
    from tournaments.services import entry_bust

    return entry_bust(actor=actor, tournament_id=tournament.pk, entry_id=entry_id, hand=hand)


def elimination_add(*, actor, tournament: Tournament, entry: Entry, hand: Hand | None) -> None:
    """Called by tournaments.services.entry_bust while the entry still has its seat.

    Busts share a hand key when they happened in the same hand: the hand itself, or
    hand-for-hand the round across every table (RP-8 A). A bust entered without its
    hand during hand-for-hand joins the round being played."""
    seat = Seat.objects.select_related("table").filter(entry=entry).first()
    stack = entry.chips
    if hand is not None:
        played = HandPlayer.objects.filter(hand=hand, entry=entry).values_list("stack", flat=True)
        stack = played.first() if played.exists() else stack
    settings = hand_for_hand(tournament.pk)
    if hand is not None and hand.h4h_round is not None:
        key = f"r{hand.h4h_round}"
    elif hand is not None:
        key = f"h{hand.pk}"
    elif settings.active:
        key = f"r{settings.round}"
    else:
        key = f"e{entry.pk}"
    # Audited with the bust itself (entry.bust) and the hand's result (hand.finish).
    Elimination.objects.create(
        tournament=tournament,
        entry=entry,
        hand=hand,
        hand_key=key,
        table_number=seat.table.number if seat else None,
        seat=seat.number if seat else None,
        stack=stack,
        recorded_by=staff_user(actor),
    )


def bust_remove(*, tournament: Tournament, entry: Entry) -> None:
    """Called when a bust is undone: the entry has no place any more."""
    Elimination.objects.filter(tournament=tournament, entry=entry).delete()


@transaction.atomic
def table_busts_record(*, actor, tournament_id: int, number: int, seats: list[int]) -> list[Entry]:
    """Players out of chips at a table, outside the hand's result: in the hand being
    played, or the table's last hand if none is (placed by the stacks they started it
    with, IFP 4.27); a player not dealt that hand busts without one."""
    tournament = lock(tournament_id)
    table = table_of(tournament, number)
    hand = hand_in_play(table) or Hand.objects.filter(table=table).order_by("-number").first()
    now = table_now(table)
    seats = list(dict.fromkeys(seats))
    empty = [seat for seat in seats if seat not in now.occupied]
    if empty:
        raise Invalid({"seats": _("Nobody sits in seat %(seat)s.") % {"seat": empty[0]}})
    if len(seats) >= len(now.occupied):
        raise Invalid({"seats": _("Somebody has to win: not every player can bust.")})
    dealt = set(hand.players.values_list("entry_id", flat=True)) if hand else set()
    return [
        bust_record(
            actor=actor,
            tournament=tournament,
            entry_id=now.occupied[seat],
            hand=hand if now.occupied[seat] in dealt else None,
        )
        for seat in seats
    ]

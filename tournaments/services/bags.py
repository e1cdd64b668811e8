"""The end of a flight's day and its bags (issue 17): the tournaments' part of a flight's
stop (clock.services.flight_stop calls it under its lock), each survivor's chips counted
into a numbered bag, and the director's word on the bags against the chips in play.

Casino practice: at the end of a flight every survivor's chips are counted, bagged and
tagged (bag number, player, chips), and the count is checked against the chips the
flight had in play; a difference is shown and must be resolved or confirmed."""

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from floorman import live
from floorman.audit import audit_record, staff_user
from floorman.errors import Invalid, NotFound
from tournaments import engine as status_engine
from tournaments.engine import flights as engine
from tournaments.models import Bag, Entry, EntryStatus, FlightEnd, Tournament, TournamentStatus
from tournaments.selectors import chips_in_play, flight_bag_check
from tournaments.services import tournament_lock, tournament_publish, tournament_status_write
from tournaments.services.flights import flight_refuse

NOTE_MAX = 300  # FlightEnd.note


def flight_publish(tournament: Tournament, **data) -> None:
    """Tell the floor's screens a flight's end or its bags changed."""
    live.live_publish(
        tournament_id=tournament.pk,
        kind=live.FLIGHT_UPDATED,
        data={"flight": tournament.pk, "status": tournament.status, **data},
    )


# --- The end of a flight's day (clock.services.flight_stop) ---------------------------------


def flight_stop_check(tournament: Tournament) -> None:
    """Only a running flight stops, and once. Under the caller's lock."""
    code = engine.flight_stop_refusal(
        is_flight=tournament.is_flight,
        status=tournament.status,
        stopped=FlightEnd.objects.filter(flight=tournament).exists(),
    )
    if code:
        raise flight_refuse(code)


def flight_end_write(*, tournament: Tournament, reason: str) -> FlightEnd:
    """The tournaments' part of a flight's stop, under the caller's lock, after
    `flight_stop_check`: the flight is finished with its survivors still active with
    their chips (the status engine's flight exception), its end kept with the chips in
    play then (sold less removed) and the level Day 2 resumes at, and the screens told.
    The audit entry is the caller's."""
    active = tournament.entries.filter(status=EntryStatus.ACTIVE).count()
    code = status_engine.transition_refusal(
        tournament.status, status_engine.FINISHED, active_entries=active, flight_stop=True
    )
    if code:
        raise flight_refuse(code)
    tournament_status_write(tournament=tournament, status=TournamentStatus.FINISHED)
    # The event's last level of the day matters only where it ended the day.
    end_level = tournament.parent.flight_end_level if reason == FlightEnd.Reason.LEVEL else None
    flight_end = FlightEnd.objects.create(
        flight=tournament,
        reason=reason,
        chips_in_play=chips_in_play(tournament),
        resume_level=engine.resume_level(
            reason=reason, level=tournament.current_level, end_level=end_level
        ),
    )
    tournament_publish(tournament)
    flight_publish(tournament, stopped=True, survivors=active)
    return flight_end


# --- Bags -------------------------------------------------------------------------------------


def _flight_end_locked(tournament: Tournament) -> FlightEnd | None:
    return FlightEnd.objects.select_for_update().filter(flight=tournament).first()


def _chips_checked(chips) -> int:
    if isinstance(chips, bool) or not isinstance(chips, int):
        raise Invalid({"chips": _("Count the chips: a whole number.")})
    if chips <= 0:
        raise Invalid({"chips": _("A bag holds at least one chip.")})
    return chips


@transaction.atomic
def bag_record(*, actor, tournament_id: int, entry_id: int, chips: int) -> Bag:
    """A survivor's chips counted into a bag, at the floor or on the table's tablet.

    1. The count checked (a whole number above nought), then the flight locked: two
       desks recording bags at once queue up, and each bag gets its own number.
    2. The flight has stopped and its bags are not confirmed yet; the entry is one of
       its survivors.
    3. A new bag gets the next number of the flight; a bag counted again keeps its
       number and its count is corrected.
    4. One audit entry (bag.record or bag.correct), the floor's screens told.
    """
    chips = _chips_checked(chips)
    tournament = tournament_lock(tournament_id)
    entry = Entry.objects.filter(tournament=tournament, pk=entry_id).first()
    if entry is None:
        raise NotFound(_("No such entry in this tournament."))
    flight_end = _flight_end_locked(tournament) if tournament.is_flight else None
    code = engine.bag_refusal(
        stopped=flight_end is not None,
        confirmed=bool(flight_end and flight_end.confirmed_at),
        survivor=entry.status == EntryStatus.ACTIVE,
        chips=chips,
    )
    if not tournament.is_flight:
        code = "not_a_flight"
    if code:
        raise flight_refuse(code)
    bag = Bag.objects.filter(flight=tournament, entry=entry).first()
    before = {"number": bag.number, "chips": bag.chips} if bag else None
    if bag is None:
        numbers = list(Bag.objects.filter(flight=tournament).values_list("number", flat=True))
        try:
            with transaction.atomic():
                bag = Bag.objects.create(
                    flight=tournament,
                    entry=entry,
                    number=engine.bag_number_next(numbers),
                    chips=chips,
                    counted_by=staff_user(actor),
                )
        except IntegrityError:  # never under the lock; kept as a 409, not a 500
            raise flight_refuse("bags_confirmed") from None
    else:
        bag.chips = chips
        bag.counted_by = staff_user(actor)
        bag.save(update_fields=["chips", "counted_by", "counted_at"])
    audit_record(
        actor=actor,
        action="bag.correct" if before else "bag.record",
        obj=bag,
        tournament=tournament,
        before=before,
        after={"number": bag.number, "entry": entry.pk, "chips": bag.chips},
    )
    flight_publish(tournament, bag={"number": bag.number, "entry": entry.pk, "chips": bag.chips})
    return bag


@transaction.atomic
def flight_bags_confirm(
    *, actor, tournament_id: int, accept_difference: bool = False, note: str = ""
) -> FlightEnd:
    """The director confirms a stopped flight's bags against its chips in play.

    1. Lock the flight and its end.
    2. The check (tournaments.selectors.flight_bag_check): refused while a survivor has
       no bag; with a difference, refused unless the director accepts it with a note.
    3. The end records who confirmed when, the difference and the note.
    4. One audit entry (flight.bags_confirm), the floor's screens told.
    """
    note = (note or "").replace("\x00", "").strip()
    if len(note) > NOTE_MAX:
        raise Invalid({"note": _("At most %(most)s characters.") % {"most": NOTE_MAX}})
    tournament = tournament_lock(tournament_id)
    if not tournament.is_flight:
        raise flight_refuse("not_a_flight")
    flight_end = _flight_end_locked(tournament)
    report = flight_bag_check(tournament)
    if flight_end is None:
        raise flight_refuse("flight_not_stopped")
    code = engine.bags_confirm_refusal(
        report.check,
        stopped=True,
        confirmed=flight_end.confirmed_at is not None,
        accept_difference=accept_difference,
        note=note,
    )
    if code:
        raise flight_refuse(code, missing=report.check.missing, difference=report.check.difference)
    flight_end.confirmed_at = timezone.now()
    flight_end.confirmed_by = staff_user(actor)
    flight_end.difference = report.check.difference
    flight_end.note = note
    flight_end.save(update_fields=["confirmed_at", "confirmed_by", "difference", "note"])
    audit_record(
        actor=actor,
        action="flight.bags_confirm",
        obj=flight_end,
        tournament=tournament,
        after={
            "expected": report.check.expected,
            "bagged": report.check.bagged,
            "difference": report.check.difference,
            "bags": len(report.bags),
            "note": note,
        },
    )
    flight_publish(tournament, confirmed=True, difference=report.check.difference)
    return flight_end

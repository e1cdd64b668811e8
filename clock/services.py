"""The only code that changes clocks, structures, chip sets, player clocks, announcements.

Each public function is one user intention: one transaction, the clock row locked
where two staff could collide, one audit entry, a live event after commit. Every clock
change bumps the version and schedules the timed announcements; a task whose version
is stale does nothing.
"""

import secrets
from datetime import datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from clock import engine
from clock.cache import clock_cache_forget
from clock.messages import refusal_message
from clock.models import (
    Announcement,
    ChipSet,
    Clock,
    PlayerClock,
    Structure,
    StructureStep,
)
from clock.selectors import (
    announcements_public,
    clock_public,
    player_clock_public,
    registration_open,
    structure_steps,
)
from clock.transfer import StructureError, steps_check
from floorman import live
from floorman.audit import audit_record, staff_user
from floorman.celery import SATELLITE_SEATS_CHECK
from floorman.celery import app as celery_app
from floorman.errors import Conflict, Invalid, NotFound
from tournaments import engine as tournaments_engine
from tournaments.engine import flights as flights_engine
from tournaments.models import Entry, EntryStatus, FlightEnd, Tournament, TournamentStatus, Venue
from tournaments.selectors import active_entries_upto, house_settings, rules_at
from tournaments.services import tournament_level_set, tournament_lock, tournament_start
from tournaments.services.bags import flight_end_write, flight_stop_check
from tournaments.services.house import tournament_house_settings_save
from tournaments.services.house import (
    venue_house_settings_save as tournaments_venue_house_settings_save,
)

STATE_FIELDS = ("status", "position", "left_ms", "anchor_at", "halved_from", "version")
SETTING_FIELDS = Clock.SETTINGS


def _refuse(code: str, **data) -> Conflict:
    return Conflict(refusal_message(code, **data), code=code)


def _snapshot(clock: Clock, fields=STATE_FIELDS) -> dict:
    data = {}
    for name in fields:
        value = getattr(clock, name)
        data[name] = value.isoformat() if isinstance(value, datetime) else value
    return data


def clock_lock(tournament_id: int) -> Clock:
    """The tournament's clock row, locked for this transaction (created on first use).

    The tournament's lock comes first, as in every intention that reaches the clock (a
    bust tells the clock the count under it): one order for the two locks, so a clock
    action and a bust at the same moment queue up instead of waiting for each other."""
    tournament = tournament_lock(tournament_id)
    clock = Clock.objects.select_for_update().filter(pk=tournament_id).first()
    if clock is None:  # the first use
        Clock.objects.get_or_create(tournament=tournament)
        clock = Clock.objects.select_for_update().get(pk=tournament_id)
    clock.tournament = tournament  # the row just locked: no second read
    if tournament.status in ("finished", "cancelled"):
        raise _refuse("finished")
    return clock


def _store(clock: Clock, state: engine.Clock) -> None:
    clock.status = state.status
    clock.position = state.position
    clock.left_ms = state.left_ms
    clock.anchor_at = state.anchor
    clock.halved_from = state.halved_from


def _changed(
    *, actor, clock: Clock, action: str, before: dict, steps: list | None = None, **extra
) -> Clock:
    """Save a new version, sync the level, audit, publish and schedule after commit.
    `steps`: the structure's, when the caller has read them."""
    clock.version += 1
    clock.announced_seq = 0  # announcements restart from this version's state
    clock.save()
    if steps is None:
        steps = structure_steps(clock.structure_id)
    now = timezone.now()
    level_before = clock.tournament.current_level
    level = _level_sync(clock, steps, now)
    audit_record(
        actor=actor,
        action=action,
        obj=clock,
        tournament=clock.tournament,
        before=before,
        after={**_snapshot(clock), **extra},
    )
    _publish(clock.tournament)
    version, state, warning = clock.version, clock.as_state(), clock.warning_seconds
    # robust: the change stands if the broker is down for a moment; the announcements
    # are scheduled again when the worker reconnects (announcements_resend). From the
    # state just saved, not read again: a task of an older version does nothing.
    transaction.on_commit(
        lambda: _announcements_queue(clock.pk, version, state, steps, warning), robust=True
    )
    if _flight_day_over(clock, level):  # under the caller's lock (issue 17)
        _flight_stop(actor=actor, clock=clock, reason=FlightEnd.Reason.LEVEL)
    elif _registration_closes(clock.tournament, level_before, level):
        _registration_closed(actor=actor, clock=clock)
    return clock


def _level_sync(clock: Clock, steps: list[engine.Step], now: datetime) -> int | None:
    """Keep the tournament's stored level (lists, deadlines) in step with the clock;
    the level in play, None without a structure."""
    if not steps:
        return None
    reading = engine.read(clock.as_state(), steps, now)
    level = max(1, engine.level_number(steps, reading.position))
    tournament_level_set(tournament=clock.tournament, level=level)
    return level


def _publish(tournament, kind: str = live.CLOCK_UPDATED, **extra) -> None:
    if kind == live.CLOCK_UPDATED:  # first: a screen told of the change reads it (clock.cache)
        clock_cache_forget(tournament.pk)
    live.live_publish(
        tournament_id=tournament.pk,
        kind=kind,
        data={**clock_public(tournament, steps=False), **extra},
    )


# --- The clock ---------------------------------------------------------------------


def _state_to_run(clock: Clock, steps: list[engine.Step]) -> engine.Clock:
    """The clock's state to act on. A clock that has not started may still hold no time
    (a new clock holds none): it then starts with the full time of its level."""
    state = clock.as_state()
    if clock.status == engine.NOT_STARTED and clock.left_ms == 0 and steps:
        state = engine.Clock(position=clock.position, left_ms=engine.step_ms(steps, clock.position))
    return state


@transaction.atomic
def clock_act(
    *,
    actor,
    tournament_id: int,
    action: str,
    level: int | None = None,
    seconds: int | None = None,
) -> Clock:
    """Start, pause, resume, next, previous, jump, set, adjust or finish the clock.

    A clock that runs means play has begun: a registering tournament starts with it
    (tournaments.services.tournament_start: its status, audit entry and live event)."""
    clock = clock_lock(tournament_id)
    steps = structure_steps(clock.structure_id)
    now = timezone.now()
    state = _state_to_run(clock, steps)
    try:
        new = engine.act(state, steps, now, action, level=level, seconds=seconds)
    except engine.ClockRefusal as refusal:
        raise _refuse(refusal.code) from None
    before = _snapshot(clock)
    _store(clock, new)
    if action == "resume" and clock.day_end_hands is not None:
        clock.day_end_hands = None  # a new day of play begins
    if new.status == engine.RUNNING:
        tournament_start(actor=actor, tournament=clock.tournament)
    return _changed(
        actor=actor,
        clock=clock,
        action=f"clock.{action}",
        before=before,
        steps=steps,
        level=level,
        seconds=seconds,
    )


@transaction.atomic
def clock_take_time(*, actor, tournament_id: int, seconds: int) -> Clock | None:
    """Hand-for-hand (RP-8 B-D): one hand's time off the clock, levels advancing as it
    runs out. Nothing to do (None) without a structure or once the clock has finished."""
    clock = clock_lock(tournament_id)
    steps = structure_steps(clock.structure_id)
    if not steps or clock.status == engine.FINISHED or seconds <= 0:
        return None
    state = _state_to_run(clock, steps)
    before = _snapshot(clock)
    _store(clock, engine.take_time(state, steps, timezone.now(), seconds))
    return _changed(
        actor=actor,
        clock=clock,
        action="clock.hand_for_hand",
        before=before,
        steps=steps,
        seconds=seconds,
    )


@transaction.atomic
def clock_settings_update(*, actor, tournament_id: int, data: dict) -> Clock:
    """The clock's own settings: RP-7's warning, whether the event is a turbo (casino §27's
    player clock). The rule books' disagreements are the event's house settings
    (tournaments.house), saved with the event's settings."""
    clock = clock_lock(tournament_id)
    before = _snapshot(clock, SETTING_FIELDS)
    for name in SETTING_FIELDS:
        if name in data:
            setattr(clock, name, data[name])
    return _changed(actor=actor, clock=clock, action="clock.settings", before=before)


@transaction.atomic
def clock_structure_set(*, actor, tournament_id: int, structure_id: int) -> Clock:
    """Give the tournament its own copy of a structure (a template or another's)."""
    clock = clock_lock(tournament_id)
    if clock.status != engine.NOT_STARTED:
        raise _refuse("clock_started")
    source = Structure.objects.filter(pk=structure_id).first()
    if source is None:
        raise NotFound(_("No such structure."))
    before = {"structure": clock.structure_id}
    copy = _structure_copy(source, name=clock.tournament.name, is_template=False)
    old = clock.structure
    clock.structure = copy
    clock.position = 1
    steps = structure_steps(copy.pk)
    clock.left_ms = engine.step_ms(steps, 1) if steps else 0
    _changed(
        actor=actor,
        clock=clock,
        action="clock.structure",
        before=before,
        steps=steps,
        structure=copy.pk,
    )
    if old is not None and not old.is_template and not old.clocks.exists():
        old.delete()  # the tournament's previous private copy is no longer used
    return clock


def clock_prepare(*, tournament: Tournament, setup: dict) -> Clock:
    """A new event's clock, not started: the house settings and a blind structure of its
    own, built from the steps of `setup` (clock.selectors.clock_setup of the event copied,
    or as a saved event template keeps it). Changing one event's structure never changes
    another's. The clock's part of prizes.services.events, in its transaction: nobody
    else knows the new event yet, so there is nothing to lock."""
    saved = setup.get("structure")
    steps = [engine.step_of(step) for step in saved["steps"]] if saved else []
    structure = None
    if saved:
        _steps_refuse_invalid(steps)
        structure = Structure.objects.create(
            name=tournament.name,
            is_template=False,
            chip_set=ChipSet.objects.filter(pk=saved.get("chip_set")).first(),
        )
        StructureStep.objects.bulk_create(_steps_rows(structure, steps))
    settings = dict(setup.get("settings") or {})
    # A template saved before issue 19 keeps the house's choices in the clock's old
    # settings: they become the new event's readings (its own choices first).
    legacy, turbo = engine.legacy_readings(settings)
    if legacy:
        tournament.house_settings = {**legacy, **tournament.house_settings}
        tournament.save(update_fields=["house_settings"])
    if turbo:
        settings.setdefault("turbo", True)
    clock_cache_forget(tournament.pk)
    return Clock.objects.create(
        tournament=tournament,
        structure=structure,
        left_ms=engine.step_ms(steps, 1) if steps else 0,
        **{name: settings[name] for name in SETTING_FIELDS if name in settings},
    )


def clock_heads_up_sync(*, tournament_id: int) -> None:
    """The house's `heads_up_level` reading: under casino §31 the levels from the next one
    on last half as long once two players remain (full again when a bust is undone);
    the TDA keeps them as scheduled, and a clock halved under the casino's reading before
    the house chose the TDA gets its full levels back here.

    Called inside the bust and undo-bust transactions, which hold the tournament lock.
    """
    clock = Clock.objects.select_for_update().filter(pk=tournament_id).first()
    if clock is None or clock.status == engine.FINISHED:
        return
    active = active_entries_upto(tournament_id, 3)  # heads-up or not: no more counted
    if active != 2 and clock.halved_from is None:
        return  # not heads-up, nothing halved: whatever the reading, nothing changes
    if active > 2:  # a halved clock after an undo: the audit names the players left
        in_play = Entry.objects.filter(tournament_id=tournament_id, status=EntryStatus.ACTIVE)
        active = in_play.count()
    reading = house_settings(clock.tournament).heads_up_level
    steps = structure_steps(clock.structure_id)
    if not steps:
        return
    halve = engine.heads_up_halves(reading, players_left=active)
    new = engine.heads_up(clock.as_state(), steps, timezone.now(), halve=halve)
    if new == clock.as_state():
        return
    before = _snapshot(clock)
    _store(clock, new)
    _changed(
        actor=None,
        clock=clock,
        action="clock.heads_up",
        before=before,
        steps=steps,
        active=active,
        heads_up_level=reading,
    )


@transaction.atomic
def house_settings_save(
    *, actor, tournament_id: int, changes: object, venue_id: int | None | str = "keep"
) -> Tournament:
    """An event's venue and its own house settings saved (settings page, API), its clock
    following a changed `heads_up_level` at once.

    1. the tournaments' part (`tournament_house_settings_save`): the check (400, nothing
       written), the tournament lock, the readings, audit, the live event;
    2. under that lock, the clock follows the heads-up reading now (`clock_heads_up_sync`):
       with two players left, casino §31 chosen halves the levels from the next one, the
       TDA chosen gives the halved levels their full time back (the level in play too).
       Without this step the change would wait for the next bust, which heads-up ends
       the event."""
    tournament = tournament_house_settings_save(
        actor=actor, tournament_id=tournament_id, changes=changes, venue_id=venue_id
    )
    clock_heads_up_sync(tournament_id=tournament.pk)
    return tournament


@transaction.atomic
def venue_house_settings_save(*, actor, venue_id: int, changes: object) -> Venue:
    """A venue's house settings saved (tournaments' part), then the clocks of its events in
    play that are heads-up follow a changed `heads_up_level` at once (as above): each
    event that follows the venue's reading, locked in id order."""
    venue = tournaments_venue_house_settings_save(actor=actor, venue_id=venue_id, changes=changes)
    if "heads_up_level" not in (changes if isinstance(changes, dict) else {}):
        return venue
    over = (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)
    events = Tournament.objects.exclude(status__in=over).exclude(
        house_settings__has_key="heads_up_level"
    )
    following = Q(venue=venue) | Q(venue__isnull=True) if venue.is_default else Q(venue=venue)
    for tournament_id in events.filter(following).order_by("pk").values_list("pk", flat=True):
        tournament_lock(tournament_id)
        clock_heads_up_sync(tournament_id=tournament_id)
    return venue


def clock_end_with_tournament(*, actor, tournament_id: int) -> None:
    """A finished or cancelled tournament stops its clock: the lobby shows no time running
    for an event that is over. Called inside that transaction, under the tournament lock."""
    clock_cache_forget(tournament_id)  # the event's status is part of what the clock shows
    clock = Clock.objects.select_for_update().filter(pk=tournament_id).first()
    if clock is None or clock.status in (engine.NOT_STARTED, engine.FINISHED):
        return
    steps = structure_steps(clock.structure_id)
    if not steps:
        return
    before = _snapshot(clock)
    _store(clock, engine.act(clock.as_state(), steps, timezone.now(), "finish"))
    _changed(actor=actor, clock=clock, action="clock.finish", before=before, steps=steps)


def clock_reopen_with_tournament(*, actor, tournament_id: int) -> None:
    """The bust that decided the event is undone and it runs again: its finished clock
    is paused where it stopped, for the director to resume. Called inside that
    transaction (hands.services.busts.entry_bust_undo), under the tournament lock."""
    clock_cache_forget(tournament_id)  # the event's status is part of what the clock shows
    clock = Clock.objects.select_for_update().filter(pk=tournament_id).first()
    if clock is None or clock.status != engine.FINISHED:
        return
    before = _snapshot(clock)
    _store(clock, engine.reopen(clock.as_state()))
    _changed(actor=actor, clock=clock, action="clock.reopen", before=before)


def clock_day2_jump(*, actor, tournament: Tournament, level: int) -> None:
    """Day 2 resumes where the flights stopped (seating.services.day2.day2_start): the
    event's clock, not started yet, jumps to `level` (the structure's last level where it
    has fewer). Called inside that transaction, under the event's lock; a clock without
    a structure, or one already started, is left as it is."""
    clock = Clock.objects.select_for_update().filter(pk=tournament.pk).first()
    if clock is None or clock.status != engine.NOT_STARTED:
        return
    steps = structure_steps(clock.structure_id)
    levels = engine.level_number(steps, len(steps))
    if not levels:
        return
    clock.tournament = tournament  # the row the caller locked: no second read
    level = min(level, levels)
    before = _snapshot(clock)
    _store(
        clock, engine.act(_state_to_run(clock, steps), steps, timezone.now(), "jump", level=level)
    )
    _changed(actor=actor, clock=clock, action="clock.jump", before=before, steps=steps, level=level)


@transaction.atomic
def clock_day_end(*, actor, tournament_id: int) -> Clock:
    """Casino §28, where the house's `day_end_draw` reading is "casino": stop the clock and
    draw 3–7: that many hands remain at every table. Under the TDA's reading the day ends
    with its last level, and there is nothing to draw (409)."""
    clock = clock_lock(tournament_id)
    if not engine.day_end_draws(house_settings(clock.tournament).day_end_draw):
        raise _refuse("day_end_not_drawn")
    if clock.day_end_hands is not None:
        raise _refuse("day_end_drawn")
    if clock.status == engine.NOT_STARTED:
        raise _refuse("not_started")
    before = _snapshot(clock)
    steps = structure_steps(clock.structure_id)
    now = timezone.now()
    if clock.status == engine.RUNNING:
        _store(clock, engine.act(clock.as_state(), steps, now, "pause"))
    seed = secrets.randbits(64)
    clock.day_end_seed = str(seed)
    clock.day_end_hands = engine.end_of_day_hands(seed)
    clock.day_end_at = now
    return _changed(
        actor=actor,
        clock=clock,
        action="clock.day_end",
        before=before,
        steps=steps,
        day_end_hands=clock.day_end_hands,
        seed=clock.day_end_seed,
    )


# --- The end of a flight's day (issue 17) ----------------------------------------------


def _flight_day_over(clock: Clock, level: int | None) -> bool:
    """The level after the event's last level of a flight's day would begin, in a flight
    still playing (a clock finished or not started ends nothing)."""
    tournament = clock.tournament
    if (
        level is None
        or not tournament.is_flight
        or tournament.status != TournamentStatus.RUNNING
        or clock.status in (engine.NOT_STARTED, engine.FINISHED)
    ):
        return False
    return flights_engine.level_ends_flight(level, end_level=tournament.parent.flight_end_level)


def _flight_stop(*, actor, clock: Clock | None, reason: str, tournament=None) -> FlightEnd:
    """Steps 2 to 5 of `flight_stop`, under the caller's lock (the tournament's, then the
    clock's)."""
    tournament = clock.tournament if clock is not None else tournament
    flight_stop_check(tournament)
    clock_cache_forget(tournament.pk)  # finished: its clock reads so, with a clock row or not
    clock_before = clock_after = None
    if clock is not None:
        clock_before = _snapshot(clock)
        steps = structure_steps(clock.structure_id)
        if steps and clock.status not in (engine.NOT_STARTED, engine.FINISHED):
            _store(clock, engine.act(clock.as_state(), steps, timezone.now(), "finish"))
        clock.version += 1  # the announcements queued for the day do nothing now
        clock.save()
        clock_after = _snapshot(clock)
    level = tournament.current_level
    flight_end = flight_end_write(tournament=tournament, reason=reason)
    audit_record(
        actor=actor,
        action="flight.stop",
        obj=flight_end,
        tournament=tournament,
        before={"status": TournamentStatus.RUNNING, "clock": clock_before},
        after={
            "status": tournament.status,
            "reason": reason,
            "level": level,
            "chips_in_play": flight_end.chips_in_play,
            "resume_level": flight_end.resume_level,
            "clock": clock_after,
        },
    )
    if clock is not None:
        _publish(tournament)
    return flight_end


@transaction.atomic
def flight_stop(*, actor, tournament_id: int, reason: str = FlightEnd.Reason.DIRECTOR) -> FlightEnd:
    """Play stops in a flight: its day is over, and its survivors bag their chips for
    Day 2 (issue 17). The director's button, and reached by itself at the event's last
    level of the day (the clock's level change) or its share of entries left (a bust,
    `flight_stop_at_share`). The end-of-day draw (casino §28, `clock_day_end`) may come
    first: the hands it leaves are played, then the flight stops.

    1. Lock the flight, then its clock.
    2. Only a running flight stops, once (tournaments.services.bags.flight_stop_check).
    3. The clock stops where it stands (finished); the announcements queued for it do
       nothing any more.
    4. The flight is finished with its survivors still active with their chips, and its
       end is kept with the chips in play (sold less removed, FlightEnd)
       (tournaments.services.bags.flight_end_write).
    5. One audit entry (flight.stop); the screens told when the transaction commits.
    """
    if reason not in FlightEnd.Reason.values:
        raise Invalid({"reason": _("Unknown reason.")})
    tournament = tournament_lock(tournament_id)
    clock = Clock.objects.select_for_update().filter(pk=tournament_id).first()
    if clock is not None:
        clock.tournament = tournament
    return _flight_stop(actor=actor, clock=clock, reason=reason, tournament=tournament)


def _registration_closes(tournament: Tournament, before: int, level: int | None) -> bool:
    """The clock's level change ended late registration (TDA 8-A) in a running event."""
    if level is None or level == before or tournament.status != TournamentStatus.RUNNING:
        return False
    return tournaments_engine.registration_closes(rules_at(tournament, level=before), level=level)


def _registration_closed(*, actor, clock: Clock) -> None:
    """Late registration closed with the clock's level change, under the caller's locks
    (the tournament's, then the clock's): no more can come, so play may be over as after
    a bust. A flight already down to its share stops now, in this transaction. A
    satellite already down to its seats ends in the hands app above the clock
    (hands.services.busts.play_end_check), as soon as this change commits: by name, as
    the core sends its tasks (web.tasks.satellite_seats_check)."""
    tournament = clock.tournament
    if _flight_share_reached(tournament):
        _flight_stop(actor=actor, clock=clock, reason=FlightEnd.Reason.SHARE)
    elif tournament.satellite_target_id:
        transaction.on_commit(
            lambda: celery_app.signature(
                SATELLITE_SEATS_CHECK, args=(tournament.pk,)
            ).apply_async(),
            robust=True,
        )


def _flight_stop_at_level(tournament_id: int) -> None:
    """The clock's timed level change ended the flight's day (clock_announcement_send):
    stopped in a transaction of its own, unless a desk stopped it first."""
    try:
        flight_stop(actor=None, tournament_id=tournament_id, reason=FlightEnd.Reason.LEVEL)
    except Conflict:
        pass  # stopped (or finished) meanwhile: nothing left to do


def _flight_share_reached(tournament: Tournament) -> bool:
    """A running flight whose field is known (no more can come) is down to the event's
    share of its entries, or to its last player (a flight has no winner: its survivor
    bags for Day 2)."""
    if not tournament.is_flight or tournament.status != TournamentStatus.RUNNING:
        return False
    percent = tournament.parent.flight_end_percent
    if registration_open(tournament):
        return False  # players may still come: the share is of the field once it is known
    active = tournament.entries.filter(status=EntryStatus.ACTIVE).count()
    if active == 1:  # the last player of the flight ends the day, with one bag
        return True
    if percent is None:
        return False
    entries = tournament.entries.exclude(status=EntryStatus.CANCELLED).count()
    return flights_engine.share_ends_flight(active=active, entries=entries, percent=percent)


def flight_stop_at_share(*, actor, tournament: Tournament) -> bool:
    """The last step of a bust in a flight (hands.services.busts.play_end), under its
    lock: once the event's share of the flight's entries or fewer are left, the flight
    stops (reason: share). So does a flight down to its last player once no more can
    come. The clock's level change that closes registration asks the same
    (`_registration_closed`). True if it stopped."""
    if not _flight_share_reached(tournament):
        return False
    clock = Clock.objects.select_for_update().filter(pk=tournament.pk).first()
    if clock is not None:
        clock.tournament = tournament
    _flight_stop(actor=actor, clock=clock, reason=FlightEnd.Reason.SHARE, tournament=tournament)
    return True


# --- Timed announcements (run by clock.tasks) ----------------------------------------


def announcements_schedule(tournament_id: int, version: int) -> int:
    """Queue the announcements due for the clock's current step; return how many."""
    clock = Clock.objects.filter(pk=tournament_id, version=version).first()
    if clock is None:
        return 0
    steps = structure_steps(clock.structure_id)
    return _announcements_queue(
        tournament_id, version, clock.as_state(), steps, clock.warning_seconds
    )


def _announcements_queue(
    tournament_id: int, version: int, state: engine.Clock, steps: list, warning_seconds: int
) -> int:
    """Queue the announcements due from `state` of the clock's `version`."""
    from clock.tasks import clock_announce  # noqa: PLC0415 - the task module imports these services

    due = engine.upcoming(state, steps, timezone.now(), warning_seconds=warning_seconds)
    for announcement in due:
        clock_announce.apply_async(
            args=(tournament_id, version, announcement.kind, announcement.position),
            eta=announcement.at,
        )
    return len(due)


def announcements_resend() -> int:
    """Schedule the announcements of every running clock again; return how many. Run
    each time a worker starts consuming (floorman.celery): a worker that crashed takes
    the announcements it holds until their eta with it (Redis gives them back only after
    the visibility timeout, hours later), and one sent while the broker was down never
    got there. The claim in clock_announcement_send makes the copies harmless."""
    running = Clock.objects.filter(status=engine.RUNNING).values_list("pk", "version")
    return sum(announcements_schedule(pk, version) for pk, version in running)


def clock_announcement_send(*, tournament_id: int, version: int, kind: str, position: int) -> bool:
    """Send one timed announcement, once; False when stale or already sent.

    Claimed by a conditional update (only one worker gets the row), so a task that
    runs twice, or one scheduled before the TD changed the clock, does nothing.
    """
    seq = engine.Announcement(kind, position, timezone.now()).seq
    claimed = Clock.objects.filter(pk=tournament_id, version=version, announced_seq__lt=seq).update(
        announced_seq=seq
    )
    if not claimed:
        return False
    clock = Clock.objects.select_related("tournament").get(pk=tournament_id)
    steps = structure_steps(clock.structure_id)
    now = timezone.now()
    if kind == engine.WARNING:
        _publish(clock.tournament, live.CLOCK_WARNING, ending=position)
        return True
    with transaction.atomic():
        level_before = clock.tournament.current_level
        level = _level_sync(clock, steps, now)
        # The clock moved on by its own time: its entry in the log, as when the director
        # moves it (`clock.next`); the webhooks' level.started and break.started follow
        # the log (issue 22).
        audit_record(
            actor=None,
            action="clock.level",
            obj=clock,
            tournament=clock.tournament,
            before={"position": position, "level": level_before},
            after={"position": engine.read(clock.as_state(), steps, now).position, "level": level},
        )
        # TDA 23: the new level applies from the next hand; screens say so.
        _publish(clock.tournament, live.CLOCK_LEVEL, ended=position)
        day_over = _flight_day_over(clock, level)
        if not day_over and _registration_closes(clock.tournament, level_before, level):
            tournament = tournament_lock(tournament_id)  # a desk's change may come first
            locked = Clock.objects.select_for_update().get(pk=tournament_id)
            locked.tournament = tournament
            if tournament.status == TournamentStatus.RUNNING:
                _registration_closed(actor=None, clock=locked)
    if day_over:
        _flight_stop_at_level(tournament_id)
        return True
    transaction.on_commit(lambda: announcements_schedule(tournament_id, version))
    return True


# --- Player clock (TDA 29) ------------------------------------------------------------


@transaction.atomic
def player_clock_call(
    *, actor, tournament_id: int, table: int, seat: int, facing_bet: bool
) -> PlayerClock:
    """The floor puts a seat on the clock, for as long as the house's `player_clock`
    reading gives (TDA 29: 25 s and a 5-second countdown; casino §27: a minute, the last
    10 s counted, a turbo 30 s with 5; IFP 4.26 and the older TDA's rule 5: a minute,
    then a 10-second countdown); the outcome once time runs out is its
    `clock_expired_no_bet` reading's, both kept on the clock as called."""
    clock = clock_lock(tournament_id)
    if PlayerClock.objects.filter(
        tournament_id=tournament_id, table=table, seat=seat, stopped_at__isnull=True
    ).exists():
        raise _refuse("player_clock_running")
    readings = house_settings(clock.tournament)
    time = engine.player_clock_time(readings.player_clock, turbo=clock.turbo)
    player_clock = PlayerClock.objects.create(
        tournament_id=tournament_id,
        table=table,
        seat=seat,
        facing_bet=facing_bet,
        seconds=time.seconds,
        countdown=time.countdown,
        time_reading=readings.player_clock,
        no_bet=readings.clock_expired_no_bet,
        started_at=timezone.now(),
        called_by=staff_user(actor),
    )
    _player_clock_changed(
        actor=actor, clock=clock, player_clock=player_clock, action="player_clock.call"
    )
    return player_clock


@transaction.atomic
def player_clock_stop(*, actor, tournament_id: int, player_clock_id: int) -> PlayerClock:
    """The player acted (or the floor cancels the clock)."""
    clock = clock_lock(tournament_id)
    player_clock = (
        PlayerClock.objects.select_for_update()
        .filter(pk=player_clock_id, tournament_id=tournament_id)
        .first()
    )
    if player_clock is None:
        raise NotFound(_("No such player clock."))
    if player_clock.stopped_at is not None:
        raise _refuse("player_clock_stopped")
    player_clock.stopped_at = timezone.now()
    player_clock.save(update_fields=["stopped_at"])
    _player_clock_changed(
        actor=actor, clock=clock, player_clock=player_clock, action="player_clock.stop"
    )
    return player_clock


def player_clocks_clear(
    *, tournament: Tournament, seats: set[tuple[int, int]], tables: set[int] = frozenset()
) -> list[dict]:
    """TDA 29: a clock is on the player in a seat; once the seating changes there (a move,
    a draw, a break, the final table), it is on nobody and stops. Stops the running
    clocks on `seats` ((table, seat) pairs) and on every seat of `tables` (tables that
    close). Seating's part of its actions, under the caller's tournament lock: the caller
    audits (it returns the clocks stopped) and the tablets are told on commit."""
    if not seats and not tables:
        return []
    running = PlayerClock.objects.filter(tournament=tournament, stopped_at__isnull=True)
    stopped = [
        clock
        for clock in running.select_for_update()
        if clock.table in tables or (clock.table, clock.seat) in seats
    ]
    if not stopped:
        return []
    now = timezone.now()
    PlayerClock.objects.filter(pk__in=[clock.pk for clock in stopped]).update(stopped_at=now)
    cleared = []
    for clock in stopped:
        clock.stopped_at = now
        data = player_clock_public(clock, now)
        live.live_publish(tournament_id=tournament.pk, kind=live.PLAYER_CLOCK, data=data)
        cleared.append(data)
    return cleared


def _player_clock_changed(*, actor, clock: Clock, player_clock: PlayerClock, action: str) -> None:
    """Audit a called or stopped player clock and show it on the screens."""
    data = player_clock_public(player_clock)
    audit_record(
        actor=actor,
        action=action,
        obj=player_clock,
        tournament=clock.tournament,
        after=data,
    )
    live.live_publish(tournament_id=clock.tournament.pk, kind=live.PLAYER_CLOCK, data=data)


# --- Announcements the TD posts ------------------------------------------------------


@transaction.atomic
def announcement_post(*, actor, tournament_id: int, text: str) -> Announcement:
    clock = clock_lock(tournament_id)
    announcement = Announcement.objects.create(
        tournament_id=tournament_id,
        text=text,
        created_by=staff_user(actor),
    )
    audit_record(
        actor=actor,
        action="announcement.post",
        obj=announcement,
        tournament=clock.tournament,
        after={"text": text},
    )
    _announcements_publish(clock.tournament)
    return announcement


@transaction.atomic
def announcement_hide(*, actor, tournament_id: int, announcement_id: int) -> Announcement:
    clock = clock_lock(tournament_id)
    announcement = (
        Announcement.objects.select_for_update()
        .filter(pk=announcement_id, tournament_id=tournament_id)
        .first()
    )
    if announcement is None:
        raise NotFound(_("No such announcement."))
    announcement.active = False
    announcement.save(update_fields=["active"])
    audit_record(
        actor=actor, action="announcement.hide", obj=announcement, tournament=clock.tournament
    )
    _announcements_publish(clock.tournament)
    return announcement


def _announcements_publish(tournament: Tournament) -> None:
    """The screens show the announcements still active, so any change resends them all."""
    live.live_publish(
        tournament_id=tournament.pk,
        kind=live.ANNOUNCEMENTS,
        data={"announcements": announcements_public(tournament)},
    )


# --- Structures and chip sets ---------------------------------------------------------


def _steps_rows(structure: Structure, steps: list[engine.Step]) -> list[StructureStep]:
    return [
        StructureStep(
            structure=structure,
            position=position,
            kind=step.kind,
            minutes=step.minutes,
            small_blind=step.small_blind,
            big_blind=step.big_blind,
            ante=step.ante,
            ante_type=step.ante_type,
            small_bet=step.small_bet,
            big_bet=step.big_bet,
            bring_in=step.bring_in,
            game=step.game,
            label=step.label,
            color_up=list(step.color_up),
            addon=step.addon,
        )
        for position, step in enumerate(steps, start=1)
    ]


def _steps_refuse_invalid(steps: list[engine.Step]) -> None:
    """The rules of a structure (clock.transfer.steps_check) hold for every save, not only
    for the page's form and the API's serializer: refused before anything is written,
    with the lines the API shows."""
    try:
        steps_check(steps)
    except StructureError as error:
        raise Invalid({"steps": error.lines()}) from None


def _structure_copy(source: Structure, *, name: str, is_template: bool) -> Structure:
    copy = Structure.objects.create(name=name, is_template=is_template, chip_set=source.chip_set)
    StructureStep.objects.bulk_create(_steps_rows(copy, structure_steps(source.pk)))
    return copy


def _structure_public(structure: Structure) -> dict:
    return {
        "name": structure.name,
        "is_template": structure.is_template,
        "chip_set": structure.chip_set_id,
        "steps": len(structure_steps(structure.pk)),
    }


@transaction.atomic
def structure_create(
    *, actor, name: str, steps: list[engine.Step], is_template: bool, chip_set_id: int | None
) -> Structure:
    _steps_refuse_invalid(steps)
    structure = Structure.objects.create(
        name=name, is_template=is_template, chip_set_id=chip_set_id
    )
    StructureStep.objects.bulk_create(_steps_rows(structure, steps))
    audit_record(
        actor=actor, action="structure.create", obj=structure, after=_structure_public(structure)
    )
    return structure


def _locked_positions(structure: Structure, now: datetime) -> int:
    """Steps up to this position are played or in play in a tournament using it."""
    locked = 0
    for clock in Clock.objects.select_for_update().filter(structure=structure):
        if clock.status == engine.NOT_STARTED:
            continue
        reading = engine.read(clock.as_state(), structure_steps(structure.pk), now)
        locked = max(locked, reading.position)
    return locked


@transaction.atomic
def structure_update(
    *,
    actor,
    structure_id: int,
    name: str,
    steps: list[engine.Step],
    is_template: bool,
    chip_set_id: int | None,
) -> Structure:
    """Replace name and steps. While the clock runs, only future steps may change."""
    _steps_refuse_invalid(steps)
    structure = Structure.objects.select_for_update().filter(pk=structure_id).first()
    if structure is None:
        raise NotFound(_("No such structure."))
    now = timezone.now()
    locked = _locked_positions(structure, now)
    old_steps = structure_steps(structure.pk)
    if locked:
        if steps[:locked] != old_steps[:locked] or len(steps) < locked:
            level = engine.level_number(old_steps, locked)
            raise _refuse("step_locked", level=level)
    before = _structure_public(structure)
    # Clocks running on this structure keep their time: re-anchor them at `now` first.
    for clock in Clock.objects.select_for_update().filter(structure=structure):
        reading = engine.read(clock.as_state(), old_steps, now)
        clock.position, clock.left_ms = reading.position, reading.left_ms
        if clock.status == engine.RUNNING:
            clock.anchor_at = now
        clock.save()
    structure.name = name
    structure.is_template = is_template
    structure.chip_set_id = chip_set_id
    structure.save()
    StructureStep.objects.filter(structure=structure).delete()
    StructureStep.objects.bulk_create(_steps_rows(structure, steps))
    audit_record(
        actor=actor,
        action="structure.update",
        obj=structure,
        before=before,
        after=_structure_public(structure),
    )
    for clock in Clock.objects.filter(structure=structure).select_related("tournament"):
        # Without the tournament's lock: _changed renews the clock's version, on which
        # every screen value that holds the clock depends (clock.cache).
        _changed(actor=actor, clock=clock, action="clock.structure_edit", before=_snapshot(clock))
    return structure


@transaction.atomic
def structure_delete(*, actor, structure_id: int) -> None:
    structure = Structure.objects.select_for_update().filter(pk=structure_id).first()
    if structure is None:
        raise NotFound(_("No such structure."))
    if structure.clocks.exists():
        raise _refuse("structure_in_use")
    audit_record(
        actor=actor, action="structure.delete", obj=structure, before=_structure_public(structure)
    )
    structure.delete()


@transaction.atomic
def chip_set_save(
    *, actor, chip_set_id: int | None, name: str, chips: list[tuple[int, str]]
) -> ChipSet:
    """Create or replace a chip set: (value, colour) per denomination."""
    if chip_set_id is None:
        chip_set = ChipSet.objects.create(name=name)
        before = None
    else:
        chip_set = ChipSet.objects.select_for_update().filter(pk=chip_set_id).first()
        if chip_set is None:
            raise NotFound(_("No such chip set."))
        before = {
            "name": chip_set.name,
            "chips": list(chip_set.chips.values_list("value", "color")),
        }
        chip_set.name = name
        chip_set.save()
        chip_set.chips.all().delete()
    chip_set.chips.bulk_create(
        [chip_set.chips.model(chip_set=chip_set, value=v, color=c) for v, c in sorted(chips)]
    )
    audit_record(
        actor=actor,
        action="chip_set.save",
        obj=chip_set,
        before=before,
        after={"name": name, "chips": sorted(chips)},
    )
    return chip_set

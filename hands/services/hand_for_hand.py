"""Hand-for-hand on the bubble (RP-8, casino §29): every table plays one hand, reports
it done, and waits; when all have, the next hand is dealt everywhere at once and the
clock loses one hand's time. All-in tables hold and show down one at a time."""

from datetime import timedelta

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from clock import engine as clock_engine
from clock.selectors import clock_of
from clock.services import clock_act, clock_take_time
from floorman import live
from floorman.audit import audit_record
from floorman.errors import Invalid
from hands.engine import handforhand as engine
from hands.models import Hand, HandForHand, HandForHandReport, HandStatus
from hands.selectors import (
    current_round,
    h4h_public,
    hand_for_hand,
    places_paid,
    tables_in_play,
)
from hands.services.common import refuse
from tournaments.models import EntryStatus, Tournament
from tournaments.services import tournament_lock

SETTINGS = ("seconds_per_hand", "margin", "alert_minutes", "places_paid")


def _locked(tournament: Tournament) -> HandForHand:
    HandForHand.objects.get_or_create(tournament=tournament)
    return HandForHand.objects.select_for_update().get(pk=tournament.pk)


def round_for_new_hand(tournament: Tournament, table) -> int | None:
    """The round a hand dealt now belongs to; refused where the table played it already."""
    settings = hand_for_hand(tournament.pk)
    if not settings.active:
        return None
    if Hand.objects.filter(table=table, h4h_round=settings.round).exists():
        raise refuse("h4h_wait")
    return settings.round


def refuse_unless_showing(tournament: Tournament, settings: HandForHand, table) -> None:
    """RP-8 F: a held table shows down only once all others have finished, in turn."""
    current = current_round(tournament, settings)
    if engine.showdown_next(current) != table.number:
        first = engine.showdown_next(current) or min(current.playing, default=table.number)
        raise refuse("h4h_not_your_turn", first=first)


def h4h_report(tournament: Tournament, table, *, held: bool) -> None:
    """A table's hand is done (or held, all-in): deal everywhere once all are."""
    settings = _locked(tournament)
    HandForHandReport.objects.update_or_create(
        tournament=tournament, round=settings.round, table=table, defaults={"held": held}
    )
    _advance(tournament, settings)


def _advance(tournament: Tournament, settings: HandForHand) -> None:
    current = current_round(tournament, settings)
    if current.complete:
        left = tournament.entries.filter(status=EntryStatus.ACTIVE).count()
        paid = places_paid(tournament, settings)
        if paid and engine.bubble_burst(left, paid):
            _end(tournament, settings, reason="bubble")
            return
        _next_round(tournament, settings)
    _publish(tournament, settings)


def _next_round(tournament: Tournament, settings: HandForHand) -> None:
    """RP-8 B-D: the hand's time comes off the clock, hand by hand."""

    settings.round += 1
    settings.round_started_at = timezone.now()
    settings.save(update_fields=["round", "round_started_at"])
    seconds = engine.seconds_per_hand(settings.seconds_per_hand)
    clock_take_time(actor=None, tournament_id=tournament.pk, seconds=seconds)
    _alert_later(tournament.pk, settings.round, settings.alert_minutes)


def _alert_later(tournament_id: int, round_number: int, minutes: int) -> None:
    from hands.tasks import h4h_alert  # noqa: PLC0415 - the task module imports these services

    eta = timezone.now() + timedelta(minutes=minutes)
    # robust: the hand is recorded even if the broker is down for a moment; the alert
    # is then sent again when the worker reconnects (h4h_alerts_resend).
    transaction.on_commit(
        lambda: h4h_alert.apply_async((tournament_id, round_number), eta=eta), robust=True
    )


def h4h_alerts_resend() -> int:
    """Send the alert of every round not alerted yet again, due when it was; return how
    many. Run each time a worker starts consuming (floorman.celery): a worker that
    crashed takes the alerts it holds until their eta with it (Redis gives them back
    only after the visibility timeout, hours later), and an alert sent while the broker
    was down never got there. The claim in h4h_table_alert makes the copies harmless."""
    from hands.tasks import h4h_alert  # noqa: PLC0415 - the task module imports these services

    rounds = HandForHand.objects.filter(active=True, alerted_round__lt=F("round"))
    for settings in rounds:
        started = settings.round_started_at or timezone.now()
        h4h_alert.apply_async(
            (settings.pk, settings.round),
            eta=started + timedelta(minutes=settings.alert_minutes),
        )
    return len(rounds)


def _publish(tournament: Tournament, settings: HandForHand, **extra) -> None:
    data = h4h_public(tournament, settings, current_round(tournament, settings))
    live.live_publish(tournament_id=tournament.pk, kind=live.HAND_FOR_HAND, data={**data, **extra})


def _end(tournament: Tournament, settings: HandForHand, *, reason: str) -> None:
    if reason == "bubble":  # ended by itself: its entry in the log, as the director's stop
        # has (the webhooks' hand_for_hand.stopped follows the log, issue 22)
        audit_record(
            actor=None,
            action="h4h.stop",
            obj=settings,
            tournament=tournament,
            after={"reason": reason, "round": settings.round},
        )
    settings.active = False
    resume = settings.paused_clock
    settings.paused_clock = False
    settings.save(update_fields=["active", "paused_clock"])
    if resume:
        clock_act(actor=None, tournament_id=tournament.pk, action="resume")
    _publish(tournament, settings, ended=reason)


@transaction.atomic
def h4h_start(*, actor, tournament_id: int) -> HandForHand:
    """RP-8 A: "finish the hand you are on, then hold": round 0 is the hand in play at
    every table, and its busts are already placed together. The clock stops; each
    hand-for-hand hand takes its time off it instead."""

    tournament = tournament_lock(tournament_id)
    settings = _locked(tournament)
    if settings.active:
        raise refuse("h4h_active")
    if not places_paid(tournament, settings):
        raise refuse("h4h_no_places_paid")
    settings.active = True
    settings.round = 0
    settings.started_at = settings.round_started_at = timezone.now()
    settings.alerted_round = -1
    settings.paused_clock = clock_of(tournament).status == clock_engine.RUNNING
    settings.save()
    HandForHandReport.objects.filter(tournament=tournament).delete()
    if settings.paused_clock:
        clock_act(actor=actor, tournament_id=tournament.pk, action="pause")
    playing = Hand.objects.filter(tournament=tournament).exclude(status=HandStatus.FINISHED)
    playing.update(h4h_round=0)
    idle = [t for t in tables_in_play(tournament.pk) if not playing.filter(table=t).exists()]
    HandForHandReport.objects.bulk_create(
        HandForHandReport(tournament=tournament, round=0, table=t) for t in idle
    )
    audit_record(
        actor=actor,
        action="h4h.start",
        obj=settings,
        tournament=tournament,
        after=_public(settings),
    )
    _alert_later(tournament.pk, 0, settings.alert_minutes)
    _advance(tournament, settings)
    return settings


@transaction.atomic
def h4h_stop(*, actor, tournament_id: int) -> HandForHand:
    """The TD ends hand-for-hand (it also ends by itself when the bubble bursts)."""
    tournament = tournament_lock(tournament_id)
    settings = _locked(tournament)
    if not settings.active:
        raise refuse("h4h_inactive")
    audit_record(actor=actor, action="h4h.stop", obj=settings, tournament=tournament)
    _end(tournament, settings, reason="director")
    return settings


@transaction.atomic
def h4h_settings_update(*, actor, tournament_id: int, data: dict) -> HandForHand:
    tournament = tournament_lock(tournament_id)
    settings = _locked(tournament)
    before = _public(settings)
    for name in SETTINGS:
        if name in data:
            setattr(settings, name, data[name])
    if settings.seconds_per_hand > engine.MAX_SECONDS_PER_HAND:
        raise Invalid({"seconds_per_hand": _too_long()})
    settings.save()
    audit_record(
        actor=actor,
        action="h4h.settings",
        obj=settings,
        tournament=tournament,
        before=before,
        after=_public(settings),
    )
    _publish(tournament, settings)
    return settings


def h4h_prepare(*, tournament: Tournament, settings: dict) -> HandForHand:
    """A new event's hand-for-hand house settings (hands.selectors.h4h_setup of the event
    copied, or as a saved event template keeps them): hands' part of
    prizes.services.events, in its transaction."""
    return HandForHand.objects.create(
        tournament=tournament,
        **{name: settings[name] for name in HandForHand.HOUSE_SETTINGS if name in settings},
    )


def _too_long() -> str:
    return _("At most 180 seconds a hand (RP-8 B).")


def _public(settings: HandForHand) -> dict:
    return {name: getattr(settings, name) for name in ("active", "round", *SETTINGS)}


@transaction.atomic
def h4h_table_alert(*, tournament_id: int, round_number: int) -> list[int] | None:
    """Run by a Celery task some minutes into a round: the tables still playing are
    flagged to the floor. Claimed by a conditional update, so a task delivered twice,
    or one for a round already dealt, does nothing (None)."""
    claimed = HandForHand.objects.filter(
        pk=tournament_id, active=True, round=round_number, alerted_round__lt=round_number
    ).update(alerted_round=round_number)
    if not claimed:
        return None
    tournament = Tournament.objects.get(pk=tournament_id)
    settings = hand_for_hand(tournament_id)
    late = sorted(current_round(tournament, settings).playing)
    _publish(tournament, settings, alert=late)
    return late

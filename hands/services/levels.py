"""Which level a hand plays at (TDA 23): the level in play when the hand started.

A new level applies from the next hand. What starts a hand is the house's choice
(`tournaments.house`, `hand_starts`): TDA 23 the first riffle, the shuffler's button or
the dealer push; casino §25, §32 the cut. The dealer marks that moment on the tablet
(`hand_start_mark`); the deal then takes the level the mark kept, even when the cards come
after the clock's change (and so a hand begun at the dealer push before a new level is
dealt at the prior level by the incoming dealer). Without a mark the deal itself is the
start. The one writer of `hands.HandStartMark`. A mark stands until the deal or a
take-back, unless the table breaks or its players change first
(`hands.selectors.start_mark_of`, which also says why halting keeps it).
"""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clock import engine as clock_engine
from clock.selectors import clock_steps
from floorman.audit import audit_record
from floorman.errors import Invalid
from hands.engine import corrections as rules
from hands.models import HandStartMark, StartEvent
from hands.selectors import start_mark_of
from hands.services.common import (
    publish_table,
    refuse,
    refuse_if_halted,
    table_of,
    table_ready_to_deal,
)
from tournaments.models import Tournament
from tournaments.selectors import house_settings
from tournaments.services import tournament_lock
from tournaments.services.flights import flight_play_refuse


def level_now(tournament: Tournament):
    """The level in force for a hand started now and its clock step, with the step's
    position (None without a structure); refused during a break on the clock."""
    state, steps = clock_steps(tournament.pk)
    if not steps:
        return tournament.current_level, None, None
    reading = clock_engine.read(state, steps, timezone.now())
    step = steps[reading.position - 1]
    if step.is_break and state.status == clock_engine.RUNNING:
        raise refuse("break_on_clock")
    level = max(1, clock_engine.level_number(steps, reading.position))
    return level, step, reading.position


def step_of_level(tournament: Tournament, level: int, position: int | None = None):
    """The clock step of a play level: the one at `position` when it is still that level,
    else the structure's step of that number; None without a structure."""
    _state, steps = clock_steps(tournament.pk)
    if not steps:
        return None
    if position and position <= len(steps):
        step = steps[position - 1]
        if not step.is_break and clock_engine.level_number(steps, position) == level:
            return step
    found = clock_engine.position_of_level(steps, level)
    return steps[found - 1] if found else None


def deal_level(tournament: Tournament, table):
    """The part of the deal (hands.services.hands.hand_start) that picks the hand's
    level, under its lock: the level the start mark kept (TDA 23), the mark taken over
    and removed; without a mark the level in play now. Returns (level, step, event,
    marked_at)."""
    mark = None
    if HandStartMark.objects.filter(table=table).exists():  # most deals find none: one query
        mark = start_mark_of(table)
        HandStartMark.objects.filter(table=table).delete()  # taken over, or no longer standing
    if mark is None:
        level, step, _position = level_now(tournament)
        return level, step, "", None
    step = step_of_level(tournament, mark.level, mark.position)
    return mark.level, step, mark.event, mark.marked_at


@transaction.atomic
def hand_start_mark(*, actor, tournament_id: int, number: int, event: str) -> HandStartMark:
    """The dealer marks that the next hand has started (TDA 23: the first riffle, the
    shuffler's button, the dealer push; casino §25, §32: the cut, as the house reads
    `hand_starts`). The level in play now is the hand's level: the deal keeps it.

    Steps: lock → the house's start events (400) → the table, its button placed and two
    players, no hand in play, not halted (TDA 11-D: a halted table starts no hand, as it
    deals none), not marked yet (409; a mark that no longer stands, `start_mark_of`, is
    replaced) → the level in play (a break on the clock: 409) → the mark → audit
    `hand.start_mark` → the tablet told."""
    tournament = tournament_lock(tournament_id)
    house = house_settings(tournament)
    reading = house.hand_starts
    allowed = rules.start_events(reading)
    if event not in allowed:
        raise Invalid({"event": start_event_refusal(reading)})
    flight_play_refuse(tournament)
    table = table_of(tournament, number)
    now, _number = table_ready_to_deal(table)
    refuse_if_halted(tournament, table, now, house.halting)
    marked = start_mark_of(table)
    if marked is not None:
        raise refuse("start_marked", level=marked.level)
    HandStartMark.objects.filter(table=table).delete()  # one that no longer stands
    level, _step, position = level_now(tournament)
    mark = HandStartMark.objects.create(table=table, event=event, level=level, position=position)
    audit_record(
        actor=actor,
        action="hand.start_mark",
        obj=table,
        tournament=tournament,
        after={
            "table": table.number,
            "event": event,
            "level": level,
            "rule": rules.START_RULES[reading],
        },
    )
    publish_table(table)
    return mark


@transaction.atomic
def hand_start_unmark(*, actor, tournament_id: int, number: int) -> HandStartMark:
    """The dealer takes back the mark of the next hand's start (tapped by mistake, or the
    hand was not dealt after all): the deal will read the level in play when it comes.

    Steps: lock → the table and its mark (none: 409) → the mark removed → audit
    `hand.start_unmark` with the level it kept → the tablet told."""
    tournament = tournament_lock(tournament_id)
    table = table_of(tournament, number)
    mark = start_mark_of(table)
    if mark is None:
        raise refuse("no_start_mark")
    mark.delete()
    audit_record(
        actor=actor,
        action="hand.start_unmark",
        obj=table,
        tournament=tournament,
        before={"table": table.number, "event": mark.event, "level": mark.level},
    )
    publish_table(table)
    return mark


def start_event_refusal(reading: str) -> str:
    if reading == rules.CUT:
        return _("This house starts a hand with the cut of the cards (casino §25, §32).")
    return _(
        "A hand starts with the first riffle, the shuffler's button or the dealer push (TDA 23)."
    )


def start_event_labels(reading: str) -> list[tuple[str, str]]:
    """The start events this house offers, with their labels, for the tablet and API."""
    labels = dict(StartEvent.choices)
    return [(event, labels[event]) for event in rules.start_events(reading)]

"""Day 2 of an event with flights (issue 17): the survivors of every flight, with their
bagged chips, redrawn at random over the event's tables (TDA 7)."""

import random
import secrets

from django.db import transaction

from clock.services import clock_day2_jump
from floorman.audit import audit_record
from seating.engine import day2 as day2_seating
from seating.engine import tables_needed
from seating.models import ActionKind
from seating.selectors import seating_settings, table_views
from seating.services import _apply, _needing_access, _refuse, tables_close
from tournaments.engine import day2 as day2_engine
from tournaments.models import Entry, TournamentStatus
from tournaments.selectors import day2_started, flight_ready
from tournaments.services import (
    StatusChange,
    tournament_lock,
    tournament_publish,
    tournament_start,
    tournament_status_record,
    tournament_status_write,
)
from tournaments.services.day2 import (
    day2_bags_settle,
    day2_entries_create,
    day2_flights_lock,
    day2_refuse,
)


@transaction.atomic
def day2_start(*, actor, event_id: int, seed: str | None = None) -> list[Entry]:
    """Day 2 begins: the survivors of every flight meet with their bags.

    1. Lock the event (once), then its flights in one order (by id).
    2. The checks: every flight stopped and its bags confirmed (`FlightEnd`), nobody
       who survived two flights still to choose, a bag to carry, seats enough at the
       event's tables; else 409 and nothing written.
    3. The survivor rule (house: `survivor_keeps`, tournaments.engine.day2): one bag a
       player; the others forfeited with their reason, kept on record.
    4. One Day 2 entry on the event per bag carried, with the bag's chips (no ledger
       line: the money was paid in the flight).
    5. The random redraw (TDA 7), seeded and stored like every draw (`seed` replays
       one), the big stacks dealt round the tables where the house says so
       (`day2_spread_big_stacks`); the player clocks there stop (TDA 29).
    6. The event's clock, not started, at the level Day 2 resumes at: the highest the
       flights stopped at (`FlightEnd.resume_level`, tournaments.engine.day2.clock_level;
       clock.services.clock_day2_jump).
    7. A planned event is registering (late entry into Day 2, where the house allows
       it); where the house says the draw starts play (`Seating.draw_starts`), running.
    8. The audit entry (day2.start, with the forfeits) and the live events on commit.
    """
    event = tournament_lock(event_id)
    flights = day2_flights_lock(event)
    outcome, carried, forfeited = day2_bags_settle(event=event, flights=flights)
    refusal = day2_engine.start_refusal(
        [flight_ready(f) for f in flights],
        outcome,
        started=day2_started(event),
        closed=event.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED),
    )
    if refusal:
        code, data = refusal
        raise day2_refuse(code, **data)
    views = [v for v in table_views(event.pk) if not v.players]
    want = tables_needed(len(carried), event.table_size)
    views = sorted(views, key=lambda v: -v.break_order)[: max(want, 1)]
    free = sum(len(v.open_seats) for v in views)
    if free < len(carried):
        missing = len(carried) - free
        raise _refuse(
            "not_enough_seats", missing=missing, tables=tables_needed(missing, event.table_size)
        )
    entries = day2_entries_create(actor=actor, event=event, carried=carried, forfeited=forfeited)
    seed = seed or secrets.token_hex(16)
    spread = event.day2_spread_big_stacks
    assignments = day2_seating.day2_redraw(
        views,
        {entry.pk: entry.chips for entry in entries},
        random.Random(seed),
        spread=spread,
        needs_access=_needing_access(event.pk, [e.pk for e in entries]),
    )
    action = _apply(
        actor=actor,
        tournament=event,
        kind=ActionKind.DRAW,
        seed=seed,
        params={
            "entries": len(entries),
            "tables": sorted(v.number for v in views),
            "day2": True,
            "spread_big_stacks": spread,
        },
        assignments=assignments,
        reasons={a.entry: "TDA 7" for a in assignments},
    )
    for flight in flights:  # their players sit at Day 2's tables now: the venue's back
        tables_close(tournament=flight)
    ends = [getattr(f, "flight_end", None) for f in flights]  # a cancelled flight has none
    level = day2_engine.clock_level([end.resume_level for end in ends if end is not None])
    if level is not None:
        clock_day2_jump(actor=actor, tournament=event, level=level)
    if event.status == TournamentStatus.PLANNED:
        change = StatusChange(before=event.status, status=TournamentStatus.REGISTERING, refunded=0)
        tournament_status_write(tournament=event, status=TournamentStatus.REGISTERING)
        tournament_status_record(actor=actor, tournament=event, change=change)
    if seating_settings(event.pk).draw_starts:
        tournament_start(actor=actor, tournament=event)
    audit_record(
        actor=actor,
        action="day2.start",
        obj=event,
        tournament=event,
        after={
            "seating_action": action.pk,
            "seed": seed,
            "entries": len(entries),
            "chips": sum(e.chips for e in entries),
            "carried": [b.pk for b in carried],
            "forfeited": {str(b.pk): b.forfeit_reason for b in forfeited},
            "spread_big_stacks": spread,
            "level": level,
        },
    )
    tournament_publish(event)
    return entries

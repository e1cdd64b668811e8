"""Reads: the clock as every screen and the API show it, derived at one moment."""

import math
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache

from django.db import connection
from django.utils import timezone

from clock import engine
from clock.models import Announcement, Clock, PlayerClock, Structure, StructureStep
from tournaments import engine as tournaments_engine
from tournaments import house
from tournaments.models import Tournament
from tournaments.selectors import house_settings, rules_at

# The house settings the clock follows (tournaments.house), in the console's order.
CLOCK_SETTINGS = ("player_clock", "clock_expired_no_bet", "heads_up_level", "day_end_draw")


def structure_steps(structure_id: int | None) -> list[engine.Step]:
    if structure_id is None:
        return []
    return [s.as_step() for s in StructureStep.objects.filter(structure_id=structure_id)]


def clock_setup(tournament) -> dict:
    """The clock's part of an event's setup (JSON), for a copy or a saved event template:
    the house settings and the steps of the blind structure. The structure itself stays
    the event's; clock.services.clock_prepare builds a new one from the steps."""
    clock = clock_of(tournament)
    structure = clock.structure if clock.structure_id else None
    return {
        "settings": {name: getattr(clock, name) for name in Clock.SETTINGS},
        "structure": structure
        and {
            "name": structure.name,
            "chip_set": structure.chip_set_id,
            "steps": [engine.step_data(step) for step in structure_steps(structure.pk)],
        },
    }


def clock_of(tournament) -> Clock:
    """The tournament's clock; an unsaved default one if nobody has touched it yet."""
    try:
        return tournament.clock
    except Clock.DoesNotExist:
        return Clock(tournament=tournament)


def level_in_play(tournament, now: datetime | None = None) -> int:
    """The play level that registration deadlines are checked against.

    From the clock once it has started (a break counts as the level before it);
    before that, the level the director set by hand.
    """
    clock = clock_of(tournament)
    if clock.pk is None or clock.status == engine.NOT_STARTED or clock.structure_id is None:
        return tournament.current_level
    steps = structure_steps(clock.structure_id)
    if not steps:
        return tournament.current_level
    reading = engine.read(clock.as_state(), steps, now or timezone.now())
    return max(1, engine.level_number(steps, reading.position))


def entry_rules(tournament) -> tournaments_engine.Rules:
    """The desk's deadlines and limits (TDA 8-A, casino §8) against the level in play now:
    they follow the running clock to the second, not the stored level."""
    return rules_at(tournament, level=level_in_play(tournament))


def registration_open(tournament) -> bool:
    """Can the desk sell an entry now (TDA 8-A: late registration until its level ends)?
    Asked by the halting rule (casino §14), the places (a last entry is the winner only
    once no more can come) and the simulated desk."""
    return tournaments_engine.registration_refusal(entry_rules(tournament)) is None


def step_public(steps: list[engine.Step], position: int) -> dict | None:
    if not 1 <= position <= len(steps):
        return None
    step = steps[position - 1]
    return {
        "position": position,
        "number": None if step.is_break else engine.level_number(steps, position),
        "is_break": step.is_break,
        "minutes": step.minutes,
        "small_blind": step.small_blind,
        "big_blind": step.big_blind,
        "ante": step.ante if step.ante_type == engine.ANTE_TRADITIONAL else 0,
        "big_blind_ante": step.ante if step.ante_type == engine.ANTE_BIG_BLIND else 0,
        "ante_type": step.ante_type,
        "small_bet": step.small_bet,
        "big_bet": step.big_bet,
        "bring_in": step.bring_in,  # stud, RP-10 E: 0 = the small blind column
        "game": step.game,
        "label": step.label,
        "color_up": list(step.color_up),
        "addon": step.addon,
    }


def _seconds(ms: int | None) -> int | None:
    return None if ms is None else math.ceil(ms / 1000)


@dataclass(frozen=True)
class ClockRow:
    """What the public clock is derived from, read in one query."""

    tournament_status: str
    state: engine.Clock
    version: int
    structure_id: int | None
    structure_version: str  # changes whenever the structure's steps change
    warning_seconds: int
    day_end_hands: int | None


def _row_sql() -> str:

    t, c, st = Tournament._meta.db_table, Clock._meta.db_table, Structure._meta.db_table
    return (
        f"SELECT t.status, c.status, c.position, c.left_ms, c.anchor_at, c.halved_from,"
        f" c.version, c.structure_id, s.updated_at, c.warning_seconds, c.day_end_hands"
        f" FROM {t} t LEFT JOIN {c} c ON c.tournament_id = t.id"
        f" LEFT JOIN {st} s ON s.id = c.structure_id WHERE t.id = %s"
    )


def clock_row(tournament_id: int) -> ClockRow | None:
    """The tournament's clock as one row (None: no such tournament).

    Plain SQL: this is the hottest read (every screen resyncs with it) and building
    the same three-table query through the ORM cost eight times as long as running it
    (bench/clock_api.py).
    """
    with connection.cursor() as cursor:
        cursor.execute(_row_sql(), [tournament_id])
        row = cursor.fetchone()
    if row is None:
        return None
    (tournament_status, status, position, left_ms, anchor_at, halved_from, version,
     structure_id, updated, warning_seconds, day_end_hands) = row  # fmt: skip
    if status is None:  # nobody has touched the clock yet
        default = Clock()
        return ClockRow(
            tournament_status, engine.Clock(), 1, None, "", default.warning_seconds, None
        )
    if isinstance(anchor_at, str):  # SQLite hands back text
        anchor_at = datetime.fromisoformat(anchor_at)
    if isinstance(updated, str):
        updated = datetime.fromisoformat(updated)
    if anchor_at is not None and timezone.is_naive(anchor_at):
        anchor_at = timezone.make_aware(anchor_at, UTC)
    return ClockRow(
        tournament_status=tournament_status,
        state=engine.Clock(status, position, left_ms, anchor_at, halved_from),
        version=version,
        structure_id=structure_id,
        structure_version=f"{structure_id}@{updated.isoformat()}" if updated else "",
        warning_seconds=warning_seconds,
        day_end_hands=day_end_hands,
    )


@lru_cache(maxsize=256)
def _steps_at(structure_id: int, structure_version: str) -> tuple[engine.Step, ...]:
    # Keyed by the structure's version, so an entry never goes stale: an edit makes a
    # new key. Every process may keep its own copy; none holds state of its own.
    return tuple(structure_steps(structure_id))


def clock_steps(tournament_id: int) -> tuple[engine.Clock, list[engine.Step]]:
    """The clock's state and its structure's steps (none: no structure, or nobody has
    touched the clock), in one query: the steps are kept per process by the structure's
    version (`_steps_at`). What a hand's deal reads for its level (TDA 23)."""
    row = clock_row(tournament_id)
    if row is None or not row.structure_id:
        return (row.state if row else engine.Clock()), []
    return row.state, list(_steps_at(row.structure_id, row.structure_version))


def clock_public(tournament, now: datetime | None = None, *, steps: bool = True) -> dict:
    row = clock_row(tournament.pk)
    return clock_public_of(row, now, steps=steps)


def clock_public_of(row: ClockRow, now: datetime | None = None, *, steps: bool = True) -> dict:
    """The clock state: what GET .../clock/ answers and what screens resync from.

    Screens count down from `ends_at` with their own offset to `server_time` and roll
    over into the following `steps` themselves; the server sends changes, never ticks.
    `steps` (the whole structure) is left out of live events: a screen fetches it
    again when `steps_version` changes.
    """
    now = now or timezone.now()
    structure = list(_steps_at(row.structure_id, row.structure_version)) if row.structure_id else []
    state = row.state
    if row.tournament_status in ("finished", "cancelled") and state.status != engine.FINISHED:
        state = engine.Clock(engine.FINISHED, state.position, state.left_ms, None)
    if state.status == engine.NOT_STARTED and state.left_ms == 0 and structure:
        state = engine.Clock(
            position=state.position, left_ms=engine.step_ms(structure, state.position)
        )
    reading = engine.read(state, structure, now)
    to_break = engine.ms_to_break(structure, reading, state.halved_from) if structure else None
    data = {
        "status": reading.status,
        "level": step_public(structure, reading.position),
        "seconds_left": _seconds(reading.left_ms),
        "ms_left": reading.left_ms,
        "ends_at": reading.ends_at.isoformat() if reading.ends_at else None,
        "next_level": step_public(structure, reading.position + 1),
        "seconds_to_break": _seconds(to_break),
        "last_level": reading.last_step,
        "server_time": now.isoformat(),
        "version": row.version,
        "structure": row.structure_id,
        "steps_version": row.structure_version,
        "halved_from": state.halved_from,
        "warning_seconds": row.warning_seconds,
        "day_end_hands": row.day_end_hands,
    }
    if steps:
        data["steps"] = [step_public(structure, p) for p in range(1, len(structure) + 1)]
    return data


def announcements_public(tournament) -> list[dict]:
    shown = Announcement.objects.filter(tournament=tournament, active=True)[:5]
    return [{"id": a.pk, "text": a.text, "at": a.created_at.isoformat()} for a in shown]


def player_clock_public(player_clock: PlayerClock, now: datetime | None = None) -> dict:
    now = now or timezone.now()
    reading = engine.player_clock_read(
        started_at=player_clock.started_at,
        seconds=player_clock.seconds,
        countdown=player_clock.countdown,
        now=now,
    )
    return {
        "id": player_clock.pk,
        "table": player_clock.table,
        "seat": player_clock.seat,
        "facing_bet": player_clock.facing_bet,
        "seconds": player_clock.seconds,
        "countdown": player_clock.countdown,
        "started_at": player_clock.started_at.isoformat(),
        "ends_at": reading.ends_at.isoformat(),
        "running": player_clock.stopped_at is None,
        "expired": reading.expired,
        "rule": _time_rule(player_clock.time_reading),
        "consequence": engine.player_clock_consequence(
            facing_bet=player_clock.facing_bet, no_bet=player_clock.no_bet
        ),
        "consequence_rule": engine.player_clock_consequence_rule(player_clock.no_bet),
    }


def _time_rule(reading: str) -> str:
    return engine.player_clock_time(reading).rule


def clock_readings(tournament) -> dict:
    """The clock's house settings for this event (issue 19), as the console shows them:
    each setting's reading with its label and rule; the player clock's time as called
    now (TDA 29, casino §27 with a turbo's where the clock says the event is one, or
    IFP 4.26)."""
    readings = house_settings(tournament)
    clock = clock_of(tournament)
    shown = []
    for key in CLOCK_SETTINGS:
        setting = house.BY_KEY[key]
        reading = setting.reading(getattr(readings, key))
        shown.append(
            {
                "key": key,
                "label": setting.label,
                "value": reading.value,
                "reading": reading.label,
                "rule": reading.rule,
                "summary": reading.summary,
            }
        )
    time = engine.player_clock_time(readings.player_clock, turbo=clock.turbo)
    return {
        "settings": shown,
        "player_clock": {"seconds": time.seconds, "countdown": time.countdown, "rule": time.rule},
        "clock_expired_no_bet": readings.clock_expired_no_bet,
        "no_bet_rule": engine.player_clock_consequence_rule(readings.clock_expired_no_bet),
        "day_end_draw": engine.day_end_draws(readings.day_end_draw),
        "heads_up_halves": readings.heads_up_level == engine.CASINO,
    }


def player_clocks_running(tournament, *, table: int | None = None):
    clocks = PlayerClock.objects.filter(tournament=tournament, stopped_at__isnull=True)
    if table is not None:
        clocks = clocks.filter(table=table)
    return clocks


def measuring_big_blind(clock: dict) -> int:
    """The big blind a stack is measured in, from a clock state (`clock_public`): the
    level in play's; during a break, the level's after it (the big bet in a limit game);
    0 without a structure."""
    for step in (clock["level"], clock["next_level"]):
        if step and not step["is_break"]:
            return step["big_blind"] or step["big_bet"]
        if not step:
            return 0
    return 0


def big_blind_in_play(tournament, now: datetime | None = None) -> int:
    """The big blind of the level in play (issue 18: the chip leaders in big blinds);
    two queries at most (the clock's row, its steps cached by version)."""
    return measuring_big_blind(clock_public(tournament, now, steps=False))

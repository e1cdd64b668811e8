"""The tournament clock as pure functions: plain values in, plain values out.

No Django here. The clock is stored as (status, position, milliseconds left at the
anchor, anchor time, version); everything a screen shows is derived from that and the
structure's steps at a given moment, so nothing ticks on the server and every process
derives the same second. Positions are 1-based over all steps (levels and breaks);
level numbers count only levels.

Rules: TDA 23 (a new level applies to the next hand), RP-7 (hold the dealer push
shortly before a level change or break); where the house chooses it (tournaments.house),
casino §31 (heads-up halves the level length, applied here from the next level on),
casino §27 (the player clock's length) and casino §28 (the end of a day's play).
"""

import random
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

LEVEL = "level"
BREAK = "break"

ANTE_NONE = "none"
ANTE_TRADITIONAL = "ante"
ANTE_BIG_BLIND = "bba"  # RP-11: big-blind ante, big blind first
ANTE_TYPES = (ANTE_NONE, ANTE_TRADITIONAL, ANTE_BIG_BLIND)

NOT_STARTED = "not_started"
RUNNING = "running"
PAUSED = "paused"
FINISHED = "finished"
STATUSES = (NOT_STARTED, RUNNING, PAUSED, FINISHED)

MAX_SECONDS = 24 * 3600  # no level or adjustment is longer than a day

# Announcements the worker sends at their time (see `upcoming`).
WARNING = "warning"  # RP-7: hold the dealer push
CHANGE = "change"  # the next step begins


@dataclass(frozen=True)
class Step:
    """One line of a blind structure: a level or a break."""

    kind: str
    minutes: int
    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    ante_type: str = ANTE_NONE
    small_bet: int = 0  # limit games
    big_bet: int = 0
    # Stud (RP-10 E, TDA 30): the low card's forced bet; 0 = the small blind column, as
    # before this field (hands.services.hands.hand_start).
    bring_in: int = 0
    game: str = ""  # mixed games: the game of this level; "" = the tournament's game
    label: str = ""  # breaks: "Dinner break"
    color_up: tuple[int, ...] = ()  # breaks: denominations raced off (TDA 24)
    addon: bool = False  # breaks: the add-on window is open

    @property
    def is_break(self) -> bool:
        return self.kind == BREAK


STEP_FIELDS = tuple(Step.__dataclass_fields__)


def step_data(step: Step) -> dict:
    """A step as plain values (JSON): how an event's copy or template keeps it."""
    return {
        name: list(step.color_up) if name == "color_up" else getattr(step, name)
        for name in STEP_FIELDS
    }


def step_of(data: dict) -> Step:
    """The step that `step_data` gave; names it does not know are left out."""
    values = {name: data[name] for name in STEP_FIELDS if name in data}
    values["color_up"] = tuple(values.get("color_up") or ())
    return Step(**values)


@dataclass(frozen=True)
class Clock:
    status: str = NOT_STARTED
    position: int = 1
    left_ms: int = 0  # at `anchor` (running) or frozen (paused, not started)
    anchor: datetime | None = None
    # Steps from this position on last half as long (casino §31 heads-up, where the
    # house's `heads_up_level` reading is "casino"); None = never.
    halved_from: int | None = None


@dataclass(frozen=True)
class Reading:
    """What the clock shows at one moment."""

    status: str
    position: int
    left_ms: int
    ends_at: datetime | None  # when the current step ends, while running
    last_step: bool  # the structure has no further step: this one goes on
    changes: list[int] = field(default_factory=list)  # positions begun since the anchor


class ClockRefusal(Exception):
    """The action makes no sense in the clock's current state; `code` says why."""

    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


def step_ms(steps: list[Step], position: int, halved_from: int | None = None) -> int:
    ms = steps[position - 1].minutes * 60_000
    if halved_from is not None and position >= halved_from:
        ms //= 2
    return ms


def level_number(steps: list[Step], position: int) -> int:
    """The play level at `position`; for a break, the level before it (0 before level 1)."""
    return sum(1 for step in steps[:position] if not step.is_break)


def position_of_level(steps: list[Step], number: int) -> int | None:
    seen = 0
    for position, step in enumerate(steps, start=1):
        if not step.is_break:
            seen += 1
            if seen == number:
                return position
    return None


def read(clock: Clock, steps: list[Step], now: datetime) -> Reading:
    """The clock at `now`: while running, roll over into the following steps as they end."""
    if not steps:
        return Reading(clock.status, 1, 0, None, True)
    position = min(max(clock.position, 1), len(steps))
    left = clock.left_ms
    changes: list[int] = []
    if clock.status != RUNNING or clock.anchor is None:
        return Reading(clock.status, position, left, None, position == len(steps), changes)
    left -= int((now - clock.anchor) / timedelta(milliseconds=1))
    while left <= 0 and position < len(steps):
        position += 1
        left += step_ms(steps, position, clock.halved_from)
        changes.append(position)
    last = position == len(steps)
    if last and left < 0:
        left = 0  # the last level goes on until the director adds levels or ends play
    ends_at = None if last and left == 0 else now + timedelta(milliseconds=left)
    return Reading(RUNNING, position, left, ends_at, last, changes)


def _at(reading: Reading, now: datetime, clock: Clock, **changes) -> Clock:
    """The clock re-anchored at `now` from a reading, with some fields changed."""
    base = replace(
        clock,
        status=reading.status,
        position=reading.position,
        left_ms=reading.left_ms,
        anchor=now if reading.status == RUNNING else None,
    )
    new = replace(base, **changes)
    if new.status == RUNNING:
        new = replace(new, anchor=now)
    return new


def _refuse_if_finished(clock: Clock) -> None:
    if clock.status == FINISHED:
        raise ClockRefusal("finished")


def reopen(clock: Clock) -> Clock:
    """A finished clock paused where it stopped: the event it ended runs again (the
    bust that decided it was undone). Any other clock is left as it is."""
    if clock.status != FINISHED:
        return clock
    return replace(clock, status=PAUSED, anchor=None)


def act(
    clock: Clock,
    steps: list[Step],
    now: datetime,
    action: str,
    *,
    level: int | None = None,
    seconds: int | None = None,
) -> Clock:
    """Apply one TD action; raise ClockRefusal when it makes no sense now."""
    if not steps:
        raise ClockRefusal("no_structure")
    _refuse_if_finished(clock)
    reading = read(clock, steps, now)
    position = reading.position

    if action == "start":
        if clock.status != NOT_STARTED:
            raise ClockRefusal("already_started")
        return _at(reading, now, clock, status=RUNNING)
    if action == "pause":
        if clock.status != RUNNING:
            raise ClockRefusal("not_running")
        return _at(reading, now, clock, status=PAUSED)
    if action == "resume":
        if clock.status == RUNNING:
            raise ClockRefusal("already_running")
        if clock.status == NOT_STARTED:
            raise ClockRefusal("not_started")
        return _at(reading, now, clock, status=RUNNING)
    if action == "next":
        if position >= len(steps):
            raise ClockRefusal("last_level")
        return _goto(reading, now, clock, steps, position + 1)
    if action == "previous":
        if position <= 1:
            raise ClockRefusal("first_level")
        return _goto(reading, now, clock, steps, position - 1)
    if action == "jump":
        target = position_of_level(steps, level) if level is not None else None
        if target is None:
            raise ClockRefusal("no_such_level")
        return _goto(reading, now, clock, steps, target)
    if action == "set":
        if seconds is None or seconds < 0:
            raise ClockRefusal("negative_time")
        if seconds > MAX_SECONDS:
            raise ClockRefusal("too_much_time")
        return _at(reading, now, clock, left_ms=seconds * 1000)
    if action == "adjust":
        if seconds is None:
            raise ClockRefusal("negative_time")
        left = reading.left_ms + seconds * 1000
        if left < 0:
            raise ClockRefusal("negative_time")
        if left > MAX_SECONDS * 1000:
            raise ClockRefusal("too_much_time")
        return _at(reading, now, clock, left_ms=left)
    if action == "finish":
        return _at(reading, now, clock, status=FINISHED)
    raise ClockRefusal("unknown_action")


def take_time(clock: Clock, steps: list[Step], now: datetime, seconds: int) -> Clock:
    """RP-8 B-D: each hand-for-hand hand takes time off the clock, and the levels begin
    as that time runs out, as if the clock had run. The last level never goes below zero."""
    if not steps:
        raise ClockRefusal("no_structure")
    _refuse_if_finished(clock)
    reading = read(clock, steps, now)
    position, left = reading.position, reading.left_ms - seconds * 1000
    while left <= 0 and position < len(steps):
        position += 1
        left += step_ms(steps, position, clock.halved_from)
    return _at(reading, now, clock, position=position, left_ms=max(left, 0))


def _goto(reading: Reading, now: datetime, clock: Clock, steps: list[Step], target: int) -> Clock:
    return _at(
        reading, now, clock, position=target, left_ms=step_ms(steps, target, clock.halved_from)
    )


def heads_up(clock: Clock, steps: list[Step], now: datetime, *, halve: bool) -> Clock:
    """Casino §31: from the next step on, levels last half as long (or full again).

    Halving leaves the level in play as it is: its time was announced to the players, and
    §31 halves the levels played heads-up, which begin after it. That holds both when a
    bust leaves two players and when the house chooses §31 while two are already left.
    Full again (a bust undone, or the house chose the TDA while heads-up), a halved level
    in play gets back the half it lost: the time already played in it stays played, so a
    director sees the level run on to its scheduled length."""
    reading = read(clock, steps, now)
    halved_from = reading.position + 1 if halve else None
    if (clock.halved_from is None) == (halved_from is None):
        return clock  # already so
    left = reading.left_ms
    if halved_from is None and reading.position >= clock.halved_from:
        full = step_ms(steps, reading.position)
        left += full - step_ms(steps, reading.position, clock.halved_from)
    return _at(reading, now, clock, left_ms=left, halved_from=halved_from)


@dataclass(frozen=True)
class Announcement:
    kind: str  # WARNING or CHANGE
    position: int  # the step that is ending
    at: datetime

    @property
    def seq(self) -> int:
        """Orders announcements; a worker claims each one once (see clock.services)."""
        return self.position * 2 + (1 if self.kind == CHANGE else 0)


def upcoming(
    clock: Clock, steps: list[Step], now: datetime, *, warning_seconds: int
) -> list[Announcement]:
    """The announcements still due for the current step while the clock runs.

    RP-7: a warning `warning_seconds` before the step ends (skipped when the step is
    shorter than that or the warning time has passed), then the change itself.
    """
    reading = read(clock, steps, now)
    if reading.status != RUNNING or reading.ends_at is None:
        return []
    due = []
    warn_at = reading.ends_at - timedelta(seconds=warning_seconds)
    if warning_seconds > 0 and warn_at > now:
        due.append(Announcement(WARNING, reading.position, warn_at))
    due.append(Announcement(CHANGE, reading.position, reading.ends_at))
    return due


def ms_to_break(steps: list[Step], reading: Reading, halved_from: int | None = None) -> int | None:
    """Milliseconds until the next break starts (None: no break ahead, or in one now)."""
    if steps and steps[reading.position - 1].is_break:
        return None
    total = reading.left_ms
    for position in range(reading.position + 1, len(steps) + 1):
        if steps[position - 1].is_break:
            return total
        total += step_ms(steps, position, halved_from)
    return None


# --- House readings (issue 19) -----------------------------------------------------
# The values of the house settings the clock follows (tournaments.house); the engine
# takes them as plain strings, the services read them for the event.

TDA = "tda"
CASINO = "casino"
IFP = "ifp"  # player_clock: IFP 4.26 and the older German TDA translation's rule 5
DEAD = "dead"  # clock_expired_no_bet: the hand is dead whether or not it faces a bet


def legacy_readings(settings: dict) -> tuple[dict[str, str], bool]:
    """The readings that a clock's settings from before issue 19 stand for, as a saved
    event template may still hold them (the clock's migration 0003 moves the stored
    clocks the same way): casino §31's halving, a player clock longer than the TDA's
    30 s or folded (casino §27), a turbo's 30 s folded. Only the non-TDA readings, and
    whether the event is a turbo."""
    readings: dict[str, str] = {}
    seconds = settings.get("player_clock_seconds", 30)
    countdown = settings.get("player_clock_countdown", 5)
    folded = settings.get("player_clock_unfacing") == "fold"
    turbo = folded and (seconds, countdown) == (30, 5)
    if settings.get("halve_heads_up"):
        readings["heads_up_level"] = CASINO
    if folded:
        readings["clock_expired_no_bet"] = DEAD
    if seconds > 30 or turbo:
        readings["player_clock"] = CASINO
    return readings, turbo


# --- Player clock (TDA 29, casino §27) ----------------------------------------------

DEAD_HAND = "dead"
CHECK = "check"
CONSEQUENCES = (DEAD_HAND, CHECK)


@dataclass(frozen=True)
class PlayerClockTime:
    seconds: int  # in all, the countdown included
    countdown: int  # the last seconds, counted down aloud
    rule: str


def player_clock_time(reading: str, *, turbo: bool = False) -> PlayerClockTime:
    """How long a player on the clock has, by the house's `player_clock` reading.

    TDA 29: 25 seconds, then a 5-second countdown (30 in all). Casino §27: one more
    minute, its last 10 seconds counted down; in a turbo event 30 seconds, the last 5
    counted down. IFP 4.26 and the older TDA translation (rule 5): a whole minute, and
    after it a 10-second countdown (70 in all), turbo or not. Any other reading is the
    TDA's."""
    if reading == IFP:
        return PlayerClockTime(70, 10, "IFP 4.26, older TDA 5")
    if reading == CASINO:
        if turbo:
            return PlayerClockTime(30, 5, "casino §27")
        return PlayerClockTime(60, 10, "casino §27")
    return PlayerClockTime(30, 5, "TDA 29")


@dataclass(frozen=True)
class PlayerClockReading:
    ends_at: datetime
    left_ms: int
    counting_down: bool  # within the final countdown the dealer counts aloud
    expired: bool


def player_clock_read(
    *, started_at: datetime, seconds: int, countdown: int, now: datetime
) -> PlayerClockReading:
    """TDA 29: the player has `seconds` in all, the last `countdown` of them counted down."""
    ends_at = started_at + timedelta(seconds=seconds)
    left = max(0, int((ends_at - now) / timedelta(milliseconds=1)))
    return PlayerClockReading(ends_at, left, 0 < left <= countdown * 1000, left == 0)


def player_clock_consequence(*, facing_bet: bool, no_bet: str) -> str:
    """When time runs out, by the house's `clock_expired_no_bet` reading. TDA 29: facing a
    bet the hand is dead, with no bet to face it is checked. Casino §27, IFP 4.26 and the
    older TDA translation's rule 5 ("dead"): the hand is dead either way."""
    if facing_bet or no_bet == DEAD:
        return DEAD_HAND
    return CHECK


def player_clock_consequence_rule(no_bet: str) -> str:
    """The rule the outcome of an expired player clock follows (see above)."""
    return "casino §27, IFP 4.26, older TDA 5" if no_bet == DEAD else "TDA 29"


# --- Heads-up (casino §31) ---------------------------------------------------------


def heads_up_halves(reading: str, *, players_left: int) -> bool:
    """Do the levels from the next one on last half as long? Casino §31 ("casino"): yes,
    once only two players are left in the event. The TDA has no such rule: never."""
    return reading == CASINO and players_left == 2


# --- End of the day (casino §28) ---------------------------------------------------


def day_end_draws(reading: str) -> bool:
    """Does the day end with a draw of the hands left? Casino §28 ("casino"): in the last
    5 to 15 minutes of the day's last level the clock stops and a card from 3 to 7 says
    how many hands every table still plays. The TDA has no draw: the day ends when its
    last level ends (the director's schedule)."""
    return reading == CASINO


def end_of_day_hands(seed: int) -> int:
    """The card a player draws, three to seven: that many hands remain at every table.

    Seeded, so the draw can be replayed from the stored seed and shown to be fair.
    """
    return random.Random(seed).randint(3, 7)


# From this many big blinds on, a stack counts in whole ones (below, to one decimal).
WHOLE_BIG_BLINDS_FROM = 10


def big_blinds(average: int | None, big_blind: int) -> int | float | None:
    """The average in big blinds, half up: whole big blinds from 10 on ("418", not
    "417.8": nobody plays the tenth of a deep stack), one decimal below, where a short
    stack's tenth matters (issue 16). As clock.js averageBigBlinds."""
    if average is None or big_blind <= 0:
        return None
    tenths = (20 * average + big_blind) // (2 * big_blind)
    if tenths >= 10 * WHOLE_BIG_BLINDS_FROM:
        return (2 * average + big_blind) // (2 * big_blind)
    return tenths / 10

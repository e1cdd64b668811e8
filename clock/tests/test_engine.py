"""The clock's rules as pure functions: derived time, actions, announcements, TDA 24/29."""

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clock import engine
from clock.engine import BREAK, LEVEL, Clock, ClockRefusal, Step

T0 = datetime(2026, 11, 21, 19, 0, tzinfo=UTC)


def s(seconds: float) -> timedelta:
    return timedelta(seconds=seconds)


STEPS = [
    Step(LEVEL, 20, 100, 200),
    Step(LEVEL, 20, 200, 400),
    Step(BREAK, 10, label="Break", color_up=(25,)),
    Step(LEVEL, 20, 300, 600, ante=600, ante_type=engine.ANTE_BIG_BLIND),
    Step(LEVEL, 20, 400, 800, ante=800, ante_type=engine.ANTE_BIG_BLIND),
]


def started(at=T0) -> Clock:
    return engine.act(Clock(left_ms=20 * 60_000), STEPS, at, "start")


def test_a_running_clock_counts_down_from_its_anchor():
    reading = engine.read(started(), STEPS, T0 + s(65))

    assert (reading.position, reading.left_ms) == (1, (20 * 60 - 65) * 1000)
    assert reading.ends_at == T0 + s(20 * 60)


def test_the_clock_rolls_into_the_next_level_without_anyone_touching_it():
    reading = engine.read(started(), STEPS, T0 + s(20 * 60 + 30))

    assert reading.position == 2
    assert reading.left_ms == (20 * 60 - 30) * 1000
    assert reading.changes == [2]


def test_a_reading_two_levels_later_counts_the_break_in():
    reading = engine.read(started(), STEPS, T0 + s(45 * 60))

    assert reading.position == 3  # the break, 5 of its 10 minutes gone
    assert reading.left_ms == 5 * 60_000
    assert engine.level_number(STEPS, 3) == 2  # a break counts as the level before it


def test_the_last_level_goes_on_at_zero_when_the_structure_runs_out():
    reading = engine.read(started(), STEPS, T0 + s(10 * 3600))

    assert (reading.position, reading.left_ms, reading.last_step) == (5, 0, True)
    assert reading.ends_at is None


def test_a_paused_clock_does_not_move():
    paused = engine.act(started(), STEPS, T0 + s(100), "pause")

    later = engine.read(paused, STEPS, T0 + s(5000))

    assert (later.status, later.position, later.left_ms) == (engine.PAUSED, 1, 1100 * 1000)


def test_resume_continues_with_the_time_that_was_left():
    paused = engine.act(started(), STEPS, T0 + s(100), "pause")
    resumed = engine.act(paused, STEPS, T0 + s(400), "resume")

    assert engine.read(resumed, STEPS, T0 + s(500)).left_ms == 1000 * 1000


@pytest.mark.parametrize(
    ("clock", "action", "code"),
    [
        (started(), "resume", "already_running"),
        (started(), "start", "already_started"),
        (Clock(left_ms=1000), "pause", "not_running"),
        (Clock(left_ms=1000), "resume", "not_started"),
        (started(), "previous", "first_level"),
        (Clock(engine.FINISHED, 2, 0), "next", "finished"),
    ],
)
def test_actions_that_make_no_sense_are_refused(clock, action, code):
    with pytest.raises(ClockRefusal) as refusal:
        engine.act(clock, STEPS, T0, action)

    assert refusal.value.code == code


def test_next_and_previous_start_that_step_with_its_full_time():
    clock = engine.act(started(), STEPS, T0 + s(300), "next")
    assert (clock.position, clock.left_ms, clock.anchor) == (2, 20 * 60_000, T0 + s(300))

    back = engine.act(clock, STEPS, T0 + s(400), "previous")
    assert (back.position, back.left_ms) == (1, 20 * 60_000)


def test_next_is_refused_at_the_last_level():
    clock = engine.act(started(), STEPS, T0, "jump", level=4)

    with pytest.raises(ClockRefusal, match="last_level"):
        engine.act(clock, STEPS, T0, "next")


def test_jump_goes_to_a_play_level_by_its_number_not_its_position():
    clock = engine.act(started(), STEPS, T0, "jump", level=3)

    assert clock.position == 4  # level 3 comes after the break

    with pytest.raises(ClockRefusal, match="no_such_level"):
        engine.act(clock, STEPS, T0, "jump", level=5)


def test_set_and_adjust_change_the_time_left_but_never_below_zero():
    clock = engine.act(started(), STEPS, T0, "set", seconds=300)
    assert engine.read(clock, STEPS, T0).left_ms == 300_000

    clock = engine.act(clock, STEPS, T0, "adjust", seconds=-60)
    assert engine.read(clock, STEPS, T0).left_ms == 240_000

    with pytest.raises(ClockRefusal, match="negative_time"):
        engine.act(clock, STEPS, T0, "adjust", seconds=-241)
    with pytest.raises(ClockRefusal, match="negative_time"):
        engine.act(clock, STEPS, T0, "set", seconds=-1)


def test_without_a_structure_nothing_can_be_done():
    with pytest.raises(ClockRefusal, match="no_structure"):
        engine.act(Clock(), [], T0, "start")


def test_rp7_warning_comes_before_the_level_change():
    due = engine.upcoming(started(), STEPS, T0 + s(60), warning_seconds=90)

    assert [(a.kind, a.position, a.at) for a in due] == [
        (engine.WARNING, 1, T0 + s(20 * 60 - 90)),
        (engine.CHANGE, 1, T0 + s(20 * 60)),
    ]
    assert due[0].seq < due[1].seq


def test_a_warning_already_past_is_not_scheduled_again():
    due = engine.upcoming(started(), STEPS, T0 + s(20 * 60 - 30), warning_seconds=90)

    assert [a.kind for a in due] == [engine.CHANGE]


def test_a_paused_clock_has_nothing_to_announce():
    paused = engine.act(started(), STEPS, T0, "pause")

    assert engine.upcoming(paused, STEPS, T0, warning_seconds=90) == []


def test_time_to_the_break_adds_up_the_levels_before_it():
    reading = engine.read(started(), STEPS, T0 + s(60))

    assert engine.ms_to_break(STEPS, reading) == (19 * 60 + 20 * 60) * 1000


def test_casino_31_heads_up_halves_the_levels_from_the_next_one():
    clock = engine.heads_up(started(), STEPS, T0 + s(600), halve=True)

    assert clock.halved_from == 2
    assert engine.read(clock, STEPS, T0 + s(600)).left_ms == 600_000  # this level unchanged
    # Level 2 now lasts 10 minutes: 10 + 10 minutes after the change the break begins.
    assert engine.read(clock, STEPS, T0 + s(600 + 600 + 600 + 1)).position == 3


def test_casino_31_full_again_a_halved_level_in_play_gets_back_its_lost_half():
    halved = engine.heads_up(started(), STEPS, T0 + s(600), halve=True)
    # 10 min into level 1, then 4 min into level 2, which lasts 10 min halved: 6 min left.
    at = T0 + s(20 * 60 + 4 * 60)
    assert engine.read(halved, STEPS, at).left_ms == 6 * 60_000

    full = engine.heads_up(halved, STEPS, at, halve=False)

    assert full.halved_from is None
    # The 4 minutes played stay played: 16 of level 2's scheduled 20 minutes are left.
    assert (full.position, engine.read(full, STEPS, at).left_ms) == (2, 16 * 60_000)


@given(
    elapsed=st.integers(min_value=0, max_value=4 * 3600),
    pause_after=st.integers(min_value=0, max_value=4 * 3600),
)
def test_pausing_and_resuming_never_loses_or_gains_time(elapsed, pause_after):
    """However long the pause, the clock resumes exactly where it stopped."""
    clock = started()
    at_pause = T0 + s(elapsed)
    before = engine.read(clock, STEPS, at_pause)
    paused = engine.act(clock, STEPS, at_pause, "pause")
    resumed = engine.act(paused, STEPS, at_pause + s(pause_after), "resume")
    after = engine.read(resumed, STEPS, at_pause + s(pause_after))

    assert (after.position, after.left_ms) == (before.position, before.left_ms)


@given(st.integers(min_value=0, max_value=3 * 3600), st.integers(min_value=0, max_value=3600))
def test_two_readings_agree_with_the_time_between_them(first, gap):
    """Derived time is consistent: reading later equals reading earlier, then waiting."""
    clock = started()
    a = engine.read(clock, STEPS, T0 + s(first))
    re_anchored = Clock(engine.RUNNING, a.position, a.left_ms, T0 + s(first))
    b1 = engine.read(clock, STEPS, T0 + s(first + gap))
    b2 = engine.read(re_anchored, STEPS, T0 + s(first + gap))

    assert (b1.position, b1.left_ms) == (b2.position, b2.left_ms)


# --- TDA 29 player clock ---------------------------------------------------------


def test_tda29_player_clock_counts_down_the_last_five_seconds():
    reading = engine.player_clock_read(started_at=T0, seconds=30, countdown=5, now=T0 + s(26))

    assert reading.counting_down and not reading.expired
    assert reading.left_ms == 4000


def test_tda29_player_clock_expires_after_the_whole_time():
    reading = engine.player_clock_read(started_at=T0, seconds=30, countdown=5, now=T0 + s(30))

    assert reading.expired and reading.left_ms == 0


@pytest.mark.parametrize(
    ("facing_bet", "no_bet", "consequence"),
    [
        (True, engine.TDA, engine.DEAD_HAND),  # TDA 29: facing a bet the hand is dead
        (True, engine.DEAD, engine.DEAD_HAND),  # casino §27: dead
        (False, engine.TDA, engine.CHECK),  # TDA 29: otherwise checked
        (False, engine.DEAD, engine.DEAD_HAND),  # casino §27: dead all the same
    ],
)
def test_tda29_or_casino27_consequence_when_time_runs_out(facing_bet, no_bet, consequence):
    assert engine.player_clock_consequence(facing_bet=facing_bet, no_bet=no_bet) == consequence


def test_the_rule_each_outcome_follows_is_cited():
    assert engine.player_clock_consequence_rule(engine.TDA) == "TDA 29"
    assert engine.player_clock_consequence_rule(engine.DEAD) == "casino §27, IFP 4.26, older TDA 5"


@pytest.mark.parametrize(
    ("reading", "turbo", "seconds", "countdown", "rule"),
    [
        (engine.TDA, False, 30, 5, "TDA 29"),  # 25 s, then a 5-second countdown
        (engine.TDA, True, 30, 5, "TDA 29"),  # the TDA knows no turbo clock
        (engine.CASINO, False, 60, 10, "casino §27"),  # a minute, the last 10 s counted
        (engine.CASINO, True, 30, 5, "casino §27"),  # turbo: 30 s with 5 counted
        (engine.IFP, False, 70, 10, "IFP 4.26, older TDA 5"),  # a minute, then 10 counted
        (engine.IFP, True, 70, 10, "IFP 4.26, older TDA 5"),  # neither book has a turbo clock
        ("unknown", False, 30, 5, "TDA 29"),
    ],
)
def test_player_clock_time_by_the_house_reading(reading, turbo, seconds, countdown, rule):
    time = engine.player_clock_time(reading, turbo=turbo)

    assert (time.seconds, time.countdown, time.rule) == (seconds, countdown, rule)


@pytest.mark.parametrize(
    ("reading", "players_left", "halves"),
    [
        (engine.CASINO, 2, True),  # casino §31: two left, the levels halve
        (engine.CASINO, 3, False),
        (engine.TDA, 2, False),  # the TDA has no such rule
    ],
)
def test_casino31_heads_up_halves_only_under_the_casino_reading(reading, players_left, halves):
    assert engine.heads_up_halves(reading, players_left=players_left) is halves


def test_casino28_draw_only_under_the_casino_reading():
    assert engine.day_end_draws(engine.CASINO)
    assert not engine.day_end_draws(engine.TDA)


# --- Casino §28 end of day --------------------------------------------------------


def test_casino28_end_of_day_draws_three_to_seven_hands_reproducibly():
    draws = {engine.end_of_day_hands(seed) for seed in range(500)}

    assert draws == {3, 4, 5, 6, 7}
    assert engine.end_of_day_hands(12345) == engine.end_of_day_hands(12345)


# --- Hand-for-hand: time off the clock hand by hand (RP-8 B-D) ----------------------------


def paused_at(position: int, seconds: int) -> Clock:
    return Clock(status=engine.PAUSED, position=position, left_ms=seconds * 1000)


def test_each_hand_for_hand_hand_takes_its_time_off_the_clock():
    clock = paused_at(1, 900)
    for _ in range(5):
        clock = engine.take_time(clock, STEPS, T0, 120)  # RP-8 C: two minutes a hand
    assert (clock.position, clock.left_ms, clock.status) == (1, 300_000, engine.PAUSED)


def test_the_next_level_begins_as_the_time_runs_out_and_the_rest_carries_over():
    clock = engine.take_time(paused_at(1, 60), STEPS, T0, 120)  # RP-8 D
    assert (clock.position, clock.left_ms) == (2, 20 * 60_000 - 60_000)


def test_a_level_ending_with_the_hand_begins_the_next_step_in_full():
    clock = engine.take_time(paused_at(2, 120), STEPS, T0, 120)
    assert (clock.position, clock.left_ms) == (3, 10 * 60_000)  # the break


def test_the_last_level_goes_on_at_zero():
    clock = engine.take_time(paused_at(5, 60), STEPS, T0, 180)
    assert (clock.position, clock.left_ms) == (5, 0)


@given(st.integers(1, 5), st.integers(1, 1200), st.integers(0, 180))
def test_the_clock_loses_exactly_one_hands_time(position, seconds, per_hand):
    durations = [step.minutes * 60 for step in STEPS]
    seconds = min(seconds, durations[position - 1])
    elapsed = sum(durations[: position - 1]) + durations[position - 1] - seconds

    clock = engine.take_time(paused_at(position, seconds), STEPS, T0, per_hand)

    after = sum(durations[: clock.position - 1]) + durations[clock.position - 1]
    after -= clock.left_ms // 1000
    assert after == min(elapsed + per_hand, sum(durations))


def test_reopen_pauses_a_finished_clock_where_it_stopped():
    finished = Clock(status=engine.FINISHED, position=3, left_ms=374_000)

    assert engine.reopen(finished) == Clock(status=engine.PAUSED, position=3, left_ms=374_000)
    anchor = datetime(2026, 1, 1, tzinfo=UTC)
    running = Clock(status=engine.RUNNING, position=2, left_ms=1000, anchor=anchor)
    assert engine.reopen(running) == running

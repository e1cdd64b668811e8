"""Registration rules, tested as pure functions (no database)."""

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from tournaments import engine

OPEN = engine.Rules(
    status=engine.REGISTERING,
    current_level=1,
    late_reg_until_level=6,
    capacity=None,
    reentry_allowed=True,
    reentry_max=2,
    reentry_until_level=6,
    rebuy_until_level=None,
    rebuy_max=None,
    addon_at_break_after_level=None,
)


def test_registration_open_while_registering():
    assert engine.registration_refusal(OPEN) is None


def test_late_registration_open_until_end_of_level_n():
    running = replace(OPEN, status=engine.RUNNING, current_level=6)
    assert engine.registration_refusal(running) is None
    assert engine.registration_refusal(replace(running, current_level=7)) == "registration_closed"


def test_running_without_late_registration_is_closed():
    rules = replace(OPEN, status=engine.RUNNING, late_reg_until_level=None)
    assert engine.registration_refusal(rules) == "registration_closed"


def test_planned_finished_cancelled_take_no_registration():
    for status in (engine.PLANNED, engine.FINISHED, engine.CANCELLED):
        assert engine.registration_refusal(replace(OPEN, status=status)) == "registration_closed"


def test_reentry_limit_counts_earlier_entries():
    # max 2 re-entries: the 2nd and 3rd buy-ins are re-entries, a 4th is refused.
    assert engine.reentry_refusal(OPEN, previous_entries=1, in_the_money=False) is None
    assert engine.reentry_refusal(OPEN, previous_entries=2, in_the_money=False) is None
    assert engine.reentry_refusal(OPEN, previous_entries=3, in_the_money=False) == "reentry_limit"


def test_reentry_refused_when_not_allowed_or_after_its_level():
    not_allowed = replace(OPEN, reentry_allowed=False)
    assert engine.reentry_refusal(not_allowed, previous_entries=1, in_the_money=False) == (
        "reentry_not_allowed"
    )
    late = replace(OPEN, current_level=7)
    assert engine.reentry_refusal(late, previous_entries=1, in_the_money=False) == "reentry_closed"


def test_free_place_goes_to_alternates_first():
    """Casino §8b: while alternates wait, a walk-up player does not get the freed place."""
    capped = replace(OPEN, capacity=10)
    assert engine.has_free_place(capped, active_entries=9, waiting_alternates=0)
    assert not engine.has_free_place(capped, active_entries=10, waiting_alternates=0)
    assert not engine.has_free_place(capped, active_entries=9, waiting_alternates=1)


@given(active=st.integers(0, 10_000), waiting=st.integers(0, 100))
def test_no_capacity_always_has_a_place(active, waiting):
    assert engine.has_free_place(OPEN, active_entries=active, waiting_alternates=waiting)


@given(capacity=st.integers(1, 10_000), active=st.integers(0, 10_000))
def test_free_places_never_negative(capacity, active):
    free = engine.free_places(capacity, active_entries=active)
    assert free >= 0
    assert free == max(0, capacity - active)


def test_rebuy_limits_and_deadline():
    rules = replace(OPEN, rebuy_until_level=4, rebuy_max=2, current_level=4)
    assert engine.rebuy_refusal(rules, entry_active=True, rebuys_taken=1) is None
    assert engine.rebuy_refusal(rules, entry_active=True, rebuys_taken=2) == "rebuy_limit"
    assert engine.rebuy_refusal(
        replace(rules, current_level=5), entry_active=True, rebuys_taken=0
    ) == ("rebuy_closed")
    assert engine.rebuy_refusal(rules, entry_active=False, rebuys_taken=0) == "entry_not_active"
    assert engine.rebuy_refusal(OPEN, entry_active=True, rebuys_taken=0) == "rebuy_not_offered"


def test_addon_once_until_its_break():
    rules = replace(OPEN, addon_at_break_after_level=4, current_level=4)
    assert engine.addon_refusal(rules, entry_active=True, addon_taken=False) is None
    assert engine.addon_refusal(rules, entry_active=True, addon_taken=True) == "addon_taken"
    late = replace(rules, current_level=5)
    assert engine.addon_refusal(late, entry_active=True, addon_taken=False) == "addon_closed"


def test_status_moves_forward_only():
    assert engine.transition_refusal("planned", "registering", active_entries=0) is None
    assert engine.transition_refusal("registering", "planned", active_entries=0) == (
        "transition_not_allowed"
    )
    assert engine.transition_refusal("finished", "cancelled", active_entries=0) == (
        "transition_not_allowed"
    )
    assert engine.transition_refusal("cancelled", "registering", active_entries=0) == (
        "transition_not_allowed"
    )


def test_start_needs_two_players_and_finish_needs_one():
    assert (
        engine.transition_refusal("registering", "running", active_entries=1) == "too_few_players"
    )
    assert engine.transition_refusal("registering", "running", active_entries=2) is None
    assert engine.transition_refusal("running", "finished", active_entries=2) == "players_remaining"
    assert engine.transition_refusal("running", "finished", active_entries=1) is None


# --- Play decides the status (issue 16) ------------------------------------------------


def test_play_begins_a_registering_event_with_two_players():
    assert engine.play_begins("registering", active_entries=2)
    assert not engine.play_begins("registering", active_entries=1)  # nobody to play
    assert not engine.play_begins("planned", active_entries=5)  # the desk never opened
    assert not engine.play_begins("running", active_entries=5)  # already running
    assert not engine.play_begins("finished", active_entries=1)


def test_play_decides_the_event_when_one_is_left_and_no_more_can_come():
    assert engine.play_decided("running", active_entries=1, registration_open=False)
    # TDA 8-A: during late registration one player left is not a winner yet.
    assert not engine.play_decided("running", active_entries=1, registration_open=True)
    assert not engine.play_decided("running", active_entries=2, registration_open=False)
    assert not engine.play_decided("registering", active_entries=1, registration_open=False)


def test_a_bust_is_undone_after_the_end_only_where_play_decided_it():
    assert engine.bust_undo_refusal("running", active_entries=3) is None
    assert engine.bust_undo_refusal("finished", active_entries=1) is None  # the winner alone
    # Casino §6: a deal among the players left is final.
    assert engine.bust_undo_refusal("finished", active_entries=3) == "tournament_closed"
    assert engine.bust_undo_refusal("cancelled", active_entries=0) == "tournament_closed"


@given(collected=st.integers(0, 10**9), guarantee=st.integers(0, 10**9))
def test_prize_pool_is_at_least_the_guarantee(collected, guarantee):
    pool = engine.PrizePool(collected=collected, guarantee=guarantee, paid_out=0)
    assert pool.total == max(collected, guarantee)
    assert pool.overlay == pool.total - collected


def test_reentry_ends_once_the_field_is_in_the_money():
    """Casino §12: no re-entry once the players left have reached the paid places."""
    assert engine.reentry_refusal(OPEN, previous_entries=1, in_the_money=False) is None
    refusal = engine.reentry_refusal(OPEN, previous_entries=1, in_the_money=True)
    assert refusal == "reentry_in_the_money"


def test_money_can_come_in_until_late_registration_rebuys_and_add_on_are_over():
    running = replace(OPEN, status=engine.RUNNING, late_reg_until_level=4)
    assert engine.money_open(OPEN)
    assert engine.money_open(replace(running, current_level=4))
    assert not engine.money_open(replace(running, current_level=5))
    assert engine.money_open(replace(running, current_level=5, rebuy_until_level=6))
    assert engine.money_open(replace(running, current_level=6, addon_at_break_after_level=6))
    assert not engine.money_open(replace(running, status=engine.FINISHED))

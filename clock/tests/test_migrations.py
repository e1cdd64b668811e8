"""The data migration that moves the clock's house rules into the event's house settings
(issue 19): what each house had chosen on its clock (casino §31's halving, a casino §27
player clock or its turbo preset, a hand folded when the time runs out, a day ended by
casino §28's draw) becomes the event's reading; going back writes the readings into the
clock again. The schema is migrated back and forth, so the test commits."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from clock.models import Clock, PlayerClock
from tournaments.models import Tournament
from tournaments.selectors import house_settings
from tournaments.tests.factories import tournament

BEFORE = [("clock", "0002_templates"), ("tournaments", "0012_venue_from_rulings")]
AFTER = [("clock", "0003_house_readings")]

pytestmark = pytest.mark.django_db(transaction=True)


def migrate(targets):
    """The schema at `targets`; the historical models of that state."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture
def at_the_old_schema():
    """The clock before issue 19's readings; the latest schema again afterwards."""
    apps = migrate(BEFORE)
    yield apps
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_each_clocks_choices_become_its_events_readings_and_come_back(at_the_old_schema):
    OldClock = at_the_old_schema.get_model("clock", "Clock")
    OldPlayerClock = at_the_old_schema.get_model("clock", "PlayerClock")
    events = {
        name: tournament(name=name, status="running")
        for name in ("tda", "halving", "casino", "ifp", "turbo", "drawn", "own")
    }

    def clock(name, **fields):
        OldClock.objects.create(tournament_id=events[name].pk, **fields)

    clock("tda")  # the defaults: 30 s with 5, checked (TDA 29)
    clock("halving", halve_heads_up=True)
    clock(
        "casino", player_clock_seconds=60, player_clock_countdown=10, player_clock_unfacing="fold"
    )
    clock("ifp", player_clock_seconds=70, player_clock_countdown=10, player_clock_unfacing="fold")
    clock("turbo", player_clock_seconds=30, player_clock_countdown=5, player_clock_unfacing="fold")
    clock("drawn", day_end_hands=5, day_end_seed="42", day_end_at=timezone.now())
    clock("own", halve_heads_up=True)
    # Chosen on the new settings page before the migration ran: the event's choice stands.
    Tournament.objects.filter(pk=events["own"].pk).update(house_settings={"heads_up_level": "tda"})
    OldPlayerClock.objects.create(
        tournament_id=events["casino"].pk,
        table=1,
        seat=2,
        facing_bet=False,
        seconds=60,
        countdown=10,
        unfacing="fold",
        started_at=timezone.now(),
    )

    migrate(AFTER)

    def readings(name):
        event = Tournament.objects.get(pk=events[name].pk)
        return event.house_settings, house_settings(event)

    assert readings("tda")[0] == {}  # nothing chosen: the TDA, whatever the venue says later
    assert readings("halving")[0] == {"heads_up_level": "casino"}  # casino §31
    assert readings("casino")[0] == {"player_clock": "casino", "clock_expired_no_bet": "dead"}
    assert readings("ifp")[0] == {"player_clock": "casino", "clock_expired_no_bet": "dead"}
    assert readings("turbo")[0] == {"player_clock": "casino", "clock_expired_no_bet": "dead"}
    assert Clock.objects.get(pk=events["turbo"].pk).turbo is True  # casino §27 turbo: 30 s
    assert Clock.objects.get(pk=events["casino"].pk).turbo is False
    assert readings("drawn")[0] == {"day_end_draw": "casino"}  # casino §28 was in use
    assert readings("own")[1].heads_up_level == "tda"
    player_clock = PlayerClock.objects.get()
    assert (player_clock.time_reading, player_clock.no_bet) == ("casino", "dead")

    old = migrate(BEFORE)
    OldClock = old.get_model("clock", "Clock")
    back = {
        row["tournament_id"]: row
        for row in OldClock.objects.values(
            "tournament_id",
            "halve_heads_up",
            "player_clock_seconds",
            "player_clock_countdown",
            "player_clock_unfacing",
        )
    }

    def fields(name):
        row = back[events[name].pk]
        return (
            row["halve_heads_up"],
            row["player_clock_seconds"],
            row["player_clock_countdown"],
            row["player_clock_unfacing"],
        )

    assert fields("tda") == (False, 30, 5, "check")
    assert fields("halving") == (True, 30, 5, "check")
    assert fields("casino") == (False, 60, 10, "fold")
    assert fields("turbo") == (False, 30, 5, "fold")
    assert fields("own") == (False, 30, 5, "check")  # the event's choice, as it stood
    assert old.get_model("clock", "PlayerClock").objects.get().unfacing == "fold"

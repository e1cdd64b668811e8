"""Clock services: stored state, audit, level sync, announcements, heads-up, end of day."""

from datetime import timedelta

import pytest
from django.utils import timezone

from clock import engine, services
from clock.models import Clock, Structure, StructureStep
from clock.selectors import clock_public, level_in_play
from clock.tests.factories import STEPS, structure, with_structure
from floorman.errors import Conflict, Invalid
from floorman.models import AuditEntry
from hands.services import busts as bust_services
from seating.services import desk as desk_intentions
from tournaments.models import Tournament
from tournaments.tests.factories import api, register, staff, tournament

pytestmark = pytest.mark.django_db


def _shift_anchor(tournament_id: int, seconds: int) -> None:
    """Pretend the clock was anchored `seconds` earlier (time passes without ticking)."""
    clock = Clock.objects.get(pk=tournament_id)
    clock.anchor_at -= timedelta(seconds=seconds)
    clock.save()


def test_start_stores_running_state_and_audits_who_started_it():
    event = tournament(status="running")
    with_structure(event)
    floor = staff("floor")

    services.clock_act(actor=floor, tournament_id=event.pk, action="start")

    clock = Clock.objects.get(pk=event.pk)
    assert (clock.status, clock.position, clock.left_ms) == ("running", 1, 20 * 60_000)
    entry = AuditEntry.objects.filter(action="clock.start").get()
    assert (entry.actor, entry.tournament_id) == (floor, event.pk)
    assert entry.before["status"] == "not_started" and entry.after["status"] == "running"


def test_the_clock_stops_when_the_tournament_is_over():
    event = tournament()
    with_structure(event)
    register(event, "Ada Winner")
    runner_up = register(event, "Bo Second").entry
    desk_intentions.tournament_status_set(actor=None, tournament_id=event.pk, status="running")
    services.clock_act(actor=None, tournament_id=event.pk, action="start")

    # No late registration: the last bust decides the event and finishes it (issue 16).
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=runner_up.pk)

    assert Tournament.objects.get(pk=event.pk).status == "finished"
    clock = Clock.objects.get(pk=event.pk)
    assert clock.status == "finished"
    assert clock_public(event, steps=False)["status"] == "finished"  # what the lobby shows
    assert AuditEntry.objects.filter(action="clock.finish").exists()


def test_starting_the_clock_starts_the_tournament(django_capture_on_commit_callbacks, monkeypatch):
    """Issue 16: play begins with the clock, so a registering event is running from then
    on, with its audit entry and a live event for the desk and the lobby."""
    sent = []
    monkeypatch.setattr("floorman.live._send", lambda tournament_id, message: sent.append(message))
    event = tournament()
    with_structure(event)
    register(event, "Ada")
    register(event, "Bo")
    director = staff("director")

    with django_capture_on_commit_callbacks(execute=True):
        services.clock_act(actor=director, tournament_id=event.pk, action="start")

    assert Tournament.objects.get(pk=event.pk).status == "running"
    started = AuditEntry.objects.get(action="tournament.running")
    assert (started.actor, started.before, started.after["status"]) == (
        director,
        {"status": "registering"},
        "running",
    )
    assert "tournament.updated" in [message["type"] for message in sent]


def test_starting_the_clock_without_two_players_leaves_the_event_registering():
    """The clock may run for a room still waiting for players; the event starts with
    two (the desk's own rule)."""
    event = tournament()
    with_structure(event)
    register(event, "Ada")

    services.clock_act(actor=None, tournament_id=event.pk, action="start")

    assert Clock.objects.get(pk=event.pk).status == "running"
    assert Tournament.objects.get(pk=event.pk).status == "registering"
    assert not AuditEntry.objects.filter(action="tournament.running").exists()


def test_resuming_a_clock_started_early_starts_the_tournament_once_it_has_players():
    event = tournament()
    with_structure(event)
    services.clock_act(actor=None, tournament_id=event.pk, action="start")
    services.clock_act(actor=None, tournament_id=event.pk, action="pause")
    register(event, "Ada")
    register(event, "Bo")

    services.clock_act(actor=None, tournament_id=event.pk, action="resume")

    assert Tournament.objects.get(pk=event.pk).status == "running"


def test_each_change_bumps_the_version():
    event = tournament(status="running")
    clock = with_structure(event)
    first = clock.version

    services.clock_act(actor=None, tournament_id=event.pk, action="start")
    services.clock_act(actor=None, tournament_id=event.pk, action="pause")

    assert Clock.objects.get(pk=event.pk).version == first + 2


def test_refused_action_changes_nothing_and_says_why():
    event = tournament(status="running")
    with_structure(event)
    services.clock_act(actor=None, tournament_id=event.pk, action="start")
    version = Clock.objects.get(pk=event.pk).version

    with pytest.raises(Conflict) as refusal:
        services.clock_act(actor=None, tournament_id=event.pk, action="resume")

    assert refusal.value.code == "already_running"
    assert "already running" in refusal.value.message
    assert Clock.objects.get(pk=event.pk).version == version


def test_a_second_process_reading_the_row_shows_the_same_time():
    """Nothing ticks: the time comes from the stored anchor, whoever reads it."""
    event = tournament(status="running")
    with_structure(event)
    services.clock_act(actor=None, tournament_id=event.pk, action="start")
    _shift_anchor(event.pk, 125)

    now = timezone.now()
    fresh = Tournament.objects.get(pk=event.pk)  # as another process would load it
    state = clock_public(fresh, now)

    assert state["level"]["number"] == 1
    assert 20 * 60 - 126 <= state["seconds_left"] <= 20 * 60 - 124


def test_registration_deadline_follows_the_running_clock():
    event = tournament(status="running", late_reg_until_level=1)
    register(event, "Anna Berger")
    register(event, "Ben Ode")
    with_structure(event)
    services.clock_act(actor=None, tournament_id=event.pk, action="start")
    _shift_anchor(event.pk, 20 * 60 + 5)  # level 2 began 5 s ago

    assert level_in_play(Tournament.objects.get(pk=event.pk)) == 2
    with pytest.raises(Conflict) as refusal:
        register(event, "Cleo Late")
    assert refusal.value.code == "registration_closed"


def test_clock_change_keeps_the_tournament_level_in_step():
    event = tournament(status="running")
    with_structure(event)
    services.clock_act(actor=None, tournament_id=event.pk, action="jump", level=3)

    assert Tournament.objects.get(pk=event.pk).current_level == 3


def test_change_schedules_the_rp7_warning_and_the_level_change(
    announcements_sent, django_capture_on_commit_callbacks
):
    event = tournament(status="running")
    with_structure(event)

    with django_capture_on_commit_callbacks(execute=True):
        services.clock_act(actor=None, tournament_id=event.pk, action="start")

    clock = Clock.objects.get(pk=event.pk)
    kinds = [a["args"][2] for a in announcements_sent]
    assert kinds == [engine.WARNING, engine.CHANGE]
    assert all(a["args"][:2] == (event.pk, clock.version) for a in announcements_sent)
    warning_eta, change_eta = (a["eta"] for a in announcements_sent)
    assert change_eta - warning_eta == timedelta(seconds=90)


def test_announcements_are_sent_again_for_running_clocks_only(announcements_sent):
    """A worker that starts, or reconnects to Redis, sends them again (floorman.celery):
    the ones a crashed worker held are otherwise lost for hours."""
    running, paused = tournament(status="running"), tournament(status="running")
    for event in (running, paused):
        with_structure(event)
        services.clock_act(actor=None, tournament_id=event.pk, action="start")
    services.clock_act(actor=None, tournament_id=paused.pk, action="pause")
    announcements_sent.clear()

    assert services.announcements_resend() == 2

    version = Clock.objects.get(pk=running.pk).version
    assert [a["args"][:3] for a in announcements_sent] == [
        (running.pk, version, engine.WARNING),
        (running.pk, version, engine.CHANGE),
    ]


def test_a_clock_change_stands_when_the_broker_is_down(
    announcements_sent, monkeypatch, django_capture_on_commit_callbacks
):
    from kombu.exceptions import OperationalError

    from clock.tasks import clock_announce

    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to redis:6379. Connection refused.")

    event = tournament(status="running")
    with_structure(event)
    monkeypatch.setattr(clock_announce, "apply_async", broker_down)

    with django_capture_on_commit_callbacks(execute=True):
        services.clock_act(actor=None, tournament_id=event.pk, action="start")

    assert Clock.objects.get(pk=event.pk).status == engine.RUNNING


def test_stale_announcement_does_nothing():
    event = tournament(status="running")
    with_structure(event)
    services.clock_act(actor=None, tournament_id=event.pk, action="start")
    old_version = Clock.objects.get(pk=event.pk).version
    services.clock_act(actor=None, tournament_id=event.pk, action="pause")

    sent = services.clock_announcement_send(
        tournament_id=event.pk, version=old_version, kind=engine.CHANGE, position=1
    )

    assert sent is False


def test_an_announcement_is_sent_once_even_when_delivered_twice():
    event = tournament(status="running")
    with_structure(event)
    services.clock_act(actor=None, tournament_id=event.pk, action="start")
    version = Clock.objects.get(pk=event.pk).version
    _shift_anchor(event.pk, 20 * 60)

    first = services.clock_announcement_send(
        tournament_id=event.pk, version=version, kind=engine.CHANGE, position=1
    )
    again = services.clock_announcement_send(
        tournament_id=event.pk, version=version, kind=engine.CHANGE, position=1
    )

    assert (first, again) == (True, False)
    assert Tournament.objects.get(pk=event.pk).current_level == 2


def test_level_change_announcement_schedules_the_next_step(
    announcements_sent, django_capture_on_commit_callbacks
):
    event = tournament(status="running")
    with_structure(event)
    services.clock_act(actor=None, tournament_id=event.pk, action="start")
    version = Clock.objects.get(pk=event.pk).version
    _shift_anchor(event.pk, 20 * 60 + 1)
    announcements_sent.clear()

    with django_capture_on_commit_callbacks(execute=True):
        services.clock_announcement_send(
            tournament_id=event.pk, version=version, kind=engine.CHANGE, position=1
        )

    assert [(a["args"][2], a["args"][3]) for a in announcements_sent] == [
        (engine.WARNING, 2),
        (engine.CHANGE, 2),
    ]


def test_structure_is_copied_so_editing_the_template_leaves_the_tournament_alone():
    event = tournament(status="running")
    template = structure()
    services.clock_structure_set(actor=None, tournament_id=event.pk, structure_id=template.pk)

    clock = Clock.objects.get(pk=event.pk)
    assert clock.structure_id != template.pk
    assert not clock.structure.is_template


def test_structure_cannot_be_replaced_once_the_clock_started():
    event = tournament(status="running")
    with_structure(event)
    services.clock_act(actor=None, tournament_id=event.pk, action="start")

    with pytest.raises(Conflict, match="cannot be replaced"):
        services.clock_structure_set(
            actor=None, tournament_id=event.pk, structure_id=structure("Other").pk
        )


def test_future_levels_can_be_edited_while_running_but_played_ones_are_locked():
    event = tournament(status="running")
    clock = with_structure(event)
    services.clock_act(actor=None, tournament_id=event.pk, action="start")
    services.clock_act(actor=None, tournament_id=event.pk, action="next")  # level 2 in play
    edited = list(STEPS)
    edited[3] = engine.Step(engine.LEVEL, 25, 300, 600, ante=600, ante_type=engine.ANTE_BIG_BLIND)

    services.structure_update(
        actor=None,
        structure_id=clock.structure_id,
        name="Main",
        steps=edited,
        is_template=False,
        chip_set_id=None,
    )
    assert clock_public(Tournament.objects.get(pk=event.pk))["steps"][3]["minutes"] == 25

    locked = list(edited)
    locked[1] = engine.Step(engine.LEVEL, 30, 200, 400)
    with pytest.raises(Conflict) as refusal:
        services.structure_update(
            actor=None,
            structure_id=clock.structure_id,
            name="Main",
            steps=locked,
            is_template=False,
            chip_set_id=None,
        )
    assert refusal.value.code == "step_locked"


# Level 2 lower than level 1: steps_check refuses it (clock.transfer).
DECREASING = [engine.Step(engine.LEVEL, 20, 200, 400), engine.Step(engine.LEVEL, 20, 100, 200)]


def test_structure_services_refuse_bad_steps_as_the_api_does_and_write_nothing():
    template = structure()
    response = api(staff("director")).post(
        "/api/v1/structures/",
        {
            "name": "Bad",
            "steps": [
                {"kind": "level", "minutes": 20, "small_blind": 200, "big_blind": 400},
                {"kind": "level", "minutes": 20, "small_blind": 100, "big_blind": 200},
            ],
        },
        format="json",
    )
    assert response.status_code == 400
    structures = list(Structure.objects.values_list("pk", "name", "is_template"))
    steps = StructureStep.objects.count()
    audits = AuditEntry.objects.count()

    with pytest.raises(Invalid) as created:
        services.structure_create(
            actor=None, name="Bad", steps=DECREASING, is_template=True, chip_set_id=None
        )
    with pytest.raises(Invalid) as updated:
        services.structure_update(
            actor=None,
            structure_id=template.pk,
            name="Bad",
            steps=DECREASING,
            is_template=False,
            chip_set_id=None,
        )

    assert created.value.as_dict() == updated.value.as_dict() == response.json()
    assert list(Structure.objects.values_list("pk", "name", "is_template")) == structures
    assert StructureStep.objects.count() == steps
    assert AuditEntry.objects.count() == audits


def test_casino31_heads_up_halves_the_next_levels_when_two_players_remain():
    event = tournament(status="registering")
    entries = [register(event, name).entry for name in ("Anna", "Ben", "Cleo")]
    with_structure(event)
    Tournament.objects.filter(pk=event.pk).update(house_settings={"heads_up_level": "casino"})
    services.clock_act(actor=None, tournament_id=event.pk, action="start")

    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=entries[0].pk)

    clock = Clock.objects.get(pk=event.pk)
    assert clock.halved_from == 2
    steps = clock_public(Tournament.objects.get(pk=event.pk))
    assert steps["halved_from"] == 2

    bust_services.entry_bust_undo(actor=None, tournament_id=event.pk, entry_id=entries[0].pk)
    assert Clock.objects.get(pk=event.pk).halved_from is None


def test_heads_up_leaves_the_clock_alone_when_the_house_does_not_halve():
    event = tournament(status="registering")
    entries = [register(event, name).entry for name in ("Anna", "Ben", "Cleo")]
    with_structure(event)
    services.clock_act(actor=None, tournament_id=event.pk, action="start")

    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=entries[0].pk)

    assert Clock.objects.get(pk=event.pk).halved_from is None


def test_casino28_end_of_day_pauses_the_clock_and_draws_3_to_7_hands():
    event = tournament(status="running", house_settings={"day_end_draw": "casino"})
    with_structure(event)
    services.clock_act(actor=None, tournament_id=event.pk, action="start")

    services.clock_day_end(actor=staff("director"), tournament_id=event.pk)

    clock = Clock.objects.get(pk=event.pk)
    assert clock.status == "paused"
    assert 3 <= clock.day_end_hands <= 7
    assert engine.end_of_day_hands(int(clock.day_end_seed)) == clock.day_end_hands  # replayable
    with pytest.raises(Conflict):
        services.clock_day_end(actor=None, tournament_id=event.pk)


def test_tda29_one_running_player_clock_per_seat():
    event = tournament(status="running")
    services.player_clock_call(actor=None, tournament_id=event.pk, table=4, seat=7, facing_bet=True)

    with pytest.raises(Conflict) as refusal:
        services.player_clock_call(
            actor=None, tournament_id=event.pk, table=4, seat=7, facing_bet=False
        )
    assert refusal.value.code == "player_clock_running"


def test_casino27_player_clock_follows_the_house_settings():
    event = tournament(
        status="running",
        house_settings={"player_clock": "casino", "clock_expired_no_bet": "dead"},
    )

    player_clock = services.player_clock_call(
        actor=None, tournament_id=event.pk, table=2, seat=3, facing_bet=False
    )

    assert (player_clock.seconds, player_clock.countdown) == (60, 10)
    assert (player_clock.time_reading, player_clock.no_bet) == ("casino", "dead")


def test_clock_of_a_finished_tournament_refuses_changes():
    event = tournament(status="running")
    with_structure(event)
    Tournament.objects.filter(pk=event.pk).update(status="finished")

    with pytest.raises(Conflict):
        services.clock_act(actor=None, tournament_id=event.pk, action="start")
    assert clock_public(Tournament.objects.get(pk=event.pk))["status"] == "finished"

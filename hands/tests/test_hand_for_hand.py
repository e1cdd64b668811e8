"""Hand-for-hand on the bubble (RP-8, casino §29) through the services."""

from datetime import timedelta

import pytest

from clock.selectors import clock_public
from clock.services import clock_act
from clock.tests.factories import with_structure
from floorman.errors import Conflict
from floorman.tests.worlds import world_fixtures
from hands import services
from hands.models import HandForHand, HandStatus
from hands.selectors import finishing_places, h4h_public, hand_for_hand
from hands.services.hand_for_hand import current_round
from hands.tests.factories import button_at, deal, finish, seat_players
from tournaments.tests.factories import tournament

pytestmark = pytest.mark.django_db


def build_bubble():
    """Three tables of three: nine players, six paid."""
    event = tournament()
    with_structure(event)
    seated = seat_players(event, {1: [1, 2, 3], 2: [1, 2, 3], 3: [1, 2, 3]})
    for table in (1, 2, 3):
        button_at(event, table, 1)
    services.h4h_settings_update(actor=None, tournament_id=event.pk, data={"places_paid": 6})
    return event, seated


# Made once for the module, each test in a savepoint rolled back after it.
world_made, world = world_fixtures(build_bubble)


@pytest.fixture
def bubble(world):
    return world


def start(event):
    return services.h4h_start(actor=None, tournament_id=event.pk)


def state(event):
    settings = hand_for_hand(event.pk)
    return h4h_public(event, settings, current_round(event, settings))


def test_suggested_when_the_field_nears_the_money(bubble):
    event, _seated = bubble
    services.h4h_settings_update(actor=None, tournament_id=event.pk, data={"margin": 3})
    assert state(event)["suggested"] is True  # 9 left, 6 paid, margin 3
    services.h4h_settings_update(actor=None, tournament_id=event.pk, data={"margin": 2})
    assert state(event)["suggested"] is False


def test_round_zero_is_the_hand_in_play_and_idle_tables_have_finished_it_rp_8_a(bubble):
    event, _seated = bubble
    playing = deal(event, 1)

    start(event)

    playing.refresh_from_db()
    assert playing.h4h_round == 0
    now = state(event)
    assert (now["round"], now["finished"], now["playing"], now["deal"]) == (0, [2, 3], [1], False)


def test_every_table_finishing_deals_the_next_hand_and_takes_two_minutes_rp_8_c(bubble):
    event, _seated = bubble
    clock_act(actor=None, tournament_id=event.pk, action="start")
    start(event)  # no hand in play: round 0 is over at once, round 1 is dealt
    left = clock_public(event)["seconds_left"]
    hands = {table: deal(event, table) for table in (1, 2)}

    finish(event, 1, hands[1])
    finish(event, 2, hands[2])
    assert state(event)["round"] == 1  # table 3 has not played round 1 yet
    finish(event, 3, deal(event, 3))

    now = state(event)
    assert (now["round"], now["deal"], now["finished"]) == (2, True, [])
    assert clock_public(event)["seconds_left"] == left - 120
    assert clock_public(event)["status"] == "paused"  # hand-for-hand stops the clock


def test_a_table_deals_once_a_round(bubble):
    event, _seated = bubble
    start(event)
    finish(event, 1, deal(event, 1))

    with pytest.raises(Conflict) as refused:
        deal(event, 1)
    assert refused.value.code == "h4h_wait"


def test_all_in_tables_hold_and_show_down_one_at_a_time_in_order_rp_8_f(bubble):
    event, _seated = bubble
    start(event)
    hands = {table: deal(event, table) for table in (1, 2, 3)}
    services.hand_hold(actor=None, tournament_id=event.pk, number=2, hand_number=1)
    services.hand_hold(actor=None, tournament_id=event.pk, number=3, hand_number=1)

    with pytest.raises(Conflict) as early:
        finish(event, 2, hands[2])  # table 1 is still playing
    assert early.value.code == "h4h_not_your_turn"
    finish(event, 1, hands[1])
    assert state(event)["showdown"] == 2
    with pytest.raises(Conflict):
        finish(event, 3, hands[3])  # table 2 held first, shows first
    finish(event, 2, hands[2])
    assert state(event)["showdown"] == 3
    finish(event, 3, hands[3])

    assert state(event)["round"] == 2
    assert hands[3].__class__.objects.get(pk=hands[3].pk).status == HandStatus.FINISHED


def test_busts_at_different_tables_in_one_round_share_the_place_rp_8_a(bubble):
    event, seated = bubble
    services.h4h_settings_update(actor=None, tournament_id=event.pk, data={"places_paid": 5})
    start(event)
    for table in (1, 2, 3):
        hand = deal(event, table)
        finish(event, table, hand, busts=[3] if table != 2 else [])

    places = finishing_places(event.pk)
    # 9 left, two bust in the same hand-for-hand hand: both share places 8 and 9.
    assert places[seated[(1, 3)].pk].shared == places[seated[(3, 3)].pk].shared == (8, 9)


def test_the_bubble_bursting_ends_hand_for_hand_and_the_clock_runs_again(bubble):
    event, _seated = bubble
    services.h4h_settings_update(actor=None, tournament_id=event.pk, data={"places_paid": 8})
    clock_act(actor=None, tournament_id=event.pk, action="start")
    start(event)
    for table in (1, 2, 3):
        finish(event, table, deal(event, table), busts=[2] if table == 1 else [])

    assert hand_for_hand(event.pk).active is False
    assert clock_public(event)["status"] == "running"


def test_the_director_stops_hand_for_hand(bubble):
    event, _seated = bubble
    start(event)
    services.h4h_stop(actor=None, tournament_id=event.pk)
    assert hand_for_hand(event.pk).active is False
    with pytest.raises(Conflict):
        services.h4h_stop(actor=None, tournament_id=event.pk)


def test_alerts_not_yet_sent_are_sent_again_due_when_they_were(bubble, monkeypatch):
    """A worker that starts, or reconnects to Redis, sends them again (floorman.celery):
    the alerts a crashed worker held are otherwise lost for hours."""
    from hands.tasks import h4h_alert

    event, _seated = bubble
    start(event)  # round 0 is over at once: round 1 is played
    settings = HandForHand.objects.get()
    sent = []
    monkeypatch.setattr(h4h_alert, "apply_async", lambda args, eta: sent.append((args, eta)))

    assert services.h4h_alerts_resend() == 1
    assert sent == [((event.pk, 1), settings.round_started_at + timedelta(minutes=4))]

    services.h4h_table_alert(tournament_id=event.pk, round_number=1)
    assert services.h4h_alerts_resend() == 0  # the floor was alerted of round 1


def test_a_table_finishing_the_round_is_recorded_when_the_broker_is_down(
    bubble, monkeypatch, django_capture_on_commit_callbacks
):
    from kombu.exceptions import OperationalError

    from hands.tasks import h4h_alert

    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to redis:6379. Connection refused.")

    event, _seated = bubble
    monkeypatch.setattr(h4h_alert, "apply_async", broker_down)

    with django_capture_on_commit_callbacks(execute=True):
        start(event)

    assert state(event)["round"] == 1


def test_late_tables_alert_the_floor_once_per_round(bubble):
    event, _seated = bubble
    start(event)
    finish(event, 1, deal(event, 1))

    late = services.h4h_table_alert(tournament_id=event.pk, round_number=1)
    again = services.h4h_table_alert(tournament_id=event.pk, round_number=1)
    stale = services.h4h_table_alert(tournament_id=event.pk, round_number=0)

    assert (late, again, stale) == ([2, 3], None, None)
    assert HandForHand.objects.get().alerted_round == 1


def test_each_round_schedules_the_floor_alert_after_its_minutes(
    bubble, monkeypatch, django_capture_on_commit_callbacks
):
    from datetime import timedelta

    from django.utils import timezone

    from hands import tasks

    event, _seated = bubble
    services.h4h_settings_update(actor=None, tournament_id=event.pk, data={"alert_minutes": 5})
    sent = []
    monkeypatch.setattr(tasks.h4h_alert, "apply_async", lambda args, eta: sent.append((args, eta)))

    with django_capture_on_commit_callbacks(execute=True):
        start(event)  # round 0 needs no hand: round 1 is dealt at once

    assert [args for args, _eta in sent] == [(event.pk, 0), (event.pk, 1)]
    assert all(
        timedelta(minutes=4) < eta - timezone.now() <= timedelta(minutes=5) for _args, eta in sent
    )


def test_the_alert_task_runs_the_service(bubble):
    from hands.tasks import h4h_alert

    event, _seated = bubble
    start(event)

    assert h4h_alert.run(event.pk, 1) == [1, 2, 3]  # nobody has dealt round 1 yet

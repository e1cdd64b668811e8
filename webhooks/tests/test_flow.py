"""From the floor to the receiver (issue 22): a floor action, through its own service,
makes one delivery per endpoint that hears of it, with its type and public payload,
after the commit and without any HTTP in the request; with no endpoint active in the
house it costs no query at all."""

import threading

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clock import services as clock_services
from clock.tests.factories import with_structure
from floorman.models import AuditEntry
from floorman.signals import audit_committed
from hands.services import busts
from hands.tests.factories import seat_players
from tournaments.models import Player, Venue
from tournaments.tests.factories import register, tournament
from tournaments.tests.flights import flight_of, main_event
from webhooks import services
from webhooks.models import Delivery
from webhooks.tests.conftest import WAIT

pytestmark = pytest.mark.django_db

URL = "http://127.0.0.1:9/hooks"  # allowed in these tests (conftest); nothing is sent


def hooked(types, **scope):
    return services.endpoint_create(actor=None, url=URL, event_types=types, **scope).endpoint


@pytest.fixture
def seated():
    """Two tables of four, and the clock with a structure."""
    event = tournament()
    with_structure(event)
    return event, seat_players(event, {1: [1, 2, 3, 4], 2: [1, 2, 3, 4]})


def test_a_bust_becomes_an_entry_busted_event_with_its_place_and_no_contact_data(
    seated, queued, django_capture_on_commit_callbacks
):
    event, at = seated
    entry = at[(2, 3)]
    Player.objects.filter(pk=entry.player_id).update(
        email="ann@example.org", phone="+49 170 5551234", birth_year=1987
    )
    endpoint = hooked(["entry.busted"], tournament_id=event.pk)

    with django_capture_on_commit_callbacks(execute=True):
        busts.entry_bust(actor=None, tournament_id=event.pk, entry_id=entry.pk)

    delivery = Delivery.objects.get()
    assert (delivery.endpoint, delivery.event_type) == (endpoint, "entry.busted")
    assert queued == [(delivery.pk, 0)]
    payload = delivery.payload
    assert payload["type"] == "entry.busted"
    assert payload["data"]["tournament"] == {
        "id": event.pk,
        "name": "Sunday Main Event",
        "event_id": None,
        "flight_name": None,
    }
    assert payload["data"]["entry"]["player"]["name"] == entry.player.name
    assert payload["data"]["place"] == 8
    text = str(payload)
    for contact in ("ann@example.org", "5551234", "1987", "email", "phone", "birth"):
        assert contact not in text


def test_only_the_types_an_endpoint_wants_and_only_active_endpoints(
    seated, django_capture_on_commit_callbacks
):
    event, at = seated
    wants = hooked(["clock.paused", "entry.busted"], tournament_id=event.pk)
    hooked(["prize.paid"], tournament_id=event.pk)
    off = hooked(["entry.busted"], tournament_id=event.pk)
    services.endpoint_update(actor=None, endpoint_id=off.pk, active=False)

    with django_capture_on_commit_callbacks(execute=True):
        busts.entry_bust(actor=None, tournament_id=event.pk, entry_id=at[(1, 1)].pk)
        clock_services.clock_act(actor=None, tournament_id=event.pk, action="start")
        clock_services.clock_act(actor=None, tournament_id=event.pk, action="pause")

    found = list(Delivery.objects.order_by("pk").values_list("endpoint", "event_type"))
    assert found == [(wants.pk, "entry.busted"), (wants.pk, "clock.paused")]
    paused = Delivery.objects.get(event_type="clock.paused").payload["data"]
    assert paused["clock"]["status"] == "paused"
    assert paused["level"]["number"] == 1


def test_a_level_moved_by_the_director_starts_a_level(seated, django_capture_on_commit_callbacks):
    event, _at = seated
    hooked(["level.started", "break.started"], tournament_id=event.pk)

    with django_capture_on_commit_callbacks(execute=True):
        clock_services.clock_act(actor=None, tournament_id=event.pk, action="start")
        clock_services.clock_act(actor=None, tournament_id=event.pk, action="next")

    delivery = Delivery.objects.get()
    assert delivery.event_type == "level.started"
    assert delivery.payload["data"]["level"]["position"] == 2


def test_a_level_the_clock_reaches_by_its_own_time_starts_a_level(
    seated, django_capture_on_commit_callbacks
):
    from datetime import timedelta

    from clock import engine
    from clock.models import Clock

    event, _at = seated
    hooked(["level.started"], tournament_id=event.pk)
    clock_services.clock_act(actor=None, tournament_id=event.pk, action="start")
    clock = Clock.objects.get(pk=event.pk)
    Clock.objects.filter(pk=event.pk).update(  # level 1's 20 minutes have gone by
        anchor_at=clock.anchor_at - timedelta(minutes=20, seconds=1)
    )

    with django_capture_on_commit_callbacks(execute=True):
        clock_services.clock_announcement_send(
            tournament_id=event.pk, version=clock.version, kind=engine.CHANGE, position=1
        )

    delivery = Delivery.objects.get()
    assert delivery.event_type == "level.started"
    assert delivery.payload["data"]["level"]["number"] == 2


def test_hand_for_hand_started_its_rounds_and_its_end_at_the_bubble(
    django_capture_on_commit_callbacks,
):
    """RP-8: the director starts it, each round follows, and the bubble bursting ends it
    by itself (its own audit entry, `h4h.stop` with the reason)."""
    from hands import services as hand_services
    from hands.tests.factories import button_at, deal, finish

    event = tournament()
    with_structure(event)
    seat_players(event, {1: [1, 2, 3], 2: [1, 2, 3], 3: [1, 2, 3]})
    for table in (1, 2, 3):
        button_at(event, table, 1)
    hand_services.h4h_settings_update(actor=None, tournament_id=event.pk, data={"places_paid": 8})
    clock_services.clock_act(actor=None, tournament_id=event.pk, action="start")
    hooked(
        ["hand_for_hand.started", "hand_for_hand.round", "hand_for_hand.stopped"],
        tournament_id=event.pk,
    )

    with django_capture_on_commit_callbacks(execute=True):
        hand_services.h4h_start(actor=None, tournament_id=event.pk)
        for table in (1, 2, 3):
            finish(event, table, deal(event, table), busts=[2] if table == 1 else [])

    found = list(Delivery.objects.order_by("pk").values_list("event_type", flat=True))
    # Round 0 is over at once (no hand in play, RP-8 A): round 1 is dealt, the bubble bursts.
    assert found == ["hand_for_hand.started", "hand_for_hand.round", "hand_for_hand.stopped"]
    round_one = Delivery.objects.get(event_type="hand_for_hand.round").payload["data"]
    assert round_one["hand_for_hand"]["round"] >= 1
    stopped = Delivery.objects.get(event_type="hand_for_hand.stopped").payload["data"]
    assert stopped["hand_for_hand"]["active"] is False


def test_a_venues_endpoint_hears_of_its_events_and_an_events_of_its_flights(
    django_capture_on_commit_callbacks,
):
    venue = Venue.objects.create(name="Casino Example")
    elsewhere = tournament(name="Other house")
    event = main_event(venue=venue)
    flight = flight_of(event)
    flight.__class__.objects.filter(pk=flight.pk).update(status="registering")
    at_venue = hooked(["entry.registered"], venue_id=venue.pk)
    at_event = hooked(["entry.registered"], tournament_id=event.pk)

    with django_capture_on_commit_callbacks(execute=True):
        register(flight, "Ann Example")
        register(elsewhere, "Bob Example")

    found = sorted(Delivery.objects.values_list("endpoint", flat=True))
    assert found == sorted([at_venue.pk, at_event.pk])
    ids = set(Delivery.objects.values_list("message_id", flat=True))
    assert len(ids) == 2  # one message id per endpoint
    data = Delivery.objects.first().payload["data"]
    assert data["tournament"]["event_id"] == event.pk


def test_with_no_endpoint_active_a_committed_change_costs_no_query(
    seated, django_capture_on_commit_callbacks
):
    event, at = seated
    off = hooked(["entry.busted"], tournament_id=event.pk)
    services.endpoint_update(actor=None, endpoint_id=off.pk, active=False)
    with django_capture_on_commit_callbacks(execute=True):
        busts.entry_bust(actor=None, tournament_id=event.pk, entry_id=at[(1, 2)].pk)
    entry = AuditEntry.objects.get(action="entry.bust")

    with CaptureQueriesContext(connection) as none_active:
        audit_committed.send(sender=AuditEntry, entries=[entry])
    services.endpoint_update(actor=None, endpoint_id=off.pk, active=True)
    with CaptureQueriesContext(connection) as one_active:
        audit_committed.send(sender=AuditEntry, entries=[entry])

    assert len(none_active.captured_queries) == 0
    assert len(one_active.captured_queries) > 0  # the guard can fail: it reads then


@pytest.mark.django_db(transaction=True)
def test_a_receiver_that_hangs_never_holds_up_the_floor(receiver, queued, webhook_settings):
    """A worker's try is stuck in a receiver that does not answer; meanwhile the floor
    busts a player, and the bust, its commit and its deliveries are done while the
    receiver still holds the first request."""
    # The worker waits for the receiver as long as the test may take: only the test's
    # release ends the try, however slowly the machine runs the bust.
    webhook_settings.WEBHOOK_READ_TIMEOUT = WAIT
    webhook_settings.WEBHOOK_TOTAL_TIMEOUT = WAIT
    event = tournament()
    with_structure(event)
    at = seat_players(event, {1: [1, 2, 3]})
    endpoint = services.endpoint_create(
        actor=None, url=receiver.url, event_types=["entry.busted"], tournament_id=event.pk
    ).endpoint
    receiver.answer(("hang",))
    stuck = services.endpoint_test_send(actor=None, endpoint_id=endpoint.pk)
    queued.clear()

    def work() -> None:  # as a worker's thread: its own connection, closed after the task
        try:
            services.delivery_attempt(delivery_id=stuck.pk)
        finally:
            connection.close()

    worker = threading.Thread(target=work)
    worker.start()
    assert receiver.got_one.wait(WAIT)

    busts.entry_bust(actor=None, tournament_id=event.pk, entry_id=at[(1, 2)].pk)

    assert not receiver.release.is_set() and worker.is_alive()
    made = Delivery.objects.get(event_type="entry.busted")
    assert queued == [(made.pk, 0)]  # handed to a worker, not sent in the request
    receiver.release.set()
    worker.join(WAIT)

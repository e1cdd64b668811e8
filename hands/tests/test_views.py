"""The floor's hand-for-hand page (RP-8): who may open it, its settings, start and stop,
bad input changes nothing. The dealer's tablet is tested in web/tests/test_tablet.py."""

from datetime import timedelta

import pytest
from django.utils import timezone

from clock.tests.factories import with_structure
from hands import services
from hands.models import (
    Elimination,
    Hand,
    HandAction,
    HandForHand,
    TabletLink,
)
from hands.tests.factories import button_at, deal, seat_players
from seating.models import TableState
from tournaments.models import Entry
from tournaments.tests.factories import staff, tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    """Two tables of four at level 1 (100/200); table 2's button is on seat 1."""
    event = tournament()
    with_structure(event)
    seated = seat_players(event, {1: [1, 2, 3, 4], 2: [1, 2, 3, 4]})
    button_at(event, 2, 1)
    return event, seated


def h4h_url(event) -> str:
    return f"/tournaments/{event.pk}/hand-for-hand/"


def stored() -> dict:
    models = (Hand, HandAction, Elimination, TableState, HandForHand, TabletLink, Entry)
    return {m.__name__: list(m.objects.order_by("pk").values()) for m in models}


def html(response) -> str:
    return response.content.decode()


# --- Hand-for-hand (the floor) ---------------------------------------------------------------


@pytest.mark.parametrize(("role", "expected"), [("dealer", 403), ("cashier", 403), ("floor", 200)])
def test_hand_for_hand_is_the_floors(client, world, role, expected):
    event, _seated = world
    client.force_login(staff(role))

    assert client.get(h4h_url(event)).status_code == expected
    if expected == 403:
        before = stored()
        assert client.post(h4h_url(event), {"action": "start"}).status_code == 403
        assert stored() == before


def test_hand_for_hand_anonymous_is_sent_to_log_in(client, world):
    event, _seated = world

    response = client.get(h4h_url(event))

    assert response.status_code == 302 and "/login/" in response["Location"]


def test_hand_for_hand_settings_are_saved(client, world):
    event, _seated = world
    client.force_login(staff("floor"))

    response = client.post(
        h4h_url(event),
        {
            "action": "settings",
            "places_paid": "6",
            "seconds_per_hand": "150",
            "margin": "3",
            "alert_minutes": "5",
        },
    )

    assert response.status_code == 302
    settings = HandForHand.objects.get()
    assert (
        settings.places_paid,
        settings.seconds_per_hand,
        settings.margin,
        settings.alert_minutes,
    ) == (6, 150, 3, 5)
    suggested = html(client.get(h4h_url(event)))  # 8 left, 6 paid, margin 3
    assert "Hand-for-hand is due" in suggested


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"seconds_per_hand": "181"}, "At most 180 seconds a hand (RP-8 B)."),
        ({"places_paid": "0"}, "greater than or equal to 1"),
        ({"margin": "x"}, "Enter a whole number."),
        ({"alert_minutes": ""}, "This field is required."),
        ({"places_paid": "99999999999999999999"}, "less than or equal to 100000"),
    ],
)
def test_bad_hand_for_hand_settings_are_400_and_change_nothing(client, world, change, message):
    event, _seated = world
    client.force_login(staff("floor"))
    before = stored()
    data = {
        "action": "settings",
        "places_paid": "6",
        "seconds_per_hand": "120",
        "margin": "1",
        "alert_minutes": "4",
        **change,
    }

    response = client.post(h4h_url(event), data)

    assert response.status_code == 400
    assert message in html(response)
    assert stored() == before


def test_hand_for_hand_starts_only_with_places_paid(client):
    event = tournament(status="running")  # nobody has paid in: no place is paid
    client.force_login(staff("floor"))

    response = client.post(h4h_url(event), {"action": "start"})

    assert response.status_code == 409
    assert "set up the payouts first" in html(response)
    assert not HandForHand.objects.filter(active=True).exists()


def test_hand_for_hand_start_status_and_stop(client, world):
    event, _seated = world
    button_at(event, 1, 1)
    services.h4h_settings_update(actor=None, tournament_id=event.pk, data={"places_paid": 6})
    deal(event, 1)
    client.force_login(staff("floor"))

    started = client.post(h4h_url(event), {"action": "start"}, follow=True)
    HandForHand.objects.update(round_started_at=timezone.now() - timedelta(minutes=10))
    late = html(client.get(h4h_url(event)))
    stopped = client.post(h4h_url(event), {"action": "stop"}, follow=True)

    assert HandForHand.objects.get().active is False
    assert "Hand-for-hand announced" in html(started)
    assert "Round 0" in html(started) and "1 / 2" in html(started)
    assert "Tables running late" in late and "Table 1 has not finished" in late
    assert "Hand-for-hand is over" in html(stopped)
    assert "Not being played" in html(stopped)


def test_stopping_hand_for_hand_that_is_not_played_is_409(client, world):
    event, _seated = world
    client.force_login(staff("floor"))
    before = stored()

    response = client.post(h4h_url(event), {"action": "stop"})

    assert response.status_code == 409
    assert "Hand-for-hand is not being played." in html(response)
    assert stored() == before


def test_unknown_hand_for_hand_action_is_400(client, world):
    event, _seated = world
    client.force_login(staff("floor"))

    response = client.post(h4h_url(event), {"action": "explode"})

    assert response.status_code == 400

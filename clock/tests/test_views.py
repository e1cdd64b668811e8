"""The TD's clock console: who may use it, what it shows, how it asks before harm."""

import pytest

from clock import services
from clock.models import Clock, PlayerClock
from clock.tests.factories import with_structure
from tournaments.models import Tournament
from tournaments.tests.factories import staff, tournament

pytestmark = pytest.mark.django_db


def _url(event, suffix: str = "") -> str:
    return f"/tournaments/{event.pk}/clock/{suffix}"


@pytest.fixture
def event():
    created = tournament(status="running")
    with_structure(created)
    return created


def test_console_shows_the_level_the_time_and_the_controls(client, event):
    client.force_login(staff("floor"))

    page = client.get(_url(event))

    assert page.status_code == 200
    html = page.content.decode()
    assert "Level 1" in html and "100 / 200" in html
    assert "20:00" in html
    assert 'id="toggle"' in html and ">Start the clock<" in html


@pytest.mark.parametrize(("role", "expected"), [("cashier", 403), ("dealer", 403)])
def test_console_is_for_floor_and_directors(client, event, role, expected):
    client.force_login(staff(role))

    assert client.get(_url(event)).status_code == expected


def test_anonymous_visitor_is_sent_to_log_in(client, event):
    response = client.get(_url(event))

    assert response.status_code == 302 and "/login/" in response["Location"]


def test_start_button_starts_the_clock(client, event):
    client.force_login(staff("floor"))

    response = client.post(_url(event, "action/"), {"action": "start"})

    assert response.status_code == 302
    assert Clock.objects.get(pk=event.pk).status == "running"


def test_next_level_without_confirmation_asks_first_and_changes_nothing(client, event):
    client.force_login(staff("floor"))

    page = client.post(_url(event, "action/"), {"action": "next"})

    assert page.status_code == 200
    assert "Start the next level now?" in page.content.decode()
    assert Clock.objects.get(pk=event.pk).position == 1


def test_next_level_with_confirmation_moves_on(client, event):
    client.force_login(staff("floor"))

    client.post(_url(event, "action/"), {"action": "next", "confirm": "on"})

    assert Clock.objects.get(pk=event.pk).position == 2


def test_refused_action_shows_the_reason(client, event):
    client.force_login(staff("floor"))

    response = client.post(_url(event, "action/"), {"action": "pause"}, follow=True)

    assert "The clock is not running." in response.content.decode()


def test_set_time_in_minutes_and_seconds(client, event):
    client.force_login(staff("floor"))
    services.clock_act(actor=None, tournament_id=event.pk, action="start")

    client.post(
        _url(event, "action/"), {"action": "set", "minutes": "7", "seconds": "30", "confirm": "on"}
    )

    assert 449_000 <= Clock.objects.get(pk=event.pk).left_ms <= 450_000


def test_bad_input_gets_400_with_the_message(client, event):
    client.force_login(staff("floor"))

    response = client.post(_url(event, "action/"), {"action": "jump", "level": "x"})

    assert response.status_code == 400


def test_floor_calls_the_player_clock_from_the_console(client, event):
    client.force_login(staff("floor"))

    client.post(_url(event, "player-clocks/"), {"table": "3", "seat": "6", "facing_bet": "on"})
    page = client.get(_url(event)).content.decode()

    assert PlayerClock.objects.get().facing_bet is True
    assert "Table 3, seat 6" in page
    assert "the hand is dead" in page


def test_only_directors_change_house_settings(client, event):
    client.force_login(staff("floor"))

    response = client.post(_url(event, "settings/"), {"warning_seconds": "60", "turbo": "on"})

    assert response.status_code == 403
    assert Clock.objects.get(pk=event.pk).turbo is False


def test_director_marks_the_event_a_turbo(client, event):
    client.force_login(staff("director"))

    client.post(_url(event, "settings/"), {"warning_seconds": "60", "turbo": "on"})

    clock = Clock.objects.get(pk=event.pk)
    assert (clock.warning_seconds, clock.turbo) == (60, True)


def test_end_of_day_asks_then_draws(client, event):
    Tournament.objects.filter(pk=event.pk).update(
        house_settings={"day_end_draw": "casino"}
    )  # casino §28
    client.force_login(staff("director"))
    services.clock_act(actor=None, tournament_id=event.pk, action="start")

    asked = client.post(_url(event, "day-end/"))
    assert Clock.objects.get(pk=event.pk).day_end_hands is None
    assert "3–7" in asked.content.decode()

    client.post(_url(event, "day-end/"), {"confirm": "on"})
    hands = Clock.objects.get(pk=event.pk).day_end_hands
    assert 3 <= hands <= 7
    assert f"{hands} hands remain at every table" in client.get(_url(event)).content.decode()


def test_director_posts_an_announcement(client, event):
    client.force_login(staff("director"))

    client.post(_url(event, "announcements/"), {"text": "Dinner break after level 6"})

    assert "Dinner break after level 6" in client.get(_url(event)).content.decode()


def test_unknown_tournament_is_404(client):
    client.force_login(staff("floor"))

    assert client.get("/tournaments/99999/clock/").status_code == 404

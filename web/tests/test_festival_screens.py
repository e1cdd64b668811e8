"""The lobby of an event with flights (issue 17, item 6): a flight's screen names its event
and shows its entries and the event's in all; the event's screen, until Day 2 begins,
its flights (entries, survivors) and the chip leaders from the bags."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.urls import reverse

from tournaments.models import BagStatus, Tournament
from tournaments.tests.factories import register, tournament
from tournaments.tests.festival_view_factories import (
    bag,
    day2_seat,
    flight,
    flight_stopped,
    main_event,
    players,
)

pytestmark = pytest.mark.django_db

GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de"}


def lobby(client, event, **headers) -> str:
    response = client.get(reverse("screens:lobby", kwargs={"tournament_id": event.pk}), **headers)
    assert response.status_code == 200
    return response.content.decode()


def festival_part(client, event) -> str:
    response = client.get(reverse("screens:festival", kwargs={"tournament_id": event.pk}))
    assert response.status_code == 200
    return response.content.decode()


def text(html: str) -> str:
    """The words a viewer reads: tags out, spaces collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def two_flights():
    """Day 1A bagged (Anna 61,000, Ben 24,000, Clara 15,000; five entries), Day 1B playing
    (four entries, three still in, Anna among them again)."""
    event = main_event()
    day1a = flight(event, "1A", status="finished")
    anna, ben, clara, _, _ = players(day1a, "Anna", "Ben", "Clara", "Dora", "Emil", busted=2)
    flight_stopped(day1a, confirmed=True)
    bags = [bag(anna, 61000), bag(ben, 24000), bag(clara, 15000)]
    day1b = flight(event, "1B", day=1, status="running")
    players(day1b, "Franz", "Greta", "Anna", "Hans", busted=1)
    return event, day1a, day1b, bags


def test_a_flights_lobby_names_its_event_and_counts_its_entries_and_the_events(client):
    event, _, day1b, _ = two_flights()

    shown = text(lobby(client, day1b))

    assert "Day 1B — flight of Main Event" in shown
    assert "This flight: 4 entries · The event: 9 entries in all" in shown
    html = lobby(client, day1b)
    assert 'src="/static/js/festival.js"' in html
    # It listens on the event's socket: every flight changes the event's total.
    assert f'data-socket="/ws/tournaments/{event.pk}/"' in html
    assert 'data-kinds="overview.changed entry.registered entry.updated"' in html


def test_the_events_lobby_before_day2_shows_its_flights_and_the_chip_leaders(client):
    event, *_ = two_flights()

    html = lobby(client, event)
    shown = text(html)

    assert 'class="lobby layout-clock with-festival"' in html
    assert "Day 1A bagged 5 3 Day 1B Running 4 3 In all 9 6" in shown
    assert "Anna Day 1A 61,000 Ben Day 1A 24,000 Clara Day 1A 15,000" in shown
    assert 'data-kinds="overview.changed entry.registered entry.updated"' in html


def test_the_payouts_and_the_rotating_layouts_show_the_flights_too(client):
    event, *_ = two_flights()
    other = tournament(name="Sunday Event")

    payouts = client.get(
        reverse("screens:lobby", kwargs={"tournament_id": event.pk}) + "?layout=payouts"
    ).content.decode()
    rotating = client.get(reverse("screens:rotate") + f"?t={other.pk},{event.pk}").content.decode()

    assert 'class="lobby layout-payouts with-festival"' in payouts
    assert "Payouts" in text(payouts)
    assert "Day 1A bagged 5 3 Day 1B Running 4 3 In all 9 6" in text(payouts)
    # The rotating screen: the event's flights show with its clock, the other's without.
    assert 'class="lobby layout-clock with-festival"' in rotating
    assert f'id="festival-{event.pk}" data-festival' in rotating
    assert f'data-rotation-of="{event.pk}" hidden' in rotating
    assert "Day 1A bagged 5 3 Day 1B Running 4 3 In all 9 6" in text(rotating)
    assert 'src="/static/js/festival.js"' in rotating
    part = client.get(
        reverse("screens:festival", kwargs={"tournament_id": event.pk}) + "?rotation=1"
    ).content.decode()
    assert f'id="festival-{event.pk}"' in part  # swapped in by its own id


def test_a_forfeited_bag_is_not_among_the_chip_leaders(client):
    event, _, day1b, _ = two_flights()
    flight_stopped(day1b, confirmed=True)
    franz, greta, anna = list(day1b.entries.filter(status="active").order_by("number"))
    bag(franz, 70000)
    bag(greta, 10000)
    bag(anna, 50000, status=BagStatus.FORFEITED)  # Anna plays Day 2 with her Day 1A bag

    shown = text(lobby(client, event))

    assert "Franz Day 1B 70,000 Anna Day 1A 61,000 Ben Day 1A 24,000" in shown
    assert "50,000" not in shown
    assert "In all 9 5" in shown


def test_before_the_first_bag_the_events_lobby_says_where_the_leaders_will_show(client):
    event = main_event()
    players(flight(event, "1A", status="running"), "Anna", "Ben")

    assert "The chip leaders show here as soon as the first bags are counted." in text(
        lobby(client, event)
    )


def test_once_day2_has_begun_the_events_lobby_is_its_own_clock_again(client):
    event, _, _, bags = two_flights()
    for bag_ in bags:
        day2_seat(event, bag_)

    html = lobby(client, event)

    assert "with-festival" not in html
    assert 'id="festival"' not in html


def test_a_tournament_without_flights_shows_no_festival(client):
    html = lobby(client, tournament())
    assert 'id="festival"' not in html
    assert "festival.js" not in html


def test_the_part_fetched_again_shows_a_new_entry_in_a_flight(client):
    event, _, day1b, _ = two_flights()
    assert "In all 9 6" in text(festival_part(client, event))

    Tournament.objects.filter(pk=day1b.pk).update(status="registering")
    register(day1b, "Ivo")  # at the desk, through its service

    part = festival_part(client, event)
    assert 'id="festival"' in part
    assert "Day 1B Registering 5 4 In all 10 7" in text(part)


def test_the_lobby_speaks_german(client):
    event, _, day1b, _ = two_flights()

    assert "Tag 1B – Flight von Main Event" in text(lobby(client, day1b, **GERMAN))
    shown = text(lobby(client, event, **GERMAN))
    assert "Flights" in shown and "Chipleader" in shown
    assert "Insgesamt 9 6" in shown
    assert "61.000" in shown


def test_the_events_lobby_asks_no_more_queries_for_more_flights(client, django_assert_num_queries):
    event, *_ = two_flights()
    url = reverse("screens:lobby", kwargs={"tournament_id": event.pk})
    part_url = reverse("screens:festival", kwargs={"tournament_id": event.pk})
    client.get(url)  # warm: the session and the like
    # The event, the flights part (3); its clock's row and numbers from the screen cache.
    with django_assert_num_queries(4) as few:
        client.get(url)
    with django_assert_num_queries(4):  # the event, its flights, Day 2, the leaders
        client.get(part_url)

    for name, day in (("1C", 2), ("1D", 3)):
        more = flight(event, name, day=day, status="finished")
        flight_stopped(more, confirmed=True)
        bag(players(more, f"Spieler {name}")[0], 30000)
    with django_assert_num_queries(len(few.captured_queries)):
        client.get(url)
    with django_assert_num_queries(4):
        assert "Day 1D" in client.get(part_url).content.decode()


def test_a_flights_lobby_asks_three_queries_more_than_before(client, django_assert_num_queries):
    """Its event, the flights' counts and Day 2's: the event's total in one sum."""
    event, _, day1b, _ = two_flights()
    part_url = reverse("screens:festival", kwargs={"tournament_id": day1b.pk})
    with django_assert_num_queries(4):  # the flight, its event, the flights, Day 2
        client.get(part_url)


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node for JS tests")
def test_festival_js():
    script = Path(__file__).parent / "js" / "festival_test.js"
    result = subprocess.run(["node", str(script)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr

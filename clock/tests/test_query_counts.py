"""Query-count guards: a list answers in as many queries for one row as for several.

Each test asks once to warm the per-process caches (a persona's roles, content types),
then pins the count for one row and again for several: a count that grows with the rows
is an N+1 query. The lobby's JSON (screens:data) is guarded in test_screens.py.
"""

import pytest
from django.db import connection
from django.urls import reverse

from clock import services
from clock.models import ChipSet, Structure
from clock.tests.factories import structure, with_structure
from floorman import versions
from hands.services import busts as bust_services
from seating import services as seating_services
from seating.tests.factories import add_tables
from seating.tests.factories import field as seating_field
from tournaments.tests.factories import api, field, register, staff, tournament

pytestmark = pytest.mark.django_db


def get(client, url: str, expected: int, django_assert_num_queries):
    client.get(url)  # warm up: roles and content types are read once per user or process
    with django_assert_num_queries(expected):
        response = client.get(url)
    assert response.status_code == 200
    return response


def screen(client, url: str, cold: int, django_assert_num_queries, *events, cached: int = 1):
    """A lobby screen: built once per screen version (floorman.versions, issue 20), then
    served from the shared cache with `cached` queries (one: the tournaments' rows).
    Both counts stay as the field grows."""
    get(client, url, cached, django_assert_num_queries)
    changed = [event.pk for event in events]
    versions.screens_changed(changed)
    client.get(url)  # what each process keeps by its own version (a structure's steps)
    versions.screens_changed(changed)
    with django_assert_num_queries(cold):
        response = client.get(url)
    assert response.status_code == 200
    return response


def announce(event, count: int) -> None:
    for n in range(count):
        services.announcement_post(actor=None, tournament_id=event.pk, text=f"Notice {n}")


def clock_on(event, seats: range) -> None:
    for seat in seats:
        services.player_clock_call(
            actor=None, tournament_id=event.pk, table=1, seat=seat, facing_bet=True
        )


# --- The REST API ---------------------------------------------------------------------------


def test_api_structure_list(django_assert_num_queries):
    seeded = Structure.objects.count()  # the house's templates, from a migration
    structure("One")
    client = api(staff("director"))
    url = reverse("structure-list")
    assert len(get(client, url, 2, django_assert_num_queries).json()) == seeded + 1

    for n in range(2, 6):
        structure(f"Structure {n}")

    assert len(get(client, url, 2, django_assert_num_queries).json()) == seeded + 5


def test_api_chipset_list(django_assert_num_queries):
    seeded = ChipSet.objects.count()  # the house's standard set, from a migration
    services.chip_set_save(actor=None, chip_set_id=None, name="Set 1", chips=[(25, "green")])
    client = api(staff("director"))
    url = reverse("chipset-list")
    assert len(get(client, url, 2, django_assert_num_queries).json()) == seeded + 1

    for n in range(2, 6):
        chips = [(25, "green"), (100, "black"), (500, "purple")]
        services.chip_set_save(actor=None, chip_set_id=None, name=f"Set {n}", chips=chips)

    assert len(get(client, url, 2, django_assert_num_queries).json()) == seeded + 5


def test_api_player_clock_list(django_assert_num_queries):
    event = tournament(status="running")
    with_structure(event)
    clock_on(event, range(1, 2))
    client = api()
    url = reverse("player-clock-list", args=[event.pk])
    assert len(get(client, url, 2, django_assert_num_queries).json()) == 1

    clock_on(event, range(2, 6))

    assert len(get(client, url, 2, django_assert_num_queries).json()) == 5


def test_api_announcement_list(django_assert_num_queries):
    event = tournament(status="running")
    with_structure(event)
    announce(event, 1)
    client = api()
    url = reverse("announcement-list", args=[event.pk])
    assert len(get(client, url, 2, django_assert_num_queries).json()) == 1

    announce(event, 4)

    assert len(get(client, url, 2, django_assert_num_queries).json()) == 5


def test_api_clock_with_its_steps(django_assert_num_queries):
    """Issue 20: once read, the clock is kept in the cache until it changes (clock.cache):
    no query, whatever the field. The first read is one (clock/tests/test_clock_cache.py)."""
    event = tournament()
    with_structure(event)
    url = reverse("clock", args=[event.pk]) + "?steps=1"
    client = api()
    get(client, url, 0, django_assert_num_queries)

    field(event, 5)
    announce(event, 5)
    clock_on(event, range(1, 6))

    assert len(get(client, url, 0, django_assert_num_queries).json()["steps"]) == 5


# --- Lobby screens --------------------------------------------------------------------------


def test_lobby(client, django_assert_num_queries):
    event = tournament()
    with_structure(event)
    register(event, "Anna Berger")
    announce(event, 1)
    url = reverse("screens:lobby", args=[event.pk])
    # Kept: nothing asked of the database (the page at the versions of its numbers).
    screen(client, url, 7, django_assert_num_queries, event, cached=0)

    entries = field(event, 40)
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=entries[0].pk)
    announce(event, 4)
    clock_on(event, range(1, 6))

    screen(client, url, 7, django_assert_num_queries, event, cached=0)


def test_lobby_with_the_seating_board(client, django_assert_num_queries):
    event = tournament()
    with_structure(event)
    add_tables(event, 1)
    seating_field(event, 1)
    seating_services.seating_draw(actor=None, tournament_id=event.pk)
    url = reverse("screens:lobby", args=[event.pk]) + "?layout=seating"
    screen(client, url, 8, django_assert_num_queries, event)

    add_tables(event, 4, first=2)
    seating_field(event, 30, prefix="Late")  # seated at the desk: the field is drawn

    page = screen(client, url, 8, django_assert_num_queries, event)
    assert "Late 0030" in page.content.decode()


def test_rotate_over_one_tournament(client, django_assert_num_queries):
    event = tournament()
    with_structure(event)
    register(event, "Anna Berger")
    url = reverse("screens:rotate") + f"?t={event.pk}"
    screen(client, url, 8, django_assert_num_queries, event)

    field(event, 40)
    announce(event, 5)

    screen(client, url, 8, django_assert_num_queries, event)


def test_rotate_costs_a_fixed_number_per_tournament(client, django_assert_num_queries):
    """Each tournament on the screen is read on its own (at most ROTATE_MAX of them): one
    query finds them all, then 8 for each one's clock, counts, money and notices, and
    while it runs whether it plays hand-for-hand or its final table (issue 16)."""
    events = [tournament(name=f"Event {n}", status="running") for n in range(3)]
    for event in events:
        with_structure(event)
    one = reverse("screens:rotate") + f"?t={events[0].pk}"
    three = reverse("screens:rotate") + "?t=" + ",".join(str(e.pk) for e in events)

    screen(client, one, 1 + 9, django_assert_num_queries, events[0])
    screen(client, three, 1 + 3 * 9, django_assert_num_queries, *events)


# --- The console's actions ------------------------------------------------------------------

# Session, user, roles, the tournament; the lock (timeout, tournament, clock), the steps,
# the clock saved, the level kept in step, the state for the screens; the audit chain's
# head and insert; savepoints. The announcements are queued from the state just saved.
# PostgreSQL's lock_timeout is set before the lock (tournaments.services.tournament_lock).
CLOCK_ACTION_QUERIES = 14 + (connection.vendor == "postgresql")
# Starting the clock also starts the tournament (issue 16): the players counted (two at
# least) and the status written.
TOURNAMENT_START_QUERIES = 2


@pytest.mark.parametrize(
    ("action", "data", "queries"),
    [
        ("start", {}, CLOCK_ACTION_QUERIES + TOURNAMENT_START_QUERIES),
        ("set", {"minutes": 7}, CLOCK_ACTION_QUERIES),
        ("next", {}, CLOCK_ACTION_QUERIES),
        ("pause", {}, CLOCK_ACTION_QUERIES),
    ],
)
def test_a_clock_action_answers_in_a_fixed_number_of_queries(
    client, django_assert_num_queries, django_capture_on_commit_callbacks, action, data, queries
):
    """Issue 16: the structure's steps are read once, the clock once, and nothing is read
    again after the commit to queue the announcements (RP-7)."""
    event = tournament()
    with_structure(event)
    field(event, 30)
    client.force_login(staff("director"))
    url = reverse("clock:action", args=[event.pk])
    client.get(reverse("clock:console", args=[event.pk]))  # warm up: the roles
    if action in ("next", "pause"):
        services.clock_act(actor=None, tournament_id=event.pk, action="start")

    with (
        django_assert_num_queries(queries),
        django_capture_on_commit_callbacks(execute=True),
    ):
        response = client.post(url, {"action": action, "confirm": "on", **data})

    assert response.status_code == 302

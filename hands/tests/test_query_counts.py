"""Query-count guards: a list answers in as many queries for one row as for several.

Each test asks once to warm the per-process caches (a persona's roles, content types),
then pins the count for a small table and again for a full one, or for one hand, bust
or link and again for several: a count that grows with the rows is an N+1 query. The
staff tablet's state (hands:tablet-state) is guarded in test_views.py.
"""

import pytest
from django.urls import reverse

from clock.tests.factories import with_structure
from hands import services
from hands.tests.factories import button_at, deal, finish, seat_players
from tournaments.tests.factories import api, staff, tournament

pytestmark = pytest.mark.django_db

FULL = [1, 2, 3, 4, 5, 6, 7, 8, 9]


def get(client, url: str, expected: int, django_assert_num_queries):
    client.get(url)  # warm up: roles and content types are read once per user or process
    with django_assert_num_queries(expected):
        response = client.get(url)
    assert response.status_code == 200
    return response


def dealt(layout: dict[int, list[int]], name: str = "Sunday Main Event"):
    """A tournament with the tables of `layout`, each with its button on its first
    player's seat and a hand in play."""
    event = tournament(name=name)
    with_structure(event)
    seat_players(event, layout)
    for number, seats in layout.items():
        button_at(event, number, seats[0])
        deal(event, number)
    return event


def small_and_full():
    """Table 1 with two players, and in another tournament table 3 with nine."""
    return dealt({1: [1, 2]}), dealt({3: FULL}, name="Big")


def floor_client(client):
    client.force_login(staff("floor"))
    return client


# --- The REST API ---------------------------------------------------------------------------


def test_api_table_state(django_assert_num_queries):
    small, full = small_and_full()
    client = api()

    # 21: halting reads the house settings (issue 19): the event's venue, one query; 19:
    # the ledger's totals one row with the active count and alternates (issue 20).
    get(client, reverse("api-hands-state", args=[small.pk, 1]), 19, django_assert_num_queries)
    get(client, reverse("api-hands-state", args=[full.pk, 3]), 19, django_assert_num_queries)


def test_api_hand_detail(django_assert_num_queries):
    small, full = small_and_full()
    client = api()
    services.hand_action(
        actor=None, tournament_id=full.pk, number=3, hand_number=1, kind="call", amount=None
    )

    get(client, reverse("api-hands-detail", args=[small.pk, 1, 1]), 7, django_assert_num_queries)
    body = get(
        client, reverse("api-hands-detail", args=[full.pk, 3, 1]), 7, django_assert_num_queries
    )
    assert len(body.json()["players"]) == 9


def test_api_hands_list(django_assert_num_queries):
    event = tournament()
    with_structure(event)
    seat_players(event, {1: FULL})
    button_at(event, 1, 1)
    hand = deal(event, 1)
    client = api()
    url = reverse("api-hands-list", args=[event.pk, 1])
    assert len(get(client, url, 3, django_assert_num_queries).json()) == 1

    for _ in range(4):
        finish(event, 1, hand)
        hand = deal(event, 1)

    assert len(get(client, url, 3, django_assert_num_queries).json()) == 5


def test_api_busts(django_assert_num_queries):
    event = dealt({1: FULL})
    client = api()
    url = reverse("api-hands-busts", args=[event.pk, 1])
    services.table_busts_record(actor=None, tournament_id=event.pk, number=1, seats=[9])
    assert len(get(client, url, 5, django_assert_num_queries).json()) == 1

    services.table_busts_record(actor=None, tournament_id=event.pk, number=1, seats=[5, 6, 7, 8])

    # Busts that shared a hand ask the house how to place them (issue 19): the event and
    # its venue, two queries whatever the number of busts.
    assert len(get(client, url, 7, django_assert_num_queries).json()) == 5


def test_api_hand_for_hand(django_assert_num_queries):
    small = dealt({1: [1, 2]})
    full = dealt({3: [1, 2, 3], 4: [1, 2, 3], 5: [1, 2, 3], 6: [1, 2, 3]}, name="Big")
    client = api()
    for event in (small, full):
        services.h4h_settings_update(actor=None, tournament_id=event.pk, data={"places_paid": 1})

    get(client, reverse("api-hand-for-hand", args=[small.pk]), 5, django_assert_num_queries)
    get(client, reverse("api-hand-for-hand", args=[full.pk]), 5, django_assert_num_queries)


# --- The tablet: the dealer's page, by sign-in or by link -----------------------------------


def test_tablet_page(client, django_assert_num_queries):
    small, full = small_and_full()
    floor = floor_client(client)

    # 38 with the table's last bust, which the tablet may take back (issue 16); 40 with
    # the betting replayed for the seat that may bet with an item of no value (RP-22); 41
    # with halting read from the house settings (issue 19); 43 with the dodged blinds owed
    # (older TDA 22) and, for the floor's ruling, the house's reading of them (issue 19);
    # 41 with the ledger's totals one row with the counts (issue 20).
    get(floor, reverse("hands:tablet", args=[small.pk, 1]), 41, django_assert_num_queries)
    get(floor, reverse("hands:tablet", args=[full.pk, 3]), 41, django_assert_num_queries)


@pytest.mark.parametrize("name", ["hands:link", "hands:link-state"])
def test_tablet_by_link(client, django_assert_num_queries, name):
    small, full = small_and_full()
    links = [
        services.tablet_link_create(actor=None, tournament_id=small.pk, number=1),
        services.tablet_link_create(actor=None, tournament_id=full.pk, number=3),
    ]

    # 36: the betting replayed for the item offer too (RP-22); 37: halting read from the
    # house settings (issue 19); 38: the dodged blinds owed (older TDA 22); 36: the
    # ledger's totals one row with the counts (issue 20).
    for link in links:
        get(client, reverse(name, args=[link.token]), 36, django_assert_num_queries)


def test_tablet_links_page(client, django_assert_num_queries):
    event = dealt({1: [1, 2]})
    floor = floor_client(client)
    url = reverse("hands:tablet-links", args=[event.pk, 1])
    services.tablet_link_create(actor=None, tournament_id=event.pk, number=1)
    get(floor, url, 6, django_assert_num_queries)

    for _ in range(4):
        services.tablet_link_create(actor=None, tournament_id=event.pk, number=1)

    get(floor, url, 6, django_assert_num_queries)


def test_hand_for_hand_page(client, django_assert_num_queries):
    small = dealt({1: [1, 2]})
    full = dealt({3: [1, 2, 3], 4: [1, 2, 3], 5: [1, 2, 3], 6: [1, 2, 3]}, name="Big")
    floor = floor_client(client)
    for event in (small, full):
        services.h4h_settings_update(actor=None, tournament_id=event.pk, data={"places_paid": 1})

    get(floor, reverse("hands:hand-for-hand", args=[small.pk]), 8, django_assert_num_queries)
    get(floor, reverse("hands:hand-for-hand", args=[full.pk]), 8, django_assert_num_queries)

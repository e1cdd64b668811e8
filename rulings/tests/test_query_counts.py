"""Query-count guards: a list answers in as many queries for one row as for several.

Each test asks once to warm the per-process caches (a persona's roles, content types),
then pins the count for one row and again for several: a count that grows with the rows
is an N+1 query. The floor page is guarded in test_views.py.
"""

import pytest
from django.urls import reverse

from hands.tests.factories import seat_players
from rulings import services
from tournaments.tests.factories import api, staff, tournament

pytestmark = pytest.mark.django_db


def get(client, url: str, expected: int, django_assert_num_queries):
    client.get(url)  # warm up: roles and content types are read once per user or process
    with django_assert_num_queries(expected):
        response = client.get(url)
    assert response.status_code == 200
    return response


def incident(event, entries) -> None:
    data = {
        "category": "betting",
        "description": "Player pushed a single 1,000 chip facing 400 without a word.",
        "decision": "A call (TDA 44).",
        "rules": ["44"],
        "table": 1,
        "entries": [e.pk for e in entries],
    }
    services.incident_record(actor=staff("floor"), tournament_id=event.pk, data=data)


def warning(event, entry) -> None:
    services.penalty_give(
        actor=staff("floor"), tournament_id=event.pk, data={"entry": entry.pk, "kind": "warning"}
    )


@pytest.fixture
def seated():
    """One table of six: the tournament and its entries by seat."""
    event = tournament()
    entries = seat_players(event, {1: [1, 2, 3, 4, 5, 6]})
    return event, [entries[(1, seat)] for seat in range(1, 7)]


def house_rule(venue, n: int) -> None:
    data = {"kind": "own", "number": f"H{n}", "title": f"House rule {n}", "text": "No phones."}
    services.house_rule_save(actor=None, venue_id=venue.pk, data=data)


# --- The REST API ---------------------------------------------------------------------------


def test_api_incidents(django_assert_num_queries, seated):
    event, entries = seated
    client = api(staff("floor"))
    url = reverse("api-incidents", args=[event.pk])
    incident(event, entries[:1])
    assert len(get(client, url, 4, django_assert_num_queries).json()["incidents"]) == 1

    for n in range(4):
        incident(event, entries[n : n + 3])

    assert len(get(client, url, 4, django_assert_num_queries).json()["incidents"]) == 5


def test_api_penalties(django_assert_num_queries, seated):
    event, entries = seated
    client = api(staff("floor"))
    url = reverse("api-penalties", args=[event.pk])
    warning(event, entries[0])
    assert len(get(client, url, 2, django_assert_num_queries).json()["penalties"]) == 1

    for entry in entries[1:5]:
        warning(event, entry)

    assert len(get(client, url, 2, django_assert_num_queries).json()["penalties"]) == 5


def test_api_player_record(django_assert_num_queries, seated):
    event, entries = seated
    anna = entries[0]
    client = api(staff("floor"))
    url = reverse("api-record", args=[anna.player_id])
    incident(event, [anna])
    warning(event, anna)
    assert len(get(client, url, 5, django_assert_num_queries).json()["penalties"]) == 1

    for n in range(4):
        incident(event, [anna, entries[n + 1]])
        warning(event, anna)

    body = get(client, url, 5, django_assert_num_queries).json()
    assert (len(body["incidents"]), len(body["penalties"])) == (5, 5)


# --- Pages ----------------------------------------------------------------------------------


def test_player_record_page(client, django_assert_num_queries, seated):
    event, entries = seated
    anna = entries[0]
    client.force_login(staff("floor"))
    url = reverse("rulings:record", args=[anna.player_id])
    incident(event, [anna])
    warning(event, anna)
    get(client, url, 8, django_assert_num_queries)

    for n in range(4):
        incident(event, [anna, entries[n + 1]])
        warning(event, anna)

    get(client, url, 8, django_assert_num_queries)


@pytest.mark.parametrize("name", ["rulings:rulebook", "rulings:house"])
def test_house_rules(client, django_assert_num_queries, name):
    venue = services.venue_save(actor=None, name="Casino Floor", is_default=True)
    client.force_login(staff("director"))
    url = reverse(name)
    expected = {"rulings:rulebook": 6, "rulings:house": 7}[name]
    house_rule(venue, 1)
    get(client, url, expected, django_assert_num_queries)

    for n in range(2, 6):
        house_rule(venue, n)

    html = get(client, url, expected, django_assert_num_queries).content.decode()
    assert "House rule 5" in html

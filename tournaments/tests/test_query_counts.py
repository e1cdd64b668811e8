"""Query-count guards: a list answers in as many queries for one row as for several.

Each test asks once to warm the per-process caches (a persona's roles, content types),
then pins the count for one row and again for several: a count that grows with the rows
is an N+1 query.
"""

import pytest
from django.urls import reverse

from hands.services import busts as bust_services
from tournaments.tests.factories import (
    api,
    bust_in_order,
    field,
    register,
    registration_closed,
    staff,
    tournament,
)

pytestmark = pytest.mark.django_db


def get(client, url: str, expected: int, django_assert_num_queries):
    client.get(url)  # warm up: roles and content types are read once per user or process
    with django_assert_num_queries(expected):
        response = client.get(url)
    assert response.status_code == 200
    return response


# --- The REST API ---------------------------------------------------------------------------


def test_api_tournament_list(django_assert_num_queries):
    tournament(name="First")
    client = api()
    url = reverse("tournament-list")
    assert get(client, url, 2, django_assert_num_queries).json()["count"] == 1

    for n in range(2, 6):
        tournament(name=f"Event {n}")

    assert get(client, url, 2, django_assert_num_queries).json()["count"] == 5


@pytest.mark.parametrize("persona", ["floor", "cashier"])
def test_api_player_list(django_assert_num_queries, persona):
    event = tournament()
    register(event, "Anna Berger", email="anna@example.com")
    client = api(staff(persona))
    url = reverse("player-list")
    assert get(client, url, 2, django_assert_num_queries).json()["count"] == 1

    field(event, 4)

    assert get(client, url, 2, django_assert_num_queries).json()["count"] == 5


def test_api_alternates(django_assert_num_queries):
    event = tournament(capacity=1)
    register(event, "Seated")
    register(event, "Alternate 1")
    client = api()
    url = reverse("tournament-alternates", args=[event.pk])
    assert len(get(client, url, 2, django_assert_num_queries).json()) == 1

    for n in range(2, 6):
        register(event, f"Alternate {n}")

    assert len(get(client, url, 2, django_assert_num_queries).json()) == 5


def test_api_audit(django_assert_num_queries):
    event = tournament()
    cashier = staff("cashier")
    register(event, "Anna Berger", actor=cashier)
    client = api(staff("director"))
    url = reverse("tournament-audit", args=[event.pk])
    assert get(client, url, 3, django_assert_num_queries).json()["count"] == 1

    for n in range(2, 6):
        register(event, f"Player {n}", actor=cashier)

    assert get(client, url, 3, django_assert_num_queries).json()["count"] == 5


def test_api_payouts(django_assert_num_queries):
    event = tournament(buy_in=10000, fee=0)
    field(event, 2)
    client = api()
    url = reverse("api-payouts", args=[event.pk])
    assert len(get(client, url, 4, django_assert_num_queries).json()["lines"]) == 1

    field(event, 40)

    assert len(get(client, url, 4, django_assert_num_queries).json()["lines"]) > 1


# The places are worked out from the entries' numbers and status first, then the page's
# rows are read with their players (issue 16: paying a prize read every entry).
RESULTS_QUERIES = 11


def test_api_results(django_assert_num_queries):
    event = tournament(buy_in=10000, fee=0)
    entries = field(event, 10)
    registration_closed(event)
    bust_in_order(event, entries[0])
    client = api()
    url = reverse("api-results", args=[event.pk])
    assert len(get(client, url, RESULTS_QUERIES, django_assert_num_queries).json()["results"]) == 1

    bust_in_order(event, *entries[1:5])

    assert len(get(client, url, RESULTS_QUERIES, django_assert_num_queries).json()["results"]) == 5


# --- Pages for players' phones --------------------------------------------------------------


def test_results_public(client, django_assert_num_queries):
    event = tournament(buy_in=10000, fee=0)
    entries = field(event, 10)
    registration_closed(event)
    bust_in_order(event, entries[0])
    url = reverse("results-public", args=[event.pk])
    get(client, url, RESULTS_QUERIES, django_assert_num_queries)

    bust_in_order(event, *entries[1:5])

    assert (
        "Player 5" in get(client, url, RESULTS_QUERIES, django_assert_num_queries).content.decode()
    )


ENTRY_PAGE_QUERIES = 8


def test_entry_public_page_does_not_read_the_field(
    client, django_assert_num_queries, django_assert_max_num_queries
):
    event = tournament()
    anna = register(event, "Anna Berger").entry
    url = reverse("tournaments:entry-public", args=[event.pk, anna.number])
    # The event, the entry, its seat; issue 18: its counts, the big blind in play (the
    # clock), its rank and the players left, each one query whatever the field's size.
    get(client, url, ENTRY_PAGE_QUERIES, django_assert_num_queries)

    field(event, 4)
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=anna.pk)

    with django_assert_max_num_queries(ENTRY_PAGE_QUERIES):  # out: no rank to read
        page = client.get(url)
    assert "Anna Berger" in page.content.decode()

"""Query-count guards: a list answers in as many queries for one row as for several.

Each test asks once to warm the per-process caches (a persona's roles, content types),
then pins the count for one row and again for several: a count that grows with the rows
is an N+1 query. Guarded elsewhere: the tables list (test_api.py), the table map
(test_views.py), the seat lookup page, the seating board and a player's seat
(test_public.py). The desk's late registration is pinned too, with and without a
re-entry: only a re-entry reads the payout table (casino §12).
"""

from urllib.parse import urlencode

import pytest
from django.urls import reverse

from hands.services import busts as bust_services
from seating import services
from seating.models import SeatingAction
from seating.services import desk
from seating.tests.factories import add_tables, field
from tournaments.models import Tournament
from tournaments.tests.factories import api, register, staff, tournament

pytestmark = pytest.mark.django_db


def get(client, url: str, expected: int, django_assert_num_queries):
    client.get(url)  # warm up: roles and content types are read once per user or process
    with django_assert_num_queries(expected):
        response = client.get(url)
    assert response.status_code == 200
    return response


def one_seated():
    """One table, one player drawn to it."""
    event = tournament()
    add_tables(event, 1)
    field(event, 1)
    services.seating_draw(actor=None, tournament_id=event.pk)
    return event


def many_seated(event) -> list:
    """Two more tables and 12 late entries, seated at the desk (TDA 8-A)."""
    add_tables(event, 2, first=2)
    return field(event, 12, prefix="Late")


def floor_client(client):
    client.force_login(staff("floor"))
    return client


# --- The REST API ---------------------------------------------------------------------------


def test_api_seating_list(django_assert_num_queries):
    event = one_seated()
    client = api()
    url = reverse("api-seating-list", args=[event.pk])
    assert len(get(client, url, 2, django_assert_num_queries).json()) == 1

    many_seated(event)

    assert len(get(client, url, 2, django_assert_num_queries).json()) == 13


def test_api_lookup(django_assert_num_queries):
    event = one_seated()
    client = api()
    url = reverse("api-seating-lookup", args=[event.pk]) + "?q=player"
    # the tournament's lookup version; the field's index is cached until it changes
    assert len(get(client, url, 1, django_assert_num_queries).json()) == 1

    many_seated(event)
    field(event, 4, prefix="Player 2")  # "Player 2 0001" and on

    assert len(get(client, url, 1, django_assert_num_queries).json()) == 5


def test_api_lookup_finding_nobody_asks_only_the_version(django_assert_num_queries):
    """A search that finds nobody (a typo, "#" alone) is still a 200 for an event that
    exists, and a 404 for one that does not: the lookup's index tells which, without a
    read of the tournament of its own."""
    event = one_seated()
    client = api()
    for q in ("nobody", "#"):
        url = reverse("api-seating-lookup", args=[event.pk]) + "?" + urlencode({"q": q})
        assert get(client, url, 1, django_assert_num_queries).json() == []

    unknown = reverse("api-seating-lookup", args=[event.pk + 1000]) + "?q=nobody"
    with django_assert_num_queries(1):  # the version, which finds no tournament
        assert client.get(unknown).status_code == 404


def test_api_balance_plan(django_assert_num_queries):
    event = tournament()
    add_tables(event, 2)
    entries = field(event, 4)
    services.seating_draw(actor=None, tournament_id=event.pk)
    client = api(staff("floor"))
    url = reverse("api-seating-balance", args=[event.pk])
    # 7: the halting reading is a house setting (issue 19): the event's venue, one query.
    get(client, url, 7, django_assert_num_queries)

    add_tables(event, 2, first=3)
    field(event, 12, prefix="Late")
    for entry in entries:
        bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=entry.pk)

    assert get(client, url, 7, django_assert_num_queries).json()["moves"]


# --- The floor's printed lists --------------------------------------------------------------


# The seating lists come from the shared cache once built at the seating's version
# (issue 20): the session, the user, the roles, the tournament. The cards read their seats.
@pytest.mark.parametrize(
    ("name", "queries"),
    [("seating:by-name", 4), ("seating:by-table", 4), ("seating:seat-cards", 5)],
)
def test_printed_lists(client, django_assert_num_queries, name, queries):
    event = one_seated()
    floor = floor_client(client)
    url = reverse(name, args=[event.pk])
    get(floor, url, queries, django_assert_num_queries)

    many_seated(event)

    assert "Late 0012" in get(floor, url, queries, django_assert_num_queries).content.decode()


@pytest.mark.parametrize("name", ["seating:by-name", "seating:by-table"])
def test_a_seating_lists_first_page_at_a_new_version_reads_the_seats_once(
    client, django_assert_num_queries, name
):
    event = one_seated()
    floor = floor_client(client)
    url = reverse(name, args=[event.pk])
    floor.get(url)
    many_seated(event)  # a new seating version

    with django_assert_num_queries(5):  # the seats, once for every page
        floor.get(url)
    with django_assert_num_queries(4):
        floor.get(url + "?page=2")


@pytest.mark.parametrize("name", ["seating:action", "seating:slips"])
def test_a_draw_and_its_move_slips(client, django_assert_num_queries, name):
    small = one_seated()
    large = tournament(name="Large")
    add_tables(large, 3, first=10)
    field(large, 13)
    services.seating_draw(actor=None, tournament_id=large.pk)
    floor = floor_client(client)

    for event in (small, large):
        action = SeatingAction.objects.get(tournament=event)
        get(floor, reverse(name, args=[event.pk, action.pk]), 6, django_assert_num_queries)


# --- The desk's sales -----------------------------------------------------------------------


def late_registration_open(event) -> None:
    """Play under way in level 1, late registration and re-entry open until level 3."""
    Tournament.objects.filter(pk=event.pk).update(
        status="running", late_reg_until_level=3, current_level=1, reentry_allowed=True
    )


def payout_reads(queries) -> list[str]:
    """The statements that read the payout table: the ledger's totals, its settings."""
    return [
        q["sql"]
        for q in queries
        if "tournaments_transaction" in q["sql"]
        and q["sql"].startswith("SELECT")
        or "tournaments_payoutstructure" in q["sql"]
    ]


# The player, the lock, the deadlines, whether the event has flights (a sale there is a
# late entry into Day 2, issue 17), the player's earlier entries, the number, the entry
# and its ledger line, the ledger's running totals (issue 20), the lookup's version; the
# late seat (TDA 8-A): the draw's check, the players seated and the seats of the shortest
# tables (issue 20: not every seat of the field), the field, the action, the seat written,
# the lookup's version; the live event's field; the player clocks on the seat taken (TDA
# 29: stopped, issue 16); the audit chain's head and insert; savepoints.
LATE_REGISTRATION_QUERIES = 30


def test_a_late_registration_answers_in_as_many_queries_for_a_larger_field(
    django_assert_num_queries,
):
    """A first buy-in never asks whether the field is in the money (casino §12 ends
    re-entries only): the payout table's five queries are left out (issue 15)."""
    event = one_seated()
    late_registration_open(event)
    register(event, "Warm Up")  # the roles and content types read once per process

    with django_assert_num_queries(LATE_REGISTRATION_QUERIES) as few:
        register(event, "Late Anna")
    many_seated(event)
    with django_assert_num_queries(LATE_REGISTRATION_QUERIES) as many:
        register(event, "Late Bo")

    assert payout_reads(few) == payout_reads(many) == []


def test_a_reentry_asks_whether_the_field_is_in_the_money(django_assert_num_queries):
    event = one_seated()
    many_seated(event)  # 13 left, more than the places paid
    late_registration_open(event)
    busted = register(event, "Busted Early").entry
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=busted.pk)

    # The payout table: its structure and the totals, one query with the counts (issue 20).
    with django_assert_num_queries(LATE_REGISTRATION_QUERIES + 1) as queries:
        registration = desk.entry_register(
            actor=None, tournament_id=event.pk, player_id=busted.player_id, reentry=True
        )

    assert registration.entry.reentry_number == 2
    assert payout_reads(queries)

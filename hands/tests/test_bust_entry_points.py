"""A bust is one intention, whatever the door it comes through: the desk's page and API,
the floor's table page, a dealer's tablet link and the tablets' API, a hand's result, and
the services that scripts call. Each gives the same audit entry and the same live events,
under one lock of the tournament (hands.services.busts.entry_bust)."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from clock.tests.factories import with_structure
from floorman import live
from floorman.models import AuditEntry
from hands import services
from hands.models import Elimination, TabletLink
from hands.services import busts
from hands.tests.factories import button_at, deal, finish, seat_players
from rulings import services as rulings_services
from seating.models import Seat
from tournaments.models import EntryStatus
from tournaments.tests.factories import staff, tournament

pytestmark = pytest.mark.django_db

TABLE, SEAT = 2, 3
# The locking read of one tournament row by its id (tournaments.services.tournament_lock).
TOURNAMENT_LOCK = re.compile(
    r'FROM "tournaments_tournament" WHERE "tournaments_tournament"\."id" = \S+ .*FOR UPDATE'
)


@pytest.fixture
def world():
    """Two tables of four at level 1; table 2's button on seat 1."""
    event = tournament()
    with_structure(event)
    seated = seat_players(event, {1: [1, 2, 3, 4], 2: [1, 2, 3, 4]})
    button_at(event, TABLE, 1)
    return event, seated[(TABLE, SEAT)]


@pytest.fixture
def sent(monkeypatch):
    """The kinds of the live events that reached the channel layer, in order."""
    kinds: list[str] = []
    monkeypatch.setattr(
        "floorman.live._send", lambda tournament_id, message: kinds.append(message["type"])
    )
    return kinds


def api(user) -> APIClient:
    client = APIClient(HTTP_X_FORWARDED_PROTO="https")
    client.force_authenticate(user)
    return client


def desk_page(client, event, entry):
    client.force_login(staff("floor"))
    return client.post(f"/tournaments/{event.pk}/entries/{entry.number}/bust/")


def desk_api(client, event, entry):
    return api(staff("floor")).post(f"/api/v1/tournaments/{event.pk}/entries/{entry.pk}/bust/")


def floor_table_page(client, event, entry):
    client.force_login(staff("floor"))
    return client.post(
        f"/tournaments/{event.pk}/tables/{TABLE}/tablet/", {"action": "bust", "seats": [SEAT]}
    )


def tablet_link(client, event, entry):
    link = TabletLink.objects.get(table__tournament=event)  # made before: `bust_through`
    return client.post(f"/tablet/{link.token}/", {"action": "bust", "seats": [SEAT]})


def tablet_api(client, event, entry):
    return api(staff("floor")).post(
        f"/api/v1/tournaments/{event.pk}/tables/{TABLE}/busts/", {"seats": [SEAT]}, format="json"
    )


def script(client, event, entry):
    return busts.entry_bust(actor=None, tournament_id=event.pk, entry_id=entry.pk)


DOORS = [desk_page, desk_api, floor_table_page, tablet_link, tablet_api, script]


def bust_through(door, client, world, django_capture_on_commit_callbacks):
    event, entry = world
    services.tablet_link_create(actor=None, tournament_id=event.pk, number=TABLE)
    audit_before = AuditEntry.objects.count()
    with CaptureQueriesContext(connection) as queries:
        with django_capture_on_commit_callbacks(execute=True):
            outcome = door(client, event, entry)
    status = getattr(outcome, "status_code", 200)
    assert status < 400, (door.__name__, status)
    entry.refresh_from_db()
    locks = [q["sql"] for q in queries.captured_queries if TOURNAMENT_LOCK.search(q["sql"])]
    actions = list(
        AuditEntry.objects.order_by("pk")[audit_before:].values_list("action", flat=True)
    )
    return entry, actions, locks


@pytest.mark.parametrize("door", DOORS, ids=[door.__name__ for door in DOORS])
def test_a_bust_through_every_door_is_the_same_bust(
    door, client, world, sent, django_capture_on_commit_callbacks
):
    entry, actions, locks = bust_through(door, client, world, django_capture_on_commit_callbacks)

    assert entry.status == EntryStatus.BUSTED
    assert actions == ["entry.bust"]
    assert sent == [live.ENTRY_UPDATED, live.SEATING_UPDATED]
    assert len(locks) == 1
    elimination = Elimination.objects.get(entry=entry)
    assert (elimination.table_number, elimination.seat) == (TABLE, SEAT)
    assert not Seat.objects.filter(entry=entry).exists()


def test_a_disqualification_takes_the_entry_out_by_the_same_steps(
    world, sent, django_capture_on_commit_callbacks
):
    """TDA 71-D: out of play, seat freed, clock told; no place of its own (no bust)."""
    event, entry = world
    with django_capture_on_commit_callbacks(execute=True):
        rulings_services.penalty_give(
            actor=staff("director"),
            tournament_id=event.pk,
            data={"entry": entry.pk, "kind": "disqualification"},
        )

    entry.refresh_from_db()
    assert entry.status == EntryStatus.DISQUALIFIED
    assert not Seat.objects.filter(entry=entry).exists()
    assert not Elimination.objects.filter(entry=entry).exists()
    assert sent[:2] == [live.ENTRY_UPDATED, live.SEATING_UPDATED]


def test_a_bust_in_a_hands_result_is_the_same_bust_with_the_hands_own_record(
    client, world, sent, django_capture_on_commit_callbacks
):
    """The tablet's "hand done" with a bust: the bust's entry, events and place, plus the
    hand's own audit entry and table event, under the same single lock."""
    event, entry = world
    hand = deal(event, TABLE)
    sent.clear()
    audit_before = AuditEntry.objects.count()

    with CaptureQueriesContext(connection) as queries:
        with django_capture_on_commit_callbacks(execute=True):
            finish(event, TABLE, hand, busts=[SEAT])

    entry.refresh_from_db()
    actions = list(
        AuditEntry.objects.order_by("pk")[audit_before:].values_list("action", flat=True)
    )
    locks = [q["sql"] for q in queries.captured_queries if TOURNAMENT_LOCK.search(q["sql"])]
    assert entry.status == EntryStatus.BUSTED
    assert actions == ["entry.bust", "hand.finish"]
    assert sent[:2] == [live.ENTRY_UPDATED, live.SEATING_UPDATED]
    assert len(locks) == 1
    assert Elimination.objects.get(entry=entry).hand_id == hand.pk

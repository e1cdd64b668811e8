"""The API of events made from other events: a copy (/tournaments/{id}/copy/) and the
event templates (/event-templates/), the director's alone."""

import pytest

from clock.models import Clock
from clock.tests.factories import with_structure
from prizes.models import EventTemplate
from prizes.services import events
from seating.tests.factories import add_tables
from tournaments.models import Tournament
from tournaments.tests.factories import api, field, staff, tournament

pytestmark = pytest.mark.django_db

API = "/api/v1"
NEW = {"name": "Saturday Deepstack II", "start_at": "2026-12-05T19:30:00+01:00"}


@pytest.fixture
def director():
    return api(staff("director"))


def test_copy_answers_201_with_the_new_planned_event(director):
    event = tournament(name="Saturday Deepstack", buy_in=5000)
    with_structure(event)
    field(event, 4)

    response = director.post(f"{API}/tournaments/{event.pk}/copy/", NEW, format="json")

    assert response.status_code == 201
    body = response.json()
    copy = Tournament.objects.get(pk=body["id"])
    assert body == {
        "id": copy.pk,
        "name": "Saturday Deepstack II",
        "status": "planned",
        "start_at": body["start_at"],
    }
    assert copy.start_at.isoformat() == "2026-12-05T18:30:00+00:00"
    assert (copy.buy_in, copy.entries.count()) == (5000, 0)
    assert Clock.objects.get(pk=copy.pk).structure_id != Clock.objects.get(pk=event.pk).structure_id


def test_copy_refused_for_tables_in_play_is_409_and_writes_nothing(director):
    event = tournament()
    add_tables(event, 2)
    count = Tournament.objects.count()

    refused = director.post(f"{API}/tournaments/{event.pk}/copy/", NEW, format="json")
    without = director.post(
        f"{API}/tournaments/{event.pk}/copy/", {**NEW, "tables": False}, format="json"
    )

    assert refused.status_code == 409
    assert refused.json()["code"] == "tables_in_use"
    assert without.status_code == 201
    assert Tournament.objects.count() == count + 1


@pytest.mark.parametrize(
    ("body", "field_name"),
    [
        ({"start_at": NEW["start_at"]}, "name"),
        ({**NEW, "name": "\u200b"}, "name"),
        ({**NEW, "name": "x" * 121}, "name"),
        ({**NEW, "start_at": "1850-01-01T19:00:00Z"}, "start_at"),
        ({**NEW, "tables": "perhaps"}, "tables"),
    ],
)
def test_copy_with_bad_input_is_400_with_the_field(director, body, field_name):
    event = tournament()
    count = Tournament.objects.count()

    response = director.post(f"{API}/tournaments/{event.pk}/copy/", body, format="json")

    assert response.status_code == 400
    assert field_name in response.json()
    assert Tournament.objects.count() == count


def test_templates_saved_listed_started_and_deleted(director):
    event = tournament(name="Sunday PLO", game="plo", buy_in=3000)

    saved = director.post(
        f"{API}/event-templates/", {"tournament": event.pk, "name": "Sunday PLO"}, format="json"
    )
    listed = director.get(f"{API}/event-templates/")
    template = saved.json()["id"]
    started = director.post(
        f"{API}/event-templates/{template}/start/", {**NEW, "name": "Sunday PLO 14"}, format="json"
    )
    deleted = director.delete(f"{API}/event-templates/{template}/")
    again = director.delete(f"{API}/event-templates/{template}/")

    assert saved.status_code == 201
    assert saved.json()["name"] == "Sunday PLO" and saved.json()["saved_from"] == "Sunday PLO"
    assert [t["name"] for t in listed.json()] == ["Sunday PLO"]
    assert started.status_code == 201
    made = Tournament.objects.get(pk=started.json()["id"])
    assert (made.name, made.game, made.buy_in) == ("Sunday PLO 14", "plo", 3000)
    assert deleted.status_code == 204 and again.status_code == 404
    assert not EventTemplate.objects.exists()


def test_template_of_no_event_or_without_a_name_is_refused(director):
    event = tournament()

    unknown = director.post(
        f"{API}/event-templates/", {"tournament": 999999, "name": "X"}, format="json"
    )
    nameless = director.post(
        f"{API}/event-templates/", {"tournament": event.pk, "name": " "}, format="json"
    )

    assert unknown.status_code == 404
    assert nameless.status_code == 400 and "name" in nameless.json()
    assert not EventTemplate.objects.exists()


@pytest.mark.parametrize("role", ["floor", "cashier", "dealer"])
def test_only_the_director_copies_and_keeps_templates(role):
    event = tournament()
    client = api(staff(role))

    answers = [
        client.post(f"{API}/tournaments/{event.pk}/copy/", NEW, format="json"),
        client.get(f"{API}/event-templates/"),
        client.post(f"{API}/event-templates/", {"tournament": event.pk, "name": "X"}),
    ]

    assert [a.status_code for a in answers] == [403, 403, 403]
    assert Tournament.objects.count() == 1


def test_template_list_queries_do_not_grow_with_templates(director, django_assert_max_num_queries):
    event = tournament()
    add_tables(event, 2)
    events.event_template_save(actor=None, tournament_id=event.pk, name="One")
    with django_assert_max_num_queries(5) as one:
        director.get(f"{API}/event-templates/")
    for name in ("Two", "Three", "Four"):
        events.event_template_save(actor=None, tournament_id=event.pk, name=name)

    with django_assert_max_num_queries(len(one.captured_queries)):
        response = director.get(f"{API}/event-templates/")

    assert len(response.json()) == 4

"""/api/v1/webhooks/ (issue 22): the same services as the pages, JSON only, the secret
in the answer that made or rotated it only; 400, 403, 404, 409 as the house answers
them; API keys by their scope; lists that cost the same queries for one row or many."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from floorman import keys
from floorman.models import AuditEntry
from tournaments.models import Venue
from tournaments.tests.factories import api, staff, tournament
from webhooks import services
from webhooks.models import Delivery, DeliveryStatus, Endpoint

pytestmark = pytest.mark.django_db

URL = "http://127.0.0.1:9/hooks"  # allowed in these tests (conftest)
LIST = "/api/v1/webhooks/"


@pytest.fixture
def director_user():
    return staff("director")


@pytest.fixture
def director(director_user):
    return api(director_user)


def created(client, **body):
    return client.post(LIST, {"url": URL, "event_types": ["entry.busted"], **body}, format="json")


def test_a_director_registers_reads_changes_and_removes_a_webhook(director):
    event = tournament()

    made = created(director, tournament=event.pk, description="Live reporting")
    assert made.status_code == 201
    body = made.json()
    assert body["secret"].startswith("whsec_") and body["tournament"] == event.pk
    one = f"{LIST}{body['id']}/"
    read = director.get(one).json()
    assert "secret" not in read and read["description"] == "Live reporting"
    assert body["secret"] not in str(director.get(LIST).json())

    changed = director.patch(one, {"active": False, "event_types": ["deal.made"]}, format="json")
    assert changed.status_code == 200
    assert (changed.json()["active"], changed.json()["event_types"]) == (False, ["deal.made"])

    rotated = director.post(one + "rotate-secret/")
    assert rotated.status_code == 200
    assert rotated.json()["secret"] != body["secret"]
    assert Endpoint.objects.get().secret == rotated.json()["secret"]

    assert director.delete(one).status_code == 204
    assert not Endpoint.objects.exists()
    actions = list(AuditEntry.objects.order_by("seq").values_list("action", flat=True))
    assert actions[-4:] == [
        "webhook.create",
        "webhook.update",
        "webhook.rotate_secret",
        "webhook.delete",
    ]


def test_the_list_filters_by_venue_or_event(director):
    venue = Venue.objects.create(name="Casino Example")
    event = tournament()
    at_venue = created(director, venue=venue.pk).json()["id"]
    at_event = created(director, tournament=event.pk).json()["id"]

    by_venue = director.get(LIST, {"venue": venue.pk}).json()["results"]
    by_event = director.get(LIST, {"tournament": event.pk}).json()["results"]

    assert [e["id"] for e in by_venue] == [at_venue]
    assert [e["id"] for e in by_event] == [at_event]
    assert director.get(LIST, {"venue": "abc"}).status_code == 400


def test_a_test_event_its_log_and_send_again(director, queued):
    endpoint = created(director, tournament=tournament().pk).json()["id"]

    tested = director.post(f"{LIST}{endpoint}/test/")
    assert tested.status_code == 202
    delivery = tested.json()
    log = director.get(f"{LIST}{endpoint}/deliveries/").json()
    assert [d["message_id"] for d in log["results"]] == [delivery["message_id"]]
    assert director.get(f"{LIST}{endpoint}/deliveries/", {"status": "dead"}).json()["count"] == 0

    resend = f"{LIST}{endpoint}/deliveries/{delivery['id']}/resend/"
    waiting = director.post(resend)
    assert waiting.status_code == 409 and waiting.json()["code"] == "in_flight"
    Delivery.objects.update(status=DeliveryStatus.DEAD)
    again = director.post(resend)
    assert again.status_code == 202
    assert again.json()["message_id"] == delivery["message_id"]  # duplicates carry its id


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "venue"),  # neither a venue nor an event
        ({"url": "ftp://example.org/"}, "url"),
        ({"url": "http://10.0.0.8/hooks"}, "url"),
        ({"event_types": ["nope"]}, "event_types"),
        ({"event_types": []}, "event_types"),
    ],
)
def test_bad_input_is_refused_with_the_fields_message_and_writes_nothing(
    director, body, field, webhook_settings
):
    webhook_settings.WEBHOOK_ALLOWED_HOSTS = []
    scope = {} if body == {} else {"tournament": tournament().pk}

    answer = director.post(
        LIST,
        {"url": "https://hooks.example.org/in", "event_types": ["entry.busted"], **scope, **body},
        format="json",
    )

    assert answer.status_code == 400
    assert field in answer.json()
    assert not Endpoint.objects.exists()


def test_both_a_venue_and_an_event_is_refused(director):
    venue = Venue.objects.create(name="Casino Example")

    answer = created(director, venue=venue.pk, tournament=tournament().pk)

    assert answer.status_code == 400 and not Endpoint.objects.exists()


def test_json_only(director):
    answer = director.post(LIST, {"url": URL}, format="multipart")

    assert answer.status_code == 415


def test_unknown_things_are_not_found(director):
    assert created(director, tournament=999999).status_code == 404
    assert director.get(f"{LIST}999999/").status_code == 404
    assert director.patch(f"{LIST}999999/", {"active": True}, format="json").status_code == 404
    assert director.post(f"{LIST}999999/test/").status_code == 404
    endpoint = created(director, tournament=tournament().pk).json()["id"]
    assert director.post(f"{LIST}{endpoint}/deliveries/999999/resend/").status_code == 404


def test_only_directors_and_director_keys_manage_webhooks(director_user):
    event = tournament()
    floor = api(staff("floor"))
    assert created(floor, tournament=event.pk).status_code == 403
    assert floor.get(LIST).status_code == 403
    assert created(api(), tournament=event.pk).status_code in (401, 403)

    reading = keys.api_key_create(actor=director_user, name="Reporting", scope="read").secret
    managing = keys.api_key_create(actor=director_user, name="Ops", scope="director").secret
    by_key = api()
    by_key.credentials(HTTP_AUTHORIZATION=f"Api-Key {reading}")
    assert by_key.get(LIST).status_code == 200
    assert created(by_key, tournament=event.pk).status_code == 403
    by_key.credentials(HTTP_AUTHORIZATION=f"Api-Key {managing}")
    assert created(by_key, tournament=event.pk).status_code == 201
    assert AuditEntry.objects.filter(action="webhook.create").count() == 1


def test_the_lists_cost_the_same_queries_for_one_row_or_many(
    director, django_assert_max_num_queries, queued
):
    event = tournament()
    endpoint = created(director, tournament=event.pk).json()["id"]
    director.post(f"{LIST}{endpoint}/test/")
    log = f"{LIST}{endpoint}/deliveries/"
    with CaptureQueriesContext(connection) as one_each:
        director.get(LIST)
        director.get(log)
    most = len(one_each.captured_queries)  # read now: each request empties Django's log
    for n in range(4):
        created(director, tournament=event.pk, url=f"{URL}/{n}")
        director.post(f"{LIST}{endpoint}/test/")

    with django_assert_max_num_queries(most):
        many = director.get(LIST)
        deliveries = director.get(log)
    assert (many.json()["count"], deliveries.json()["count"]) == (5, 5)


def test_the_page_and_the_api_show_the_floors_delivery(
    director, queued, django_capture_on_commit_callbacks
):
    from tournaments.tests.factories import register

    event = tournament()
    endpoint = created(director, tournament=event.pk, event_types=["entry.registered"]).json()
    with django_capture_on_commit_callbacks(execute=True):
        register(event, "Ann Example")

    (row,) = director.get(f"{LIST}{endpoint['id']}/deliveries/").json()["results"]
    assert (row["event_type"], row["status"]) == ("entry.registered", "pending")
    page = reverse("webhooks:endpoint", args=[endpoint["id"]])
    from tournaments.tests.factories import signed_in

    shown = signed_in(staff("director")).get(page).content.decode()
    assert row["message_id"] in shown


def test_services_refuse_a_missing_venue():
    with pytest.raises(services.NotFound):
        services.endpoint_create(actor=None, venue_id=999999, url=URL, event_types=["deal.made"])

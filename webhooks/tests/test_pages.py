"""The director's webhook pages (issue 22, items 1 and 3): a venue's and an event's
endpoints, the secret shown once, edit, remove, a new secret, a test event, the delivery
log with "send again"; in English and German; the same number of queries however many
rows."""

import pytest
from django.urls import reverse

from floorman.models import AuditEntry
from tournaments.models import Venue
from tournaments.tests.factories import signed_in, staff, tournament
from webhooks import services
from webhooks.models import Delivery, DeliveryStatus, Endpoint

pytestmark = pytest.mark.django_db

URL = "http://127.0.0.1:9/hooks"  # allowed in these tests (conftest)


@pytest.fixture
def director():
    return signed_in(staff("director"))


def made(event, url=URL, types=("entry.busted",)):
    return services.endpoint_create(
        actor=None, tournament_id=event.pk, url=url, event_types=list(types)
    )


def test_a_director_adds_an_events_webhook_and_sees_the_secret_once(director):
    event = tournament()

    answer = director.post(
        reverse("webhooks:tournament", args=[event.pk]),
        {"url": URL, "event_types": ["entry.busted", "results.final"], "active": "on"},
    )

    endpoint = Endpoint.objects.get()
    assert answer.status_code == 302  # a reload of the next page adds no second webhook
    shown = director.get(answer.url)
    assert shown.status_code == 200 and endpoint.secret in shown.content.decode()
    assert "no-store" in shown["Cache-Control"]
    assert endpoint.event_types == ["entry.busted", "results.final"]
    later = director.get(reverse("webhooks:endpoint", args=[endpoint.pk]))
    assert later.status_code == 200 and endpoint.secret not in later.content.decode()
    listed = director.get(reverse("webhooks:tournament", args=[event.pk])).content.decode()
    assert URL in listed and endpoint.secret not in listed
    assert AuditEntry.objects.filter(action="webhook.create").count() == 1
    assert endpoint.secret not in str(AuditEntry.objects.get(action="webhook.create").after)


def test_a_private_address_is_refused_with_the_fields_message_and_nothing_written(
    director, webhook_settings
):
    event = tournament()
    webhook_settings.WEBHOOK_ALLOWED_HOSTS = []

    answer = director.post(
        reverse("webhooks:tournament", args=[event.pk]),
        {"url": "http://169.254.169.254/latest/", "event_types": ["entry.busted"]},
    )

    assert answer.status_code == 400
    assert "loopback, private or link-local" in answer.content.decode()
    assert not Endpoint.objects.exists()
    assert not AuditEntry.objects.filter(action__startswith="webhook.").exists()


def test_a_form_without_types_is_refused(director):
    event = tournament()

    answer = director.post(reverse("webhooks:tournament", args=[event.pk]), {"url": URL})

    assert answer.status_code == 400
    assert not Endpoint.objects.exists()


def test_a_venues_page_adds_a_webhook_for_the_venue(director):
    venue = Venue.objects.create(name="Casino Example")

    page = director.get(reverse("webhooks:venue", args=[venue.pk]))
    answer = director.post(
        reverse("webhooks:venue", args=[venue.pk]), {"url": URL, "event_types": ["deal.made"]}
    )

    assert page.status_code == 200 and "Casino Example" in page.content.decode()
    assert answer.status_code == 302
    assert Endpoint.objects.get().venue == venue


def test_edit_new_secret_test_event_and_remove(director, queued):
    event = tournament()
    first = made(event)
    endpoint = first.endpoint
    page = reverse("webhooks:endpoint", args=[endpoint.pk])

    saved = director.post(page, {"url": URL + "/v2", "event_types": ["clock.paused"]})
    rotated = director.post(reverse("webhooks:rotate", args=[endpoint.pk]), follow=True)
    tested = director.post(reverse("webhooks:test", args=[endpoint.pk]))

    assert saved.status_code == 302
    endpoint.refresh_from_db()
    assert (endpoint.url, endpoint.event_types, endpoint.active) == (
        URL + "/v2",
        ["clock.paused"],
        False,  # the box left unticked
    )
    assert endpoint.secret != first.secret and endpoint.secret in rotated.content.decode()
    assert tested.status_code == 302
    assert Delivery.objects.get().event_type == "webhook.test"

    removed = director.post(reverse("webhooks:delete", args=[endpoint.pk]))
    assert removed.status_code == 302 and not Endpoint.objects.exists()
    assert not Delivery.objects.exists()


def test_send_again_is_refused_while_the_delivery_still_waits(director, queued):
    endpoint = made(tournament()).endpoint
    waiting = services.endpoint_test_send(actor=None, endpoint_id=endpoint.pk)

    answer = director.post(reverse("webhooks:resend", args=[endpoint.pk, waiting.pk]), follow=True)

    assert "still being sent or waits" in answer.content.decode()
    Delivery.objects.filter(pk=waiting.pk).update(status=DeliveryStatus.DEAD)
    director.post(reverse("webhooks:resend", args=[endpoint.pk, waiting.pk]))
    assert Delivery.objects.get().status == DeliveryStatus.PENDING


def test_a_switched_off_endpoint_says_why_on_its_pages(director):
    event = tournament()
    endpoint = made(event).endpoint
    Endpoint.objects.filter(pk=endpoint.pk).update(
        active=False, disabled_at=event.start_at, disabled_reason="…", dead_in_row=5
    )

    listed = director.get(reverse("webhooks:tournament", args=[event.pk])).content.decode()
    shown = director.get(reverse("webhooks:endpoint", args=[endpoint.pk])).content.decode()

    assert "Switched off after failures" in listed
    for page in (listed, shown):
        assert "5 deliveries in a row failed every try" in page


def test_staff_other_than_directors_may_not_and_visitors_sign_in(client):
    event = tournament()
    endpoint = made(event).endpoint
    floor = signed_in(staff("floor"))
    pages = [
        reverse("webhooks:tournament", args=[event.pk]),
        reverse("webhooks:endpoint", args=[endpoint.pk]),
    ]

    for page in pages:
        assert floor.get(page).status_code == 403
        assert client.get(page).status_code == 302
    assert floor.post(reverse("webhooks:delete", args=[endpoint.pk])).status_code == 403
    assert Endpoint.objects.exists()


def test_an_unknown_event_or_endpoint_is_not_found(director):
    assert director.get(reverse("webhooks:tournament", args=[999999])).status_code == 404
    assert director.get(reverse("webhooks:endpoint", args=[999999])).status_code == 404
    assert director.post(reverse("webhooks:rotate", args=[999999])).status_code == 404


def test_the_pages_speak_german(director):
    event = tournament()
    endpoint = made(event).endpoint
    services.endpoint_test_send(actor=None, endpoint_id=endpoint.pk)

    for page in (
        reverse("webhooks:tournament", args=[event.pk]),
        reverse("webhooks:endpoint", args=[endpoint.pk]),
    ):
        answer = director.get(page, HTTP_ACCEPT_LANGUAGE="de")
        text = answer.content.decode()
        assert answer.status_code == 200
        assert '<html lang="de"' in text
        assert "Änderungsprotokoll" in text  # the event's menu, in German


def test_the_endpoint_list_costs_the_same_queries_for_one_or_many(
    director, django_assert_max_num_queries
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    event = tournament()
    made(event)
    page = reverse("webhooks:tournament", args=[event.pk])
    director.get(page)
    with CaptureQueriesContext(connection) as one:
        director.get(page)
    for n in range(4):
        made(event, url=f"{URL}/{n}")
    with django_assert_max_num_queries(len(one.captured_queries)):
        answer = director.get(page)
    assert answer.content.decode().count('id="webhook-') == 5


def test_the_delivery_log_is_paged_and_costs_the_same_queries_for_one_or_many(
    director, django_assert_max_num_queries, queued
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    endpoint = made(tournament()).endpoint
    services.endpoint_test_send(actor=None, endpoint_id=endpoint.pk)
    page = reverse("webhooks:endpoint", args=[endpoint.pk])
    director.get(page)
    with CaptureQueriesContext(connection) as one:
        director.get(page)
    for _ in range(55):
        services.endpoint_test_send(actor=None, endpoint_id=endpoint.pk)
    with django_assert_max_num_queries(len(one.captured_queries)):
        first = director.get(page)
    second = director.get(page + "?page=2")

    assert first.content.decode().count('id="delivery-') == 50
    assert second.content.decode().count('id="delivery-') == 6

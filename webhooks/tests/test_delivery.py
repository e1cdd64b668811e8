"""Delivery against a real HTTP server started by the test (issue 22, items 2 and 4):
signed as Standard Webhooks, verified with the library a receiver uses; retried after a
500 and after a timeout with the same message id; given up after the last try; the
endpoint switched off after repeated failure; nothing sent to a private address the
house did not allow; no redirect followed; only an excerpt of the answer kept."""

import pytest
from standardwebhooks import Webhook

from floorman.errors import Invalid
from floorman.models import AuditEntry
from tournaments.models import Venue
from tournaments.tests.factories import register, staff, tournament
from webhooks import services, transport
from webhooks.models import Delivery, Endpoint

pytestmark = pytest.mark.django_db


def endpoint_for(url: str, *, actor=None, types=("entry.busted",)):
    made = services.endpoint_create(
        actor=actor, tournament_id=tournament().pk, url=url, event_types=list(types)
    )
    return made.endpoint, made.secret


def sent_test_event(endpoint, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        return services.endpoint_test_send(actor=None, endpoint_id=endpoint.pk)


def test_a_test_event_arrives_signed_as_the_receivers_library_verifies(
    receiver, queued, django_capture_on_commit_callbacks
):
    endpoint, secret = endpoint_for(receiver.url)

    delivery = sent_test_event(endpoint, django_capture_on_commit_callbacks)
    assert queued.run() == ["delivered"]

    (got,) = receiver.received
    payload = Webhook(secret).verify(got.body, got.headers)
    assert payload["type"] == "webhook.test"
    assert payload["data"]["tournament"]["name"] == "Sunday Main Event"
    assert got.headers["webhook-id"] == delivery.message_id
    assert delivery.message_id.startswith("msg_")
    assert secret.startswith("whsec_")
    with pytest.raises(Exception, match="signature"):
        Webhook(services.signing.secret_new()).verify(got.body, got.headers)
    delivery.refresh_from_db()
    assert (delivery.status, delivery.response_code, delivery.attempts) == ("delivered", 200, 1)


def test_a_500_is_tried_again_with_the_same_message_id_and_then_delivered(
    receiver, queued, django_capture_on_commit_callbacks
):
    endpoint, secret = endpoint_for(receiver.url)
    receiver.answer(("status", 500, b"oops"))

    sent_test_event(endpoint, django_capture_on_commit_callbacks)
    assert queued.run() == ["failed", "delivered"]

    first, second = receiver.received
    assert first.headers["webhook-id"] == second.headers["webhook-id"]
    assert first.body == second.body
    Webhook(secret).verify(second.body, second.headers)
    delivery = Delivery.objects.get()
    assert (delivery.status, delivery.attempts, delivery.response_code) == ("delivered", 2, 200)


def test_a_receiver_that_does_not_answer_in_time_is_tried_again(
    receiver, queued, django_capture_on_commit_callbacks
):
    endpoint, _secret = endpoint_for(receiver.url)
    receiver.answer(("hang",))

    sent_test_event(endpoint, django_capture_on_commit_callbacks)
    outcomes = queued.run(limit=1)
    delivery = Delivery.objects.get()
    assert outcomes == ["failed"]
    assert (delivery.error, delivery.response_code) == ("timed out", None)
    assert queued.run() == ["delivered"]
    assert len({r.headers["webhook-id"] for r in receiver.received}) == 1


def test_a_whole_try_is_cut_off_however_patiently_the_receiver_keeps_it_open(
    receiver, queued, webhook_settings, django_capture_on_commit_callbacks
):
    """Each read may wait WEBHOOK_READ_TIMEOUT; a receiver that keeps sending a byte now
    and then would never meet it. The whole try ends after WEBHOOK_TOTAL_TIMEOUT."""
    webhook_settings.WEBHOOK_READ_TIMEOUT = 60.0
    webhook_settings.WEBHOOK_TOTAL_TIMEOUT = 0.3
    endpoint, _secret = endpoint_for(receiver.url)
    receiver.answer(("hang",))

    sent_test_event(endpoint, django_capture_on_commit_callbacks)
    outcomes = queued.run(limit=1)

    delivery = Delivery.objects.get()
    assert outcomes == ["failed"] and delivery.error == "timed out"
    assert delivery.duration_ms < 60_000
    assert not receiver.release.is_set()  # it was still holding the request


def test_after_the_last_try_the_delivery_is_a_dead_letter_and_may_be_sent_again(
    receiver, queued, django_capture_on_commit_callbacks
):
    endpoint, _secret = endpoint_for(receiver.url)
    receiver.answer(*[("status", 503, b"down")] * 4)

    delivery = sent_test_event(endpoint, django_capture_on_commit_callbacks)
    assert queued.run() == ["failed", "failed", "failed", "dead"]  # 1 + 3 retries
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.next_attempt_at) == ("dead", 4, None)

    with django_capture_on_commit_callbacks(execute=True):
        services.delivery_resend(actor=None, endpoint_id=endpoint.pk, delivery_id=delivery.pk)
    assert queued.run() == ["delivered"]
    assert len(receiver.received) == 5
    assert {r.headers["webhook-id"] for r in receiver.received} == {delivery.message_id}
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("delivered", 5)


def test_an_endpoint_whose_deliveries_keep_dying_is_switched_off_and_the_log_says_so(
    receiver, queued, webhook_settings, django_capture_on_commit_callbacks
):
    webhook_settings.WEBHOOK_RETRY_SCHEDULE = ()  # one try each
    endpoint, _secret = endpoint_for(receiver.url, types=["entry.registered"])
    receiver.answer(*[("status", 500, b"no")] * 3)
    for name in ("Ann Example", "Bob Example"):  # WEBHOOK_DISABLE_AFTER = 2
        with django_capture_on_commit_callbacks(execute=True):
            register(endpoint.tournament, name)
        assert queued.run() == ["dead"]

    endpoint.refresh_from_db()
    assert not endpoint.active
    assert "2 deliveries in a row" in endpoint.disabled_reason
    assert AuditEntry.objects.filter(action="webhook.disable", object_id=str(endpoint.pk)).exists()

    services.endpoint_update(actor=None, endpoint_id=endpoint.pk, active=True)
    endpoint.refresh_from_db()
    assert (endpoint.active, endpoint.disabled_reason, endpoint.dead_in_row) == (True, "", 0)


def test_a_test_event_that_dies_does_not_count_against_the_endpoint(
    receiver, queued, webhook_settings, django_capture_on_commit_callbacks
):
    webhook_settings.WEBHOOK_RETRY_SCHEDULE = ()
    endpoint, _secret = endpoint_for(receiver.url)
    receiver.answer(*[("status", 500, b"no")] * 3)
    for _ in range(3):
        sent_test_event(endpoint, django_capture_on_commit_callbacks)
        assert queued.run() == ["dead"]

    endpoint.refresh_from_db()
    assert (endpoint.active, endpoint.dead_in_row) == (True, 0)


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:9/hooks",
        "http://10.1.2.3/hooks",
        "http://169.254.169.254/latest/meta-data/",
        "http://[::1]/hooks",
        "http://[::ffff:127.0.0.1]/hooks",
        "http://localhost/hooks",
    ],
)
def test_a_private_address_is_refused_at_registration(url, webhook_settings):
    webhook_settings.WEBHOOK_ALLOWED_HOSTS = []

    with pytest.raises(Invalid) as refused:
        endpoint_for(url)

    assert "url" in refused.value.fields
    assert not Endpoint.objects.exists()


def test_nothing_reaches_a_private_address_the_house_stopped_allowing(
    receiver, queued, webhook_settings, django_capture_on_commit_callbacks
):
    endpoint, _secret = endpoint_for(receiver.url)
    webhook_settings.WEBHOOK_ALLOWED_HOSTS = []

    sent_test_event(endpoint, django_capture_on_commit_callbacks)
    queued.run(limit=1)

    assert receiver.received == []
    delivery = Delivery.objects.get()
    assert (delivery.status, delivery.error) == ("failed", "refused: not a public address")


def test_a_name_that_resolves_to_a_private_address_at_delivery_is_refused(
    receiver, queued, monkeypatch, django_capture_on_commit_callbacks
):
    """DNS rebinding: public at registration, 127.0.0.1 when the delivery connects."""
    port = receiver.server.server_address[1]
    monkeypatch.setattr(transport, "_addresses", lambda host, port: ["93.184.215.14"])
    endpoint, _secret = endpoint_for(f"http://hooks.example.org:{port}/hooks")
    monkeypatch.setattr(transport, "_addresses", lambda host, port: ["127.0.0.1"])

    sent_test_event(endpoint, django_capture_on_commit_callbacks)
    queued.run(limit=1)

    assert receiver.received == []
    assert Delivery.objects.get().error == "refused: not a public address"


def test_a_redirect_is_not_followed(receiver, queued, django_capture_on_commit_callbacks):
    endpoint, _secret = endpoint_for(receiver.url)
    receiver.answer(("redirect", 302, "http://127.0.0.1:9/elsewhere"))

    sent_test_event(endpoint, django_capture_on_commit_callbacks)
    queued.run(limit=1)

    assert [r.path for r in receiver.received] == ["/hooks"]
    delivery = Delivery.objects.get()
    assert (delivery.status, delivery.response_code) == ("failed", 302)
    assert delivery.error == "redirect not followed"


def test_only_a_short_excerpt_of_the_answer_is_kept(
    receiver, queued, django_capture_on_commit_callbacks
):
    endpoint, _secret = endpoint_for(receiver.url)
    receiver.answer(("status", 500, b"x" * 20_000))

    sent_test_event(endpoint, django_capture_on_commit_callbacks)
    queued.run(limit=1)

    assert Delivery.objects.get().response_excerpt == "x" * 500


def test_a_venues_endpoint_is_made_for_the_venue(receiver):
    venue = Venue.objects.create(name="Casino Example")

    made = services.endpoint_create(
        actor=staff("director"), venue_id=venue.pk, url=receiver.url, event_types=["deal.made"]
    )

    assert made.endpoint.venue == venue and made.endpoint.tournament is None


def test_a_copy_of_a_try_that_comes_before_its_time_does_nothing(
    receiver, queued, webhook_settings, django_capture_on_commit_callbacks
):
    """A worker that starts hands every waiting delivery over again
    (deliveries_resend_due); the copy of a retry due in an hour must not send it now."""
    webhook_settings.WEBHOOK_RETRY_SCHEDULE = (3600,)
    endpoint, _secret = endpoint_for(receiver.url)
    receiver.answer(("status", 500, b"later"))
    delivery = sent_test_event(endpoint, django_capture_on_commit_callbacks)
    assert queued.run(limit=1) == ["failed"]
    (retry,) = queued
    assert retry[0] == delivery.pk and 3600 <= retry[1] <= 3960

    assert services.deliveries_resend_due() == 1
    assert services.delivery_attempt(delivery_id=delivery.pk) == ""
    assert len(receiver.received) == 1

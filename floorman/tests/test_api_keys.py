"""API keys for other tools (floorman.keys, floorman.authentication): made by a director,
shown once and stored as a digest; `Authorization: Api-Key <key>` acts by the key's scope,
never more than its maker may do now, and never opens a page or the admin."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from clock.tests.factories import with_structure
from floorman import keys
from floorman.models import ApiKey, AuditEntry
from tournaments.tests.factories import api, signed_in, staff, tournament

pytestmark = pytest.mark.django_db

API = "/api/v1"


class Clock:
    """timezone.now, held still and moved on by hand."""

    def __init__(self):
        self.at = timezone.now()

    def __call__(self):
        return self.at

    def advance(self, **delta) -> None:
        self.at += timedelta(**delta)


@pytest.fixture
def clock(monkeypatch) -> Clock:
    frozen = Clock()
    monkeypatch.setattr(timezone, "now", frozen)
    return frozen


@pytest.fixture
def director():
    return staff("director", username="td")


def key_made(director, scope: str = "read", **kwargs) -> keys.NewApiKey:
    return keys.api_key_create(actor=director, name=f"{scope} tool", scope=scope, **kwargs)


def with_key(secret: str) -> APIClient:
    return APIClient(HTTP_X_FORWARDED_PROTO="https", HTTP_AUTHORIZATION=f"Api-Key {secret}")


# --- Made, stored, shown once ---------------------------------------------------------


def test_only_the_digest_of_the_secret_is_stored(director):
    made = key_made(director)

    prefix, secret = made.secret.split(".")
    row = ApiKey.objects.filter(pk=made.key.pk).values().get()
    assert row["prefix"] == prefix and len(prefix) == 12
    assert row["digest"] == ApiKey.digest_of(secret)
    assert not any(secret in str(value) for value in row.values())
    assert made.key.user.username == f"api-key-{prefix}"
    assert not made.key.user.is_active and not made.key.user.has_usable_password()


def test_making_and_revoking_is_audited_without_the_secret(director):
    made = key_made(director, scope="floor")
    keys.api_key_revoke(actor=director, key_id=made.key.pk)

    created, revoked = AuditEntry.objects.filter(action__startswith="api_key.").order_by("pk")
    assert (created.action, created.actor, created.after["scope"]) == (
        "api_key.create",
        director,
        "floor",
    )
    assert (revoked.action, revoked.actor) == ("api_key.revoke", director)
    secret = made.secret.split(".")[1]
    assert secret not in str(created.after) and secret not in created.object_repr


def test_each_key_has_its_own_secret(director):
    one, two = key_made(director), key_made(director)

    assert one.secret != two.secret and one.key.prefix != two.key.prefix


# --- Authentication -------------------------------------------------------------------


def test_a_valid_key_reads_staff_data_as_its_own_account(director):
    made = key_made(director, scope="read")

    response = with_key(made.secret).get(f"{API}/players/")

    assert response.status_code == 200


@pytest.mark.parametrize(
    "header",
    [
        "Api-Key {prefix}.wrong-secret",
        "Api-Key 000000000000.{secret}",
        "Api-Key {prefix}",
        "Api-Key",
        "Api-Key {prefix}.{secret} extra",
        "Api-Key {prefix}\x00.{secret}",
    ],
    ids=["wrong secret", "unknown id", "no secret", "no key", "two words", "NUL byte"],
)
def test_a_wrong_key_is_401(director, header):
    made = key_made(director)
    prefix, secret = made.secret.split(".")
    client = APIClient(
        HTTP_X_FORWARDED_PROTO="https",
        HTTP_AUTHORIZATION=header.format(prefix=prefix, secret=secret),
    )

    response = client.get(f"{API}/players/")

    assert response.status_code == 401
    assert ApiKey.objects.get(pk=made.key.pk).last_used_at is None


def test_an_expired_key_is_401(director, clock):
    made = key_made(director, expires_at=clock.at + timedelta(days=1))
    assert with_key(made.secret).get(f"{API}/players/").status_code == 200

    clock.advance(days=1)
    response = with_key(made.secret).get(f"{API}/players/")

    assert response.status_code == 401
    assert response.json() == {"detail": "This API key has expired."}


def test_a_revoked_key_is_401_from_its_next_request(director):
    made = key_made(director)
    assert with_key(made.secret).get(f"{API}/players/").status_code == 200

    keys.api_key_revoke(actor=director, key_id=made.key.pk)
    response = with_key(made.secret).get(f"{API}/players/")

    assert response.status_code == 401
    assert response.json() == {"detail": "This API key has been revoked."}


def test_last_use_is_written_at_most_once_a_minute(director, clock):
    made = key_made(director)
    client = with_key(made.secret)

    def last_used():
        return ApiKey.objects.get(pk=made.key.pk).last_used_at

    first = clock.at
    client.get(f"{API}/tournaments/")
    assert last_used() == first
    clock.advance(seconds=59)
    client.get(f"{API}/tournaments/")
    assert last_used() == first
    clock.advance(seconds=1)
    client.get(f"{API}/tournaments/")
    assert last_used() == clock.at


def test_a_request_the_scope_refuses_notes_no_use(director, clock):
    """A read-only key sent to a floor action is refused (403) and writes nothing; the
    next request it may make notes the use."""
    made = key_made(director, scope="read")
    event = tournament(status="running")
    with_structure(event)
    client = with_key(made.secret)

    def last_used():
        return ApiKey.objects.get(pk=made.key.pk).last_used_at

    assert ask(client, floor_action(event)).status_code == 403
    assert last_used() is None
    assert ask(client, staff_read(event)).status_code == 200
    assert last_used() == clock.at
    used = clock.at
    clock.advance(minutes=5)

    assert ask(client, floor_action(event)).status_code == 403
    assert last_used() == used
    assert ask(client, staff_read(event)).status_code == 200
    assert last_used() == clock.at


# --- Scopes: each refused one step above it ---------------------------------------------


@pytest.fixture
def event():
    event = tournament(status="running")
    with_structure(event)
    return event


def public_read(event):
    return f"{API}/tournaments/{event.pk}/", None


def staff_read(event):
    return f"{API}/players/", None


def floor_action(event):
    return f"{API}/tournaments/{event.pk}/clock/", {"action": "start"}


def director_action(event):
    return f"{API}/tournaments/{event.pk}/announcements/", {"text": "Dinner after level 4"}


def ask(client, request):
    url, data = request
    return client.get(url) if data is None else client.post(url, data, format="json")


STEPS = [public_read, staff_read, floor_action, director_action]
SCOPES = ["public", "read", "floor", "director"]


@pytest.mark.parametrize("scope", SCOPES)
def test_each_scope_may_do_its_step_and_those_below_and_no_more(director, event, scope):
    client = with_key(key_made(director, scope=scope).secret)
    allowed = SCOPES.index(scope)

    answers = [ask(client, step(event)).status_code for step in STEPS]

    expected = [200, 200, 200, 201][: allowed + 1] + [403] * (len(STEPS) - allowed - 1)
    assert answers == expected


def test_read_scope_reads_what_only_directors_read_but_writes_nothing(director, event):
    client = with_key(key_made(director, scope="read").secret)

    assert client.get(f"{API}/tournaments/{event.pk}/audit/").status_code == 200
    assert client.get(f"{API}/structures/").status_code == 200
    refused = client.post(f"{API}/players/", {"name": "Ben Carter"}, format="json")
    assert refused.status_code == 403


def test_floor_scope_is_no_cashier(director, event):
    client = with_key(key_made(director, scope="floor").secret)

    response = client.post(
        f"{API}/tournaments/{event.pk}/entries/", {"player": {"name": "Ben"}}, format="json"
    )

    assert response.status_code == 403


def test_what_a_key_does_is_recorded_as_the_key(director, event):
    made = key_made(director, scope="floor")

    with_key(made.secret).post(*floor_action(event), format="json")

    entry = AuditEntry.objects.filter(action__startswith="clock.").latest("pk")
    assert entry.actor == made.key.user


def test_a_key_never_does_more_than_its_maker_may_now(director, event):
    made = key_made(director, scope="director")
    client = with_key(made.secret)
    assert ask(client, director_action(event)).status_code == 201

    director.groups.remove(Group.objects.get(name="director"))
    director.groups.add(Group.objects.get(name="floor"))

    assert ask(client, director_action(event)).status_code == 403
    assert ask(client, floor_action(event)).status_code == 200
    director.is_active = False
    director.save(update_fields=["is_active"])
    assert ask(client, staff_read(event)).status_code == 403
    assert ask(client, public_read(event)).status_code == 200


def test_a_key_never_manages_keys(director):
    client = with_key(key_made(director, scope="director").secret)

    assert client.get(f"{API}/keys/").status_code == 403
    made = client.post(f"{API}/keys/", {"name": "Another", "scope": "director"}, format="json")
    assert made.status_code == 403
    assert ApiKey.objects.count() == 1


@pytest.mark.parametrize(
    "path",
    ["/admin/", "/keys/", "/staff/", "/tournaments/new/", "/rules/calculators/"],
)
def test_a_key_never_opens_a_page_or_the_admin(director, path):
    made = key_made(director, scope="director")
    browser = Client(HTTP_X_FORWARDED_PROTO="https", HTTP_AUTHORIZATION=f"Api-Key {made.secret}")

    response = browser.get(path)

    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/" if path == "/admin/" else "/login/")


def test_a_key_account_cannot_sign_in(director):
    made = key_made(director, scope="director")

    assert not Client().login(username=made.key.user.username, password="")


# --- The API: list, make, revoke ---------------------------------------------------------


def test_api_directors_make_a_key_and_see_it_once(director, clock):
    expires = clock.at + timedelta(days=30)

    response = api(director).post(
        f"{API}/keys/",
        {"name": "  Results site ", "scope": "read", "expires_at": expires.isoformat()},
        format="json",
    )

    assert response.status_code == 201
    assert response["Cache-Control"] == "no-store"
    body = response.json()
    key = ApiKey.objects.get()
    assert body["key"].startswith(key.prefix + ".")
    assert (body["name"], body["scope"], body["created_by"]) == ("Results site", "read", "td")
    assert key.expires_at == expires
    listed = api(director).get(f"{API}/keys/").json()
    assert listed["count"] == 1 and "key" not in listed["results"][0]
    assert body["key"] not in api(director).get(f"{API}/keys/").content.decode()


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"scope": "read"}, "name"),
        ({"name": " \x00 ", "scope": "read"}, "name"),
        ({"name": "Tool", "scope": "root"}, "scope"),
        ({"name": "Tool", "scope": "read", "expires_at": "2000-01-01T00:00:00Z"}, "expires_at"),
        ({"name": "Tool", "scope": "read", "expires_at": "soon"}, "expires_at"),
    ],
    ids=["no name", "blank name", "unknown scope", "past expiry", "not a time"],
)
def test_api_bad_key_is_400_with_field_messages_and_writes_nothing(director, data, field):
    response = api(director).post(f"{API}/keys/", data, format="json")

    assert response.status_code == 400
    assert field in response.json()
    assert ApiKey.objects.count() == 0 and AuditEntry.objects.count() == 0


@pytest.mark.parametrize("role", ["floor", "cashier", "dealer"])
def test_api_only_directors_manage_keys(director, role):
    made = key_made(director)
    client = api(staff(role))

    assert client.get(f"{API}/keys/").status_code == 403
    assert client.post(f"{API}/keys/", {"name": "T", "scope": "read"}).status_code == 403
    assert client.post(f"{API}/keys/{made.key.pk}/revoke/").status_code == 403
    assert ApiKey.objects.count() == 1 and ApiKey.objects.get().revoked_at is None


def test_api_visitors_are_401():
    assert APIClient(HTTP_X_FORWARDED_PROTO="https").get(f"{API}/keys/").status_code == 401


def test_api_revoke_then_again_is_409_and_unknown_is_404(director):
    made = key_made(director)
    client = api(director)

    revoked = client.post(f"{API}/keys/{made.key.pk}/revoke/")
    again = client.post(f"{API}/keys/{made.key.pk}/revoke/")
    unknown = client.post(f"{API}/keys/999999/revoke/")

    assert revoked.status_code == 200 and revoked.json()["revoked_by"] == "td"
    assert again.status_code == 409 and again.json()["code"] == "revoked"
    assert unknown.status_code == 404
    assert AuditEntry.objects.filter(action="api_key.revoke").count() == 1


def test_api_key_list_query_count_does_not_grow(director, django_assert_num_queries):
    key_made(director)
    client = api(User.objects.get(pk=director.pk))
    with django_assert_num_queries(3) as one:  # the director's roles, the count, the page
        assert client.get(f"{API}/keys/").status_code == 200
    key_made(director, scope="floor")
    keys.api_key_revoke(actor=staff("director"), key_id=key_made(director).key.pk)
    client = api(User.objects.get(pk=director.pk))

    with django_assert_num_queries(len(one.captured_queries)):
        assert client.get(f"{API}/keys/").json()["count"] == 3


def test_api_schema_documents_the_keys():
    from floorman.tests.openapi import api_schema, documented_responses

    schema = api_schema()

    assert set(documented_responses("/api/v1/keys/", "post")) == {"201"}
    assert set(documented_responses("/api/v1/keys/{key_id}/revoke/", "post")) == {"200"}
    assert schema["components"]["securitySchemes"]["apiKeyAuth"]["name"] == "Authorization"
    assert "key" in schema["components"]["schemas"]["NewApiKey"]["properties"]


# --- The pages ------------------------------------------------------------------------------


def test_page_lists_the_keys_with_their_use(director, clock):
    made = key_made(director, scope="floor", expires_at=clock.at + timedelta(days=2))
    with_key(made.secret).get(f"{API}/tournaments/")
    keys.api_key_revoke(actor=director, key_id=key_made(director, scope="public").key.pk)

    page = signed_in(director).get(reverse("keys")).content.decode()

    assert "floor tool" in page and "Floor actions" in page and made.key.prefix in page
    assert "public tool" in page and "Public data, read only" in page
    assert page.count(">Revoke<") == 1  # the revoked key has no button
    assert made.secret.split(".")[1] not in page


def test_page_makes_a_key_and_shows_it_this_once(director):
    browser = signed_in(director)

    response = browser.post(reverse("key-create"), {"name": "Bar screen", "scope": "public"})

    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    key = ApiKey.objects.get()
    page = response.content.decode()
    secret = page.split('<code class="secret">')[1].split("</code>")[0]
    assert secret.startswith(key.prefix + ".") and key.digest == ApiKey.digest_of(
        secret.split(".")[1]
    )
    assert secret not in browser.get(reverse("keys")).content.decode()
    assert with_key(secret).get(f"{API}/tournaments/").status_code == 200


def test_page_refuses_a_bad_key_with_field_messages(director):
    browser = signed_in(director)

    response = browser.post(
        reverse("key-create"),
        {"name": "Tool", "scope": "read", "expires_at": "2000-01-01T10:00"},
    )

    assert response.status_code == 400
    assert "The expiry must be in the future." in response.content.decode()
    assert ApiKey.objects.count() == 0


def test_page_revokes_a_key(director):
    made = key_made(director)
    browser = signed_in(director)

    response = browser.post(reverse("key-revoke", args=[made.key.pk]), follow=True)
    again = browser.post(reverse("key-revoke", args=[made.key.pk]), follow=True)

    assert "Key read tool revoked" in response.content.decode()
    assert "This key is already revoked." in again.content.decode()
    assert browser.post(reverse("key-revoke", args=[999999])).status_code == 404
    assert with_key(made.secret).get(f"{API}/tournaments/").status_code == 401


@pytest.mark.parametrize("role", ["floor", "cashier", "dealer"])
def test_pages_are_for_directors_only(director, role):
    made = key_made(director)
    browser = signed_in(staff(role))

    assert browser.get(reverse("keys")).status_code == 403
    assert browser.post(reverse("key-create"), {"name": "T", "scope": "read"}).status_code == 403
    assert browser.post(reverse("key-revoke", args=[made.key.pk])).status_code == 403
    assert ApiKey.objects.count() == 1 and ApiKey.objects.get().revoked_at is None


def test_pages_send_visitors_to_the_login(client):
    response = client.get(reverse("keys"))

    assert response.status_code == 302 and response["Location"].startswith("/login/")


def test_page_query_count_does_not_grow(director, django_assert_num_queries):
    browser = signed_in(director)
    key_made(director)
    with django_assert_num_queries(4) as one:  # session, user, roles, the keys
        assert browser.get(reverse("keys")).status_code == 200
    key_made(director, scope="director")
    keys.api_key_revoke(actor=staff("director"), key_id=key_made(director).key.pk)

    with django_assert_num_queries(len(one.captured_queries)):
        page = browser.get(reverse("keys")).content.decode()
    assert page.count("<tr") == 4


def test_page_in_german(director):
    browser = signed_in(director)
    key_made(director, scope="floor")
    browser.post(reverse("set_language"), {"language": "de", "next": "/"})

    page = browser.get(reverse("keys")).content.decode()

    assert "API-Schlüssel" in page and "Floor-Aktionen" in page
    assert "Widerrufen" in page

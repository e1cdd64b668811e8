"""A staff member's API token ends API_TOKEN_TTL after its last use (floorman.tokens):
each use renews it, written at most once a minute; an expired token is refused (401) and
replaced at the next login. Time is held still and moved on by hand, never slept."""

from datetime import timedelta

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import OperationalError
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from floorman.env import env_duration
from floorman.models import TokenUse
from tournaments.tests.factories import STAFF_PASSWORD, staff

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


@pytest.fixture(autouse=True)
def twelve_hours(settings):
    settings.API_TOKEN_TTL = timedelta(hours=12)


@pytest.fixture
def floor():
    return staff("floor", username="flo")


def login(username: str = "flo") -> str:
    response = APIClient(HTTP_X_FORWARDED_PROTO="https").post(
        f"{API}/auth/token/", {"username": username, "password": STAFF_PASSWORD}, format="json"
    )
    assert response.status_code == 200
    return response.json()["token"]


def use(token: str):
    client = APIClient(HTTP_X_FORWARDED_PROTO="https", HTTP_AUTHORIZATION=f"Token {token}")
    return client.get(f"{API}/players/")


def test_a_token_unused_for_the_whole_ttl_is_401(floor, clock):
    token = login()
    clock.advance(hours=11, minutes=59)
    assert use(token).status_code == 200

    clock.advance(hours=12)
    response = use(token)

    assert response.status_code == 401
    assert response.json() == {"detail": "Token expired: log in again for a new one."}
    assert response["WWW-Authenticate"] == "Token"


def test_each_use_renews_the_token(floor, clock):
    token = login()
    for _ in range(5):  # 50 hours in all, never 12 without a use
        clock.advance(hours=10)
        assert use(token).status_code == 200

    clock.advance(hours=12)

    assert use(token).status_code == 401


def test_the_next_login_replaces_an_expired_token(floor, clock):
    old = login()
    clock.advance(hours=13)
    assert use(old).status_code == 401

    new = login()

    assert new != old
    assert list(Token.objects.values_list("key", flat=True)) == [new]
    assert use(new).status_code == 200


def test_a_login_within_the_ttl_keeps_and_renews_the_token(floor, clock):
    token = login()
    clock.advance(hours=11)

    assert login() == token
    clock.advance(hours=11)
    assert use(token).status_code == 200


def test_the_last_use_is_written_at_most_once_a_minute(floor, clock):
    token = login()
    logged_in = clock.at

    def last_use():
        return TokenUse.objects.get(token_id=token).used_at

    clock.advance(seconds=59)
    use(token)
    assert last_use() == logged_in
    clock.advance(seconds=1)
    use(token)
    assert last_use() == clock.at


def test_a_refused_request_renews_nothing(floor, clock):
    token = login()
    logged_in = clock.at
    clock.advance(hours=13)

    use(token)

    assert TokenUse.objects.get(token_id=token).used_at == logged_in


def test_a_request_refused_for_the_role_renews_nothing(floor, clock):
    """A floor person's token asking for what only directors may (the API keys) gets 403
    and the token is not renewed; an allowed request renews it."""
    token = login()
    logged_in = clock.at
    client = APIClient(HTTP_X_FORWARDED_PROTO="https", HTTP_AUTHORIZATION=f"Token {token}")
    clock.advance(hours=6)

    assert client.get(f"{API}/keys/").status_code == 403
    assert TokenUse.objects.get(token_id=token).used_at == logged_in
    assert use(token).status_code == 200
    assert TokenUse.objects.get(token_id=token).used_at == clock.at


def test_a_token_whose_only_requests_are_refused_expires(floor, clock):
    token = login()
    client = APIClient(HTTP_X_FORWARDED_PROTO="https", HTTP_AUTHORIZATION=f"Token {token}")
    for _ in range(2):
        clock.advance(hours=4)
        assert client.get(f"{API}/keys/").status_code == 403
    clock.advance(hours=4)  # 12 hours since the last request that was let through

    assert use(token).status_code == 401


def test_the_answer_stands_when_the_use_cannot_be_written(floor, clock, monkeypatch, caplog):
    token = login()
    clock.advance(hours=1)

    def database_gone(auth):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr("floorman.middleware.api_use_record", database_gone)

    assert use(token).status_code == 200
    assert "the use of an API token or key was not noted" in caplog.text


def test_a_token_made_before_uses_were_kept_counts_from_when_it_was_made(floor, clock):
    token = Token.objects.create(user=floor).key
    clock.advance(hours=1)
    assert use(token).status_code == 200
    assert TokenUse.objects.get(token_id=token).used_at == clock.at

    clock.advance(hours=12)

    assert use(token).status_code == 401


def test_an_unused_old_token_expires_from_when_it_was_made(floor, clock):
    token = Token.objects.create(user=floor).key

    clock.advance(hours=12)

    assert use(token).status_code == 401


def test_the_ttl_is_a_setting(floor, clock, settings):
    settings.API_TOKEN_TTL = timedelta(minutes=5)
    token = login()

    clock.advance(minutes=5)

    assert use(token).status_code == 401


def test_expired_token_is_refused_in_german(floor, clock):
    token = login()
    clock.advance(hours=12)
    client = APIClient(
        HTTP_X_FORWARDED_PROTO="https",
        HTTP_AUTHORIZATION=f"Token {token}",
        HTTP_ACCEPT_LANGUAGE="de",
    )

    response = client.get(f"{API}/players/")

    assert response.json() == {
        "detail": "Token abgelaufen: Melden Sie sich erneut an, um ein neues zu erhalten."
    }


@pytest.mark.parametrize(
    ("value", "expected"),
    [("12h", timedelta(hours=12)), ("90s", timedelta(seconds=90)), ("7d", timedelta(days=7))],
)
def test_env_duration_reads_a_length_of_time(monkeypatch, value, expected):
    monkeypatch.setenv("FLOORMAN_API_TOKEN_TTL", value)

    assert env_duration("FLOORMAN_API_TOKEN_TTL", "12h") == expected


@pytest.mark.parametrize("value", ["12", "0h", "-1h", "12 hours", "1w"])
def test_env_duration_refuses_what_it_cannot_read(monkeypatch, value):
    monkeypatch.setenv("FLOORMAN_API_TOKEN_TTL", value)

    with pytest.raises(ImproperlyConfigured, match="FLOORMAN_API_TOKEN_TTL"):
        env_duration("FLOORMAN_API_TOKEN_TTL", "12h")

"""Security headers on every kind of answer, and what production settings add.

In-process the settings are those of the test run (embedded, or production when
DATABASE_URL is set, as in CI); the production case is also checked in a fresh
interpreter with production settings whatever this run has. `manage.py check --deploy`
with production settings is floorman/tests/test_settings.py's
test_settings_production_passes_check_deploy (no warning may remain).
"""

import json
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from floorman.tests.test_settings import PRODUCTION, run
from tournaments.tests.factories import tournament

HSTS = "max-age=31536000; includeSubDomains; preload"  # a year: preload asks for no less


def assert_protected(response) -> None:
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["X-Frame-Options"] == "DENY"
    assert response["Referrer-Policy"] == "same-origin"
    assert "frame-ancestors 'none'" in response["Content-Security-Policy"]
    if not settings.EMBEDDED:
        assert response["Strict-Transport-Security"] == HSTS


@pytest.mark.django_db
def test_pages_api_and_errors_carry_the_headers(client):
    event = tournament()
    for path, status in (
        (reverse("tournaments:list"), 200),
        (reverse("seats:lookup", args=[event.pk]), 200),
        (reverse("tournament-detail", args=[event.pk]), 200),
        (reverse("login"), 200),
        (reverse("seating:map", args=[event.pk]), 302),
        ("/no-such-page/", 404),
    ):
        response = client.get(path)
        assert response.status_code == status, path
        assert_protected(response)


PRODUCTION_REQUESTS = """
import json, django
django.setup()
from django.conf import settings
from django.test import Client
client = Client(HTTP_HOST="floorman.example")
secure = client.get("/login/", HTTP_X_FORWARDED_PROTO="https")
plain = client.get("/login/")
health = client.get("/health/live/")
print(json.dumps({
    "headers": dict(secure.headers),
    "csrf_cookie": dict(secure.cookies["csrftoken"]),
    "plain": [plain.status_code, plain.get("Location", "")],
    "health": health.status_code,
    "session_cookie_secure": settings.SESSION_COOKIE_SECURE,
    "session_cookie_httponly": settings.SESSION_COOKIE_HTTPONLY,
}))
"""


def test_production_answers_with_hsts_and_secure_cookies(tmp_path: Path):
    result = run(["-c", PRODUCTION_REQUESTS], PRODUCTION, tmp_path)
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout.strip().splitlines()[-1])

    headers = answer["headers"]
    assert headers["Strict-Transport-Security"] == HSTS
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["Referrer-Policy"] == "same-origin"
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert answer["csrf_cookie"]["secure"] is True
    assert answer["session_cookie_secure"] is True and answer["session_cookie_httponly"] is True
    # Plain HTTP goes to HTTPS; the container health check over plain HTTP does not.
    assert answer["plain"] == [301, "https://floorman.example/login/"]
    assert answer["health"] == 200


def _production_answer(env: dict, tmp_path: Path) -> dict:
    result = run(["-c", PRODUCTION_REQUESTS], {**PRODUCTION, **env}, tmp_path)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_a_shorter_hsts_is_never_marked_for_preload(tmp_path: Path):
    answer = _production_answer({"SECURE_HSTS_SECONDS": "2592000"}, tmp_path)

    assert answer["headers"]["Strict-Transport-Security"] == "max-age=2592000; includeSubDomains"


def test_plain_http_deployment_neither_redirects_nor_hides_its_cookies(tmp_path: Path):
    """A local `docker compose up` on port 80 (SECURE_SSL_REDIRECT=false): no redirect to
    an HTTPS that is not there, and cookies a browser sends back over plain HTTP."""
    answer = _production_answer({"SECURE_SSL_REDIRECT": "false"}, tmp_path)

    assert answer["plain"] == [200, ""]
    assert answer["csrf_cookie"]["secure"] == ""
    assert answer["session_cookie_secure"] is False
    assert "Strict-Transport-Security" not in answer["headers"]

"""The database unreachable for a moment: a clear 503 with Retry-After, not a 500, and
the next request works again (issue 8, faults)."""

import pytest
from django.db import OperationalError
from django.db.backends.base.base import BaseDatabaseWrapper

from tournaments.tests.factories import api, tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def database_gone(monkeypatch):
    def refuse(self, *args, **kwargs):
        raise OperationalError("connection to server at 127.0.0.1, port 5432 failed")

    def gone():
        monkeypatch.setattr(BaseDatabaseWrapper, "ensure_connection", refuse)
        monkeypatch.setattr(BaseDatabaseWrapper, "_cursor", refuse)

    return gone


def test_page_says_try_again_with_503(client, database_gone):
    event = tournament()
    database_gone()
    response = client.get(f"/tournaments/{event.pk}/")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert "cannot reach its database" in response.content.decode()


def test_api_answers_503_in_json(database_gone):
    event = tournament()
    client = api()
    database_gone()
    response = client.get(f"/api/v1/tournaments/{event.pk}/")
    assert response.status_code == 503
    assert response.json()["code"] == "unavailable"


def test_service_works_again_once_the_database_is_back(client, monkeypatch):
    event = tournament()
    original = BaseDatabaseWrapper._cursor

    def refuse(self, *args, **kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(BaseDatabaseWrapper, "_cursor", refuse)
    assert client.get(f"/tournaments/{event.pk}/").status_code == 503
    monkeypatch.setattr(BaseDatabaseWrapper, "_cursor", original)
    assert client.get(f"/tournaments/{event.pk}/").status_code == 200

"""The director's audit log page of a tournament."""

from datetime import UTC, datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from hands.services import busts as bust_services
from tournaments.tests.factories import register, staff, tournament

pytestmark = pytest.mark.django_db


def _audit_url(event) -> str:
    return reverse("audit-log", args=[event.pk])


def test_audit_page_lists_changes_with_who_what_and_compact_json(client):
    event = tournament()
    cashier = staff("cashier", username="cashier_carla")
    entry = register(event, "Anna Berger", actor=cashier).entry
    floor = staff("floor", username="floor_fred")
    bust_services.entry_bust(actor=floor, tournament_id=event.pk, entry_id=entry.pk)
    client.force_login(staff("director"))

    response = client.get(_audit_url(event))

    html = response.content.decode()
    assert response.status_code == 200
    assert "entry.register" in html and "entry.bust" in html
    assert "cashier_carla" in html and "floor_fred" in html
    assert "#1 Anna Berger" in html
    assert "&quot;status&quot;:&quot;busted&quot;" in html  # compact: no spaces
    assert "&quot;status&quot;: " not in html


def test_audit_page_shows_times_in_the_venue_time_zone(client, settings, monkeypatch):
    settings.TIME_ZONE = "Europe/Vienna"
    event = tournament()
    # The log is append-only: the entry is written at the time it shows.
    monkeypatch.setattr(timezone, "now", lambda: datetime(2026, 1, 15, 18, 5, 9, tzinfo=UTC))
    register(event, "Timed")
    monkeypatch.undo()
    client.force_login(staff("director"))

    html = client.get(_audit_url(event)).content.decode()

    assert "2026-01-15 19:05:09" in html  # UTC+1 in winter
    assert "Europe/Vienna" in html


def test_audit_page_filters_by_action_and_staff_member(client):
    event = tournament()
    carla = staff("cashier", username="carla")
    dora = staff("cashier", username="dora")
    first = register(event, "First", actor=carla).entry
    register(event, "Second", actor=dora)
    bust_services.entry_bust(actor=carla, tournament_id=event.pk, entry_id=first.pk)
    client.force_login(staff("director"))

    html = client.get(_audit_url(event), {"action": "entry.bust"}).content.decode()
    assert "#1 First" in html and "#2 Second" not in html
    # The select offers the actions that happened in this tournament.
    assert '<option value="entry.bust" selected>' in html
    assert '<option value="entry.register">' in html

    html = client.get(_audit_url(event), {"actor": str(dora.pk)}).content.decode()
    assert "#2 Second" in html and "#1 First" not in html
    assert f'<option value="{dora.pk}" selected>dora</option>' in html

    # Unknown filter values are ignored rather than failing.
    response = client.get(_audit_url(event), {"actor": "99999999999999999999", "action": "x"})
    assert response.status_code == 200
    assert "#1 First" in response.content.decode()


def test_audit_page_shows_only_this_tournament(client):
    event = tournament(name="Here")
    other = tournament(name="Elsewhere")
    register(event, "Local Player")
    register(other, "Foreign Player")
    client.force_login(staff("director"))

    html = client.get(_audit_url(event)).content.decode()

    assert "Local Player" in html and "Foreign Player" not in html


def test_audit_page_is_paginated(client):
    event = tournament()
    for number in range(55):
        register(event, f"P{number:02d}")
    client.force_login(staff("director"))

    first = client.get(_audit_url(event)).content.decode()
    second = client.get(_audit_url(event), {"page": "2"}).content.decode()

    assert "#55 P54" in first and "#1 P00" not in first  # newest first
    assert "#1 P00" in second


@pytest.mark.parametrize(
    ("persona", "status"),
    [("anonymous", 302), ("dealer", 403), ("floor", 403), ("cashier", 403), ("director", 200)],
)
def test_audit_page_is_for_directors(client, persona, status):
    event = tournament()
    if persona != "anonymous":
        client.force_login(staff(persona))

    response = client.get(_audit_url(event))

    assert response.status_code == status
    if status == 302:
        assert response["Location"].startswith(reverse("login"))


def test_audit_page_unknown_tournament_is_404(client):
    client.force_login(staff("director"))
    assert client.get("/tournaments/999999999999999999/audit/").status_code == 404


def test_detail_page_links_the_audit_log_for_directors(client):
    event = tournament()
    detail = reverse("tournaments:detail", args=[event.pk])
    client.force_login(staff("floor"))
    assert _audit_url(event) not in client.get(detail).content.decode()
    client.force_login(staff("director"))
    assert _audit_url(event) in client.get(detail).content.decode()

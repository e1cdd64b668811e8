"""The Content Security Policy: every page sends it, and no page carries an inline
script or inline event handler it would block (json_script data blocks are allowed)."""

import re

import pytest
from django.urls import reverse

from tournaments.tests.factories import staff, tournament

pytestmark = pytest.mark.django_db

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", re.I)
INLINE_HANDLER = re.compile(r"\s(on[a-z]+|hx-on[:\w-]*)=", re.I)


def pages(event) -> list[str]:
    t = f"/tournaments/{event.pk}"
    return [
        "/tournaments/",
        f"{t}/",
        f"{t}/payouts/",
        f"{t}/results/",
        f"{t}/deal/",
        f"{t}/floor/",
        f"{t}/entries/",
        f"{t}/desk/",
        "/rules/",
        "/rules/calculators/",
        "/rules/house/",
        f"/lobby/{event.pk}/",
        f"/seat/{event.pk}/",
        f"/results/{event.pk}/",
        "/api/v1/docs/",
        "/tournaments/players/",
        f"/lobby/?t={event.pk}&layout=seating",
        reverse("clock:console", args=[event.pk]),
        reverse("seating:map", args=[event.pk]),
        reverse("hands:hand-for-hand", args=[event.pk]),
        reverse("structures:list"),
        reverse("audit-log", args=[event.pk]),
    ]


def test_every_page_sends_the_policy_and_has_no_inline_script(client):
    event = tournament()
    client.force_login(staff("director"))
    for path in pages(event):
        response = client.get(path)
        assert response.status_code == 200, path
        policy = response.headers["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy.split("style-src")[0]
        html = response.content.decode()
        assert not INLINE_SCRIPT.search(html), (path, INLINE_SCRIPT.search(html).group(0))
        assert not INLINE_HANDLER.search(html), (path, INLINE_HANDLER.search(html).group(0))

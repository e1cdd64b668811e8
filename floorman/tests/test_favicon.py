"""The site's icon (issue 16): every page names it, and /favicon.ico answers for the
pages that do not, so that no screen's console fills with 404s over a night."""

from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.urls import reverse

from tournaments.tests.factories import tournament

ICON = '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">'


def test_favicon_ico_points_to_the_icon(client):
    response = client.get("/favicon.ico")

    assert response.status_code == 301
    assert response["Location"] == "/static/favicon.svg"
    assert finders.find("favicon.svg")
    assert Path(finders.find("favicon.svg")).read_text().startswith("<svg")


def test_every_page_layout_names_the_icon():
    """The templates that start a page of their own (the rest extend base.html)."""
    templates = Path(settings.BASE_DIR) / "templates"
    layouts = [p for p in templates.rglob("*.html") if "<!DOCTYPE html>" in p.read_text()]

    assert len(layouts) >= 4
    for layout in layouts:
        assert "{% static 'favicon.svg' %}" in layout.read_text(), layout


@pytest.mark.django_db
def test_pages_and_screens_link_the_icon(client):
    event = tournament()
    for url in (
        reverse("tournaments:list"),
        reverse("screens:lobby", kwargs={"tournament_id": event.pk}),
        reverse("seats:board", kwargs={"tournament_id": event.pk}),
    ):
        assert ICON in client.get(url).content.decode(), url

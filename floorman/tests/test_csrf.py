"""Cross-site request forgery: every form POST of the site needs the CSRF token.

A director's browser (the one allowed everything) posts to every page that takes a POST
(from floorman/tests/test_permissions.py's table), once without the token: 403 and
nothing done; once with it: anything but 403 (the empty form may be refused with 400,
or the action with 409, but never for want of the token). The API's session-signed
requests need it as well (DRF's SessionAuthentication); token-signed API requests carry
no cookie and need none. Writes are rolled back after each request.
"""

import pytest
from django.test import Client
from django.urls import reverse

from floorman.tests.security_world import (
    THROUGH_THE_PROXY,
    build_world,
    rolled_back,
    routes,
    staff_user,
)
from floorman.tests.test_permissions import ALL, expected_for, is_admin

pytestmark = pytest.mark.django_db

# Over HTTPS (production settings) Django also wants a POST to come from the site's own
# pages, as the browser's Referer says.
SAME_SITE = {"HTTP_REFERER": "https://testserver/"}


def posted_to(route) -> bool:
    who = expected_for(route.name).get("POST")
    return who is not None and (who == ALL or "director" in who)


def strict_browser(user) -> Client:
    client = Client(enforce_csrf_checks=True, **THROUGH_THE_PROXY, **SAME_SITE)
    client.force_login(user)
    client.get(reverse("login"))  # the page sets the CSRF cookie, as any page with a form
    return client


def post(client: Client, route, *, token: str | None):
    if route.path.startswith("/api/"):
        headers = {"HTTP_X_CSRFTOKEN": token} if token else {}
        return rolled_back(
            client,
            lambda: client.post(route.path, {}, content_type="application/json", **headers),
        )
    data = {"csrfmiddlewaretoken": token} if token else {}
    return rolled_back(client, lambda: client.post(route.path, data))


def test_every_form_post_needs_the_csrf_token():
    world = build_world()
    director = strict_browser(staff_user(world, "director"))
    token = director.cookies["csrftoken"].value
    problems, asked = [], 0
    for route in routes(world.ids):
        if is_admin(route.name) or not posted_to(route):
            continue
        if route.name == "api-token":
            continue  # signs in by username and password; no session, no cookie to forge
        asked += 1
        without = post(director, route, token=None)
        if without.status_code != 403:
            problems.append(f"{route.path} [{route.name}] without the token: {without.status_code}")
        with_token = post(director, route, token=token)
        if with_token.status_code == 403 or with_token.status_code >= 500:
            problems.append(f"{route.path} [{route.name}] with the token: {with_token.status_code}")

    assert asked > 100
    assert problems == [], f"{len(problems)} of {asked} POST endpoints:\n" + "\n".join(problems)


def test_api_with_a_token_needs_no_csrf_token():
    """An API client signs with its token and sends no cookie: nothing to forge."""
    from rest_framework.authtoken.models import Token

    world = build_world()
    user = staff_user(world, "director")
    key = Token.objects.create(user=user).key
    client = Client(enforce_csrf_checks=True, **THROUGH_THE_PROXY)

    response = client.post(
        reverse("api-seating-undo", args=[world.event.pk]),
        {},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Token {key}",
    )

    assert response.status_code not in (401, 403)


def test_a_forged_form_changes_nothing():
    world = build_world()
    director = strict_browser(staff_user(world, "director"))
    entry = world.entry

    response = director.post(
        reverse("tournaments:entry-bust", args=[world.event.pk, entry.number]), {}
    )

    assert response.status_code == 403
    entry.refresh_from_db()
    assert entry.status == "active"

"""Access ends when it is taken back: a logout, a deleted API token, a deactivated
account, a changed password, a role removed, a revoked tablet link. Each takes effect on
the very next request, for the session and for the API token alike.

Directors take access back on the Staff page (/staff/, floorman/tests/test_staff_access.py:
sign out everywhere, deactivate); a superuser can also do it in the Django admin.
"""

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token

from hands import services as hand_services
from hands.tests.factories import seat_players
from seating.models import TableState
from tournaments.tests.factories import STAFF_PASSWORD, signed_in, staff, tournament

pytestmark = pytest.mark.django_db

THROUGH_THE_PROXY = {"HTTP_X_FORWARDED_PROTO": "https"}  # as conftest's client


def with_cookie(session_key: str) -> Client:
    """Another browser presenting a copied session cookie."""
    client = Client(**THROUGH_THE_PROXY)
    client.cookies["sessionid"] = session_key
    return client


def session_works(client: Client, event) -> bool:
    response = client.get(reverse("seating:map", args=[event.pk]))
    if response.status_code == 302:
        assert response["Location"].startswith(reverse("login"))
        return False
    assert response.status_code == 200
    return True


def token_answers(key: str, event) -> int:
    client = Client(**THROUGH_THE_PROXY)
    return client.get(
        reverse("api-seating-balance", args=[event.pk]), HTTP_AUTHORIZATION=f"Token {key}"
    ).status_code


@pytest.fixture
def event():
    return tournament()


@pytest.fixture
def floor():
    return staff("floor")


def test_logout_ends_the_session_for_every_copy_of_its_cookie(event, floor):
    browser = signed_in(floor)
    key = browser.cookies["sessionid"].value
    assert session_works(with_cookie(key), event)

    browser.post(reverse("logout"))

    assert not session_works(browser, event)
    assert not session_works(with_cookie(key), event)  # the old cookie opens nothing


def test_deleted_api_token_is_refused(event, floor):
    token = Token.objects.create(user=floor)
    assert token_answers(token.key, event) == 200

    token.delete()

    assert token_answers(token.key, event) == 401


def test_deactivated_user_loses_session_and_token_on_the_next_request(event, floor):
    browser = signed_in(floor)
    token = Token.objects.create(user=floor)
    assert session_works(browser, event) and token_answers(token.key, event) == 200

    floor.is_active = False
    floor.save(update_fields=["is_active"])

    assert not session_works(browser, event)
    assert token_answers(token.key, event) == 401
    again = Client(**THROUGH_THE_PROXY).post(
        reverse("login"), {"username": floor.username, "password": STAFF_PASSWORD}
    )
    assert again.status_code == 200  # the form again: this account cannot sign in


def test_new_password_ends_the_other_sessions(event, floor):
    browser = signed_in(floor)

    floor.set_password("another-Password-2026")
    floor.save()

    assert not session_works(browser, event)


def test_removed_role_counts_from_the_next_request(event, floor):
    browser = signed_in(floor)
    token = Token.objects.create(user=floor)
    assert session_works(browser, event)

    floor.groups.remove(Group.objects.get(name="floor"))

    assert browser.get(reverse("seating:map", args=[event.pk])).status_code == 403
    assert token_answers(token.key, event) == 403


def test_revoked_tablet_link_no_longer_opens_the_tablet(event):
    seat_players(event, {1: [1, 2, 3, 4]})
    link = hand_services.tablet_link_create(actor=None, tournament_id=event.pk, number=1)
    dealer = Client(**THROUGH_THE_PROXY)
    page, state = (
        reverse("hands:link", args=[link.token]),
        reverse("hands:link-state", args=[link.token]),
    )
    assert dealer.get(page).status_code == 200
    assert dealer.get(state).status_code == 200

    hand_services.tablet_link_revoke(actor=None, tournament_id=event.pk, link_id=link.pk)

    refused = dealer.get(page)
    assert refused.status_code == 404
    assert "no longer valid" in refused.content.decode()
    assert dealer.get(state).json()["code"] == "link_revoked"
    # A press of a button on a tablet left open does nothing.
    assert dealer.post(page, {"action": "draw"}).status_code == 404
    assert not TableState.objects.filter(table__tournament=event, button__isnull=False).exists()

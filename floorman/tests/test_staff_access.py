"""The director takes access back at once: every session and the API token of a staff
member end on "Sign out everywhere"; "Deactivate" also stops them signing in again
(floorman.staff). Audited; a director cannot lock themselves out."""

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token

from floorman.models import AuditEntry
from tournaments.tests.factories import STAFF_PASSWORD, signed_in, staff

pytestmark = pytest.mark.django_db

THROUGH_THE_PROXY = {"HTTP_X_FORWARDED_PROTO": "https"}


def can_work(client: Client) -> bool:
    return client.get(reverse("rulings:calculators")).status_code == 200


def api_works(token: str) -> bool:
    client = Client(**THROUGH_THE_PROXY, HTTP_AUTHORIZATION=f"Token {token}")
    return client.get("/api/v1/players/").status_code == 200


def test_the_page_lists_staff_with_their_open_sessions():
    director = staff("director", username="td")
    floor = staff("floor", username="floor-anna")
    signed_in(floor), signed_in(floor)

    page = signed_in(director).get(reverse("staff-access")).content.decode()

    assert "floor-anna" in page and "Floor" in page
    assert '<td class="num">2</td>' in page


def test_sign_out_everywhere_ends_every_session_and_the_token():
    director = staff("director", username="td")
    floor = staff("floor", username="floor-anna")
    phone, laptop = signed_in(floor), signed_in(floor)
    token = Token.objects.create(user=floor).key
    assert can_work(phone) and can_work(laptop) and api_works(token)

    response = signed_in(director).post(reverse("staff-sign-out", args=[floor.pk]), follow=True)

    assert "Signed out everywhere: 2 sessions ended" in response.content.decode()
    assert not can_work(phone) and not can_work(laptop)
    assert not api_works(token)
    assert can_work(signed_in(floor))  # they may sign in again
    entry = AuditEntry.objects.get(action="staff.sign_out")
    assert entry.actor == director and entry.after["sessions_ended"] == 2


def test_deactivated_staff_cannot_sign_in_again_until_reactivated():
    director = staff("director", username="td")
    dealer = staff("dealer", username="dealer-ben")
    tablet = signed_in(dealer)
    admin = signed_in(director)

    admin.post(reverse("staff-active", args=[dealer.pk]), {"active": "0"})

    assert not can_work(tablet)
    refused = Client(**THROUGH_THE_PROXY).post(
        reverse("login"), {"username": "dealer-ben", "password": STAFF_PASSWORD}
    )
    assert refused.status_code == 200  # the form again, with its error
    admin.post(reverse("staff-active", args=[dealer.pk]), {"active": "1"})
    assert can_work(signed_in(dealer))


def test_a_director_cannot_deactivate_themselves():
    director = staff("director", username="td")
    admin = signed_in(director)

    response = admin.post(reverse("staff-active", args=[director.pk]), {"active": "0"}, follow=True)

    assert "You cannot deactivate your own account." in response.content.decode()
    director.refresh_from_db()
    assert director.is_active


def test_only_directors_take_access_back():
    floor = staff("floor", username="floor-anna")
    other = staff("cashier", username="cash-cleo")
    client = signed_in(floor)

    assert client.get(reverse("staff-access")).status_code == 403
    assert client.post(reverse("staff-sign-out", args=[other.pk])).status_code == 403


def test_unknown_staff_member_is_404():
    admin = signed_in(staff("director", username="td"))

    assert admin.post(reverse("staff-sign-out", args=[999999])).status_code == 404

"""What the desk's live region is given to say (issue 21, WCAG 4.1.3 Status Messages): the
server writes each result's sentence into the desk it swaps in (data-announce), and the
page keeps one live region outside the swapped desk for desk.js to put it in. The
browser side is floorman/tests/browser/test_desk_keyboard.py."""

import html
import re

import pytest
from django.urls import reverse

from seating import services as seating_services
from seating.models import Seat
from tournaments.tests.factories import register, staff, tournament

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def _desk(event) -> str:
    return reverse("tournaments:desk", args=[event.pk])


def _announced(page: str) -> list[str]:
    """Every sentence the page hands the live region, as a screen reader would hear it."""
    return [html.unescape(found) for found in re.findall(r'data-announce="([^"]*)"', page)]


def test_the_page_keeps_one_live_region_outside_the_swapped_desk(client):
    """WCAG 4.1.3: the region is not part of #desk, which htmx replaces whole."""
    event = tournament()
    client.force_login(staff("cashier"))

    page = client.get(_desk(event)).content.decode()

    region = '<p id="desk-announce" class="sr-only" role="status" aria-live="polite"></p>'
    assert page.count('id="desk-announce"') == 1
    assert page.index(region) < page.index('<div id="desk"')


def test_a_seated_entry_is_announced_with_its_table_and_seat(client):
    event = tournament()
    for name in ("Anna", "Ben", "Cleo"):
        register(event, name)
    seating_services.table_add(actor=None, tournament_id=event.pk, number=4, seats=9)
    seating_services.seating_draw(actor=None, tournament_id=event.pk)
    client.force_login(staff("cashier"))

    page = client.post(_desk(event), {"name": "Dora Late"}, **HTMX).content.decode()

    seat = Seat.objects.get(entry__player__name="Dora Late")
    assert _announced(page) == [f"Entry #4, Dora Late, table 4, seat {seat.number}"]
    # The receipt is no live region of its own: the result is announced once.
    assert re.search(r'<section class="card receipt"(?![^>]*role=)', page)
    assert 'id="desk-announce"' not in page  # the swapped desk leaves the region be


def test_an_entry_before_the_draw_is_announced_without_a_seat(client):
    event = tournament()
    client.force_login(staff("cashier"))

    page = client.post(_desk(event), {"name": "Anna"}, **HTMX).content.decode()

    assert _announced(page) == ["Entry #1, Anna, seat drawn before play starts"]


def test_a_sold_out_event_announces_the_place_on_the_alternates_list(client):
    event = tournament(capacity=1)
    register(event, "Anna")
    client.force_login(staff("cashier"))

    page = client.post(_desk(event), {"name": "Ben"}, **HTMX).content.decode()

    assert _announced(page) == ["Ben is on the alternates list, position 1."]
    assert re.search(r'<section class="card alternate-notice"(?![^>]*role=)', page)


def test_the_sentence_keeps_the_name_as_text(client):
    """A name with quotes or markup stays inside the attribute, read out as typed."""
    event = tournament()
    client.force_login(staff("cashier"))

    page = client.post(_desk(event), {"name": 'Anna "<b>" O\'Neil'}, **HTMX).content.decode()

    assert _announced(page) == ['Entry #1, Anna "<b>" O\'Neil, seat drawn before play starts']
    assert "<b>" not in page


def test_without_javascript_the_receipt_page_still_says_the_result(client):
    """A plain form post is redirected to the full desk page with the receipt on it."""
    event = tournament()
    client.force_login(staff("cashier"))

    response = client.post(_desk(event), {"name": "Anna"}, follow=True)

    page = response.content.decode()
    assert "Entry #1" in page
    assert _announced(page) == ["Entry #1, Anna, seat drawn before play starts"]

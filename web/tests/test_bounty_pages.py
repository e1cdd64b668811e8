"""A player's bounties on their pages (issue 18): the phone page the receipt opens shows
what they won and the bounty on their head; the desk's list of entries shows each
entry's. An event without bounties shows none."""

import pytest
from django.urls import reverse

from hands.models import KnockoutSource
from prizes.tests.bounty_factories import bounty_event, knockout
from tournaments.tests.factories import staff

pytestmark = pytest.mark.django_db


def phone_page(client, event, entry) -> str:
    url = reverse("tournaments:entry-public", args=[event.pk, entry.number])
    return client.get(url).content.decode()


def test_the_phone_page_shows_the_bounties_won_and_on_the_head(client):
    event, (anna, ben, carl, *_rest) = bounty_event("pko", bounty=5000)
    knockout(event, ben, anna, cash=2500, added=2500, source=KnockoutSource.HAND)
    knockout(event, carl, anna, cash=2500, added=2500)

    html = phone_page(client, event, anna)

    assert "Bounties won</dt><dd>€50.00" in html
    assert "Bounty on your head</dt><dd>€100.00" in html


def test_a_busted_players_page_shows_what_they_won_but_no_head(client):
    event, (anna, ben, carl, *_rest) = bounty_event("knockout", bounty=5000)
    knockout(event, ben, anna)
    knockout(event, anna, carl)  # then Carl knocked Anna out

    html = phone_page(client, event, anna)

    assert "Bounties won</dt><dd>€50.00" in html
    assert "Bounty on your head" not in html


def test_an_event_without_bounties_says_nothing_of_them(client):
    event, (anna, *_rest) = bounty_event("", bounty=0)

    assert "Bounties won" not in phone_page(client, event, anna)


def test_the_desk_list_shows_each_entrys_bounties(client):
    event, (anna, ben, *_rest) = bounty_event("knockout", bounty=5000)
    knockout(event, ben, anna)
    client.force_login(staff("floor"))

    html = client.get(reverse("tournaments:entries", args=[event.pk])).content.decode()

    assert '<th scope="col" class="num">Bounties</th>' in html
    assert '€50.00<br><small class="muted">on the head: €50.00</small>' in html

"""The lobby's bounties (issue 18): a knockout event's fixed bounty, a progressive
knockout's biggest bounties left with the players' names, a mystery bounty event's sealed
bounties still in the draw and whether drawing has begun. Public: names only."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from floorman.versions import screens_changed
from prizes.tests.bounty_factories import bounty_event, knockout
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def lobby(client, event, **query):
    return client.get(reverse("screens:lobby", args=[event.pk]), query).content.decode()


def data(client, event) -> dict:
    return client.get(reverse("screens:data", args=[event.pk])).json()


def test_a_knockout_event_shows_its_fixed_bounty(client):
    event, _field = bounty_event("knockout", bounty=5000)

    bounties = data(client, event)["bounties"]
    html = lobby(client, event)

    assert (bounties["label"], bounties["fact"]) == ("Bounty", "€50.00")
    assert '<dd data-field="bounty_fact">€50.00</dd>' in html


def test_a_pko_shows_the_biggest_bounties_left_with_names(client):
    event, entries = bounty_event("pko", bounty=5000)
    anna, ben, carl, dora = entries[:4]
    Tournament.objects.filter(pk=event.pk).update(status="running")
    # Anna took Ben's and Carl's heads: half each on her own (€50 + 2 × €25).
    knockout(event, ben, anna, cash=2500, added=2500)
    knockout(event, carl, anna, cash=2500, added=2500)
    knockout(event, entries[5], dora, cash=2500, added=2500)

    bounties = data(client, event)["bounties"]

    assert bounties["title"] == "Biggest bounties left"
    assert bounties["fact"] == "€100.00"
    assert bounties["lines"][:3] == [
        ["Player 1", "€100.00"],
        ["Player 4", "€75.00"],
        ["Player 5", "€50.00"],
    ]
    assert len(bounties["lines"]) == 3 + 0  # Anna, Dora and Player 5 are left
    assert "Player 2" not in str(bounties["lines"])  # knocked out: no bounty left


def test_the_bounties_layout_shows_the_panel(client):
    event, entries = bounty_event("pko", bounty=5000)
    knockout(event, entries[1], entries[0], cash=2500, added=2500)

    html = lobby(client, event, layout="bounties")

    assert 'class="side bounties"' in html
    assert "Biggest bounties left" in html
    assert "<li><span>Player 1</span><span>€75.00</span></li>" in html
    assert "email" not in html.lower()


def test_a_mystery_event_shows_the_bounties_still_in_the_draw(client):
    prizes = [{"amount": 100000, "count": 1}, {"amount": 10000, "count": 3}]
    event, entries = bounty_event("mystery", bounty=0, mystery_prizes=prizes)

    before = data(client, event)["bounties"]
    knockout(event, entries[1], entries[0], cash=10000, draw=1)
    after = data(client, event)["bounties"]

    assert before["lines"] == [["1 ×", "€1,000.00"], ["3 ×", "€100.00"]]
    assert before["fact"] == "4" and before["begun"] is False
    assert before["note"] == "Drawing has not begun: From the money."
    assert after["lines"] == [["1 ×", "€1,000.00"], ["2 ×", "€100.00"]]
    assert after["fact"] == "3" and after["begun"] is True
    assert after["note"] == "Every elimination now draws a sealed bounty."


def test_an_event_without_bounties_has_none_on_the_lobby(client):
    event, _field = bounty_event("", bounty=0)

    assert data(client, event)["bounties"] is None
    assert 'data-field="bounty_fact_box" hidden' in lobby(client, event)


def test_the_lobby_data_reads_the_same_queries_for_a_bigger_pko(client):
    small, small_field = bounty_event("pko", count=4)
    big, big_field = bounty_event("pko", count=30)
    knockout(small, small_field[1], small_field[0], cash=2500, added=2500)
    for busted in big_field[1:20]:
        knockout(big, busted, big_field[0], cash=2500, added=2500)
    data(client, small)  # warm up
    screens_changed([small.pk, big.pk])  # both built again, from the database

    with CaptureQueriesContext(connection) as few:
        data(client, small)
    with CaptureQueriesContext(connection) as many:
        data(client, big)

    assert len(many) == len(few)

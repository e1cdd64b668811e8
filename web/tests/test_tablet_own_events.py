"""Dealer's tablet stories that need an event of their own shape: a seating, a table
count or a second event that test_tablet.py's module world (two tables of four, built
once) does not have. Apart from it, because two tournaments never share a venue table
and that world holds tables 1 and 2 for the whole module."""

import pytest

from clock.tests.factories import with_structure
from hands import services
from hands.models import Hand
from hands.tests.factories import button_at, deal, finish, seat_players
from seating import services as seating
from tournaments.tests.factories import staff, tournament

pytestmark = pytest.mark.django_db


def page(event, number: int = 2, suffix: str = "") -> str:
    return f"/tournaments/{event.pk}/tables/{number}/tablet/{suffix}"


def html(response) -> str:
    return response.content.decode()


def test_a_new_player_waits_for_the_button_tda_10_a(client):
    event = tournament()
    with_structure(event)
    seated = seat_players(event, {1: [1, 3, 5, 7], 2: [1, 2, 3, 4]})
    button_at(event, 1, 1)
    finish(event, 1, deal(event, 1))
    newcomer = seated[(2, 4)]
    seating.entry_move(
        actor=None, tournament_id=event.pk, entry_id=newcomer.pk, to_table=1, to_seat=4
    )
    client.force_login(staff("dealer"))

    text = html(client.get(page(event, 1)))

    assert "waits for the button" in text and "TDA 10-A" in text
    assert "Seat 4 waits for the button to pass" in text
    assert 'class="badge b-new"' in text

    deal(event, 1)
    during = html(client.get(page(event, 1)))
    assert "waits for the button" in during


def test_a_halted_table_says_so_tda_11_d(client):
    event = tournament()
    with_structure(event)
    seat_players(event, {1: [1, 2, 3, 4, 5, 6, 7, 8, 9], 2: [1, 2, 3, 4, 5, 6]})
    button_at(event, 2, 5, big_blind=6)
    client.force_login(staff("dealer"))

    text = html(client.get(page(event, 2)))
    refused = client.post(page(event, 2), {"action": "start"})

    assert "Halted (TDA 11-D)" in text
    assert refused.status_code == 409 and "TDA 11-D" in html(refused)
    assert not Hand.objects.exists()


def test_hand_for_hand_banners_follow_the_round_rp_8(client):
    event = tournament()
    with_structure(event)
    seat_players(event, {1: [1, 2, 3], 2: [1, 2, 3], 3: [1, 2, 3]})
    for table in (1, 2, 3):
        button_at(event, table, 1)
    services.h4h_settings_update(actor=None, tournament_id=event.pk, data={"places_paid": 6})
    first, second = deal(event, 1), deal(event, 2)
    services.h4h_start(actor=None, tournament_id=event.pk)
    client.force_login(staff("dealer"))

    playing = html(client.get(page(event, 1)))
    waiting = html(client.get(page(event, 3)))
    client.post(page(event, 1), {"action": "hold", "hand": str(first.number)})
    held = html(client.get(page(event, 1)))
    finish(event, 2, second)
    showdown = html(client.get(page(event, 1)))
    client.post(page(event, 1), {"action": "finish", "hand": str(first.number)})
    dealing = html(client.get(page(event, 3)))

    assert "Finish this hand and hold" in playing and "All-in: hold (RP-8 F)" in playing
    assert "Wait for the deal" in waiting and "2 tables have not finished yet" in waiting
    assert "All-in: cards face down, wait" in held and "RP-8 F" in held
    assert "Show down now" in showdown
    assert "Deal now" in dealing and "round 1" in dealing


def test_the_tablet_reads_a_fixed_number_of_queries(client):
    small = tournament()
    with_structure(small)
    seat_players(small, {1: [1, 2], 2: [1, 2]})
    button_at(small, 1, 1)
    deal(small, 1)
    big = tournament(name="Big")
    with_structure(big)
    seat_players(big, {3: [1, 2, 3, 4, 5, 6, 7, 8, 9], 4: [1, 2, 3, 4, 5, 6, 7, 8, 9]})
    button_at(big, 3, 1)
    deal(big, 3)
    client.force_login(staff("dealer"))
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as few:
        client.get(page(small, 1, "state/"))
    with CaptureQueriesContext(connection) as many:
        client.get(page(big, 3, "state/"))

    assert len(many.captured_queries) == len(few.captured_queries)


def test_the_tablet_reads_as_many_queries_after_one_bust_as_after_several(client):
    """The last bust and whether it may be taken back (issue 16) cost the same however
    many players are out."""
    event = tournament()
    with_structure(event)
    seat_players(event, {1: [1, 2, 3, 4, 5, 6, 7]})
    client.force_login(staff("dealer"))
    services.table_busts_record(actor=None, tournament_id=event.pk, number=1, seats=[7])
    client.get(page(event, 1, "state/"))
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as one:
        client.get(page(event, 1, "state/"))
    for seat in (6, 5, 4):
        services.table_busts_record(actor=None, tournament_id=event.pk, number=1, seats=[seat])
    with CaptureQueriesContext(connection) as several:
        client.get(page(event, 1, "state/"))

    assert len(several.captured_queries) == len(one.captured_queries)

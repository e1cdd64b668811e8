"""One prize pool for an event with flights (issue 17, item 5): the flights' pools plus
the Day 2 late entries plus the guarantee once; the places paid follow the entries over
all flights; places run over the event's whole field, and Day 1 busts have none."""

import pytest
from django.urls import reverse

from hands.services import busts
from payouts.selectors import payout_table
from prizes.selectors import results
from seating.services.day2 import day2_start
from seating.tests.factories import add_tables
from tournaments.models import Entry
from tournaments.selectors import chips_in_play, tournament_totals
from tournaments.tests import factories
from tournaments.tests.festival_factories import bagged, enter, event_with_flights, player

pytestmark = pytest.mark.django_db


def flights_of(sizes: tuple[int, ...], **overrides):
    """An event whose flights sold `sizes` entries (€100 + €10 each), every player new."""
    event, flights = event_with_flights(
        *(f"1{chr(65 + i)}" for i in range(len(sizes))), **overrides
    )
    people = iter(range(1, 1000))
    for flight, size in zip(flights, sizes, strict=True):
        for _ in range(size):
            enter(flight, player(f"Player {next(people):03d}"))
    return event, flights


def test_the_event_pool_is_the_flights_pools_plus_the_guarantee_once():
    event, (a, b, c) = flights_of((10, 12, 8), guarantee=500000)

    totals = tournament_totals(event)

    assert totals.total_buy_ins == 30
    assert totals.prize_pool.collected == 30 * 10000
    assert totals.prize_pool.total == 500000  # the guarantee, once: more than 300,000
    assert totals.fees == 30 * 1000
    # A flight's own totals stay its own.
    assert tournament_totals(b).total_buy_ins == 12
    assert tournament_totals(b).prize_pool.collected == 12 * 10000


def test_the_places_paid_follow_the_entries_over_all_flights():
    event, flights = flights_of((20, 20, 20))
    plain = factories.tournament(name="One-day event")
    for n in range(60):
        factories.register(plain, f"Walk-in {n:02d}")

    assert payout_table(event).places_paid == payout_table(plain).places_paid == 9  # 15 % of 60
    assert payout_table(flights[0]).places_paid == 3


def test_day_2_late_entries_join_the_pool():
    event, (a, b) = flights_of((3, 3), day2_late_entry=True)
    bagged(a, {a.entries.first(): 60000})
    bagged(b, {b.entries.first(): 60000})
    add_tables(event, 1)
    day2_start(actor=None, event_id=event.pk)

    factories.register(event, "Late Erik")

    totals = tournament_totals(event)
    assert totals.total_buy_ins == 7
    assert totals.prize_pool.collected == 7 * 10000
    # The chips in play on Day 2 (what a deal's counts must add up to) are the bags and
    # the late entry's starting stack; a flight's stay its own.
    assert chips_in_play(event) == 2 * 60000 + event.starting_stack
    assert chips_in_play(a) == 3 * a.starting_stack


def test_places_run_over_the_day_2_field_and_day_1_busts_have_none(client):
    event, (a, b) = flights_of((3, 3))
    out_on_day_1 = a.entries.last()
    Entry.objects.filter(pk=out_on_day_1.pk).update(status="busted")
    bagged(a, {e: 30000 for e in a.entries.filter(status="active")})
    bagged(b, {e: 30000 for e in b.entries.all()})
    add_tables(event, 1)
    day2 = day2_start(actor=None, event_id=event.pk)

    busts.entry_bust(actor=None, tournament_id=event.pk, entry_id=day2[0].pk)

    found = results(event)
    assert [(row.entry_id, row.place) for row in found.rows] == [(day2[0].pk, 5)]
    # The flight's results give no place, and say the prizes are paid in the event.
    assert results(a).rows == []
    client.force_login(factories.staff("director"))
    html = client.get(reverse("tournaments:results", args=[a.pk])).content.decode()
    assert "The prizes are paid in the event" in html
    html = client.get(reverse("tournaments:payouts", args=[a.pk])).content.decode()
    assert "The prizes are paid in the event" in html
    html = client.get(reverse("results-public", args=[a.pk])).content.decode()
    assert "The prizes are paid in the event" in html

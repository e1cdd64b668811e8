"""The payout table's reads that the floor asks: how many places are paid (the bubble of
hand-for-hand, RP-8) and whether the players left are in the money (casino §12)."""

import pytest

from payouts.selectors import in_the_money, payout_table, places_paid
from tournaments.models import Tournament
from tournaments.tests.factories import bust_in_order, field, tournament

pytestmark = pytest.mark.django_db


def test_places_paid_are_the_lines_the_table_pays():
    event = tournament(buy_in=10000, fee=1000)
    field(event, 20)

    assert places_paid(event) == payout_table(event).places_paid == 3  # 15 % of 20, rounded up


def test_in_the_money_once_the_players_left_reach_the_places_paid():
    event = tournament(buy_in=10000, fee=0, late_reg_until_level=9)
    entries = field(event, 10)
    Tournament.objects.filter(pk=event.pk).update(status="running", current_level=2)
    event.refresh_from_db()

    bust_in_order(event, *entries[:7])
    assert not in_the_money(event)  # three left, two paid
    bust_in_order(event, entries[7])
    assert in_the_money(event)


def test_never_in_the_money_before_the_start():
    event = tournament()
    field(event, 1)  # one place paid, one player: but nothing is played for yet

    assert places_paid(event) == 1
    assert not in_the_money(event)

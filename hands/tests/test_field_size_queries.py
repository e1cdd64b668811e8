"""A floor action costs as many queries at 2 tables as at 20 (issue 20, item 7): dealing
a hand, finishing it with and without a bust-out, and a re-entry seated at once. A count
that grows with the field makes a 10,000-entry event quadratic.

Both events are built alike (the same seats taken at table 1, every other table like
it), so that each action takes the same path in both; only the size of the field differs.
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clock.tests.factories import with_structure
from hands.services import busts as bust_services
from hands.tests.factories import button_at, deal, finish, seat_players
from seating import services as seating_services
from seating.models import Seat
from seating.services import desk as desk_intentions
from seating.tests.factories import add_tables
from seating.tests.factories import field as seating_field
from tournaments.tests.factories import tournament

pytestmark = pytest.mark.django_db

# Six of nine seats taken, the button on seat 6: the big blind reaches an open seat as
# the button moves on, so halting (TDA 11-D) compares the table with the others.
TAKEN = [1, 2, 3, 4, 5, 6]


def event_of(first: int, tables: int, name: str):
    """Tables `first` on (the venue's tables serve one event at a time)."""
    event = tournament(name=name)
    with_structure(event)
    # Table `first` is the one measured, the next one warms the caches; the others
    # seat two each, which keeps the test quick and the field as wide.
    layout = {first: TAKEN, first + 1: TAKEN} | {
        n: [1, 2] for n in range(first + 2, first + tables)
    }
    players = seat_players(event, layout)
    for number, seats in layout.items():
        button_at(event, number, seats[-1] if len(seats) > 2 else 1)
    return event, first, players


def queries(action) -> tuple[int, object]:
    with CaptureQueriesContext(connection) as captured:
        result = action()
    return len(captured.captured_queries), result


@pytest.fixture
def small_and_large():
    small = event_of(1, 2, "Small")
    large = event_of(11, 20, "Large")
    for event, first, _players in (small, large):  # warm the per-process caches
        finish(event, first + 1, deal(event, first + 1))
    return small, large


def test_dealing_a_hand_costs_the_same_at_2_and_20_tables(small_and_large):
    counts = [
        queries(lambda event=event, first=first: deal(event, first))[0]
        for event, first, _ in small_and_large
    ]

    assert counts[0] == counts[1]


def test_finishing_a_hand_costs_the_same_at_2_and_20_tables(small_and_large):
    hands = [deal(event, first) for event, first, _ in small_and_large]

    counts = [
        queries(lambda event=event, first=first, hand=hand: finish(event, first, hand))[0]
        for (event, first, _), hand in zip(small_and_large, hands, strict=True)
    ]

    assert counts[0] == counts[1]


def test_a_bust_out_costs_the_same_at_2_and_20_tables(small_and_large):
    hands = [deal(event, first) for event, first, _ in small_and_large]
    stacks = {seat: 20000 for seat in TAKEN if seat != 6}
    stacks[1] += 20000  # seat 1 won seat 6's chips

    counts = []
    for (event, first, players), hand in zip(small_and_large, hands, strict=True):
        count, _ = queries(
            lambda event=event, first=first, hand=hand: finish(
                event, first, hand, busts=[6], stacks=stacks
            )
        )
        counts.append(count)
        assert not Seat.objects.filter(entry=players[first, 6]).exists()

    assert counts[0] == counts[1]


def reentry_event(first: int, tables: int, name: str):
    event = tournament(name=name, reentry_allowed=True)
    add_tables(event, tables, first=first)
    entries = seating_field(event, tables * 3, prefix=name)
    seating_services.seating_draw(actor=None, tournament_id=event.pk)
    return event, entries


def test_a_reentry_seated_at_once_costs_the_same_at_2_and_20_tables():
    """The late seat's draw reads the shortest tables only, and where the player last
    sat (casino §12) in two queries: the same for 6 entries as for 60."""
    events = [reentry_event(1, 2, "Small"), reentry_event(11, 20, "Large")]
    counts = []
    for event, entries in events:
        for busted in entries[:2]:  # the first re-entry of the process warms its caches
            bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=busted.pk)
            count, registration = queries(
                lambda event=event, busted=busted: desk_intentions.entry_register(
                    actor=None, tournament_id=event.pk, player_id=busted.player_id, reentry=True
                )
            )
            assert registration.entry.reentry_number == 2
            assert Seat.objects.filter(entry=registration.entry).exists()  # TDA 8-A: at once
        counts.append(count)

    assert counts[0] == counts[1]

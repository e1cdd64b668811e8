"""The places a payment reads (issue 20): `places_window` for one entry reads the busts of
its hand and counts those before it through the indexes, and must give exactly the
place `finishing_places` gives from every bust, whatever order the busts of the hands
were recorded in (a bust recorded late joins its own hand, hands.engine.places)."""

import random

import pytest

from hands.models import Elimination
from hands.selectors import finishing_places, places_window
from tournaments.models import EntryStatus
from tournaments.tests.factories import field, registration_closed, tournament

pytestmark = pytest.mark.django_db


def busted(event, entries, hands: list[str], stacks: list[int] | None = None) -> None:
    """Record the busts of `entries` in this order, each in the hand named beside it."""
    for n, (entry, hand) in enumerate(zip(entries, hands, strict=True)):
        Elimination.objects.create(
            tournament=event,
            entry=entry,
            hand_key=hand,
            table_number=1,
            stack=stacks[n] if stacks else 1000 + n,
        )
        entry.status = EntryStatus.BUSTED
        entry.save(update_fields=["status"])


def each_place_agrees(event) -> None:
    whole = finishing_places(event.pk)
    assert whole
    for entry_id, place in whole.items():
        assert places_window(event.pk, entry_id=entry_id).places[entry_id] == place


def test_a_hand_recorded_across_others_keeps_its_block_of_places():
    """h1 bust, h2 bust, then h1's second bust recorded late: h1's two busts are placed
    together before h2's, and h3 after both."""
    event = tournament()
    entries = field(event, 8)
    registration_closed(event)
    busted(event, entries[:4], ["h1", "h2", "h1", "h3"])

    window = places_window(event.pk, entry_id=entries[1].pk)  # h2's: after h1's two

    assert window.places[entries[1].pk].place == 6
    assert places_window(event.pk, entry_id=entries[3].pk).places[entries[3].pk].place == 5
    each_place_agrees(event)


def test_a_shared_hand_recorded_late_gives_the_same_shared_places():
    event = tournament()
    entries = field(event, 9)
    registration_closed(event)
    busted(event, entries[:6], ["a", "b", "c", "b", "d", "a"], stacks=[500] * 6)

    each_place_agrees(event)


def test_busts_in_any_recorded_order_give_the_places_of_the_whole_field():
    rng = random.Random(20)  # fixed: the same orders every run
    for _round in range(3):
        event = tournament()
        entries = field(event, 14)
        registration_closed(event)
        hands = [f"h{rng.randrange(6)}" for _ in range(11)]
        busted(event, entries[:11], hands, stacks=[rng.choice([500, 800]) for _ in hands])

        each_place_agrees(event)

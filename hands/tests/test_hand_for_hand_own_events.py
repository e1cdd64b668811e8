"""Hand-for-hand (RP-8, casino §29) in events of their own: no places paid, the payout
table's bubble. Apart from test_hand_for_hand.py, whose module world (built once) holds
venue tables 1-3 for the whole module."""

import pytest

from floorman.errors import Conflict
from hands import services
from hands.selectors import h4h_public, hand_for_hand
from hands.services.hand_for_hand import current_round
from tournaments.tests.factories import tournament

pytestmark = pytest.mark.django_db


def start(event):
    return services.h4h_start(actor=None, tournament_id=event.pk)


def state(event):
    settings = hand_for_hand(event.pk)
    return h4h_public(event, settings, current_round(event, settings))


def test_hand_for_hand_needs_places_paid():
    event = tournament()
    with pytest.raises(Conflict) as refused:
        start(event)
    assert refused.value.code == "h4h_no_places_paid"


def test_places_paid_come_from_the_payout_table():
    """Without a number of its own, hand-for-hand plays the payout table's bubble."""
    from payouts.selectors import payout_table
    from tournaments.tests.factories import field

    event = tournament()
    field(event, 40)
    assert state(event)["places_paid"] == payout_table(event).places_paid == 6
    services.h4h_settings_update(actor=None, tournament_id=event.pk, data={"places_paid": 5})
    assert (state(event)["places_paid"], state(event)["places_paid_set"]) == (5, 5)

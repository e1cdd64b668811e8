"""TDA 48 at the table: in limit the house caps the raises of a betting round (a bet
and three raises), and the cap is lifted once the event is down to two players. The
hand remembers whether it was dealt heads-up, so its action log replays alike.

Blinds 100/200, limit bets 200/400; the button on seat 1."""

import pytest

from clock.engine import LEVEL, Step
from clock.tests.factories import with_structure
from floorman.errors import Conflict
from hands import services
from hands.models import HandAction
from hands.selectors import betting_state
from hands.tests.factories import button_at, deal, seat_players
from tournaments.tests.factories import tournament

pytestmark = pytest.mark.django_db

LIMIT_STEPS = [Step(LEVEL, 20, 100, 200, small_bet=200, big_bet=400)]


def limit_event(seats: list[int]):
    event = tournament(game="lhe")
    with_structure(event, LIMIT_STEPS)
    seat_players(event, {1: seats})
    button_at(event, 1, 1)
    return event


def act(event, hand, kind, amount=None):
    return services.hand_action(
        actor=None,
        tournament_id=event.pk,
        number=1,
        hand_number=hand.number,
        kind=kind,
        amount=amount,
    )


def raise_round(event, hand, raises_to):
    for amount in raises_to:
        act(event, hand, "raise", amount)


def test_three_players_in_the_event_stop_at_the_cap():
    event = limit_event([1, 2, 3])
    hand = deal(event, 1)
    # Pre-flop the big blind is the bet: three raises cap it (seats 1, 2, 3 in turn).
    raise_round(event, hand, [400, 600, 800])

    with pytest.raises(Conflict) as refused:
        act(event, hand, "raise", 1000)

    assert refused.value.data["rule"] == "TDA 48"
    assert HandAction.objects.filter(hand=hand).count() == 3
    assert not hand.heads_up


def test_heads_up_for_the_title_the_raising_goes_on():
    event = limit_event([1, 2])
    hand = deal(event, 1)
    # Heads-up the button posts the small blind and acts first pre-flop (TDA 34-B).
    raise_round(event, hand, [400, 600, 800, 1000, 1200])

    hand.refresh_from_db()
    assert hand.heads_up
    assert betting_state(hand).current_bet == 1200
    assert HandAction.objects.filter(hand=hand).count() == 5


def _two_left_in_the_hand(event):
    """Three in the event; the button folds pre-flop, the blinds go on raising."""
    hand = deal(event, 1)
    act(event, hand, "fold")  # seat 1, the button
    raise_round(event, hand, [400, 600])  # the small blind raises, the big blind re-raises
    return hand


def test_two_left_in_the_hand_stay_capped_by_the_tda_reading():
    event = limit_event([1, 2, 3])
    hand = _two_left_in_the_hand(event)
    act(event, hand, "raise", 800)  # the third raise reaches the cap

    with pytest.raises(Conflict) as refused:
        act(event, hand, "raise", 1000)

    assert refused.value.data["rule"] == "TDA 48"


def test_two_left_in_the_hand_raise_on_where_the_house_reads_casino_38():
    event = limit_event([1, 2, 3])
    event.house_settings = {"limit_cap_heads_up": "hand"}
    event.save()
    hand = _two_left_in_the_hand(event)
    raise_round(event, hand, [800, 1000, 1200])

    assert betting_state(hand).current_bet == 1200


def test_a_hand_keeps_the_reading_it_was_dealt_under():
    event = limit_event([1, 2, 3])
    hand = _two_left_in_the_hand(event)
    event.house_settings = {"limit_cap_heads_up": "hand"}  # changed while the hand plays
    event.save()
    act(event, hand, "raise", 800)

    with pytest.raises(Conflict):
        act(event, hand, "raise", 1000)

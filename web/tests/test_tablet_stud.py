"""The dealer's tablet in stud (issue 19, item 7) and at showdown: the upcards entered
street by street (RP-10 D, E), who acts and who brought it in, and who shows first by
the house's reading (TDA 17-A, casino §42), in stud and in hold'em.

Stud: limits 200/400, a 50 ante, a 100 bring-in (the level's small blind column), four
players in seats 1-4 of table 1, the button on seat 4."""

from dataclasses import replace

import pytest

from clock.engine import LEVEL, Step
from clock.tests.factories import with_structure
from floorman.models import AuditEntry
from hands import services
from hands.models import Hand, HandAction, HandPlayer
from hands.tests.factories import button_at, seat_players
from tournaments.tests.factories import staff, tournament

pytestmark = pytest.mark.django_db

STUD_STEPS = [Step(LEVEL, 20, 100, 200, ante=50, ante_type="ante", small_bet=200, big_bet=400)]
DOORS = {1: "Kh", 2: "7d", 3: "2c", 4: "9s"}  # the deuce of clubs brings it in


def stud_event(**house):
    event = tournament(game="stud")
    event.house_settings = house
    event.save()
    with_structure(event, STUD_STEPS)
    seat_players(event, {1: [1, 2, 3, 4]})
    button_at(event, 1, 4)
    return event


def page(event, number: int = 1) -> str:
    return f"/tournaments/{event.pk}/tables/{number}/tablet/"


def text(response) -> str:
    return response.content.decode()


def upcards_form(hand, cards) -> dict:
    return {
        "action": "upcards",
        "hand": str(hand.number),
        **{f"card_{seat}": card for seat, card in cards.items()},
    }


def act(event, hand, kind, amount=None, number=1):
    services.hand_action(
        actor=None,
        tournament_id=event.pk,
        number=number,
        hand_number=hand.number,
        kind=kind,
        amount=amount,
    )


def upcards(event, hand, cards):
    services.hand_upcards(
        actor=None, tournament_id=event.pk, number=1, hand_number=hand.number, cards=cards
    )


def test_the_dealer_enters_the_door_cards_and_the_tablet_names_the_bring_in(client):
    event = stud_event()
    client.force_login(staff("dealer"))
    started = client.post(page(event), {"action": "start"}, follow=True)
    hand = Hand.objects.get()
    assert "Upcards on third street" in text(started)
    assert "Stud 200 / 400, bring-in 100" in text(started)
    assert 'name="card_4"' in text(started)

    entered = client.post(page(event), upcards_form(hand, DOORS), follow=True)

    assert "Upcards entered." in text(entered)
    assert "Seat 3 has the bring-in." in text(entered)
    assert "seat 3 to act" in text(entered)
    assert HandPlayer.objects.get(hand=hand, seat=3).upcards == ["2c"]


def test_the_tablet_asks_for_fourth_street_and_the_high_hand_acts(client):
    event = stud_event()
    client.force_login(staff("dealer"))
    client.post(page(event), {"action": "start"})
    hand = Hand.objects.get()
    upcards(event, hand, DOORS)
    for kind, amount in (("bet", 100), ("call", None), ("call", None), ("call", None)):
        act(event, hand, kind, amount)
    shown = client.get(page(event))
    assert "Upcards on fourth street" in text(shown)

    # RP-10 D: seats 1 and 4 both show K-9; the king of spades (seat 4) acts first.
    entered = client.post(
        page(event), upcards_form(hand, {1: "9h", 2: "3d", 3: "4c", 4: "Ks"}), follow=True
    )

    assert "seat 4 to act" in text(entered)


def test_a_bad_upcard_is_400_on_the_tablet_and_writes_nothing(client):
    event = stud_event()
    client.force_login(staff("dealer"))
    client.post(page(event), {"action": "start"})
    hand = Hand.objects.get()
    audit = AuditEntry.objects.count()

    refused = client.post(page(event), upcards_form(hand, {**DOORS, 4: "Kh"}))

    assert refused.status_code == 400
    assert "a card shows only once" in text(refused)
    assert not HandPlayer.objects.exclude(upcards=[]).exists()
    assert AuditEntry.objects.count() == audit


def stud_to_seventh(event):
    """Seat 1 folds on third street; seat 2 bets fifth street and seat 3 raises it; on
    sixth street seat 4 pairs its kings, so it acts first on seventh (dealt down)."""
    hand = services.hand_start(actor=None, tournament_id=event.pk, number=1)
    upcards(event, hand, DOORS)
    for kind, amount in (("bet", 100), ("call", None), ("fold", None), ("call", None)):
        act(event, hand, kind, amount)
    upcards(event, hand, {2: "3d", 3: "4c", 4: "Ad"})
    for _ in range(3):
        act(event, hand, "check")
    upcards(event, hand, {2: "3s", 3: "5c", 4: "Kd"})
    act(event, hand, "bet", 400)
    act(event, hand, "raise", 800)
    act(event, hand, "call")
    act(event, hand, "call")
    upcards(event, hand, {2: "8c", 3: "6c", 4: "Kc"})
    for _ in range(6):  # sixth and seventh street checked through
        act(event, hand, "check")
    return hand


def test_tda_17a_stud_no_bet_on_seventh_the_high_hand_showing_shows_first(client):
    event = stud_event()
    stud_to_seventh(event)
    client.force_login(staff("dealer"))

    shown = text(client.get(page(event)))

    assert "Seat 4 shows first (TDA 17-A)" in shown
    assert "Order of showing: seats 4, 2, 3." in shown


def test_casino_42_stud_the_last_aggressor_of_any_round_shows_first(client):
    event = stud_event(show_order="any_round")
    stud_to_seventh(event)
    client.force_login(staff("dealer"))

    shown = text(client.get(page(event)))

    assert "Seat 3 shows first (casino §42)" in shown


# --- Hold'em: 100/200 no-limit, three players in seats 1-3 of table 2, button on 1 ----------


def holdem_hand(event):
    """Pre-flop called round; on the flop seat 3 bets and is called; turn and river are
    checked through. Seats 2 (small blind) and 3 (big blind), button 1."""
    seat_players(event, {2: [1, 2, 3]})
    button_at(event, 2, 1)
    hand = services.hand_start(actor=None, tournament_id=event.pk, number=2)
    for kind in ("call", "call", "check"):  # the button, the small blind, the big blind
        act(event, hand, kind, number=2)
    act(event, hand, "check", number=2)  # flop: seat 2 checks,
    act(event, hand, "bet", 400, number=2)  # seat 3 bets,
    act(event, hand, "call", number=2)  # seat 1 calls,
    act(event, hand, "call", number=2)  # seat 2 calls
    for _ in range(6):
        act(event, hand, "check", number=2)
    return hand


@pytest.mark.parametrize(
    "house, first, rule",
    [
        ({}, 2, "TDA 17-A"),  # no bet on the river: the first seat left of the button
        ({"show_order": "any_round"}, 3, "casino §42"),  # the flop's bettor
    ],
)
def test_holdem_who_shows_first_on_the_tablet_and_in_the_api(client, house, first, rule):
    event = tournament()
    event.house_settings = house
    event.save()
    with_structure(event)
    hand = holdem_hand(event)
    client.force_login(staff("dealer"))

    shown = text(client.get(page(event, 2)))
    detail = client.get(f"/api/v1/tournaments/{event.pk}/tables/2/hands/{hand.number}/")

    assert f"Seat {first} shows first ({rule})" in shown
    assert detail.json()["betting"]["show_order"]["seats"][0] == first
    assert detail.json()["betting"]["show_order"]["rule"] == rule


def test_rp10e_a_level_with_its_own_bring_in_posts_it_not_the_small_blind_column(client):
    event = tournament(game="stud")
    own = Step(LEVEL, 20, 100, 200, ante=50, ante_type="ante", small_bet=200, big_bet=400)
    with_structure(event, [replace(own, bring_in=75)])
    seat_players(event, {1: [1, 2, 3, 4]})
    button_at(event, 1, 4)
    client.force_login(staff("dealer"))

    started = client.post(page(event), {"action": "start"}, follow=True)
    hand = Hand.objects.get()
    client.post(page(event), upcards_form(hand, DOORS))
    act(event, hand, "bet", 75)  # seat 3, the deuce, brings it in for the level's 75
    shown = client.get(page(event)).content.decode()

    assert "Stud 200 / 400, bring-in 75" in text(started)
    assert hand.bring_in_amount == 75
    bring_in = HandAction.objects.get(hand=hand)
    assert (bring_in.seat, bring_in.kind, bring_in.amount) == (3, "bet", 75)
    assert "seat 4 to act" in shown

"""RP-22 on the dealer's tablet: the player in turn bets with a bounty chip, a clock token
or another item of no value. The house policy rules it a call or all-in; where the house
leaves it to the floor the tablet shows "Floor: RP-22" and the floor rules on the tablet.

Table 2 has players in seats 1-4 with the button on seat 1: seat 2 posts the small
blind, seat 3 the big blind, and seat 4 acts first."""

import pytest

from clock.tests.factories import with_structure
from floorman.models import AuditEntry
from hands import services
from hands.models import Hand, HandAction
from hands.tests.factories import button_at, seat_players
from tournaments.tests.factories import staff, tournament

pytestmark = pytest.mark.django_db


def event_with(policy: str, *, dealt: bool = True):
    event = tournament()
    with_structure(event)  # level 1: 100/200
    event.non_betting_items = policy
    event.save(update_fields=["non_betting_items"])
    seat_players(event, {2: [1, 2, 3, 4]})
    button_at(event, 2, 1)
    if dealt:
        services.hand_start(actor=None, tournament_id=event.pk, number=2)
    return event


def page(event) -> str:
    return f"/tournaments/{event.pk}/tables/2/tablet/"


def html(response) -> str:
    return response.content.decode()


def stored() -> dict:
    return {
        "actions": list(HandAction.objects.values()),
        "hands": list(Hand.objects.values()),
        "audit": AuditEntry.objects.count(),
    }


def bet_item(client, event, item="bounty_chip", seat="4"):
    return client.post(page(event), {"action": "item", "hand": "1", "seat": seat, "item": item})


def test_during_a_logged_hand_the_tablet_offers_the_item_for_the_seat_to_act(client):
    event = event_with("call")
    client.force_login(staff("dealer"))

    shown = html(client.get(page(event)))

    assert "Seat 4 bet with a bounty chip or token" in shown
    assert 'name="seat" value="4"' in shown
    assert "House policy (RP-22): A call." in shown
    for item in ("bounty_chip", "clock_token", "other"):
        assert f'name="item" value="{item}"' in shown


def test_without_a_hand_in_play_there_is_no_item_to_record(client):
    event = event_with("call", dealt=False)
    client.force_login(staff("dealer"))

    assert 'name="item"' not in html(client.get(page(event)))


def test_house_policy_call_the_dealer_records_a_call_and_is_told_so(client):
    event = event_with("call")
    client.force_login(staff("dealer"))

    response = bet_item(client, event)
    shown = html(client.get(page(event)))

    assert response.status_code == 302 and response["Location"] == page(event)
    assert list(HandAction.objects.values_list("seat", "kind", "item")) == [
        (4, "call", "bounty_chip")
    ]
    assert "Seat 4 bet a bounty chip: ruled a call (RP-22)." in shown
    assert "Seat 1 bet with a bounty chip or token" in shown  # the action moved on


def test_house_policy_all_in_through_a_tablet_link(client):
    event = event_with("all_in")
    link = services.tablet_link_create(actor=None, tournament_id=event.pk, number=2)

    response = client.post(
        f"/tablet/{link.token}/",
        {"action": "item", "hand": "1", "seat": "4", "item": "clock_token"},
    )

    assert response.status_code == 302
    assert list(HandAction.objects.values_list("seat", "kind", "item")) == [
        (4, "all-in", "clock_token")
    ]
    assert AuditEntry.objects.get(action="hand.item").actor is None


def test_left_to_the_floor_the_tablet_shows_floor_rp_22_and_the_floor_rules(client):
    event = event_with("floor")
    client.force_login(staff("dealer"))
    bet_item(client, event)
    dealer_sees = html(client.get(page(event)))
    floor = staff("floor")
    client.force_login(floor)
    floor_sees = html(client.get(page(event)))

    ruled = client.post(page(event), {"action": "item_ruling", "hand": "1", "ruling": "all_in"})
    after = html(client.get(page(event)))

    assert "Floor: RP-22" in dealer_sees
    assert "Seat 4 bet a bounty chip: the floor rules it a call or all-in (RP-22)." in dealer_sees
    assert 'name="ruling"' not in dealer_sees  # the floor's step, not the dealer's
    assert 'name="ruling" value="call"' in floor_sees
    assert 'name="ruling" value="all_in"' in floor_sees
    assert ruled.status_code == 302
    assert list(HandAction.objects.values_list("seat", "kind", "item")) == [
        (4, "all-in", "bounty_chip")
    ]
    assert AuditEntry.objects.get(action="hand.item_ruling").actor == floor
    assert "Seat 4 bet a bounty chip: ruled all-in (RP-22)." in after
    assert "data-item-pending" not in after


def test_a_dealer_may_not_rule_on_the_item(client):
    event = event_with("floor")
    link = services.tablet_link_create(actor=None, tournament_id=event.pk, number=2)
    client.force_login(staff("dealer"))
    bet_item(client, event)
    before = stored()

    by_dealer = client.post(page(event), {"action": "item_ruling", "hand": "1", "ruling": "call"})
    client.logout()
    by_link = client.post(
        f"/tablet/{link.token}/", {"action": "item_ruling", "hand": "1", "ruling": "call"}
    )

    assert by_dealer.status_code == by_link.status_code == 403
    assert stored() == before


@pytest.mark.parametrize(
    ("data", "status", "message"),
    [
        ({"item": "gold"}, 400, "Choose the item"),
        ({"item": ""}, 400, "Choose the item"),
        ({"seat": ""}, 400, "Seat"),
        ({"seat": "2"}, 409, "act in turn (TDA 53-A)"),
        ({"hand": "2"}, 409, "Hand 2 is not the hand in play"),
    ],
)
def test_refused_items_show_the_reason_and_change_nothing(client, data, status, message):
    event = event_with("call")
    client.force_login(staff("dealer"))
    before = stored()

    response = client.post(
        page(event), {"action": "item", "hand": "1", "seat": "4", "item": "bounty_chip", **data}
    )

    assert response.status_code == status
    assert message in html(response)
    assert stored() == before


def test_an_item_with_no_hand_in_play_is_409(client):
    event = event_with("call", dealt=False)
    client.force_login(staff("dealer"))
    before = stored()

    response = bet_item(client, event)

    assert response.status_code == 409
    assert "No hand is being played at this table." in html(response)
    assert stored() == before


def test_a_bad_ruling_is_400_and_changes_nothing(client):
    event = event_with("floor")
    client.force_login(staff("floor"))
    bet_item(client, event)
    before = stored()

    response = client.post(page(event), {"action": "item_ruling", "hand": "1", "ruling": "fold"})

    assert response.status_code == 400
    assert "Rule the item a call or all-in." in html(response)
    assert stored() == before

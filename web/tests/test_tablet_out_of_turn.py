"""TDA 53 on the dealer's tablet: the dealer records an action out of turn, the tablet
holds it, tells where the action backs up to and that the floor is called (the action is
subject to penalty, TDA 53-A; the floor's warning then shows at the seat, RP-15). After
substantial action out of turn past a skipped player the tablet shows "Floor: TDA 53-B"
and the floor rules on the skipped hand there: dead, or check, call or fold only.

Table 2 has players in seats 1-6 with the button on seat 1: seat 2 posts the small blind
(50), seat 3 the big blind (100), seat 4 is under the gun."""

import pytest

from clock.engine import LEVEL, Step
from clock.tests.factories import with_structure
from floorman.models import AuditEntry
from floorman.tests.worlds import world_fixtures
from hands import services
from hands.models import Hand, HandAction
from hands.selectors import betting_state
from hands.tests.factories import button_at, seat_players
from rulings import services as rulings
from rulings.models import PenaltyKind
from tournaments.tests.factories import staff, tournament

pytestmark = pytest.mark.django_db


def build_event():
    event = tournament()
    with_structure(event, [Step(LEVEL, 20, 50, 100)])
    event.seated = seat_players(event, {2: [1, 2, 3, 4, 5, 6]})
    button_at(event, 2, 1)
    services.hand_start(actor=None, tournament_id=event.pk, number=2)
    return event


# Made once for the module, each test in a savepoint rolled back after it.
world_made, world = world_fixtures(build_event)


@pytest.fixture
def event(world):
    return world


def page(event) -> str:
    return f"/tournaments/{event.pk}/tables/2/tablet/"


def html(response) -> str:
    return response.content.decode()


def act(event, seat: int, kind: str, amount: int | None = None):
    services.hand_action(
        actor=None,
        tournament_id=event.pk,
        number=2,
        hand_number=1,
        kind=kind,
        seat=seat,
        amount=amount,
    )


def out_of_turn(client, event, seat, kind, amount=""):
    data = {"action": "oot", "hand": "1", "seat": str(seat), "kind": kind, "amount": amount}
    return client.post(page(event), data)


def oot_form(shown: str) -> str:
    """The tablet's form for an action out of turn (other forms offer seats too)."""
    form = shown[shown.index('data-form="oot"') :]
    return form[: form.index("</form>")]


def betting(event):
    return betting_state(Hand.objects.get(tournament=event))


def stored() -> dict:
    return {
        "actions": list(HandAction.objects.values()),
        "hands": list(Hand.objects.values()),
        "audit": AuditEntry.objects.count(),
    }


def test_the_tablet_offers_to_record_an_action_out_of_turn_by_any_other_seat(client, event):
    client.force_login(staff("dealer"))

    shown = html(client.get(page(event)))

    assert "A player acted out of turn (TDA 53-A)" in shown
    assert "The action is held and backs up to seat 4." in shown
    for seat in (1, 2, 3, 5, 6):
        assert f'type="radio" name="seat" value="{seat}"' in oot_form(shown)
    assert 'type="radio" name="seat" value="4"' not in oot_form(shown)  # seat 4 acts in turn


def test_the_dealer_records_a_raise_out_of_turn_the_tablet_holds_it_and_calls_the_floor(
    client, event
):
    client.force_login(staff("dealer"))

    response = out_of_turn(client, event, 6, "raise", "800")
    shown = html(client.get(page(event)))

    assert response.status_code == 302 and response["Location"] == page(event)
    assert list(HandAction.objects.values_list("seat", "kind", "amount", "out_of_turn")) == [
        (6, "raise", 800, "action")
    ]
    assert "Action out of turn (TDA 53-A)" in shown
    assert "The action backs up to seat 4." in shown
    assert (
        "Seat 6 acted out of turn (raise to 800): held until the action reaches the seat" in shown
    )
    assert "Call the floor: an action out of turn is subject to penalty (TDA 53-A)" in shown
    assert "Warn or penalise on the floor page" not in shown  # the floor's, not the dealer's
    assert 'type="radio" name="seat" value="6"' not in oot_form(shown)  # one held action a seat
    assert AuditEntry.objects.get(action="hand.out_of_turn").after["seat"] == 6


def test_the_held_raise_stands_once_the_skipped_seats_call_or_fold(client, event):
    client.force_login(staff("dealer"))
    out_of_turn(client, event, 6, "raise", "800")

    act(event, 4, "call")
    act(event, 5, "fold")

    state = betting(event)
    assert state.player(6).bet == 800 and state.to_act == 1
    shown = html(client.get(page(event)))
    assert "Action out of turn (TDA 53-A)" not in shown  # nothing held any more
    assert "Seat 6 acted out of turn this hand." in shown  # the floor is still called


def test_a_raise_in_between_frees_the_oot_player(client, event):
    client.force_login(staff("dealer"))
    out_of_turn(client, event, 6, "call")

    act(event, 4, "raise", 300)
    act(event, 5, "call")

    state = betting(event)
    assert state.to_act == 6 and state.player(6).bet == 0
    assert state.legal_actions().call == 300 and state.legal_actions().wager == "raise"


def test_the_floor_warns_the_player_and_the_seat_shows_it(client, event):
    floor = staff("floor")
    client.force_login(floor)
    out_of_turn(client, event, 6, "fold")
    shown = html(client.get(page(event)))

    rulings.penalty_give(
        actor=floor,
        tournament_id=event.pk,
        data={"entry": event.seated[(2, 6)].pk, "kind": PenaltyKind.WARNING, "reason": "TDA 53-A"},
    )
    after = html(client.get(page(event)))

    assert "Warn or penalise on the floor page (TDA 71)" in shown
    assert f'href="/tournaments/{event.pk}/floor/"' in shown
    assert "b-warned" not in shown
    assert "b-warned" in after  # RP-15: the next dealer is told


# --- TDA 53-B -------------------------------------------------------------------------------


def skipped_seat_5(client, event):
    """UTG (seat 4) makes it 600; seat 5 is skipped: seat 6 calls out of turn, seat 1
    folds out of turn: substantial action (TDA 36)."""
    act(event, 4, "raise", 600)
    out_of_turn(client, event, 6, "call")
    return out_of_turn(client, event, 1, "fold")


def test_substantial_action_out_of_turn_shows_floor_53b_and_the_floor_rules_dead(client, event):
    client.force_login(staff("dealer"))
    skipped_seat_5(client, event)
    dealer_sees = html(client.get(page(event)))
    floor = staff("floor")
    client.force_login(floor)
    floor_sees = html(client.get(page(event)))

    ruled = client.post(
        page(event), {"action": "oot_ruling", "hand": "1", "seat": "5", "ruling": "dead"}
    )
    after = html(client.get(page(event)))

    assert "Floor: TDA 53-B" in dealer_sees
    assert "Seat 5 was skipped and substantial action out of turn followed" in dealer_sees
    assert 'name="ruling"' not in dealer_sees  # the floor's step, not the dealer's
    assert 'data-form="oot"' not in dealer_sees  # the betting holds
    assert 'name="ruling" value="dead"' in floor_sees
    assert 'name="ruling" value="limited"' in floor_sees
    assert ruled.status_code == 302
    state = betting(event)
    assert state.player(5).folded and state.player(1).folded
    assert state.player(6).bet == 600 and state.to_act == 2
    assert "Seat 5: hand ruled dead (TDA 53-B)." in after
    assert AuditEntry.objects.get(action="hand.skipped_ruling").actor == floor


def test_the_floor_limits_the_skipped_seat_to_check_call_or_fold(client, event):
    client.force_login(staff("floor"))
    skipped_seat_5(client, event)

    client.post(
        page(event), {"action": "oot_ruling", "hand": "1", "seat": "5", "ruling": "limited"}
    )

    state = betting(event)
    assert state.to_act == 5 and state.legal_actions().wager is None
    assert "Seat 5: check, call or fold only this betting round (TDA 53-B)." in html(
        client.get(page(event))
    )


def test_a_dealer_may_not_rule_on_the_skipped_hand(client, event):
    link = services.tablet_link_create(actor=None, tournament_id=event.pk, number=2)
    client.force_login(staff("dealer"))
    skipped_seat_5(client, event)
    before = stored()
    ruling = {"action": "oot_ruling", "hand": "1", "seat": "5", "ruling": "dead"}

    by_dealer = client.post(page(event), ruling)
    client.logout()
    by_link = client.post(f"/tablet/{link.token}/", ruling)

    assert by_dealer.status_code == by_link.status_code == 403
    assert stored() == before


# --- Refused: the reason shown, nothing written ---------------------------------------------


@pytest.mark.parametrize(
    ("data", "status", "message"),
    [
        ({"seat": "4"}, 409, "Seat 4 is to act: log the action in turn"),
        ({"seat": "7"}, 409, "Seat 7 is not in this hand"),
        ({"seat": "6"}, 409, "Seat 6 already acted out of turn"),
        ({"seat": ""}, 400, "Which seat acted?"),
        ({"kind": "shove"}, 400, "Choose the action"),
        ({"kind": "raise", "amount": ""}, 400, "A bet or raise needs an amount."),
        ({"kind": "raise", "amount": "150"}, 409, "Too small"),
        ({"hand": "2"}, 409, "Hand 2 is not the hand in play"),
    ],
)
def test_a_refused_action_out_of_turn_shows_why_and_changes_nothing(
    client, event, data, status, message
):
    client.force_login(staff("dealer"))
    out_of_turn(client, event, 6, "call")
    before = stored()

    response = client.post(
        page(event), {"action": "oot", "hand": "1", "seat": "5", "kind": "call", **data}
    )

    assert response.status_code == status
    assert message in html(response)
    assert stored() == before


def test_nothing_out_of_turn_once_the_hand_is_over(client, event):
    client.force_login(staff("dealer"))
    services.hand_finish(actor=None, tournament_id=event.pk, number=2, hand_number=1)
    before = stored()

    response = out_of_turn(client, event, 6, "fold")

    assert response.status_code == 409
    assert "Hand 1 is finished." in html(response)
    assert stored() == before

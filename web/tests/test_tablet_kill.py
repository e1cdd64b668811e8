"""TDA 65 and 66 on the dealer's tablet: the dealer records a hand killed during play,
whoever's turn it is; the seat shows "hand killed", the tablet tells what became of the
chips (calls stay in the pot, an uncalled bet or raise goes back, TDA 65-A) and, when one
live hand is left, that it wins the pot. A fouled hand that can be identified stays in
play (TDA 65-B): the tablet says so and records nothing.

Table 2 has players in seats 1-4 with the button on seat 4: seat 1 posts the small blind
(50), seat 2 the big blind (100), seat 3 is under the gun."""

import pytest

from clock.engine import LEVEL, Step
from clock.tests.factories import with_structure
from floorman.models import AuditEntry
from hands import services
from hands.models import Hand, HandAction
from hands.selectors import betting_state
from hands.tests.factories import button_at, seat_players
from tournaments.tests.factories import staff, tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    event = tournament()
    with_structure(event, [Step(LEVEL, 20, 50, 100)])
    seat_players(event, {2: [1, 2, 3, 4]})
    button_at(event, 2, 4)
    services.hand_start(actor=None, tournament_id=event.pk, number=2)
    return event


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


def kill(client, event, seat, reason):
    data = {"action": "kill", "hand": "1", "seat": str(seat), "reason": reason}
    return client.post(page(event), data)


def stored() -> dict:
    return {
        "actions": list(HandAction.objects.values()),
        "hands": list(Hand.objects.values()),
        "audit": AuditEntry.objects.count(),
    }


def test_the_tablet_offers_to_kill_any_live_hand(client, event):
    client.force_login(staff("dealer"))
    act(event, 3, "fold")

    shown = html(client.get(page(event)))

    assert "A hand is dead (TDA 65-A, 66)" in shown
    assert "Killed by the dealer by mistake" in shown
    assert "Fouled, but it can be identified" in shown
    assert "upcards picked up facing action" not in shown  # TDA 66: stud only
    form = shown[shown.index('data-form="kill"') :]
    form = form[: form.index("</form>")]
    for seat in (1, 2, 4):
        assert f'type="radio" name="seat" value="{seat}"' in form
    assert 'type="radio" name="seat" value="3"' not in form  # folded


def test_the_dealer_kills_a_hand_out_of_turn_the_action_stays_on_the_seat_in_turn(client, event):
    client.force_login(staff("dealer"))
    act(event, 3, "raise", 300)

    response = kill(client, event, 1, "mistake")  # seat 4 is in turn
    shown = html(client.get(page(event)))

    assert response.status_code == 302 and response["Location"] == page(event)
    assert list(HandAction.objects.values_list("seat", "kind", "out_of_turn"))[-1] == (
        1,
        "mistake",
        "killed",
    )
    assert "hand killed" in shown
    assert "Seat 1&#x27;s hand was killed by the dealer by mistake (TDA 65-A)." in shown
    assert "No refund of calls" in shown
    state = betting_state(Hand.objects.get())
    assert state.to_act == 4 and state.stacks[1] == 20000 - 50


def test_the_last_live_hand_is_told_it_wins_the_pot(client, event):
    client.force_login(staff("dealer"))
    act(event, 3, "raise", 300)
    act(event, 4, "fold")
    act(event, 1, "fold")

    response = kill(client, event, 3, "fouled")  # the raiser's cards are fouled, unknown
    shown = html(client.get(page(event)))

    assert response.status_code == 302
    assert "The bet or raise nobody called, 200, goes back to the player (TDA 65-A)." in shown
    assert "Seat 2 holds the last live hand and wins the pot" in shown
    assert betting_state(Hand.objects.get()).finished


def test_65b_an_identifiable_fouled_hand_stays_in_play_and_nothing_is_recorded(client, event):
    client.force_login(staff("dealer"))
    before = stored()

    response = kill(client, event, 3, "identifiable")

    assert response.status_code == 409
    assert "TDA 65-B" in html(response) and "it stays in play" in html(response)
    assert stored() == before


def test_a_bad_kill_on_the_tablet_is_400_and_writes_nothing(client, event):
    client.force_login(staff("dealer"))
    before = stored()

    response = kill(client, event, 3, "")

    assert response.status_code == 400
    assert stored() == before


def test_an_anonymous_visitor_cannot_kill_a_hand(client, event):
    before = stored()

    response = kill(client, event, 3, "mistake")

    assert response.status_code in (302, 403)
    assert stored() == before

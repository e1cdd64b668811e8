"""The dealer's tablet and its links (web.tablet): who may open what, each action through
the page, bad input changes nothing, what the page shows. The floor's hand-for-hand page
is tested in hands/tests/test_views.py."""

import pytest

from clock import services as clock_services
from clock.tests.factories import with_structure
from floorman.models import AuditEntry
from floorman.tests.worlds import world_fixtures
from hands import services
from hands.models import (
    Elimination,
    Hand,
    HandAction,
    HandForHand,
    HandStatus,
    TabletLink,
)
from hands.selectors import finishing_places
from hands.tests.factories import button_at, deal, finish, seat_players
from seating import services as seating
from seating.models import Seat, TableState
from tournaments.models import Entry, Tournament
from tournaments.tests.factories import staff, tournament

pytestmark = pytest.mark.django_db


def build_world():
    """Two tables of four at level 1 (100/200); table 2's button is on seat 1."""
    event = tournament()
    with_structure(event)
    seated = seat_players(event, {1: [1, 2, 3, 4], 2: [1, 2, 3, 4]})
    button_at(event, 2, 1)
    return event, seated


# Made once for the module (~0.4 s a world), each test in a savepoint rolled back after it.
world_made, world = world_fixtures(build_world)


def page(event, number: int = 2, suffix: str = "") -> str:
    return f"/tournaments/{event.pk}/tables/{number}/tablet/{suffix}"


def link_url(link: TabletLink, suffix: str = "") -> str:
    return f"/tablet/{link.token}/{suffix}"


def h4h_url(event) -> str:
    return f"/tournaments/{event.pk}/hand-for-hand/"


def stored() -> dict:
    models = (Hand, HandAction, Elimination, TableState, HandForHand, TabletLink, Entry)
    return {m.__name__: list(m.objects.order_by("pk").values()) for m in models}


def make_link(event, number: int) -> TabletLink:
    return services.tablet_link_create(actor=None, tournament_id=event.pk, number=number)


def html(response) -> str:
    return response.content.decode()


# --- Who may open what -----------------------------------------------------------------


@pytest.mark.parametrize("suffix", ["", "state/", "links/"])
def test_anonymous_visitor_is_sent_to_log_in(client, world, suffix):
    event, _seated = world

    response = client.get(page(event, 2, suffix))

    assert response.status_code == 302 and "/login/" in response["Location"]


def test_anonymous_post_changes_nothing(client, world):
    event, _seated = world
    before = stored()

    response = client.post(page(event), {"action": "start"})

    assert response.status_code == 302 and "/login/" in response["Location"]
    assert stored() == before


@pytest.mark.parametrize("suffix", ["", "state/", "links/"])
def test_a_cashier_may_not_open_a_tablet(client, world, suffix):
    event, _seated = world
    client.force_login(staff("cashier"))

    assert client.get(page(event, 2, suffix)).status_code == 403


def test_a_cashier_may_not_deal(client, world):
    event, _seated = world
    client.force_login(staff("cashier"))

    response = client.post(page(event), {"action": "start"})

    assert response.status_code == 403
    assert not Hand.objects.exists()


@pytest.mark.parametrize("role", ["dealer", "floor", "director"])
def test_dealers_the_floor_and_directors_open_the_tablet(client, world, role):
    event, _seated = world
    client.force_login(staff(role))

    response = client.get(page(event))
    state = client.get(page(event, 2, "state/"))

    assert response.status_code == 200
    assert "Table 2" in html(response) and "Player 0005" in html(response)
    assert state.status_code == 200 and state.json()["table"] == 2


def test_unknown_or_broken_table_is_404(client, world):
    event, _seated = world
    client.force_login(staff("floor"))

    assert client.get(page(event, 9)).status_code == 404
    assert client.get(f"/tournaments/{event.pk + 1}/tables/2/tablet/").status_code == 404


def test_the_floor_sees_the_floor_links_a_dealer_does_not(client, world):
    event, _seated = world
    links = page(event, 2, "links/")
    client.force_login(staff("dealer"))
    dealer = html(client.get(page(event)))
    client.force_login(staff("floor"))
    floor = html(client.get(page(event)))

    assert links not in dealer and h4h_url(event) not in dealer
    assert links in floor and h4h_url(event) in floor


# --- Tablet links ----------------------------------------------------------------------


def test_a_tablet_link_opens_its_table_without_an_account(client, world):
    event, _seated = world
    link = make_link(event, 2)

    response = client.get(link_url(link))
    state = client.get(link_url(link, "state/"))

    assert response.status_code == 200
    assert "Table 2" in html(response) and "Player 0005" in html(response)
    assert "Log out" not in html(response)
    assert state.status_code == 200 and state.json()["table"] == 2


def test_a_dealer_deals_through_the_link_as_nobody(client, world):
    event, _seated = world
    link = make_link(event, 2)

    response = client.post(link_url(link), {"action": "start"})

    assert response.status_code == 302 and response["Location"] == link_url(link)
    hand = Hand.objects.get()
    assert (hand.table.number, hand.number) == (2, 1)
    assert AuditEntry.objects.get(action="hand.start").actor is None


def test_staff_actions_are_recorded_with_the_person(client, world):
    event, _seated = world
    dealer = staff("dealer")
    client.force_login(dealer)

    client.post(page(event), {"action": "start"})

    assert AuditEntry.objects.get(action="hand.start").actor == dealer


@pytest.mark.parametrize("how", ["revoked", "unknown", "broken"])
def test_a_revoked_unknown_or_broken_link_is_404_and_says_so(client, world, how):
    event, _seated = world
    link = make_link(event, 2)
    if how == "revoked":
        services.tablet_link_revoke(actor=None, tournament_id=event.pk, link_id=link.pk)
    elif how == "broken":
        seating.table_break(actor=None, tournament_id=event.pk, number=2)
    url = link_url(link) if how != "unknown" else "/tablet/not-a-real-token/"
    before = stored()

    response = client.get(url)
    posted = client.post(url, {"action": "start"})
    state = client.get(url + "state/")

    assert response.status_code == 404
    assert "This tablet link is no longer valid" in html(response)
    assert posted.status_code == 404 and state.status_code == 404
    assert stored() == before


def test_a_link_for_one_table_never_acts_on_another(client, world):
    event, _seated = world
    button_at(event, 1, 1)
    link = make_link(event, 1)

    client.post(link_url(link), {"action": "start", "number": "2", "table": "2"})
    client.post(link_url(link), {"action": "bust", "seats": ["2"], "table": "2"})
    staff_page = client.post(page(event, 2), {"action": "start"})

    assert [h.table.number for h in Hand.objects.all()] == [1]
    assert [e.table_number for e in Elimination.objects.all()] == [1]
    assert staff_page.status_code == 302 and "/login/" in staff_page["Location"]
    assert not Hand.objects.filter(table__number=2).exists()


def test_the_floor_makes_a_link_with_a_qr_code_and_revokes_it(client, world):
    event, _seated = world
    client.force_login(staff("floor"))

    made = client.post(page(event, 2, "links/"), {"action": "create"})
    link = TabletLink.objects.get()
    shown = client.get(page(event, 2, "links/"))
    revoked = client.post(page(event, 2, "links/"), {"action": "revoke", "link": link.pk})

    assert made.status_code == 302
    assert link.table.number == 2
    assert f'://testserver/tablet/{link.token}/"' in html(shown)
    assert "<svg" in html(shown)
    assert revoked.status_code == 302
    link.refresh_from_db()
    assert link.revoked_at is not None
    assert client.get(link_url(link)).status_code == 404


def test_a_table_page_cannot_revoke_another_tables_link(client, world):
    event, _seated = world
    other = make_link(event, 1)
    client.force_login(staff("floor"))

    response = client.post(page(event, 2, "links/"), {"action": "revoke", "link": other.pk})

    assert response.status_code == 404
    other.refresh_from_db()
    assert other.revoked_at is None


@pytest.mark.parametrize("data", [{}, {"action": "explode"}, {"action": "revoke"}])
def test_bad_link_requests_are_400(client, world, data):
    event, _seated = world
    client.force_login(staff("floor"))

    response = client.post(page(event, 2, "links/"), data)

    assert response.status_code == 400
    assert not TabletLink.objects.exists()


def test_a_dealer_may_not_hand_out_links(client, world):
    event, _seated = world
    client.force_login(staff("dealer"))

    response = client.post(page(event, 2, "links/"), {"action": "create"})

    assert response.status_code == 403
    assert not TabletLink.objects.exists()


# --- Actions through the page ------------------------------------------------------------


def test_draw_for_the_button_shows_the_cards(client, world):
    event, _seated = world
    client.force_login(staff("dealer"))

    response = client.post(page(event, 1), {"action": "draw"}, follow=True)

    state = TableState.objects.get(table__number=1)
    assert state.button in (1, 2, 3, 4) and len(state.draw_cards) == 4
    text = html(response)
    assert f"Seat {state.button} drew the high card" in text
    assert "IFP 2.1" in text and "Start hand 1" in text


def test_a_tablets_message_shows_on_its_own_table_only(client, world):
    """Issue 16: one browser, two tablets. Table 1's draw is answered while table 2's
    page loads first: table 2 must not say "Seat 3 drew the high card"; table 1 still
    shows it when its page comes."""
    event, _seated = world
    client.force_login(staff("floor"))

    drawn = client.post(page(event, 1), {"action": "draw"})
    other = client.get(page(event, 2))
    own = client.get(page(event, 1))

    button = TableState.objects.get(table__number=1).button
    assert drawn.status_code == 302
    assert "drew the high card" not in html(other)
    assert f"Seat {button} drew the high card and takes the button (IFP 2.1)." in html(own)
    assert "drew the high card" not in html(client.get(page(event, 1)))  # shown once


def test_set_the_button_with_last_hands_big_blind(client, world):
    event, _seated = world
    client.force_login(staff("dealer"))

    response = client.post(page(event, 1), {"action": "button", "button": "3", "big_blind": "1"})

    assert response.status_code == 302
    state = TableState.objects.get(table__number=1)
    assert (state.button, state.big_blind) == (3, 1)
    nxt = client.get(page(event, 1, "state/")).json()
    # The big blind moves on to seat 2; the button follows onto empty seat 9 (TDA 32).
    assert "small blind: seat 1" in nxt["regions"]["controls"]
    assert "big blind: seat 2" in nxt["regions"]["controls"]
    assert "Dead button" in nxt["regions"]["alerts"]


def test_start_a_hand_and_finish_it_with_a_bust_and_chip_counts(client, world):
    event, seated = world
    client.force_login(staff("dealer"))

    started = client.post(page(event), {"action": "start"}, follow=True)
    hand = Hand.objects.get()
    done = client.post(
        page(event),
        {
            "action": "finish",
            "hand": str(hand.number),
            "busts": [str(hand.big_blind)],
            "stack_2": "41000",
            "stack_4": "",
        },
        follow=True,
    )

    assert "Hand 1 is dealt." in html(started) and "Hand 1 done" in html(started)
    hand.refresh_from_db()
    assert hand.status == HandStatus.FINISHED
    out = seated[(2, hand.big_blind)]
    elimination = Elimination.objects.get()
    assert (elimination.entry_id, elimination.hand_id) == (out.pk, hand.pk)
    assert finishing_places(event.pk)[out.pk].place == 8
    assert f"{out.player.name} (#{out.number}) is out: place 8." in html(done)
    assert Entry.objects.get(pk=seated[(2, 2)].pk).chips == 41000
    assert "Start hand 2" in html(done)
    assert "Out at this table" in html(done) and "place 8" in html(done)


def test_the_hand_counter_counts_hands_played_to_their_end(client, world):
    event, _seated = world
    client.force_login(staff("dealer"))

    dealing = client.post(page(event), {"action": "start"}, follow=True)
    hand = Hand.objects.get()
    done = client.post(page(event), {"action": "finish", "hand": str(hand.number)}, follow=True)

    assert "0 hands played" in html(dealing)
    assert "1 hand played" in html(done)


def test_two_busts_in_one_hand_are_placed_by_their_starting_stacks(client, world):
    event, seated = world
    Entry.objects.filter(pk=seated[(2, 3)].pk).update(chips=5000)
    client.force_login(staff("floor"))
    client.post(page(event), {"action": "start"})

    done = client.post(
        page(event), {"action": "finish", "hand": "1", "busts": ["3", "4"]}, follow=True
    )

    small = seated[(2, 3)]
    assert f"{small.player.name} (#{small.number}) is out: place 8." in html(done)
    assert "is out: place 7." in html(done)  # more chips at the start: the better place


def test_bust_a_player_outside_the_result(client, world):
    event, seated = world
    client.force_login(staff("floor"))
    client.post(page(event), {"action": "start"})

    response = client.post(page(event), {"action": "bust", "seats": ["3"]}, follow=True)

    out = seated[(2, 3)]
    assert Elimination.objects.get().entry_id == out.pk
    assert f"{out.player.name} (#{out.number}) is out: place 8." in html(response)
    assert not Seat.objects.filter(entry=out).exists()


def test_the_tablet_takes_back_its_last_bust_and_says_where_the_player_sits(client, world):
    """Issue 16: a player ticked by mistake goes back to the seat they left; the button
    names them and the seat before it is pressed."""
    event, seated = world
    client.force_login(staff("dealer"))
    client.post(page(event), {"action": "start"})
    client.post(page(event), {"action": "finish", "hand": "1", "busts": ["3"]})
    out = seated[(2, 3)]

    shown = client.get(page(event))
    response = client.post(page(event), {"action": "undo_bust", "entry": str(out.pk)}, follow=True)

    assert f"Undo last bust: <bdi>{out.player.name}</bdi> (#{out.number}) back to seat 3" in html(
        shown
    )
    assert f"Bust taken back: {out.player.name} (#{out.number}) is back in seat 3." in html(
        response
    )
    assert Seat.objects.get(entry=out).number == 3
    assert not Elimination.objects.exists()
    assert "Undo last bust" not in html(response)


def test_the_tablet_offers_no_undo_once_the_next_hand_is_dealt(client, world):
    event, seated = world
    client.force_login(staff("dealer"))
    client.post(page(event), {"action": "start"})
    client.post(page(event), {"action": "finish", "hand": "1", "busts": ["3"]})
    client.post(page(event), {"action": "start"})
    before = stored()

    shown = client.get(page(event))
    response = client.post(page(event), {"action": "undo_bust", "entry": str(seated[(2, 3)].pk)})

    assert "Undo last bust" not in html(shown)
    assert response.status_code == 409
    assert "A hand has been dealt at this table since that bust-out" in html(response)
    assert stored() == before


@pytest.mark.parametrize("entry", ["", "x", "0", "-3", "9" * 30])
def test_undo_bust_without_a_valid_entry_is_400(client, world, entry):
    event, _seated = world
    client.force_login(staff("dealer"))
    client.post(page(event), {"action": "bust", "seats": ["3"]})
    before = stored()

    response = client.post(page(event), {"action": "undo_bust", "entry": entry})

    assert response.status_code == 400
    assert stored() == before


def test_a_tablet_cannot_take_back_another_tables_bust(client, world):
    event, seated = world
    client.force_login(staff("dealer"))
    client.post(page(event, 1), {"action": "bust", "seats": ["3"]})
    before = stored()

    response = client.post(page(event, 2), {"action": "undo_bust", "entry": str(seated[(1, 3)].pk)})

    assert response.status_code == 409
    assert "That is no longer this table&#x27;s last bust-out" in html(response)
    assert stored() == before


def test_hold_a_hand_for_hand_all_in(client, world):
    event, _seated = world
    button_at(event, 1, 1)
    services.h4h_settings_update(actor=None, tournament_id=event.pk, data={"places_paid": 6})
    deal(event, 1)
    deal(event, 2)
    services.h4h_start(actor=None, tournament_id=event.pk)
    client.force_login(staff("dealer"))

    response = client.post(page(event), {"action": "hold", "hand": "1"}, follow=True)

    assert Hand.objects.get(table__number=2).status == HandStatus.HELD
    assert "All-in: cards face down, wait" in html(response)
    assert "Table 1 is still playing." in html(response)


def test_an_htmx_post_redirects_and_a_refused_one_answers_the_message(client, world):
    event, _seated = world
    client.force_login(staff("dealer"))

    ok = client.post(page(event), {"action": "start"}, HTTP_HX_REQUEST="true")
    again = client.post(page(event), {"action": "start"}, HTTP_HX_REQUEST="true")

    assert ok.status_code == 302
    assert again.status_code == 409
    assert "Hand 1 is still being played at this table" in html(again)
    assert 'id="main"' in html(again)


# --- Refusals: a message, the service's status, nothing changed -----------------------------


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "Unknown action."),
        ({"action": "explode"}, "Unknown action."),
        ({"action": "button"}, "Button: This field is required."),
        ({"action": "button", "button": "x"}, "A seat is a number from 1 to 10."),
        ({"action": "button", "button": "0"}, "Seats are numbered from 1 to 10."),
        ({"action": "button", "button": "11"}, "Seats are numbered from 1 to 10."),
        ({"action": "button", "button": "99999999999999999999"}, "Seats are numbered"),
        ({"action": "button", "button": "3", "big_blind": "-1"}, "Seats are numbered"),
        ({"action": "finish"}, "Which hand? Reload the page."),
        ({"action": "finish", "hand": "one"}, "Which hand? Reload the page."),
        ({"action": "finish", "hand": "10000000000000"}, "Which hand? Reload the page."),
        ({"action": "finish", "hand": "1", "busts": ["x"]}, "Seats are numbered from 1 to 10."),
        ({"action": "finish", "hand": "1", "busts": ["0"]}, "Seats are numbered from 1 to 10."),
        ({"action": "finish", "hand": "1", "busts": ["99"]}, "Seats are numbered from 1 to 10."),
        ({"action": "finish", "hand": "1", "stack_1": "lots"}, "Chips are a whole number."),
        ({"action": "finish", "hand": "1", "stack_1": "-5"}, "Chips cannot be negative."),
        ({"action": "finish", "hand": "1", "stack_1": "1" + "0" * 30}, "more chips than"),
        ({"action": "bust"}, "Tick the seats of the busted players."),
        ({"action": "bust", "seats": ["x"]}, "Seats are numbered from 1 to 10."),
    ],
)
def test_bad_input_is_400_with_a_message_and_changes_nothing(client, world, data, message):
    event, _seated = world
    client.force_login(staff("floor"))
    client.post(page(event), {"action": "start"})
    before = stored()

    response = client.post(page(event), data)

    assert response.status_code == 400
    assert message in html(response)
    assert stored() == before


@pytest.mark.parametrize(
    ("data", "status", "message"),
    [
        ({"action": "finish", "hand": "1", "busts": ["7"]}, 400, "was not dealt in this hand"),
        ({"action": "finish", "hand": "1", "stack_7": "100"}, 400, "was not dealt in this hand"),
        (
            {"action": "finish", "hand": "1", "busts": ["1", "2", "3", "4"]},
            400,
            "not every player can bust",
        ),
        ({"action": "finish", "hand": "1", "stack_2": "0"}, 400, "bust seat 2 instead"),
        ({"action": "finish", "hand": "2"}, 409, "Hand 2 is not the hand in play"),
        ({"action": "bust", "seats": ["7"]}, 400, "Nobody sits in seat 7."),
        ({"action": "bust", "seats": ["1", "2", "3", "4"]}, 400, "not every player can bust"),
        ({"action": "start"}, 409, "Hand 1 is still being played"),
        ({"action": "draw"}, 409, "Hand 1 is still being played"),
        ({"action": "hold", "hand": "1"}, 409, "Hand-for-hand is not being played."),
    ],
)
def test_refused_actions_show_the_reason_and_change_nothing(client, world, data, status, message):
    event, _seated = world
    client.force_login(staff("floor"))
    client.post(page(event), {"action": "start"})
    before = stored()

    response = client.post(page(event), data)

    assert response.status_code == status
    assert message in html(response)
    assert stored() == before


def test_setting_the_button_on_a_seat_not_in_play_is_400(client, world):
    event, _seated = world
    seating.seat_set(actor=None, tournament_id=event.pk, number=1, seat=9, blocked=True)
    client.force_login(staff("floor"))
    before = stored()

    response = client.post(page(event, 1), {"action": "button", "button": "9"})

    assert response.status_code == 400
    assert "Seat 9 is not a seat in play at this table." in html(response)
    assert stored() == before


def test_finishing_a_hand_twice_is_409(client, world):
    event, _seated = world
    client.force_login(staff("dealer"))
    client.post(page(event), {"action": "start"})
    client.post(page(event), {"action": "finish", "hand": "1"})
    before = stored()

    response = client.post(page(event), {"action": "finish", "hand": "1"})

    assert response.status_code == 409
    assert "Hand 1 is finished." in html(response)
    assert stored() == before


# --- What the page shows -----------------------------------------------------------------


def test_the_ring_shows_button_blinds_names_and_stacks(client, world):
    event, _seated = world
    client.force_login(staff("dealer"))

    text = html(client.get(page(event)))

    assert "Next: hand 1" in text and "Level 1" in text and "100 / 200" in text
    assert "Button: seat 1" in text and "small blind: seat 2" in text
    assert "big blind: seat 3" in text
    assert text.count('class="badge b-button"') == 1
    assert text.count('class="badge b-sb"') == 1 and text.count('class="badge b-bb"') == 1
    assert "20,000" in text
    assert "Start hand 1" in text


def test_a_level_that_begins_during_the_hand_applies_from_the_next_tda_23(client, world):
    event, _seated = world
    clock_services.clock_act(actor=None, tournament_id=event.pk, action="start")
    deal(event, 2)
    clock_services.clock_act(actor=None, tournament_id=event.pk, action="next")
    client.force_login(staff("dealer"))

    text = html(client.get(page(event)))

    assert "Level 2 from the next hand" in text and "200 / 400" in text and "TDA 23" in text


def test_the_player_clock_of_this_table_counts_tda_29(client, world):
    event, _seated = world
    clock_services.player_clock_call(
        actor=None, tournament_id=event.pk, table=2, seat=3, facing_bet=True
    )
    client.force_login(staff("dealer"))

    here = html(client.get(page(event, 2)))
    elsewhere = html(client.get(page(event, 1)))

    assert "Clock on seat 3 (TDA 29)" in here and "data-player-clock" in here
    assert "the hand is dead" in here and "on the clock" in here
    assert "Clock on seat" not in elsewhere


def test_hands_left_at_the_end_of_the_day(client, world):
    event, _seated = world
    Tournament.objects.filter(pk=event.pk).update(
        house_settings={"day_end_draw": "casino"}
    )  # casino §28
    clock_services.clock_act(actor=None, tournament_id=event.pk, action="start")
    clock = clock_services.clock_day_end(actor=None, tournament_id=event.pk)
    client.force_login(staff("dealer"))

    before = html(client.get(page(event)))
    finish(event, 2, deal(event, 2))
    after = html(client.get(page(event)))

    total = clock.day_end_hands
    assert f"{total} hands left today" in before and "casino §28" in before
    assert f"{total - 1} hand" in after


def test_penalties_have_a_place_that_shows_nothing_yet(client, world):
    event, _seated = world
    client.force_login(staff("dealer"))

    text = html(client.get(page(event)))

    assert 'data-region="penalties" aria-label="Penalties" hidden></section>' in text


def test_the_state_answers_the_regions_and_keeps_the_controls_key_until_they_change(client, world):
    event, seated = world
    client.force_login(staff("dealer"))

    first = client.get(page(event, 2, "state/")).json()
    again = client.get(page(event, 2, "state/")).json()
    deal(event, 2)
    dealt = client.get(page(event, 2, "state/")).json()

    assert set(first["regions"]) == {"head", "alerts", "seats", "controls", "busts"}
    assert first["seats"][0] == {
        "seat": 1,
        "entry": seated[(2, 1)].pk,
        "number": seated[(2, 1)].number,
        "name": seated[(2, 1)].player.name,
    }
    assert first["hand"] is None and dealt["hand"] == {"number": 1, "status": "playing"}
    assert first["controls_key"] == again["controls_key"] != dealt["controls_key"]
    assert "Hand 1 done" in dealt["regions"]["controls"]

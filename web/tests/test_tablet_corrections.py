"""The tablet's start of a hand and its corrections: the dealer marks the start (TDA 23;
casino §25, §32, house setting `hand_starts`) and the hand keeps the level in play then;
the button in the wrong place (TDA 34-A, 36; casino §16 c, house setting `button_error`)
and a hand at the wrong level (TDA 23), each ruled by how far the hand has gone."""

import pytest

from clock import services as clock_services
from clock.tests.factories import with_structure
from hands import services
from hands.models import Hand, HandAction, HandStartMark
from hands.tests.factories import button_at, seat_players
from seating import services as seating_services
from seating.models import TableState
from seating.tests.factories import undo_last
from tournaments.tests.factories import api, staff, tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    """Table 1 with four players at level 1 (100/200); level 2 is 200/400."""
    event = tournament()
    with_structure(event)
    seat_players(event, {1: [1, 2, 3, 4]})
    return event


def page(event, suffix: str = "") -> str:
    return f"/tournaments/{event.pk}/tables/1/tablet/{suffix}"


def html(response) -> str:
    return response.content.decode()


def stored() -> dict:
    models = (Hand, HandAction, HandStartMark, TableState)
    return {m.__name__: list(m.objects.order_by("pk").values()) for m in models}


def next_level(event) -> None:
    clock_services.clock_act(actor=None, tournament_id=event.pk, action="start")
    clock_services.clock_act(actor=None, tournament_id=event.pk, action="next")


def act(event, *kinds: str) -> None:
    for kind in kinds:
        services.hand_action(actor=None, tournament_id=event.pk, number=1, hand_number=1, kind=kind)


def test_tda_23_the_dealer_marks_the_riffle_and_the_hand_keeps_that_level(client, world):
    event = world
    button_at(event, 1, 1)
    client.force_login(staff("dealer"))
    offered = html(client.get(page(event)))

    marked = client.post(page(event), {"action": "start_mark", "event": "riffle"}, follow=True)
    next_level(event)  # the clock changes before the cards come
    shown = client.get(page(event, "state/")).json()["regions"]
    client.post(page(event), {"action": "start"})

    assert "First riffle" in offered and "Dealer push" in offered and "TDA 23" in offered
    assert "Cut of the cards" not in offered
    assert "it plays at level 1 (TDA 23)" in html(marked)
    # Before the deal the tablet asks for the marked level's blinds, not the clock's.
    assert "Level 1" in shown["head"] and "100 / 200" in shown["head"]
    assert "First riffle, TDA 23" in shown["head"]
    hand = Hand.objects.get()
    assert (hand.level, hand.big_blind_amount, hand.start_event) == (1, 200, "riffle")
    dealt = client.get(page(event, "state/")).json()["regions"]["head"]
    assert "Level 1: the level in play when the hand started (First riffle, TDA 23)." in dealt


def test_casino_25_32_the_tablet_offers_the_cut_only(client, world):
    event = world
    event.house_settings = {"hand_starts": "cut"}
    event.save()
    button_at(event, 1, 1)
    client.force_login(staff("dealer"))
    before = stored()

    offered = html(client.get(page(event)))
    riffle = client.post(page(event), {"action": "start_mark", "event": "riffle"})
    assert riffle.status_code == 400 and "casino §25, §32" in html(riffle)
    assert stored() == before
    next_level(event)
    client.post(page(event), {"action": "start_mark", "event": "cut"})
    client.post(page(event), {"action": "start"})

    assert "Cut of the cards" in offered and "First riffle" not in offered
    assert "casino §25, §32" in offered
    assert Hand.objects.get().level == 2


def test_bad_or_repeated_marks_change_nothing(client, world):
    event = world
    button_at(event, 1, 1)
    client.force_login(staff("dealer"))
    client.post(page(event), {"action": "start_mark", "event": "push"})
    before = stored()

    unknown = client.post(page(event), {"action": "start_mark", "event": "shuffle"})
    again = client.post(page(event), {"action": "start_mark", "event": "riffle"})

    assert unknown.status_code == 400
    assert again.status_code == 409 and "already marked" in html(again)
    assert stored() == before


def test_tda_34a_the_tablet_reports_the_button_and_the_hand_is_redealt_before_sa(client, world):
    event = world
    button_at(event, 1, 3)  # the button should be on seat 2
    client.force_login(staff("dealer"))
    client.post(page(event), {"action": "start"})
    dealt = html(client.get(page(event)))
    act(event, "fold")

    response = client.post(
        page(event), {"action": "button_error", "hand": "1", "button": "2"}, follow=True
    )

    assert "Button or level wrong in this hand?" in dealt and "TDA 34-A, 36" in dealt
    assert "Hand 1 is void (TDA 34-A, 36)" in html(response)
    hand = Hand.objects.get()
    assert (hand.button, hand.small_blind, hand.big_blind) == (2, 3, 4)
    assert not HandAction.objects.exists()


def test_casino_16c_the_tablet_says_play_on_after_two_chip_actions(client, world):
    event = world
    event.house_settings = {"button_error": "casino"}
    event.save()
    button_at(event, 1, 3)
    client.force_login(staff("dealer"))
    client.post(page(event), {"action": "start"})
    shown = html(client.get(page(event)))
    act(event, "call", "call")

    response = client.post(
        page(event), {"action": "button_error", "hand": "1", "button": "2"}, follow=True
    )

    assert "casino §16 c" in shown
    assert "Hand 1 stands (casino §16 c): play on." in html(response)
    assert Hand.objects.get().button == 3


def test_tda_23_the_tablet_reports_a_hand_at_the_wrong_level(client, world):
    event = world
    button_at(event, 1, 1)
    next_level(event)
    client.force_login(staff("dealer"))
    client.post(page(event), {"action": "start"})
    act(event, "call", "fold")  # substantial action (TDA 36)

    stands = client.post(page(event), {"action": "level_error", "hand": "1", "level": "1"})

    assert stands.status_code == 302
    assert Hand.objects.get().level == 2


@pytest.mark.parametrize(
    ("data", "status"),
    [
        ({"action": "button_error", "hand": "1", "button": "12"}, 400),
        ({"action": "button_error", "hand": "1", "button": "3"}, 400),  # there already
        ({"action": "button_error", "hand": "2", "button": "2"}, 409),  # not the hand in play
        ({"action": "level_error", "hand": "1", "level": "x"}, 400),
        ({"action": "level_error", "hand": "1", "level": "99"}, 400),
    ],
)
def test_bad_corrections_are_refused_and_change_nothing(client, world, data, status):
    event = world
    button_at(event, 1, 3)
    client.force_login(staff("dealer"))
    client.post(page(event), {"action": "start"})
    before = stored()

    response = client.post(page(event), data)

    assert response.status_code == status
    assert stored() == before


@pytest.mark.parametrize(
    ("house", "chips", "others", "ruling"),
    [
        # TDA 36: a call and a fold are substantial action; the hand stands (TDA 34-A).
        ({}, "1", "1", "stands (TDA 34-A, 36)"),
        ({}, "", "2", "is void (TDA 34-A, 36)"),  # two folds are not
        # Casino §16 c: one chip action does not yet make the hand stand.
        ({"button_error": "casino"}, "1", "1", "is void (casino §16 c)"),
        ({"button_error": "casino"}, "2", "", "stands (casino §16 c)"),
    ],
)
def test_the_dealer_counts_the_actions_of_a_hand_not_logged(
    client, world, house, chips, others, ruling
):
    event = world
    event.house_settings = house
    event.save()
    button_at(event, 1, 3)
    client.force_login(staff("dealer"))
    client.post(page(event), {"action": "start"})

    response = client.post(
        page(event),
        {
            "action": "button_error",
            "hand": "1",
            "button": "2",
            "chip_actions": chips,
            "other_actions": others,
        },
        follow=True,
    )

    assert f"Hand 1 {ruling}" in html(response)
    assert Hand.objects.get().button == (3 if "stands" in ruling else 2)


def test_counts_beside_a_logged_hand_are_400_and_change_nothing(client, world):
    event = world
    button_at(event, 1, 3)
    client.force_login(staff("dealer"))
    client.post(page(event), {"action": "start"})
    act(event, "fold")
    before = stored()

    response = client.post(
        page(event),
        {"action": "button_error", "hand": "1", "button": "2", "chip_actions": "3"},
    )

    assert response.status_code == 400 and "action log counts" in html(response)
    assert stored() == before


def test_the_dealer_takes_a_mark_back(client, world):
    event = world
    button_at(event, 1, 1)
    client.force_login(staff("dealer"))
    client.post(page(event), {"action": "start_mark", "event": "shuffler"})
    marked = html(client.get(page(event)))

    response = client.post(page(event), {"action": "start_unmark"}, follow=True)
    again = client.post(page(event), {"action": "start_unmark"})

    assert "Not started yet: take the mark back" in marked
    assert "The mark is taken back" in html(response)
    assert not HandStartMark.objects.exists()
    assert again.status_code == 409


# --- How long a start mark stands (TDA 23) ---------------------------------------------------


def mark(client, event, table: int = 1, start: str = "riffle"):
    return client.post(
        f"/tournaments/{event.pk}/tables/{table}/tablet/", {"action": "start_mark", "event": start}
    )


def test_tda_23_a_mark_goes_once_the_tables_players_change(client):
    event = tournament()
    with_structure(event)
    seated = seat_players(event, {1: [1, 2, 3, 4], 2: [1, 2, 3, 4]})
    button_at(event, 1, 1)
    client.force_login(staff("dealer"))
    mark(client, event)
    next_level(event)

    seating_services.entry_move(
        actor=None, tournament_id=event.pk, entry_id=seated[(2, 4)].pk, to_table=1, to_seat=6
    )
    state = client.get(page(event, "state/")).json()["regions"]
    client.post(page(event), {"action": "start"})

    # The hand whose start was marked never came: its players changed (a balancing move),
    # so the hand dealt takes the level in play at the deal.
    assert "First riffle, TDA 23" not in state["head"]
    assert (Hand.objects.get().level, Hand.objects.get().start_event) == (2, "")
    assert not HandStartMark.objects.exists()


def test_tda_23_a_mark_goes_with_its_broken_table_and_stays_gone_if_it_reopens(client):
    event = tournament()
    with_structure(event)
    seat_players(event, {1: [1, 2, 3, 4], 2: [1, 2, 3, 4]})
    button_at(event, 1, 1)
    client.force_login(staff("dealer"))
    mark(client, event)
    next_level(event)
    director = api(staff("director"))
    broken = director.post(f"/api/v1/tournaments/{event.pk}/tables/1/break/", {}, format="json")
    assert broken.status_code in (200, 201), broken.content

    undo_last(event)  # the break undone: table 1 deals again, with its own players
    marked = director.get(f"/api/v1/tournaments/{event.pk}/tables/1/state/")
    client.post(page(event), {"action": "start"})

    assert marked.json()["start_mark"] is None
    assert Hand.objects.get().level == 2  # the level in play now, not the mark's


def test_tda_11_d_a_halted_table_starts_no_hand_but_a_mark_made_before_stands(client):
    event = tournament()
    with_structure(event)
    seat_players(event, {1: [1, 2, 3, 4, 5, 6, 7, 8, 9], 2: [1, 2, 3, 4, 5, 6]})
    button_at(event, 2, 5, big_blind=6)  # three short, the big blind at an open seat
    client.force_login(staff("dealer"))

    refused = mark(client, event, table=2)
    assert refused.status_code == 409 and "TDA 11-D" in html(refused)
    assert not HandStartMark.objects.exists()

    waive = {"actor": None, "tournament_id": event.pk, "number": 2}
    seating_services.halt_waive(**waive, waived=True)
    mark(client, event, table=2)  # the hand begins while the halt is waived
    next_level(event)
    seating_services.halt_waive(**waive, waived=False)
    still = api(staff("director")).get(f"/api/v1/tournaments/{event.pk}/tables/2/state/").json()
    seating_services.halt_waive(**waive, waived=True)
    services.hand_start(actor=None, tournament_id=event.pk, number=2)

    assert still["start_mark"]["level"] == 1  # halting ends no hand already begun
    assert Hand.objects.get().level == 1


def test_tda_23_a_paused_clock_keeps_the_mark(client, world):
    event = world
    button_at(event, 1, 1)
    client.force_login(staff("dealer"))
    mark(client, event)
    next_level(event)

    clock_services.clock_act(actor=None, tournament_id=event.pk, action="pause")
    client.post(page(event), {"action": "start"})

    assert Hand.objects.get().level == 1  # the level in play when the hand began

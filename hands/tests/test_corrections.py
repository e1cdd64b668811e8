"""Errors found during a hand, through the hands API: the button in the wrong place
(TDA 34-A, 36; casino §16 c, house setting `button_error`), the level a hand plays at
and a hand dealt at the wrong level (TDA 23; what starts a hand is the house setting
`hand_starts`: TDA 23 riffle, shuffler, dealer push; casino §25, §32 the cut)."""

import pytest

from clock import services as clock_services
from clock.tests.factories import with_structure
from floorman.models import AuditEntry
from floorman.tests.worlds import world_fixtures
from hands.models import Hand, HandAction, HandPlayer, HandStartMark
from hands.tests.factories import button_at, seat_players
from seating.models import TableState
from tournaments.tests.factories import api, staff, tournament

pytestmark = pytest.mark.django_db


def build_world():
    event = tournament()
    with_structure(event)  # level 1: 100/200, level 2: 200/400
    seated = seat_players(event, {1: [1, 2, 3, 4]})
    return event, seated


# Made once for the module, each test in a savepoint rolled back after it; the audit
# entries still join the chain before each service's commit (floorman.tests.worlds).
world_made, world = world_fixtures(build_world)


def url(event, path: str) -> str:
    return f"/api/v1/tournaments/{event.pk}/tables/1/{path}"


def house(event, **settings):
    event.house_settings = settings
    event.save()


def stored() -> dict:
    models = (Hand, HandAction, HandPlayer, HandStartMark, TableState, AuditEntry)
    return {m.__name__: list(m.objects.order_by("pk").values()) for m in models}


def deal(dealer, event) -> dict:
    response = dealer.post(url(event, "hands/"))
    assert response.status_code == 201, response.content
    return response.json()


def act(dealer, event, hand: int, *kinds: str) -> None:
    for kind in kinds:
        response = dealer.post(url(event, f"hands/{hand}/actions/"), {"kind": kind}, format="json")
        assert response.status_code == 201, response.content


def finish(dealer, event, hand: int) -> None:
    response = dealer.post(url(event, f"hands/{hand}/finish/"), {}, format="json")
    assert response.status_code == 200, response.content


def positions(hand: dict) -> tuple:
    return hand["button"], hand["small_blind"], hand["big_blind"]


def next_level(event) -> None:
    """The clock runs and moves on to level 2 (200/400)."""
    clock_services.clock_act(actor=None, tournament_id=event.pk, action="start")
    clock_services.clock_act(actor=None, tournament_id=event.pk, action="next")


# --- The button in the wrong place (TDA 34-A; casino §16 c) ------------------------------


def moved_twice(event, dealer) -> dict:
    """The button should be on seat 2 for this hand, but was put on seat 3: the blinds
    posted are seat 4 and seat 1; the first to act is seat 2."""
    button_at(event, 1, 3)
    hand = deal(dealer, event)
    assert positions(hand) == (3, 4, 1)
    return hand


def test_tda_34a_before_substantial_action_the_hand_is_redealt_with_the_button_right(world):
    event, _seated = world
    dealer = api(staff("dealer"))
    hand = moved_twice(event, dealer)
    act(dealer, event, 1, "fold")  # one fold: no substantial action yet (TDA 36)

    response = dealer.post(url(event, "hands/1/button-error/"), {"button": 2}, format="json")

    body = response.json()
    assert response.status_code == 200, body
    assert (body["ruling"], body["rule"], body["actions_counted"]) == (
        "corrected",
        "TDA 34-A, 36",
        ["fold"],
    )
    redealt = body["hand"]
    assert positions(redealt) == (2, 3, 4)
    assert redealt["number"] == hand["number"] == 1  # the re-deal is the same hand
    assert redealt["actions"] == []
    assert redealt["betting"]["to_act"] == 1  # the player after the big blind
    assert [p["stack"] for p in redealt["players"]] == [20000] * 4
    state = TableState.objects.get(table__number=1, table__tournament=event)
    assert (state.button, state.small_blind_seat, state.big_blind) == (2, 3, 4)
    audit = AuditEntry.objects.filter(action="hand.button_error").get()
    assert audit.after["ruling"] == "corrected" and audit.before["button"] == 3
    # The next hand moves on from the right place.
    finish(dealer, event, 1)
    assert positions(deal(dealer, event)) == (3, 4, 1)


def test_tda_34a_after_substantial_action_the_hand_stands_and_the_button_is_not_backed_up(
    world,
):
    event, _seated = world
    dealer = api(staff("dealer"))
    moved_twice(event, dealer)
    act(dealer, event, 1, "call", "fold")  # two actions, one with chips: SA (TDA 36)

    response = dealer.post(url(event, "hands/1/button-error/"), {"button": 2}, format="json")

    body = response.json()
    assert (body["ruling"], body["rule"]) == ("stands", "TDA 34-A, 36")
    assert positions(body["hand"]) == (3, 4, 1)
    assert [a["kind"] for a in body["hand"]["actions"]] == ["call", "fold"]
    # The next hand's button follows from where it stood: seat 4, not seat 3 again.
    act(dealer, event, 1, "fold", "check")
    finish(dealer, event, 1)
    assert positions(deal(dealer, event)) == (4, 1, 2)


def test_casino_16c_a_call_and_a_fold_still_void_the_hand(world):
    event, _seated = world
    house(event, button_error="casino")
    dealer = api(staff("dealer"))
    moved_twice(event, dealer)
    act(dealer, event, 1, "call", "fold")  # substantial for the TDA; one chip action here

    response = dealer.post(url(event, "hands/1/button-error/"), {"button": 2}, format="json")

    body = response.json()
    assert (body["ruling"], body["rule"]) == ("corrected", "casino §16 c")
    assert positions(body["hand"]) == (2, 3, 4)
    assert body["hand"]["actions"] == []


def test_casino_16c_after_two_chip_actions_play_goes_on_and_the_button_moves_clockwise(world):
    event, _seated = world
    house(event, button_error="casino")
    dealer = api(staff("dealer"))
    moved_twice(event, dealer)
    act(dealer, event, 1, "call", "call")  # two chip actions

    response = dealer.post(url(event, "hands/1/button-error/"), {"button": 2}, format="json")

    assert response.json()["ruling"] == "stands"
    act(dealer, event, 1, "call", "check")
    finish(dealer, event, 1)
    assert positions(deal(dealer, event)) == (4, 1, 2)


def test_a_hand_without_its_actions_logged_counts_the_actions_reported(world):
    event, _seated = world
    dealer = api(staff("dealer"))
    moved_twice(event, dealer)

    response = dealer.post(
        url(event, "hands/1/button-error/"),
        {"button": 2, "actions": ["fold", "fold", "fold"]},  # TDA 36 B: any three actions
        format="json",
    )

    assert response.json()["ruling"] == "stands"
    assert response.json()["actions_counted"] == ["fold", "fold", "fold"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "button"),
        ({"button": 11}, "button"),  # no such seat number
        ({"button": 3}, "button"),  # where it is already
        ({"button": 2, "actions": ["shove"]}, "actions"),
        ({"button": 2, "actions": "call"}, "actions"),
    ],
)
def test_bad_button_reports_are_400_with_the_field_and_write_nothing(world, body, field):
    event, _seated = world
    dealer = api(staff("dealer"))
    moved_twice(event, dealer)
    before = stored()

    response = dealer.post(url(event, "hands/1/button-error/"), body, format="json")

    assert response.status_code == 400, response.content
    assert field in response.json()
    assert stored() == before


def test_the_log_counts_when_actions_are_logged(world):
    event, _seated = world
    dealer = api(staff("dealer"))
    moved_twice(event, dealer)
    act(dealer, event, 1, "fold")
    before = stored()

    response = dealer.post(
        url(event, "hands/1/button-error/"), {"button": 2, "actions": ["call"]}, format="json"
    )

    assert response.status_code == 400 and "actions" in response.json()
    assert stored() == before


def test_corrections_need_a_hand_in_play_409_and_a_dealer(world):
    event, _seated = world
    dealer = api(staff("dealer"))
    button_at(event, 1, 1)
    before = stored()

    none_in_play = dealer.post(url(event, "hands/1/button-error/"), {"button": 2}, format="json")
    anonymous = api().post(url(event, "hands/1/button-error/"), {"button": 2}, format="json")
    deal(dealer, event)
    act(dealer, event, 1, "fold", "fold", "fold")
    finish(dealer, event, 1)
    finished = dealer.post(url(event, "hands/1/level-error/"), {"level": 2}, format="json")

    assert none_in_play.status_code == 409
    assert anonymous.status_code in (401, 403)
    assert finished.status_code == 409
    assert not AuditEntry.objects.filter(action__in=["hand.button_error", "hand.level_error"])
    assert before["HandStartMark"] == []


# --- The level a hand plays at (TDA 23) -----------------------------------------------------


def test_tda_23_a_hand_started_before_the_level_changed_plays_at_the_old_level(world):
    event, _seated = world
    dealer = api(staff("dealer"))
    button_at(event, 1, 1)

    marked = dealer.post(url(event, "hand-start/"), {"event": "riffle"}, format="json")
    next_level(event)  # the cards come after the clock's change
    hand = deal(dealer, event)

    assert marked.status_code == 201
    assert marked.json()["level"] == 1 and marked.json()["event"] == "riffle"
    assert (hand["level"], hand["blinds"]["big_blind"], hand["start_event"]) == (1, 200, "riffle")
    assert HandStartMark.objects.count() == 0  # the deal took it over
    # The next hand, started after the change, plays at the new level.
    act(dealer, event, 1, "fold", "fold", "fold")
    finish(dealer, event, 1)
    later = deal(dealer, event)
    assert (later["level"], later["blinds"]["big_blind"], later["start_event"]) == (2, 400, None)


def test_tda_23_a_level_starting_during_the_dealer_push_the_incoming_dealer_deals_the_prior(
    world,
):
    event, _seated = world
    dealer = api(staff("dealer"))
    button_at(event, 1, 1)

    dealer.post(url(event, "hand-start/"), {"event": "push"}, format="json")
    next_level(event)
    state = api().get(url(event, "state/")).json()
    hand = deal(dealer, event)

    assert state["start_mark"]["level"] == 1
    assert (hand["level"], hand["blinds"]["small_blind"]) == (1, 100)


def test_casino_25_32_the_cut_starts_the_hand_so_a_shuffle_before_the_change_does_not(world):
    event, _seated = world
    house(event, hand_starts="cut")
    dealer = api(staff("dealer"))
    button_at(event, 1, 1)
    before = stored()

    riffle = dealer.post(url(event, "hand-start/"), {"event": "riffle"}, format="json")
    assert riffle.status_code == 400
    assert "casino §25, §32" in riffle.json()["event"][0]
    assert stored() == before

    next_level(event)  # the level changes while the dealer shuffles
    cut = dealer.post(url(event, "hand-start/"), {"event": "cut"}, format="json")
    hand = deal(dealer, event)

    assert cut.status_code == 201 and cut.json()["level"] == 2
    assert (hand["level"], hand["blinds"]["big_blind"], hand["start_event"]) == (2, 400, "cut")


def test_the_cut_is_no_start_in_the_tda_reading(world):
    event, _seated = world
    button_at(event, 1, 1)
    response = api(staff("dealer")).post(url(event, "hand-start/"), {"event": "cut"}, format="json")
    assert response.status_code == 400
    assert "TDA 23" in response.json()["event"][0]


@pytest.mark.parametrize("body", [{}, {"event": "shuffle"}, {"event": ["riffle"]}])
def test_a_bad_start_mark_is_400_and_writes_nothing(world, body):
    event, _seated = world
    button_at(event, 1, 1)
    before = stored()
    response = api(staff("dealer")).post(url(event, "hand-start/"), body, format="json")
    assert response.status_code == 400 and "event" in response.json()
    assert stored() == before


def test_a_second_mark_or_one_during_a_hand_is_409_and_writes_nothing(world):
    event, _seated = world
    dealer = api(staff("dealer"))
    button_at(event, 1, 1)
    dealer.post(url(event, "hand-start/"), {"event": "shuffler"}, format="json")
    before = stored()

    again = dealer.post(url(event, "hand-start/"), {"event": "riffle"}, format="json")
    assert again.status_code == 409
    assert stored() == before

    deal(dealer, event)
    before = stored()
    during = dealer.post(url(event, "hand-start/"), {"event": "riffle"}, format="json")
    assert during.status_code == 409
    assert stored() == before


def test_tda_23_a_hand_dealt_at_the_wrong_level_is_corrected_before_substantial_action(world):
    event, _seated = world
    dealer = api(staff("dealer"))
    button_at(event, 1, 1)
    next_level(event)
    deal(dealer, event)  # dealt at level 2, though it began at level 1
    act(dealer, event, 1, "fold")

    response = dealer.post(url(event, "hands/1/level-error/"), {"level": 1}, format="json")

    body = response.json()
    assert response.status_code == 200, body
    assert (body["ruling"], body["rule"]) == ("corrected", "TDA 23, 36")
    assert body["hand"]["level"] == 1
    assert (body["hand"]["blinds"]["small_blind"], body["hand"]["blinds"]["big_blind"]) == (
        100,
        200,
    )
    assert body["hand"]["actions"] == []
    assert (body["hand"]["betting"]["current_bet"], body["hand"]["betting"]["pot"]) == (200, 300)


def test_tda_23_after_substantial_action_the_hand_continues_at_the_level_it_was_dealt(world):
    event, _seated = world
    dealer = api(staff("dealer"))
    button_at(event, 1, 1)
    next_level(event)
    deal(dealer, event)
    act(dealer, event, 1, "call", "fold")

    response = dealer.post(url(event, "hands/1/level-error/"), {"level": 1}, format="json")

    body = response.json()
    assert (body["ruling"], body["hand"]["level"], body["hand"]["blinds"]["big_blind"]) == (
        "stands",
        2,
        400,
    )
    assert AuditEntry.objects.get(action="hand.level_error").after["ruling"] == "stands"


@pytest.mark.parametrize(
    ("body", "field"),
    [({}, "level"), ({"level": 0}, "level"), ({"level": 99}, "level"), ({"level": 2}, "level")],
)
def test_bad_level_reports_are_400_and_write_nothing(world, body, field):
    event, _seated = world
    dealer = api(staff("dealer"))
    button_at(event, 1, 1)
    next_level(event)
    deal(dealer, event)
    before = stored()

    response = dealer.post(url(event, "hands/1/level-error/"), body, format="json")

    assert response.status_code == 400, response.content
    assert field in response.json()
    assert stored() == before


def test_a_mark_tapped_by_mistake_is_taken_back_and_the_deal_reads_the_clock(world):
    event, _seated = world
    dealer = api(staff("dealer"))
    button_at(event, 1, 1)
    dealer.post(url(event, "hand-start/"), {"event": "riffle"}, format="json")

    taken_back = dealer.delete(url(event, "hand-start/"))
    before = stored()
    again = dealer.delete(url(event, "hand-start/"))
    assert again.status_code == 409 and stored() == before
    next_level(event)
    hand = deal(dealer, event)

    assert taken_back.status_code == 204
    assert AuditEntry.objects.filter(action="hand.start_unmark").count() == 1
    assert (hand["level"], hand["start_event"]) == (2, None)


def test_no_mark_before_the_button_is_placed(world):
    event, _seated = world
    before = stored()
    response = api(staff("dealer")).post(
        url(event, "hand-start/"), {"event": "riffle"}, format="json"
    )
    assert response.status_code == 409 and response.json()["code"] == "no_button"
    assert stored() == before


def test_the_button_error_follows_the_reading_the_hand_was_dealt_under(world):
    event, _seated = world
    dealer = api(staff("dealer"))
    moved_twice(event, dealer)  # dealt under the TDA reading
    act(dealer, event, 1, "call", "fold")  # TDA 36: substantial action
    house(event, button_error="casino")  # changed during the hand: not for this hand

    response = dealer.post(url(event, "hands/1/button-error/"), {"button": 2}, format="json")

    assert (response.json()["ruling"], response.json()["rule"]) == ("stands", "TDA 34-A, 36")

"""The hands API: a table's state, dealing, the action log, results, busts and
hand-for-hand; who may do what; bad input changes nothing."""

import pytest

from clock.tests.factories import with_structure
from floorman.tests.worlds import world_fixtures
from hands.models import Elimination, Hand, HandAction, HandForHand
from hands.tests.factories import button_at, seat_players
from seating.models import TableState
from tournaments.tests.factories import api, staff, tournament

pytestmark = pytest.mark.django_db


def url(event, path: str) -> str:
    return f"/api/v1/tournaments/{event.pk}/{path}"


def build_world():
    event = tournament()
    with_structure(event)
    seated = seat_players(event, {1: [1, 2, 3, 4], 2: [1, 2, 3, 4]})
    button_at(event, 2, 1)
    return event, seated


world_made, world = world_fixtures(build_world)


def stored() -> dict:
    models = (Hand, HandAction, Elimination, TableState, HandForHand)
    return {m.__name__: list(m.objects.order_by("pk").values()) for m in models}


def test_a_dealer_plays_a_hand_from_draw_to_bust(world):
    event, seated = world
    dealer = api(staff("dealer"))

    drawn = dealer.post(url(event, "tables/1/button/draw/"))
    dealt = dealer.post(url(event, "tables/1/hands/"))
    hand = dealt.json()
    raised = dealer.post(
        url(event, "tables/1/hands/1/actions/"), {"kind": "raise", "amount": 600}, format="json"
    )
    finished = dealer.post(
        url(event, "tables/1/hands/1/finish/"),
        {"busts": [hand["big_blind"]], "stacks": {str(hand["button"]): 24000}},
        format="json",
    )

    assert drawn.status_code == 200 and drawn.json()["button_drawn"] is True
    assert dealt.status_code == 201
    assert (hand["number"], hand["level"], hand["blinds"]["big_blind"]) == (1, 1, 200)
    assert [p["stack"] for p in hand["players"]] == [20000] * 4
    assert hand["betting"]["to_act"] is not None
    assert raised.status_code == 201 and raised.json()["actions"][0]["amount"] == 600
    assert finished.status_code == 200 and finished.json()["status"] == "finished"
    busts = api().get(url(event, "tables/1/busts/")).json()
    out = seated[(1, hand["big_blind"])]
    assert [(b["entry"], b["place"], b["hand"]) for b in busts] == [(out.pk, 8, 1)]
    entry = api().get(url(event, f"entries/{out.pk}/")).json()
    assert (entry["status"], entry["place"], entry["table"]) == ("busted", 8, None)


def test_state_says_who_posts_what_next_and_the_hand_in_play(world):
    event, _seated = world

    state = api().get(url(event, "tables/2/state/")).json()

    assert state["next"] == {
        "button": 1,
        "small_blind": 2,
        "big_blind": 3,
        "dealt_in": [2, 3, 4, 1],
        "waiting": [],
        "heads_up": False,
    }
    assert state["hand"] is None and state["halted"] is None
    assert state["hand_for_hand"]["active"] is False


def test_illegal_action_is_409_with_the_rule_and_options_and_writes_nothing(world):
    event, _seated = world
    dealer = api(staff("dealer"))
    dealer.post(url(event, "tables/2/hands/"))
    before = stored()

    response = dealer.post(
        url(event, "tables/2/hands/1/actions/"), {"kind": "raise", "amount": 300}, format="json"
    )

    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "illegal_action" and body["rule"] == "TDA 43"
    assert body["legal"]["min_to"] == 400
    assert "TDA 43" in body["detail"]
    assert stored() == before


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("post", "tables/2/hands/", None),
        ("put", "tables/2/button/", {"button": 3}),
        ("post", "tables/2/button/draw/", None),
        ("post", "tables/2/busts/", {"seats": [1]}),
    ],
)
def test_tablet_writes_need_a_dealer_or_the_floor(world, method, path, body):
    event, _seated = world
    before = stored()
    for user in (None, staff("cashier")):
        response = getattr(api(user), method)(url(event, path), body, format="json")
        assert response.status_code in (401, 403), user
    assert stored() == before
    floor = getattr(api(staff("floor")), method)(url(event, path), body, format="json")
    assert floor.status_code in (200, 201, 409)


def test_hand_for_hand_is_the_floors_and_public_to_read(world):
    event, _seated = world
    floor = api(staff("floor"))

    dealer = api(staff("dealer")).post(
        url(event, "hand-for-hand/"), {"action": "start"}, format="json"
    )
    settings = floor.patch(url(event, "hand-for-hand/"), {"places_paid": 6}, format="json")
    started = floor.post(url(event, "hand-for-hand/"), {"action": "start"}, format="json")
    status = api().get(url(event, "hand-for-hand/")).json()
    stopped = floor.post(url(event, "hand-for-hand/"), {"action": "stop"}, format="json")

    assert dealer.status_code == 403
    assert settings.status_code == 200 and settings.json()["places_paid"] == 6
    assert started.status_code == 200 and started.json()["active"] is True
    assert (status["round"], status["tables"]) == (1, [1, 2])  # nothing in play: round 0 done
    assert stopped.json()["active"] is False


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("tables/2/hands/1/finish/", {"busts": "3"}, "busts"),
        ("tables/2/hands/1/finish/", {"busts": [0]}, "busts"),
        ("tables/2/hands/1/finish/", {"busts": [99]}, "busts"),
        ("tables/2/hands/1/finish/", {"stacks": {"x": 1}}, "stacks"),
        ("tables/2/hands/1/finish/", {"stacks": {"1": -5}}, "stacks"),
        ("tables/2/hands/1/finish/", {"stacks": {"1": 10**30}}, "stacks"),
        ("tables/2/hands/1/finish/", {"busts": [1, 2, 3, 4]}, "busts"),
        ("tables/2/hands/1/actions/", {"kind": "shove"}, "kind"),
        ("tables/2/hands/1/actions/", {"kind": "raise"}, "amount"),
        ("tables/2/hands/1/actions/", {"kind": "raise", "amount": "lots"}, "amount"),
        ("tables/2/busts/", {"seats": []}, "seats"),
        ("tables/2/busts/", {"seats": [7]}, "seats"),
        ("tables/2/button/", {"button": 11}, "button"),
        ("tables/2/hands/1/settle/", {"cards": {"0": "AsAh"}}, "cards"),
        ("tables/2/hands/1/settle/", {"cards": ["AsAh"]}, "cards"),
        ("tables/2/hands/1/settle/", {"board": "x" * 100}, "board"),
    ],
)
def test_bad_input_is_400_with_the_field_and_changes_nothing(world, path, body, field):
    event, _seated = world
    floor = api(staff("floor"))
    floor.post(url(event, "tables/2/hands/"))
    before = stored()

    method = floor.put if path.endswith("button/") else floor.post
    response = method(url(event, path), body, format="json")

    assert response.status_code == 400, response.content
    assert field in response.json()
    assert stored() == before


@pytest.mark.parametrize(
    "path",
    [
        "tables/9/state/",
        "tables/9/hands/",
        "tables/2/hands/5/",
        "tables/99999999999999999999/state/",
        "tables/2/busts/?x=1",
    ],
)
def test_unknown_tables_and_hands_are_404(world, path):
    event, _seated = world
    response = api().get(url(event, path))
    expected = 200 if path.startswith("tables/2/busts") else 404
    assert response.status_code == expected


def test_malformed_json_is_400(world):
    event, _seated = world
    response = api(staff("floor")).post(
        url(event, "tables/2/hands/1/finish/"), "{not json", content_type="application/json"
    )
    assert response.status_code == 400


def test_dealing_twice_is_409(world):
    event, _seated = world
    floor = api(staff("floor"))
    floor.post(url(event, "tables/2/hands/"))
    again = floor.post(url(event, "tables/2/hands/"))
    assert again.status_code == 409 and again.json()["code"] == "hand_in_play"


def test_a_hand_settled_from_its_log_pays_the_winner(world):
    event, seated = world
    floor = api(staff("floor"))
    hand = floor.post(url(event, "tables/2/hands/")).json()  # button 1, blinds 2 and 3
    for action in ({"kind": "fold"}, {"kind": "fold"}, {"kind": "call"}, {"kind": "check"}):
        floor.post(url(event, "tables/2/hands/1/actions/"), action, format="json")
    for _street in ("flop", "turn", "river"):
        for _seat in (2, 3):
            floor.post(url(event, "tables/2/hands/1/actions/"), {"kind": "check"}, format="json")

    settled = floor.post(
        url(event, "tables/2/hands/1/settle/"),
        {"cards": {"2": "As Ah", "3": "7c 2d"}, "board": "Kh Qs 9c 5d 3h"},
        format="json",
    )

    assert hand["small_blind"] == 2 and settled.status_code == 200, settled.content
    stacks = {p["seat"]: p["end_stack"] for p in settled.json()["players"]}
    assert stacks == {1: 20000, 2: 20200, 3: 19800, 4: 20000}

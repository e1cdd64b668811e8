"""A player who dodged the blinds (issue 19), ruled by the floor on the table's tablet or
through the API, by the house's reading of `dodged_blinds`:

- TDA 33, 71-B (the default; casino §22 alike): a penalty is due. The ruling is kept as a
  floor call naming the player, and the floor goes on to the penalty form with the player
  and the call filled in. Nothing is made up: the player's next hand posts nothing extra.
- older TDA 22: the blinds dodged, at the level in play, go into the player's next pot as
  dead money: counted in the pot, never part of the player's bet, so the call and the
  blinds stay as they are. A penalty may be given as well.

Table 2 has players in seats 1-4 of 9 with 20,000 each, level 1 at 100/200, the button on
seat 1: seat 2 posts the small blind, seat 3 the big blind, seat 4 acts first pre-flop.
"""

import pytest

from clock.tests.factories import with_structure
from floorman.models import AuditEntry
from hands.models import DeadBlinds, Hand, HandPlayer
from hands.tests.factories import button_at, seat_players
from rulings.models import Incident, Penalty
from tournaments.tests.factories import api, staff, tournament

pytestmark = pytest.mark.django_db

API = "/api/v1"


@pytest.fixture
def world():
    event = tournament()
    with_structure(event)  # level 1: 100/200, no ante
    seated = seat_players(event, {2: [1, 2, 3, 4]})
    button_at(event, 2, 1)
    return event, seated


@pytest.fixture
def floor(client):
    client.force_login(staff("floor"))
    return client


def older_translation(event) -> None:
    """The house reads the older German TDA translation's rule 22."""
    event.house_settings = {"dodged_blinds": "make_up"}
    event.save(update_fields=["house_settings"])


def page(event) -> str:
    return f"/tournaments/{event.pk}/tables/2/tablet/"


def dodge(client, event, seat, blinds):
    return client.post(page(event), {"action": "dodged_blinds", "seat": seat, "blinds": blinds})


def dodge_api(event, body, *, who="floor", table=2):
    url = f"{API}/tournaments/{event.pk}/tables/{table}/dodged-blinds/"
    return api(staff(who)).post(url, body, format="json")


def start(client, event) -> Hand:
    response = client.post(page(event), {"action": "start"})
    assert response.status_code == 302, response.content
    return Hand.objects.filter(table__number=2).order_by("-number").first()


def hand_detail(event, hand: int) -> dict:
    return api().get(f"{API}/tournaments/{event.pk}/tables/2/hands/{hand}/").json()


def act(event, hand: int, kind: str):
    url = f"{API}/tournaments/{event.pk}/tables/2/hands/{hand}/actions/"
    response = api(staff("dealer")).post(url, {"kind": kind}, format="json")
    assert response.status_code == 201, response.content


def html(response) -> str:
    return response.content.decode()


def nothing_written() -> bool:
    return (
        not Incident.objects.exists()
        and not DeadBlinds.objects.exists()
        and not AuditEntry.objects.filter(action="blinds.dodged").exists()
    )


# --- TDA 33, 71-B: a penalty, nothing made up ---------------------------------------------------


def test_tda_33_the_floor_rules_on_the_tablet_and_goes_on_to_the_penalty_form(world, floor):
    event, seated = world
    dodger = seated[(2, 4)]
    shown = html(floor.get(page(event)))
    assert "Floor: a player dodged the blinds" in shown and "TDA 33, 71-B, casino §22" in shown

    response = dodge(floor, event, 4, "big")

    incident = Incident.objects.get()
    assert response.status_code == 302
    assert response.url == f"/tournaments/{event.pk}/floor/?incident={incident.pk}#give-penalty"
    assert incident.rules == ["TDA 33", "TDA 71-B"] and incident.table_number == 2
    assert list(incident.entries.all()) == [dodger]
    assert "dodged the big blind (200, level 1)" in incident.description
    form = floor.get(response.url).context["penalty_form"]
    assert form.initial == {
        "incident": incident.pk,
        "player": str(dodger.number),
        "rules": "TDA 33, TDA 71-B",
    }
    assert not DeadBlinds.objects.exists()  # nothing is made up


def test_tda_33_the_penalty_given_names_the_floor_call_and_the_next_hand_posts_nothing_extra(
    world, floor
):
    event, seated = world
    ruled = dodge_api(event, {"seat": 4, "blinds": "both"})
    body = ruled.json()
    penalty = body["penalty"]
    given = api(staff("floor")).post(
        penalty.pop("url"), {**penalty, "kind": "warning"}, format="json"
    )

    assert ruled.status_code == 201, ruled.content
    assert (body["penalty_due"], body["dead_money"], body["rules"]) == (
        True,
        0,
        ["TDA 33", "TDA 71-B"],
    )
    assert (body["small_blind"], body["big_blind"]) == (100, 200)
    assert given.status_code == 201, given.content
    assert Penalty.objects.get().incident_id == body["incident"]["id"]
    hand = start(floor, event)
    dealt = hand_detail(event, hand.number)
    assert dealt["betting"]["pot"] == 300  # the blinds alone
    assert dealt["betting"]["stacks"]["4"] == 20000
    assert HandPlayer.objects.get(hand=hand, seat=4).dead_money == 0


# --- Older TDA 22: the blinds made up as dead money ---------------------------------------------


def test_older_tda_22_the_next_pot_holds_the_dead_money_and_the_call_is_unchanged(world, floor):
    event, seated = world
    older_translation(event)
    assert "older TDA 22" in html(floor.get(page(event)))

    response = dodge(floor, event, 4, "both")
    shown = html(floor.get(page(event)))
    hand = start(floor, event)
    dealt = hand_detail(event, hand.number)
    during = html(floor.get(page(event)))

    assert response.status_code == 302 and response.url == page(event)
    assert "posts 300 as dead money in their next hand" in shown
    assert "owes 300 dead" in shown
    assert dealt["betting"]["pot"] == 600  # 100 + 200 blinds, 300 dead
    assert dealt["betting"]["to_act"] == 4
    assert dealt["betting"]["legal"]["call"] == 200  # the big blind, as for anyone
    assert dealt["betting"]["legal"]["min_to"] == 400
    assert dealt["betting"]["stacks"]["4"] == 19700
    seat4 = next(p for p in dealt["players"] if p["seat"] == 4)
    assert seat4["dead_money"] == 300
    assert "300 dead" in during and "owes 300 dead" not in during
    start_log = AuditEntry.objects.get(action="hand.start")
    assert start_log.after["dead_money"] == {"4": 300}
    assert DeadBlinds.objects.get().hand == hand  # the debt is settled with this hand


def test_older_tda_22_the_dead_money_goes_to_the_pot_winner_and_is_posted_once(world, floor):
    event, seated = world
    older_translation(event)
    dodge(floor, event, 4, "big")
    hand = start(floor, event)
    for _seat in (4, 1, 2):
        act(event, hand.number, "fold")
    settle = api(staff("dealer")).post(
        f"{API}/tournaments/{event.pk}/tables/2/hands/{hand.number}/settle/",
        {"cards": {}, "board": ""},
        format="json",
    )
    ends = dict(HandPlayer.objects.filter(hand=hand).values_list("seat", "end_stack"))

    assert settle.status_code == 200, settle.content
    # The big blind wins the small blind and the 200 dead; seat 4 does not get them back.
    assert ends == {1: 20000, 2: 19900, 3: 20300, 4: 19800}
    following = start(floor, event)
    assert HandPlayer.objects.get(hand=following, seat=4).dead_money == 0


def test_older_tda_22_a_penalty_may_still_be_given(world):
    event, seated = world
    older_translation(event)
    ruled = dodge_api(event, {"seat": 3, "blinds": "small"})
    body = ruled.json()
    penalty = body["penalty"]
    given = api(staff("floor")).post(
        penalty.pop("url"), {**penalty, "kind": "missed_hands", "hands": 2}, format="json"
    )

    assert ruled.status_code == 201, ruled.content
    assert (body["penalty_due"], body["dead_money"], body["rules"]) == (
        False,
        100,
        ["older TDA 22"],
    )
    assert "posts 100 as dead money" in body["incident"]["decision"]
    assert given.status_code == 201, given.content
    assert DeadBlinds.objects.get().amount == 100


# --- Refusals: 400 / 403 / 404 / 409, nothing written -------------------------------------------


@pytest.mark.parametrize(
    "body, status, field",
    [
        ({"seat": 10, "blinds": "big"}, 400, "seat"),  # a 9-seat table has no seat 10
        ({"seat": 11, "blinds": "big"}, 400, "seat"),  # no table has
        ({"seat": 6, "blinds": "big"}, 409, None),  # nobody sits there
        ({"seat": 4, "blinds": "ante"}, 400, "blinds"),
        ({"seat": 4}, 400, "blinds"),
    ],
)
def test_a_bad_ruling_is_refused_through_the_api_and_nothing_is_written(world, body, status, field):
    event, _seated = world
    older_translation(event)
    response = dodge_api(event, body)
    assert response.status_code == status, response.content
    if field:
        assert field in response.json()
    assert nothing_written()


@pytest.mark.parametrize(
    "seat, blinds, status",
    [(10, "big", 400), (11, "big", 400), (6, "both", 409), (4, "ante", 400), ("", "big", 400)],
)
def test_a_bad_ruling_is_refused_on_the_tablet_and_nothing_is_written(
    world, floor, seat, blinds, status
):
    event, _seated = world
    response = dodge(floor, event, seat, blinds)
    assert response.status_code == status
    assert nothing_written()


def test_a_table_not_in_play_is_404(world):
    event, _seated = world
    assert dodge_api(event, {"seat": 4, "blinds": "big"}, table=7).status_code == 404
    assert nothing_written()


def test_older_tda_22_one_debt_at_a_time(world):
    event, _seated = world
    older_translation(event)
    assert dodge_api(event, {"seat": 4, "blinds": "big"}).status_code == 201
    again = dodge_api(event, {"seat": 4, "blinds": "small"})
    assert again.status_code == 409 and "already owes 200" in str(again.json())
    assert DeadBlinds.objects.count() == 1 and Incident.objects.count() == 1


def test_without_blinds_in_play_there_is_nothing_to_rule_on():
    event = tournament()  # no blind structure
    seat_players(event, {2: [1, 2, 3, 4]})
    button_at(event, 2, 1)
    response = dodge_api(event, {"seat": 4, "blinds": "big"})
    assert response.status_code == 409
    assert nothing_written()


def test_a_dealer_does_not_rule_on_dodged_blinds(world, client):
    event, _seated = world
    client.force_login(staff("dealer"))
    assert "Floor: a player dodged the blinds" not in html(client.get(page(event)))
    assert dodge(client, event, 4, "big").status_code == 403
    assert dodge_api(event, {"seat": 4, "blinds": "big"}, who="dealer").status_code == 403
    assert nothing_written()


def test_older_tda_22_ruled_during_a_hand_the_dead_money_waits_for_the_next(world, floor):
    event, _seated = world
    older_translation(event)
    first = start(floor, event)
    dodge(floor, event, 4, "small")
    assert HandPlayer.objects.get(hand=first, seat=4).dead_money == 0
    done = floor.post(page(event), {"action": "finish", "hand": first.number})
    assert done.status_code == 302, done.content

    second = start(floor, event)

    assert HandPlayer.objects.get(hand=second, seat=4).dead_money == 100
    assert hand_detail(event, second.number)["betting"]["pot"] == 400  # blinds 300, dead 100

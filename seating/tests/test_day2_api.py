"""The Day 2 API (issue 17): its state, the player's choice and the start, with the
refusals a client gets and the queries the state costs."""

import pytest
from django.urls import reverse

from seating.tests.test_day2 import two_flights
from tournaments.models import Bag, BagStatus, Entry, Tournament
from tournaments.tests.factories import api, staff
from tournaments.tests.festival_factories import player

pytestmark = pytest.mark.django_db


def url(name: str, *args) -> str:
    return reverse(name, args=args)


def test_the_state_names_the_flights_bags_doubles_and_field():
    event, (a, b), (anna_a, bo, anna_b, dana) = two_flights()

    body = api(staff("floor")).get(url("api-day2", event.pk)).json()

    assert body["ready"] and not body["started"] and body["refusal"] is None
    assert [f["flight_name"] for f in body["flights"]] == ["1A", "1B"]
    assert [bag["tag"] for bag in body["flights"][0]["bags"]] == ["1A-1", "1A-2"]
    assert body["doubles"] == [
        {
            "player": {"id": anna_a.entry.player_id, "name": "Anna"},
            "bags": [anna_a.pk, anna_b.pk],
            "kept": anna_b.pk,
            "must_choose": False,
        }
    ]
    assert body["field"] == [anna_b.pk, bo.pk, dana.pk]  # biggest first
    assert body["field_chips"] == 111000
    # A flight's id answers for its event.
    assert api(staff("floor")).get(url("api-day2", a.pk)).json()["event"] == event.pk


def test_the_start_answers_with_the_seats():
    event, _flights, _bags = two_flights()

    response = api(staff("floor")).post(url("api-day2-start", event.pk))

    assert response.status_code == 200
    body = response.json()
    assert body["started"]
    assert sorted((s["name"], s["chips"]) for s in body["seats"]) == [
        ("Anna", 52000),
        ("Bo", 41000),
        ("Dana", 18000),
    ]
    again = api(staff("floor")).post(url("api-day2-start", event.pk))
    assert (again.status_code, again.json()["code"]) == (409, "day2_started")


def test_a_start_before_the_bags_are_confirmed_is_refused_and_writes_nothing():
    event, (_a, b), _bags = two_flights()
    b.flight_end.confirmed_at = None
    b.flight_end.save()
    client = api(staff("director"))

    refusal = client.get(url("api-day2", event.pk)).json()["refusal"]
    response = client.post(url("api-day2-start", event.pk))

    assert refusal == {
        "code": "bags_not_confirmed",
        "message": "The bags are not confirmed yet in: 1B.",
    }
    assert (response.status_code, response.json()["code"]) == (409, "bags_not_confirmed")
    assert not Entry.objects.filter(tournament=event).exists()


def test_the_player_chooses_through_the_api():
    event, _flights, (anna_a, bo, anna_b, _dana) = two_flights(survivor_keeps="choose")
    client = api(staff("floor"))
    assert client.get(url("api-day2", event.pk)).json()["doubles"][0]["must_choose"]

    body = client.post(url("api-day2-choose", event.pk, anna_a.pk)).json()

    assert body["doubles"][0]["kept"] == anna_a.pk
    assert Bag.objects.get(pk=anna_b.pk).status == BagStatus.FORFEITED
    single = client.post(url("api-day2-choose", event.pk, bo.pk))
    assert (single.status_code, single.json()["code"]) == (409, "bag_choice_single")


def test_a_bag_of_another_event_is_not_found_and_the_house_rule_refuses_a_choice():
    event, _flights, (anna_a, *_rest) = two_flights()
    other = Tournament.objects.create(
        name="Other", buy_in=1, starting_stack=1, start_at=event.start_at
    )
    client = api(staff("floor"))
    assert client.post(url("api-day2-choose", other.pk, anna_a.pk)).status_code == 404
    assert client.post(url("api-day2-choose", event.pk, 999999)).status_code == 404
    ruled = client.post(url("api-day2-choose", event.pk, anna_a.pk))
    assert (ruled.status_code, ruled.json()["code"]) == (409, "bag_choice_not_allowed")


def test_day_2_is_floor_work():
    event, _flights, _bags = two_flights()
    assert api(staff("cashier")).get(url("api-day2", event.pk)).status_code == 403
    assert api().post(url("api-day2-start", event.pk)).status_code in (401, 403)


# The event, its flights with their ends and survivors, the bags with their players.
DAY2_API_QUERIES = 3


def test_the_state_costs_the_same_queries_for_a_bigger_field(django_assert_num_queries):
    event, (_a, b), _bags = two_flights()
    client = api(staff("director"))
    client.get(url("api-day2", event.pk))  # warm up: roles read once per process
    with django_assert_num_queries(DAY2_API_QUERIES):
        client.get(url("api-day2", event.pk))
    for n in range(12):
        entry = Entry.objects.create(tournament=b, player=player(f"P{n}"), number=50 + n, chips=1)
        Bag.objects.create(flight=b, entry=entry, number=10 + n, chips=1000 + n)
    with django_assert_num_queries(DAY2_API_QUERIES):
        assert len(client.get(url("api-day2", event.pk)).json()["flights"][1]["bags"]) == 14

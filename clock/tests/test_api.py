"""The clock API: public reads, the floor drives it, clear refusals, no 500s."""

import pytest

from clock.models import Clock, Structure
from clock.tests.factories import structure, with_structure
from floorman.tests.openapi import documented_responses, response_schema
from tournaments.tests.factories import api, staff, tournament

pytestmark = pytest.mark.django_db


def clock_url(event) -> str:
    return f"/api/v1/tournaments/{event.pk}/clock/"


def test_anyone_can_read_the_clock_in_the_documented_shape():
    event = tournament(status="running")
    with_structure(event)

    body = api().get(clock_url(event)).json()

    assert body["status"] == "not_started"
    assert body["level"] == {
        "position": 1,
        "number": 1,
        "is_break": False,
        "minutes": 20,
        "small_blind": 100,
        "big_blind": 200,
        "ante": 0,
        "big_blind_ante": 0,
        "ante_type": "none",
        "small_bet": 0,
        "big_bet": 0,
        "bring_in": 0,  # stud only (RP-10 E)
        "game": "",
        "label": "",
        "color_up": [],
        "addon": False,
    }
    assert body["seconds_left"] == 20 * 60
    assert body["next_level"]["big_blind"] == 400
    assert body["seconds_to_break"] == 40 * 60
    for key in ("server_time", "version"):
        assert key in body


def test_floor_starts_and_pauses_the_clock():
    event = tournament(status="running")
    with_structure(event)
    floor = api(staff("floor"))

    started = floor.post(clock_url(event), {"action": "start"}, format="json")
    paused = floor.post(clock_url(event), {"action": "pause"}, format="json")

    assert started.status_code == 200 and started.json()["status"] == "running"
    assert paused.status_code == 200 and paused.json()["status"] == "paused"
    assert paused.json()["version"] == started.json()["version"] + 1


def test_big_blind_ante_is_reported_as_such():
    event = tournament(status="running")
    with_structure(event)
    floor = api(staff("floor"))

    body = floor.post(clock_url(event), {"action": "jump", "level": 3}, format="json").json()

    assert body["level"]["number"] == 3
    assert body["level"]["big_blind_ante"] == 600 and body["level"]["ante"] == 0


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({}, "action"),
        ({"action": "explode"}, "action"),
        ({"action": "jump"}, "level"),
        ({"action": "jump", "level": "three"}, "level"),
        ({"action": "set"}, "seconds"),
        ({"action": "set", "seconds": 10**12}, "seconds"),
        ({"action": "adjust", "seconds": None}, "seconds"),
    ],
)
def test_malformed_actions_get_400_with_the_field(payload, field):
    event = tournament(status="running")
    with_structure(event)

    response = api(staff("floor")).post(clock_url(event), payload, format="json")

    assert response.status_code == 400
    assert field in response.json()


@pytest.mark.parametrize(
    ("actions", "code"),
    [
        (["start", "resume"], "already_running"),
        (["previous"], "first_level"),
        (["start", ("set", -5)], "negative_time"),
    ],
)
def test_actions_that_make_no_sense_get_409(actions, code):
    event = tournament(status="running")
    with_structure(event)
    floor = api(staff("floor"))

    for action in actions:
        payload = (
            {"action": action[0], "seconds": action[1]}
            if isinstance(action, tuple)
            else {"action": action}
        )
        response = floor.post(clock_url(event), payload, format="json")

    assert response.status_code == 409
    assert response.json()["code"] == code


def test_negative_time_is_refused_before_it_reaches_the_clock():
    event = tournament(status="running")
    with_structure(event)
    floor = api(staff("floor"))
    floor.post(clock_url(event), {"action": "start"}, format="json")

    response = floor.post(clock_url(event), {"action": "adjust", "seconds": -5000}, format="json")

    assert response.status_code == 409
    assert response.json()["code"] == "negative_time"


def test_clock_without_a_structure_says_so():
    event = tournament(status="running")

    response = api(staff("floor")).post(clock_url(event), {"action": "start"}, format="json")

    assert response.status_code == 409
    assert response.json()["code"] == "no_structure"


@pytest.mark.parametrize(("role", "expected"), [(None, 401), ("cashier", 403), ("dealer", 403)])
def test_only_floor_and_directors_drive_the_clock(role, expected):
    event = tournament(status="running")
    with_structure(event)
    user = staff(role) if role else None

    response = api(user).post(clock_url(event), {"action": "start"}, format="json")

    assert response.status_code == expected
    assert Clock.objects.get(pk=event.pk).status == "not_started"


def test_unknown_tournament_is_404():
    assert api().get("/api/v1/tournaments/999999/clock/").status_code == 404


def test_director_assigns_a_template_through_settings():
    event = tournament(status="running")
    template = structure("Deep 40")

    response = api(staff("director")).put(
        f"/api/v1/tournaments/{event.pk}/clock/settings/",
        {"structure": template.pk, "warning_seconds": 60},
        format="json",
    )

    assert response.status_code == 200
    assert response.json()["warning_seconds"] == 60
    with_steps = api().get(clock_url(event) + "?steps=1").json()
    assert with_steps["steps"][0]["big_blind"] == 200
    assert "steps" not in api().get(clock_url(event)).json()  # only when asked for


def test_settings_refuse_a_turbo_that_is_not_yes_or_no():
    event = tournament(status="running")

    response = api(staff("director")).put(
        f"/api/v1/tournaments/{event.pk}/clock/settings/", {"turbo": "often"}, format="json"
    )

    assert response.status_code == 400
    assert "turbo" in response.json()


def _structure_payload(**changes):
    steps = [
        {"kind": "level", "minutes": 20, "small_blind": 100, "big_blind": 200},
        {"kind": "break", "minutes": 10, "label": "Break", "color_up": [25]},
        {
            "kind": "level",
            "minutes": 20,
            "small_blind": 200,
            "big_blind": 400,
            "ante": 400,
            "ante_type": "bba",
        },
    ]
    return {"name": "Friday Turbo", "is_template": True, "steps": steps, **changes}


def test_director_creates_and_reads_a_structure():
    director = api(staff("director"))

    created = director.post("/api/v1/structures/", _structure_payload(), format="json")

    assert created.status_code == 201
    body = director.get(f"/api/v1/structures/{created.json()['id']}/").json()
    assert [s["kind"] for s in body["steps"]] == ["level", "break", "level"]
    assert body["steps"][1]["color_up"] == [25]


def test_structure_with_decreasing_blinds_is_refused():
    steps = _structure_payload()["steps"]
    steps[2]["big_blind"], steps[2]["small_blind"] = 100, 50

    response = api(staff("director")).post(
        "/api/v1/structures/", _structure_payload(steps=steps), format="json"
    )

    assert response.status_code == 400
    assert "steps" in response.json()


def test_structure_in_use_cannot_be_deleted():
    event = tournament(status="running")
    clock = with_structure(event)

    response = api(staff("director")).delete(f"/api/v1/structures/{clock.structure_id}/")

    assert response.status_code == 409


def test_floor_may_not_edit_structures():
    response = api(staff("floor")).post("/api/v1/structures/", _structure_payload(), format="json")

    assert response.status_code == 403


def test_chip_set_with_colours_round_trips_and_names_are_unique():
    director = api(staff("director"))
    payload = {
        "name": "Casino set",
        "chips": [{"value": 25, "color": "green"}, {"value": 100, "color": "black"}],
    }

    created = director.post("/api/v1/chipsets/", payload, format="json")
    again = director.post("/api/v1/chipsets/", payload, format="json")

    assert created.status_code == 201
    assert created.json()["chips"] == payload["chips"]
    assert again.status_code == 409


def test_chip_set_with_a_denomination_twice_is_400():
    response = api(staff("director")).post(
        "/api/v1/chipsets/",
        {"name": "Bad", "chips": [{"value": 25, "color": "green"}, {"value": 25, "color": "red"}]},
        format="json",
    )

    assert response.status_code == 400


def test_tda29_floor_calls_the_clock_on_a_seat_and_anyone_can_see_it():
    event = tournament(status="running")

    called = api(staff("floor")).post(
        f"/api/v1/tournaments/{event.pk}/player-clocks/",
        {"table": 12, "seat": 4, "facing_bet": True},
        format="json",
    )
    listed = api().get(f"/api/v1/tournaments/{event.pk}/player-clocks/").json()

    assert called.status_code == 201
    assert called.json()["seconds"] == 30 and called.json()["countdown"] == 5
    assert called.json()["consequence"] == "dead"
    assert [(c["table"], c["seat"]) for c in listed] == [(12, 4)]


def test_stopping_a_player_clock_twice_is_409():
    event = tournament(status="running")
    floor = api(staff("floor"))
    called = floor.post(
        f"/api/v1/tournaments/{event.pk}/player-clocks/",
        {"table": 1, "seat": 2, "facing_bet": False},
        format="json",
    ).json()
    url = f"/api/v1/tournaments/{event.pk}/player-clocks/{called['id']}/"

    assert floor.delete(url).status_code == 200
    assert floor.delete(url).status_code == 409


def test_schema_documents_the_answers_of_stop_and_day_end():
    """Fuzzing found these: stopping a player clock answers 200 with the clock (the schema
    said 204, no body), the end-of-day draw 201 (the schema said 200)."""
    player_clock = "/api/v1/tournaments/{tournament_pk}/player-clocks/{id}/"
    day_end = "/api/v1/tournaments/{tournament_pk}/clock/day-end/"

    stopped = response_schema(player_clock, "delete", 200)

    assert stopped["properties"]["running"]["type"] == "boolean"
    assert list(documented_responses(player_clock, "delete")) == ["200"]
    assert list(documented_responses(day_end, "post")) == ["201"]


def test_director_posts_an_announcement_for_the_screens():
    event = tournament(status="running")

    posted = api(staff("director")).post(
        f"/api/v1/tournaments/{event.pk}/announcements/",
        {"text": "Dinner at level 8"},
        format="json",
    )
    blank = api(staff("director")).post(
        f"/api/v1/tournaments/{event.pk}/announcements/", {"text": "   "}, format="json"
    )

    assert posted.status_code == 201
    assert blank.status_code == 400
    texts = [a["text"] for a in api().get(f"/api/v1/tournaments/{event.pk}/announcements/").json()]
    assert texts == ["Dinner at level 8"]


def test_end_of_day_draw_is_shown_in_the_clock_state():
    event = tournament(status="running", house_settings={"day_end_draw": "casino"})
    with_structure(event)
    api(staff("floor")).post(clock_url(event), {"action": "start"}, format="json")

    response = api(staff("director")).post(f"/api/v1/tournaments/{event.pk}/clock/day-end/")

    assert response.status_code == 201
    assert 3 <= response.json()["day_end_hands"] <= 7
    assert response.json()["status"] == "paused"


# --- stud's bring-in (RP-10 E, TDA 30) ---------------------------------------------------


def stud_level(**changes) -> dict:
    level = {"kind": "level", "minutes": 20, "small_blind": 100, "big_blind": 200}
    return {**level, "small_bet": 200, "big_bet": 400, "game": "stud", **changes}


def test_a_levels_bring_in_is_stored_and_shown_with_the_level_in_play():
    director = api(staff("director"))
    created = director.post(
        "/api/v1/structures/", _structure_payload(steps=[stud_level(bring_in=75)]), format="json"
    )
    assert created.status_code == 201, created.content
    event = tournament(status="running")
    structure_id = created.json()["id"]
    # The event's clock gets its own copy of the template, bring-in and all.
    chosen = director.put(
        f"/api/v1/tournaments/{event.pk}/clock/settings/",
        {"structure": structure_id},
        format="json",
    )
    assert chosen.status_code == 200, chosen.content

    stored = director.get(f"/api/v1/structures/{structure_id}/").json()
    level = api().get(clock_url(event)).json()["level"]

    assert stored["steps"][0]["bring_in"] == 75
    assert level["bring_in"] == 75  # RP-10 E: what a stud hand at this level posts


def test_a_bring_in_above_the_small_bet_is_400_and_nothing_is_stored():
    response = api(staff("director")).post(
        "/api/v1/structures/", _structure_payload(steps=[stud_level(bring_in=300)]), format="json"
    )

    assert response.status_code == 400
    assert "small bet (RP-10 E)" in str(response.json()["steps"])
    assert not Structure.objects.filter(name="Friday Turbo").exists()

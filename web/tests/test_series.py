"""A series' pages and API (issue 17): the director's list, form and schedule page, the
public schedule for phones and TVs, the series lobby that rotates through its running
events, and /api/v1/series/. Query guards pin the lists and the public page."""

import json
import re
from datetime import date, datetime, timedelta

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from floorman.models import AuditEntry
from seating.services import desk
from tournaments.models import Series, Tournament
from tournaments.services import series as services
from tournaments.tests.factories import api, signed_in, staff, tournament

pytestmark = pytest.mark.django_db

FIRST_DAY = date(2030, 5, 1)
LOBBY_CONFIG = re.compile(r'<script id="lobby-config" type="application/json">(.*?)</script>')


def at(day: int, hour: int) -> datetime:
    moment = datetime.combine(FIRST_DAY + timedelta(days=day - 1), datetime.min.time())
    return timezone.make_aware(moment.replace(hour=hour))


def festival(**data) -> Series:
    values = {
        "name": "Spring Festival",
        "slug": "spring",
        "venue": "Casino Wien",
        "starts_on": FIRST_DAY,
        "ends_on": FIRST_DAY + timedelta(days=6),
    } | data
    return services.series_add(actor=None, data=values)


def event_in(series: Series, number: int | None, **data) -> Tournament:
    event = tournament(**({"start_at": at(1, 18)} | data))
    return services.series_event_set(
        actor=None, tournament_id=event.pk, series_id=series.pk, series_number=number
    )


@pytest.fixture
def director():
    return signed_in(staff("director"))


# --- The director's pages ------------------------------------------------------------------


def test_a_director_creates_a_series_on_its_form(director):
    response = director.post(
        reverse("series:create"),
        {
            "name": "Spring Festival",
            "slug": "spring",
            "venue": "Casino Wien",
            "starts_on": "2030-05-01",
            "ends_on": "2030-05-07",
            "public": "on",
            "rotate_seconds": "25",
        },
    )

    series = Series.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("series:detail", args=[series.pk])
    assert (series.venue, series.rotate_seconds, series.public) == ("Casino Wien", 25, True)


def test_the_form_says_which_field_is_wrong_and_saves_nothing(director):
    festival()

    response = director.post(
        reverse("series:create"),
        {
            "name": "Spring again",
            "slug": "spring",
            "starts_on": "2030-05-07",
            "ends_on": "2030-05-01",
            "rotate_seconds": "20",
        },
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert "The last day cannot be before the first day." in html
    assert Series.objects.count() == 1


def test_a_taken_short_name_is_refused_on_the_form(director):
    festival()

    response = director.post(
        reverse("series:create"),
        {
            "name": "Spring again",
            "slug": "spring",
            "starts_on": "2030-05-01",
            "ends_on": "2030-05-02",
            "rotate_seconds": "20",
        },
    )

    assert "is already taken by another series" in response.content.decode()
    assert Series.objects.count() == 1


def test_a_director_edits_a_series(director):
    series = festival()

    response = director.post(
        reverse("series:edit", args=[series.pk]),
        {
            "name": "Spring Festival 2030",
            "slug": "spring",
            "starts_on": "2030-05-01",
            "ends_on": "2030-05-07",
            "rotate_seconds": "40",
        },
    )

    assert response.status_code == 302
    series.refresh_from_db()
    assert (series.name, series.public, series.rotate_seconds) == (
        "Spring Festival 2030",
        False,  # the box left unticked
        40,
    )


def test_the_series_page_lists_its_schedule_and_puts_an_event_in_with_its_number(director):
    series = festival()
    event_in(series, 1, name="Opening Deepstack", start_at=at(1, 18))
    main = tournament(name="Main Event", start_at=at(3, 12))

    response = director.post(
        reverse("series:detail", args=[series.pk]),
        {"tournament": main.pk, "series_number": "3"},
    )

    assert response.status_code == 302
    html = director.get(reverse("series:detail", args=[series.pk])).content.decode()
    assert "Event #1" in html and "Event #3" in html
    assert reverse("tournaments:detail", args=[main.pk]) in html
    assert AuditEntry.objects.filter(action="tournament.series", tournament=main).exists()


def test_a_number_already_given_shows_on_the_series_page(director):
    series = festival()
    event_in(series, 3, name="Main Event")
    other = tournament(name="Deepstack", start_at=at(2, 18))

    response = director.post(
        reverse("series:detail", args=[series.pk]),
        {"tournament": other.pk, "series_number": "3"},
    )

    assert response.status_code == 200
    assert "Event #3 is already in this series." in response.content.decode()
    other.refresh_from_db()
    assert other.series_id is None


def test_an_event_is_taken_out_of_the_series(director):
    series = festival()
    main = event_in(series, 3, name="Main Event")

    response = director.post(reverse("series:event-remove", args=[series.pk, main.pk]))

    assert response.status_code == 302
    main.refresh_from_db()
    assert main.series_id is None


def test_the_tournaments_list_links_to_the_series(director):
    html = director.get(reverse("tournaments:list")).content.decode()

    assert f'href="{reverse("series:list")}"' in html


def test_a_cashier_may_not_open_the_series_pages():
    cashier = signed_in(staff("cashier"))

    assert cashier.get(reverse("series:list")).status_code == 403
    assert cashier.get(reverse("series:create")).status_code == 403


# --- The public schedule --------------------------------------------------------------------


def test_the_public_schedule_shows_each_event_with_its_start_buy_in_game_and_status(client):
    series = festival()
    main = event_in(series, 3, name="Main Event", start_at=at(3, 12), format="Re-entry")
    tournament(
        name="Main Event Day 1A", parent=main, flight_name="1A", series=series, start_at=at(1, 12)
    )
    event_in(series, 1, name="Opening Deepstack", start_at=at(1, 18), status="running")

    response = client.get(reverse("series:schedule", args=["spring"]))

    html = response.content.decode()
    assert response.status_code == 200
    assert html.index("Flight 1A of Event #3") < html.index("Opening Deepstack")
    assert html.index("Opening Deepstack") < html.index("<bdi>Main Event</bdi>")
    assert "€110.00" in html  # the buy-in with its fee, as the player pays it
    assert "No-limit hold&#x27;em" in html and "Re-entry" in html
    assert 'data-status="running"' in html
    assert reverse("screens:lobby", args=[main.pk]) in html
    assert "/ws/series/" in html  # live over the series' socket (static/js/schedule.js)


def test_the_tv_schedule_uses_the_lobby_screens_big_type(client):
    series = festival()
    event_in(series, 1, name="Opening Deepstack")

    html = client.get(reverse("series:schedule-tv", args=["spring"])).content.decode()

    assert "css/lobby.css" in html and 'class="schedule schedule-tv"' in html
    assert "Opening Deepstack" in html


def test_a_schedule_that_is_not_public_is_not_found(client):
    festival(public=False)

    assert client.get(reverse("series:schedule", args=["spring"])).status_code == 404
    assert client.get(reverse("series:schedule-part", args=["spring"])).status_code == 404
    assert client.get(reverse("screens:series-lobby", args=["spring"])).status_code == 404


def test_the_schedule_part_a_reconnected_page_fetches_shows_the_status_now(client):
    series = festival()
    event = event_in(series, 1, name="Opening Deepstack")
    Tournament.objects.filter(pk=event.pk).update(status="finished")

    html = client.get(reverse("series:schedule-part", args=["spring"])).content.decode()

    assert 'id="schedule"' in html and 'data-status="finished"' in html
    assert reverse("results-public", args=[event.pk]) in html


def test_the_public_schedule_speaks_german(client):
    series = festival()
    event_in(series, 3, name="Main Event", status="running")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"

    html = client.get(reverse("series:schedule", args=["spring"])).content.decode()

    assert '<html lang="de">' in html
    assert "Spielplan" in html
    assert "Läuft" in html
    assert "110,00\xa0€" in html


def test_the_public_schedule_answers_in_the_same_queries_for_one_event_or_many(
    client, django_assert_num_queries
):
    series = festival()
    event_in(series, 1, name="Event 1")
    url = reverse("series:schedule", args=["spring"])
    client.get(url)
    with django_assert_num_queries(2):  # the series, its schedule
        client.get(url)
    for number in range(2, 7):
        event_in(series, number, name=f"Event {number}", start_at=at(number, 18))
    with django_assert_num_queries(2):
        assert client.get(url).status_code == 200


def test_the_series_list_answers_in_the_same_queries_for_one_series_or_many(
    director, django_assert_num_queries
):
    festival()
    url = reverse("series:list")
    director.get(url)
    with django_assert_num_queries(5) as one:
        director.get(url)
    for n in range(4):
        event_in(festival(name=f"Series {n}", slug=f"series-{n}"), 1)
    with django_assert_num_queries(len(one.captured_queries)):
        assert director.get(url).status_code == 200


# --- The series lobby ---------------------------------------------------------------------


def test_the_series_lobby_rotates_through_its_running_events_at_its_pace(client):
    series = festival(rotate_seconds=45)
    event_in(series, 1, name="Opening Deepstack", status="running")
    event_in(series, 2, name="Turbo", start_at=at(1, 20), status="running")
    event_in(series, 3, name="Main Event", start_at=at(3, 12))  # registering: not shown

    response = client.get(reverse("screens:series-lobby", args=["spring"]))

    config = json.loads(LOBBY_CONFIG.search(response.content.decode()).group(1))
    assert [board["lobby"]["name"] for board in config["boards"]] == ["Opening Deepstack", "Turbo"]
    assert config["every"] == 45
    assert "js/series-lobby.js" in response.content.decode()


def test_the_series_lobby_says_when_nothing_runs(client):
    series = festival()
    event_in(series, 1, name="Opening Deepstack")

    html = client.get(reverse("screens:series-lobby", args=["spring"])).content.decode()

    assert "No event of this series is running right now." in html
    assert "js/series-lobby.js" in html  # it turns into the rotation once one starts


# --- The API ----------------------------------------------------------------------------------


def test_the_api_lists_public_series_to_anyone_and_every_series_to_a_director():
    festival()
    festival(name="Staff Only", slug="staff-only", public=False)

    anyone = api().get("/api/v1/series/").json()
    director = api(staff("director")).get("/api/v1/series/").json()

    assert [s["slug"] for s in anyone["results"]] == ["spring"]
    assert sorted(s["slug"] for s in director["results"]) == ["spring", "staff-only"]


def test_the_api_series_detail_has_its_schedule():
    series = festival()
    main = event_in(series, 3, name="Main Event", start_at=at(3, 12))
    tournament(
        name="Main Event Day 1A", parent=main, flight_name="1A", series=series, start_at=at(1, 12)
    )

    body = api().get(f"/api/v1/series/{series.pk}/").json()

    assert body["name"] == "Spring Festival"
    assert [
        (row["label"], row["status"], row["buy_in"] + row["fee"]) for row in body["schedule"]
    ] == [
        ("Flight 1A of Event #3", "registering", 11000),
        ("Event #3", "registering", 11000),
    ]
    assert body["schedule"][0]["parent"] == main.pk
    assert body["schedule"][1]["lobby"] == reverse("screens:lobby", args=[main.pk])


def test_a_series_that_is_not_public_or_not_there_is_404_in_the_api():
    hidden = festival(public=False)

    assert api().get(f"/api/v1/series/{hidden.pk}/").status_code == 404
    assert api(staff("director")).get("/api/v1/series/999999/").status_code == 404


def test_a_director_creates_and_changes_a_series_through_the_api():
    client = api(staff("director"))

    created = client.post(
        "/api/v1/series/",
        {
            "name": "Spring Festival",
            "slug": "spring",
            "starts_on": "2030-05-01",
            "ends_on": "2030-05-07",
        },
        format="json",
    )
    changed = client.patch(
        f"/api/v1/series/{created.json()['id']}/", {"rotate_seconds": 60}, format="json"
    )

    assert created.status_code == 201
    assert changed.status_code == 200 and changed.json()["rotate_seconds"] == 60
    assert AuditEntry.objects.filter(action__startswith="series.").count() == 2


def test_the_api_refuses_bad_series_with_field_messages():
    client = api(staff("director"))
    festival()
    base = {"name": "X", "starts_on": "2030-05-01", "ends_on": "2030-05-07"}

    backwards = client.post(
        "/api/v1/series/", base | {"slug": "x", "ends_on": "2030-04-01"}, format="json"
    )
    taken = client.post("/api/v1/series/", base | {"slug": "spring"}, format="json")
    too_fast = client.post(
        "/api/v1/series/", base | {"slug": "y", "rotate_seconds": 1}, format="json"
    )

    assert backwards.status_code == 400 and "ends_on" in backwards.json()
    assert taken.status_code == 409 and taken.json()["code"] == "slug_taken"
    assert "slug" in taken.json()
    assert too_fast.status_code == 400 and "rotate_seconds" in too_fast.json()
    assert Series.objects.count() == 1


def test_only_a_director_changes_series_through_the_api():
    series = festival()
    data = {"name": "X", "slug": "x", "starts_on": "2030-05-01", "ends_on": "2030-05-07"}

    assert api().post("/api/v1/series/", data, format="json").status_code in (401, 403)
    assert api(staff("cashier")).post("/api/v1/series/", data, format="json").status_code == 403
    assert (
        api(staff("floor")).patch(f"/api/v1/series/{series.pk}/", {"name": "Y"}, format="json")
    ).status_code == 403


def test_a_director_puts_an_event_into_a_series_through_the_api():
    client = api(staff("director"))
    series = festival()
    event_in(series, 1, name="Opening Deepstack")
    main = tournament(name="Main Event", start_at=at(3, 12))

    response = client.post(
        f"/api/v1/series/{series.pk}/events/",
        {"tournament": main.pk, "series_number": 3},
        format="json",
    )
    again = client.post(
        f"/api/v1/series/{series.pk}/events/",
        {"tournament": tournament(start_at=at(2, 12)).pk, "series_number": 3},
        format="json",
    )
    unknown = client.post(
        f"/api/v1/series/{series.pk}/events/", {"tournament": 999999}, format="json"
    )
    bad = client.post(
        f"/api/v1/series/{series.pk}/events/",
        {"tournament": main.pk, "series_number": 0},
        format="json",
    )

    assert response.status_code == 200
    assert [row["label"] for row in response.json()["schedule"]] == ["Event #1", "Event #3"]
    assert again.status_code == 409 and again.json()["series_number"]
    assert unknown.status_code == 404
    assert bad.status_code == 400 and "series_number" in bad.json()


def test_the_api_list_answers_in_the_same_queries_for_one_series_or_many(
    django_assert_num_queries,
):
    festival()
    client = api()
    client.get("/api/v1/series/")
    with django_assert_num_queries(2):  # the count, the page
        assert client.get("/api/v1/series/").json()["count"] == 1
    for n in range(4):
        festival(name=f"Series {n}", slug=f"series-{n}")
    with django_assert_num_queries(2):
        assert client.get("/api/v1/series/").json()["count"] == 5


def test_the_api_detail_reads_its_schedule_in_one_query(django_assert_num_queries):
    series = festival()
    for number in range(1, 6):
        event_in(series, number, name=f"Event {number}", start_at=at(number, 18))
    client = api()
    client.get(f"/api/v1/series/{series.pk}/")
    with django_assert_num_queries(2):  # the series, its schedule
        assert len(client.get(f"/api/v1/series/{series.pk}/").json()["schedule"]) == 5


def test_a_status_change_on_the_desk_is_published_to_the_series(
    monkeypatch, django_capture_on_commit_callbacks
):
    sent = []
    monkeypatch.setattr("floorman.live._send", lambda tournament_id, message: sent.append(message))
    series = festival()
    event = event_in(series, 1, name="Opening Deepstack", status="planned")

    with django_capture_on_commit_callbacks(execute=True):
        desk.tournament_status_set(actor=None, tournament_id=event.pk, status="registering")

    updates = [m for m in sent if m["type"] == "tournament.updated"]
    assert updates[-1]["series"] == series.pk
    assert updates[-1]["data"]["status"] == "registering"


def test_the_openapi_schema_documents_the_series_endpoints():
    schema = api().get("/api/v1/schema/", {"format": "json"}).json()

    assert {"get", "post"} <= set(schema["paths"]["/api/v1/series/"])
    assert {"get", "put", "patch"} <= set(schema["paths"]["/api/v1/series/{id}/"])
    assert "post" in schema["paths"]["/api/v1/series/{id}/events/"]
    detail = schema["components"]["schemas"]["SeriesDetail"]["properties"]
    assert detail["schedule"]["type"] == "array"

"""House settings (issue 19): where the rule books disagree the TDA is the default; a venue
may choose the other reading for its events, and an event for itself. The settings page,
the API and the directors' guide show every setting with the rule each reading follows."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from floorman.models import AuditEntry
from tournaments import house
from tournaments.models import Venue
from tournaments.selectors import house_settings
from tournaments.services.house import (
    tournament_house_settings_save,
    venue_house_settings_save,
)
from tournaments.tests.factories import api, signed_in, staff, tournament

pytestmark = pytest.mark.django_db

API = "/api/v1"


def _text(response) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


# --- Which reading applies -------------------------------------------------------------------


def test_without_a_venue_every_setting_reads_as_the_tda():
    readings = house_settings(tournament())
    assert readings.values == {setting.key: house.TDA for setting in house.SETTINGS}


def test_an_event_follows_the_default_venue_unless_it_chooses():
    Venue.objects.create(name="Casino", is_default=True, house_settings={"player_clock": "casino"})
    event = tournament()
    assert house_settings(event).player_clock == "casino"  # casino §27 from the venue
    event.house_settings = {"player_clock": "tda"}
    event.save()
    assert house_settings(event).player_clock == "tda"  # the event's own choice: TDA 29


def test_an_event_follows_its_own_venue_over_the_default_one():
    Venue.objects.create(name="Club", is_default=True)
    casino = Venue.objects.create(name="Casino", house_settings={"show_order": "any_round"})
    event = tournament(venue=casino)
    assert house_settings(event).show_order == "any_round"
    assert house_settings(tournament()).show_order == "tda"


def test_a_reading_no_longer_offered_falls_back_to_the_tda():
    event = tournament(house_settings={"show_order": "loudest", "no_such_setting": "x"})
    assert house_settings(event).show_order == "tda"


# --- Saving -----------------------------------------------------------------------------------


def test_a_venue_keeps_only_the_readings_that_differ_from_the_tda():
    venue = Venue.objects.create(name="Casino")
    director = staff("director")
    venue_house_settings_save(
        actor=director,
        venue_id=venue.pk,
        changes={"unclear_amount": "ifp", "show_order": "tda", "hand_starts": "cut"},
    )
    venue.refresh_from_db()
    assert venue.house_settings == {"unclear_amount": "ifp", "hand_starts": "cut"}
    venue_house_settings_save(actor=director, venue_id=venue.pk, changes={"hand_starts": None})
    venue.refresh_from_db()
    assert venue.house_settings == {"unclear_amount": "ifp"}
    assert AuditEntry.objects.filter(action="venue.house_settings").count() == 2


def test_an_event_keeps_a_tda_reading_against_its_venue_and_null_follows_the_venue_again():
    Venue.objects.create(name="Casino", is_default=True, house_settings={"button_error": "casino"})
    event = tournament()
    director = staff("director")
    tournament_house_settings_save(
        actor=director, tournament_id=event.pk, changes={"button_error": "tda"}
    )
    event.refresh_from_db()
    assert event.house_settings == {"button_error": "tda"}
    assert house_settings(event).button_error == "tda"
    tournament_house_settings_save(
        actor=director, tournament_id=event.pk, changes={"button_error": None}
    )
    event.refresh_from_db()
    assert house_settings(event).button_error == "casino"


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"show_order": "loudest"}, "show_order"),
        ({"no_such_setting": "tda"}, "no_such_setting"),
        ({"show_order": ["tda"]}, "show_order"),
    ],
)
def test_a_bad_setting_is_refused_with_its_field_and_nothing_is_written(changes, field):
    event = tournament()
    response = api(staff("director")).patch(
        f"{API}/tournaments/{event.pk}/house-settings/",
        {"house_settings": changes},
        format="json",
    )
    assert response.status_code == 400
    assert field in str(response.json())
    event.refresh_from_db()
    assert event.house_settings == {}
    assert not AuditEntry.objects.filter(action="tournament.house_settings").exists()


# --- API --------------------------------------------------------------------------------------


def test_the_guide_lists_every_setting_with_both_readings_and_their_rules():
    body = api().get(f"{API}/house-settings/").json()
    keys = [setting["key"] for setting in body["settings"]]
    assert keys == list(house.KEYS)
    clock = next(s for s in body["settings"] if s["key"] == "player_clock")
    assert clock["default"] == "tda"
    assert [r["rule"] for r in clock["readings"]] == [
        "TDA 29",
        "casino §27",
        "IFP 4.26, older TDA 5",
    ]


def test_the_director_sets_a_venue_through_the_api():
    venue = Venue.objects.create(name="Casino")
    client = api(staff("director"))
    url = f"{API}/venues/{venue.pk}/house-settings/"
    response = client.patch(url, {"house_settings": {"limit_cap_heads_up": "hand"}}, format="json")
    assert response.status_code == 200
    assert response.json()["house_settings"]["limit_cap_heads_up"] == "hand"
    assert response.json()["chosen"] == {"limit_cap_heads_up": "hand"}
    assert client.get(url).json()["house_settings"]["unclear_amount"] == "tda"
    assert client.get(f"{API}/venues/999999/house-settings/").status_code == 404


def test_the_director_sets_an_events_venue_and_readings_through_the_api():
    Venue.objects.create(name="Club", is_default=True)
    casino = Venue.objects.create(name="Casino", house_settings={"player_clock": "casino"})
    event = tournament()
    client = api(staff("director"))
    url = f"{API}/tournaments/{event.pk}/house-settings/"
    body = client.patch(
        url, {"venue": casino.pk, "house_settings": {"show_order": "any_round"}}, format="json"
    ).json()
    assert body["venue"] == casino.pk
    assert body["house_settings"]["player_clock"] == "casino"  # from the venue
    assert body["house_settings"]["show_order"] == "any_round"  # its own
    assert body["chosen"] == {"show_order": "any_round"}
    missing = client.patch(url, {"venue": 999999}, format="json")
    assert missing.status_code == 400 and "venue" in missing.json()
    body = client.patch(url, {"venue": None}, format="json").json()
    assert body["venue"] is None and body["house_settings"]["player_clock"] == "tda"


def test_the_floor_may_not_change_house_settings():
    event = tournament()
    response = api(staff("floor")).patch(
        f"{API}/tournaments/{event.pk}/house-settings/",
        {"house_settings": {"show_order": "any_round"}},
        format="json",
    )
    assert response.status_code == 403
    event.refresh_from_db()
    assert event.house_settings == {}


def test_the_schema_documents_every_setting_and_its_readings():
    schema = api().get(f"{API}/schema/", HTTP_ACCEPT="application/json").json()
    readings = schema["components"]["schemas"]["HouseReadings"]["properties"]
    assert set(readings) == set(house.KEYS)
    assert "casino §27" in readings["player_clock"]["description"]


# --- Pages ------------------------------------------------------------------------------------


def test_the_event_page_shows_what_the_venue_reads_and_saves_the_events_choice(client):
    Venue.objects.create(name="Casino", is_default=True, house_settings={"hand_starts": "cut"})
    event = tournament()
    signed_in_client = signed_in(staff("director"))
    url = reverse("tournaments:house-settings", args=[event.pk])
    page = _text(signed_in_client.get(url))
    assert "As the venue: The cut of the cards" in page
    assert "casino §25, §32" in page
    data = {key: "" for key in house.KEYS} | {"venue": "", "show_order": "any_round"}
    response = signed_in_client.post(url, data)
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.house_settings == {"show_order": "any_round"}
    bad = signed_in_client.post(url, data | {"show_order": "loudest"})
    assert bad.status_code == 400
    event.refresh_from_db()
    assert event.house_settings == {"show_order": "any_round"}


def test_the_venue_form_saves_the_venues_readings():
    venue = Venue.objects.create(name="Casino", is_default=True)
    signed_in_client = signed_in(staff("director"))
    data = {f"house-{key}": "tda" for key in house.KEYS} | {"house-unclear_amount": "ifp"}
    response = signed_in_client.post(reverse("rulings:venue-house-settings", args=[venue.pk]), data)
    assert response.status_code == 302
    venue.refresh_from_db()
    assert venue.house_settings == {"unclear_amount": "ifp"}
    page = _text(signed_in_client.get(response.url))
    assert "House settings" in page


def test_the_guide_page_names_both_readings_and_marks_the_houses_choice(client):
    Venue.objects.create(name="Casino", is_default=True, house_settings={"unclear_amount": "ifp"})
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("rulings:house-settings-guide"))
    assert response.status_code == 200
    page = _text(response)
    for setting in house.SETTINGS:
        for reading in setting.readings:
            assert reading.rule in page
    assert "IFP 4.17" in page and "this house" in page
    assert len(queries) <= 4  # the venue and its settings, whatever the number of settings


def test_the_guide_page_says_where_the_books_agree_chip_race_rounding_and_suit_order(client):
    """The issue asks for chip-race rounding and the suit order as settings: no book reads
    them otherwise (TDA 24, casino §18; IFP 2.1, older TDA 3), so the guide says so."""
    page = _text(client.get(reverse("rulings:house-settings-guide")))
    assert "Where the books agree" in page
    assert "half up" in page and "TDA 24-A, 24-C; casino §18" in page
    assert "Spades, hearts, diamonds, clubs" in page and "IFP 2.1; older TDA 3" in page
    assert not {point.key for point in house.AGREED} & set(house.KEYS)  # none is a setting


def test_the_guide_page_in_german(client):
    response = client.get(reverse("rulings:house-settings-guide"), HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 200


# --- Dodged blinds (issue 19) -----------------------------------------------------------------


def test_dodged_blinds_is_a_penalty_by_the_tda_and_made_up_by_the_older_translation():
    setting = house.BY_KEY["dodged_blinds"]
    assert setting.default == "tda"
    assert [(r.value, r.rule) for r in setting.readings] == [
        ("tda", "TDA 33, 71-B, casino §22"),
        ("make_up", "older TDA 22"),
    ]


def test_the_schema_and_the_guide_offer_both_readings_of_dodged_blinds(client):
    schema = api().get(f"{API}/schema/", HTTP_ACCEPT="application/json").json()
    documented = schema["components"]["schemas"]["HouseReadings"]["properties"]["dodged_blinds"]
    guide = api().get(f"{API}/house-settings/").json()
    listed = next(s for s in guide["settings"] if s["key"] == "dodged_blinds")
    page = _text(client.get(reverse("rulings:house-settings-guide")))

    assert "TDA 33, 71-B" in documented["description"]
    assert "older TDA 22" in documented["description"]
    assert [r["value"] for r in listed["readings"]] == ["tda", "make_up"]
    assert "A player who dodges the blinds" in page
    assert "older TDA 22" in page and "TDA 33, 71-B, casino §22" in page


def test_an_event_may_make_dodged_blinds_up_as_dead_money():
    event = tournament()
    tournament_house_settings_save(
        actor=staff("director"), tournament_id=event.pk, changes={"dodged_blinds": "make_up"}
    )
    event.refresh_from_db()
    assert house_settings(event).dodged_blinds == "make_up"

"""Seating's house settings (issue 19): where the rule books disagree on halting play,
when the final table forms and how few players a table may deal to, the TDA is the
default and the event may choose the other reading (`Tournament.house_settings`).

Halting: TDA 11-D (3 short of the fullest table, once the blinds reach an open seat),
casino §14 (fewer than four, once registration has closed), the 6-handed and turbo
reading TDA 11-D leaves to the TD (2 short), the older German TDA 25 (three free seats),
or off (TDA 11-D: the TD waives halting). The final table: RP-9 (nine) or casino §30
(eight to ten: it forms at ten). The table minimum: none (TDA) or three (casino §17)."""

import pytest
from django.urls import reverse

from clock.tests.factories import with_structure
from floorman.models import AuditEntry
from floorman.versions import screens_changed
from hands.models import Hand
from hands.tests.factories import button_at, seat_players
from seating import services
from seating.models import Seating, SeatingAction
from seating.selectors import seating_setup
from tournaments.models import Tournament
from tournaments.tests.factories import api, staff, tournament

pytestmark = pytest.mark.django_db


def url(event, path: str) -> str:
    return f"/api/v1/tournaments/{event.pk}/{path}"


def choose(event, **readings) -> None:
    """The event's readings, exactly these (the rest the TDA's), written past the settings
    service; its screens told, as the service's lock tells them (floorman.versions)."""
    event.house_settings = readings
    event.save()
    screens_changed([event.pk])


def close_registration(event) -> None:
    Tournament.objects.filter(pk=event.pk).update(status="running", late_reg_until_level=None)


def halted(event) -> dict[int, str]:
    tables = api(staff("floor")).get(url(event, "tables/")).json()
    return {t["number"]: t["halt_rule"] for t in tables if t["halted"]}


@pytest.fixture
def event():
    event = tournament()
    with_structure(event)  # level 1: 100/200
    return event


@pytest.fixture
def director(client):
    client.force_login(staff("director"))
    return client


def map_page(client, event) -> str:
    return client.get(reverse("seating:map", args=[event.pk])).content.decode()


# --- Halting -------------------------------------------------------------------------------


def test_tda_11_d_halts_a_table_three_short_and_not_one_two_short(event):
    seat_players(event, {1: range(1, 10), 2: range(1, 7), 3: range(1, 8)})

    assert halted(event) == {2: "TDA 11-D"}  # 6 against 9; 7 plays on


def test_casino_14_halts_below_four_once_registration_has_closed(event):
    seat_players(event, {1: range(1, 6), 2: range(1, 4)})
    assert halted(event) == {}  # TDA: 3 against 5 is only two short
    choose(event, halting="casino")
    assert halted(event) == {}  # registration still open

    close_registration(event)

    assert halted(event) == {2: "casino §14"}


def test_short_handed_reading_halts_a_six_handed_table_two_short(event):
    """TDA 11-D leaves 6-handed events to the TD: this house halts 4 against 6."""
    seat_players(event, {1: range(1, 7), 2: range(1, 5)}, seats=6)
    assert halted(event) == {}
    choose(event, halting="short_handed")

    assert halted(event) == {2: "TDA 11-D"}


def test_older_tda_halts_a_table_with_three_free_seats(event):
    """Older German TDA 25: three free seats halt, though 6 against 7 is one short."""
    seat_players(event, {1: range(1, 8), 2: range(1, 7)})
    assert halted(event) == {}
    choose(event, halting="free_seats")

    assert halted(event) == {2: "older TDA 25"}


def test_the_house_may_waive_halting_altogether(event):
    seat_players(event, {1: range(1, 10), 2: range(1, 4)})
    choose(event, halting="off")

    assert halted(event) == {}


def test_the_tablet_refuses_to_deal_at_a_halted_table_citing_the_reading(event):
    seat_players(event, {1: range(1, 7), 2: range(1, 5)}, seats=6)
    button_at(event, 2, 2, big_blind=4)  # the next big blind is due in open seat 5
    choose(event, halting="short_handed")
    dealer = api(staff("dealer"))

    refused = dealer.post(url(event, "tables/2/hands/"))

    assert refused.status_code == 409
    assert refused.json()["code"] == "halted" and "TDA 11-D" in refused.json()["detail"]
    assert not Hand.objects.filter(table__tournament=event).exists()
    choose(event)  # the TDA: two short of six plays on
    assert dealer.post(url(event, "tables/2/hands/")).status_code == 201


def test_the_map_says_why_a_table_halts_by_the_reading(client, event):
    client.force_login(staff("floor"))
    seat_players(event, {1: range(1, 8), 2: range(1, 7)})
    choose(event, halting="free_seats")

    page = map_page(client, event)

    assert "three or more free seats while another table has more players (older TDA 25)" in page
    assert "Three or more free seats" in page  # the procedures name the reading


# --- The final table ----------------------------------------------------------------------


def test_rp_9_the_final_table_waits_for_nine(event):
    seat_players(event, {1: range(1, 6), 2: range(1, 6)}, seats=10)
    before = SeatingAction.objects.count()

    response = api(staff("director")).post(url(event, "final-table/"), {}, format="json")

    assert response.status_code == 409
    assert "10 players are left: more than the final table's 9" in response.json()["detail"]
    assert SeatingAction.objects.count() == before


def test_casino_30_the_final_table_forms_at_ten(event):
    seat_players(event, {1: range(1, 6), 2: range(1, 6)}, seats=10)
    choose(event, final_table="casino")

    response = api(staff("director")).post(url(event, "final-table/"), {}, format="json")

    assert response.status_code == 200, response.content
    tables = api(staff("floor")).get(url(event, "tables/")).json()
    assert [t["players"] for t in tables] == [10]  # one table of ten


def test_the_events_own_final_table_size_stays_its_override(director, event):
    choose(event, final_table="casino")
    Seating.objects.create(tournament=event, final_table_size=8)
    seat_players(event, {1: range(1, 6), 2: range(1, 6)}, seats=10)

    response = api(staff("director")).post(url(event, "final-table/"), {}, format="json")

    assert response.status_code == 409
    assert "the final table's 8" in response.json()["detail"]


def test_the_map_names_the_final_table_reading(director, event):
    seat_players(event, {1: range(1, 6), 2: range(1, 6)}, seats=10)
    choose(event, final_table="casino")

    page = map_page(director, event)

    assert "10 players" in page and "casino §30" in page


# --- The table minimum ----------------------------------------------------------------------


def test_tda_a_table_of_two_deals_while_others_play(event):
    seat_players(event, {1: [1, 2], 2: [1, 2, 3, 4]})
    button_at(event, 1, 1)

    response = api(staff("dealer")).post(url(event, "tables/1/hands/"))

    assert response.status_code == 201


def test_casino_17_a_table_of_two_may_not_deal_while_others_play(event):
    seat_players(event, {1: [1, 2], 2: [1, 2, 3, 4]})
    button_at(event, 1, 1)
    button_at(event, 2, 1)
    choose(event, table_minimum="casino")
    dealer = api(staff("dealer"))
    audits = AuditEntry.objects.count()

    refused = dealer.post(url(event, "tables/1/hands/"))

    assert refused.status_code == 409
    body = refused.json()
    assert body["code"] == "table_minimum" and "casino §17" in body["detail"]
    assert not Hand.objects.filter(table__tournament=event).exists()
    assert AuditEntry.objects.count() == audits
    assert dealer.post(url(event, "tables/2/hands/")).status_code == 201


def test_the_floor_sees_which_tables_may_not_start(client, event):
    client.force_login(staff("floor"))
    seat_players(event, {1: [1, 2], 2: [1, 2, 3, 4]})
    assert "may not deal" not in map_page(client, event)  # the TDA sets no minimum
    choose(event, table_minimum="casino")

    page = map_page(client, event)
    tables = api(staff("floor")).get(url(event, "tables/")).json()

    assert "Table 1 may not deal" in page and "casino §17" in page
    assert {t["number"]: t["may_not_start"] for t in tables} == {1: True, 2: False}


# --- Where the settings live -------------------------------------------------------------


def test_the_seating_settings_page_leaves_the_readings_to_the_house_settings(director, event):
    page = director.get(reverse("seating:settings", args=[event.pk])).content.decode()
    house = director.get(reverse("tournaments:house-settings", args=[event.pk])).content.decode()

    assert 'name="halt_rule"' not in page
    assert reverse("tournaments:house-settings", args=[event.pk]) in page
    for label in (
        "Halting play at a short table",
        "When the final table forms",
        "The fewest players a table deals to",
    ):
        assert label in house


def test_a_copy_carries_the_events_seating_readings(event):
    choose(event, halting="casino", final_table="casino", unclear_amount="ifp")
    setup = seating_setup(event.pk)
    assert setup["house"] == {"halting": "casino", "final_table": "casino"}
    copy = tournament()

    services.seating_prepare(tournament=copy, setup=setup)

    copy.refresh_from_db()
    assert copy.house_settings == {"halting": "casino", "final_table": "casino"}


def test_a_setup_saved_before_halting_moved_keeps_its_halting_rule():
    copy = tournament()

    services.seating_prepare(tournament=copy, setup={"settings": {"halt_rule": "off"}})

    copy.refresh_from_db()
    assert copy.house_settings == {"halting": "off"}

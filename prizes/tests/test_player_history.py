"""A player's history (issue 22): every event they entered, an imported one among them,
with the best place of their entries and what they were paid; in English and German; a
page of events costs the same few queries per event whatever their fields."""

from pathlib import Path

import pytest
from django.urls import reverse

from prizes.services.imports import td3_import
from seating.services.desk import entry_register
from tournaments.models import Player
from tournaments.tests.factories import staff, tournament

pytestmark = pytest.mark.django_db

FILES = Path(__file__).resolve().parents[2] / "tournaments" / "tests" / "td3"


@pytest.fixture
def floor(client):
    client.force_login(staff("floor"))
    return client


def imported():
    """The Tuesday Deepstack from a save file: Piet Vos won it and was paid 384.00."""
    return td3_import(actor=None, data=(FILES / "finished_v3_7.tdt").read_bytes(), file_name="t")


def history(client, player, **headers):
    return client.get(reverse("tournaments:player-history", args=[player.pk]), **headers)


def test_an_imported_win_and_an_event_still_running_are_in_the_players_history(floor):
    won = imported().record.tournament
    piet = Player.objects.get(name="Piet Vos")
    running = tournament(name="Friday Turbo")
    entry_register(actor=None, tournament_id=running.pk, player_id=piet.pk)

    page = history(floor, piet)

    text = page.content.decode()
    assert page.status_code == 200
    rows = page.context["played"]
    assert {row.tournament for row in rows} == {won, running}
    by_event = {row.tournament: row for row in rows}
    assert by_event[won].place.place == 1 and by_event[won].paid == 38400
    assert by_event[running].place is None and by_event[running].entries == 1
    assert "Tuesday Deepstack" in text and "Friday Turbo" in text and "384" in text
    assert reverse("tournaments:results", args=[won.pk]) in text


def test_a_player_who_never_played_has_an_empty_history_in_german(floor):
    nobody = Player.objects.create(name="Ada Lind")

    page = history(floor, nobody, HTTP_ACCEPT_LANGUAGE="de")

    assert page.status_code == 200
    assert "Dieser Spieler hat noch an keinem Turnier teilgenommen." in page.content.decode()


def test_a_page_of_history_costs_a_few_queries_per_event_whatever_the_field(
    floor, django_assert_max_num_queries
):
    imported()
    piet = Player.objects.get(name="Piet Vos")
    for name in ("Friday Turbo", "Sunday Main"):
        entry_register(actor=None, tournament_id=tournament(name=name).pk, player_id=piet.pk)
    # Each event's place is the results page's for the one entry (results_for_entry):
    # the same few queries at 5 entries as at 10,000.
    with django_assert_max_num_queries(12 + 3 * 12):
        assert history(floor, piet).status_code == 200


def test_a_dealer_may_not_see_a_players_history(client):
    client.force_login(staff("dealer"))
    piet = Player.objects.create(name="Piet Vos")

    assert history(client, piet).status_code == 403

"""Chip counts and leaders on the pages and in the API (issue 18): the tablet's Chip
count screen, the floor's counts page, the lobby's leaders layout, the public event
page, the phone page with its chart, the chip leaders API and the counts API; what a
house that keeps its counts private shows (nothing); refusals write nothing; the
queries a page asks do not grow with the field."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clock import services as clock_services
from clock.tests.factories import with_structure
from floorman import live
from floorman.models import AuditEntry
from floorman.tests.openapi import api_schema, response_schema
from hands.services import busts
from seating import services as seating
from seating.models import Seat
from seating.services.counts import count_sweep_start, entry_count_record, table_counts_record
from tournaments.models import ChipCount, Entry, Tournament
from tournaments.tests.factories import api, field, signed_in, staff, tournament

pytestmark = pytest.mark.django_db

NUMBER = re.compile(r"\s+")


def playing(players: int = 6, *, public: bool = True, first_table: int = 1):
    """A running event at level 1 of its structure (100/200), its players drawn at two
    tables of `players / 2`."""
    event = tournament(table_size=-(-players // 2), chip_counts_public=public)
    with_structure(event)
    for number in (first_table, first_table + 1):
        seating.table_add(actor=None, tournament_id=event.pk, number=number)
    entries = field(event, players)
    seating.seating_draw(actor=None, tournament_id=event.pk)
    clock_services.clock_act(actor=None, tournament_id=event.pk, action="start")
    event.refresh_from_db()
    return event, entries


def seats_at(event, table: int) -> dict[int, Entry]:
    return {
        seat.number: seat.entry
        for seat in Seat.objects.filter(
            table__tournament=event, table__number=table, entry__isnull=False
        ).select_related("entry__player")
    }


def text(response) -> str:
    return NUMBER.sub(" ", response.content.decode())


# --- The tablet's Chip count screen --------------------------------------------------------


def test_the_tablet_offers_a_count_prefilled_with_each_stack(client):
    event, _ = playing()
    client.force_login(staff("dealer"))

    page = text(client.get(f"/tournaments/{event.pk}/tables/1/tablet/"))

    assert "Chip count" in page
    for seat in seats_at(event, 1):
        assert f'name="chips_{seat}" min="1" step="1" inputmode="numeric" value="20000"' in page


def test_the_tablet_enters_its_tables_counts():
    event, _ = playing()
    dealer = staff("dealer")
    seats = seats_at(event, 1)
    form = {"action": "count", **{f"chips_{seat}": 20_000 + seat for seat in seats}}

    response = signed_in(dealer).post(f"/tournaments/{event.pk}/tables/1/tablet/", form)

    assert response.status_code == 302
    for seat, entry in seats.items():
        entry.refresh_from_db()
        assert entry.chips == 20_000 + seat
    assert set(ChipCount.objects.values_list("level", "source", "table_number")) == {
        (1, "tablet", 1)
    }


@pytest.mark.parametrize("chips", ["0", "-1", "lots"])
def test_a_tablet_count_of_nothing_is_refused_and_writes_nothing(client, chips):
    event, _ = playing()
    client.force_login(staff("dealer"))
    seat = next(iter(seats_at(event, 1)))

    response = client.post(
        f"/tournaments/{event.pk}/tables/1/tablet/", {"action": "count", f"chips_{seat}": chips}
    )

    assert response.status_code == 400
    assert not ChipCount.objects.exists()
    if chips == "0":
        assert "bust the player instead" in text(response)


def test_a_tablet_count_for_an_empty_seat_is_refused(client):
    event, _ = playing(4)
    client.force_login(staff("dealer"))
    empty = next(n for n in range(1, 10) if n not in seats_at(event, 1))

    response = client.post(
        f"/tournaments/{event.pk}/tables/1/tablet/", {"action": "count", f"chips_{empty}": "900"}
    )

    assert response.status_code == 400
    assert f"Nobody sits in seat {empty}." in text(response)
    assert not ChipCount.objects.exists()


# --- The floor's counts page ---------------------------------------------------------------


def test_the_counts_page_shows_the_sweep_and_the_check(client):
    event, _ = playing()
    count_sweep_start(actor=None, tournament_id=event.pk)
    seat, _entry = next(iter(seats_at(event, 2).items()))
    table_counts_record(actor=None, tournament_id=event.pk, number=2, counts={seat: 19_500})
    client.force_login(staff("floor"))

    page = text(client.get(f"/tournaments/{event.pk}/counts/"))

    assert 'data-table="1" data-reported="no"' in page
    assert 'data-table="2" data-reported="yes"' in page
    assert "Reported: 1 · Waiting: 1" in page
    assert "<dd data-expected>120,000</dd>" in page
    assert "<dd data-counted>119,500</dd>" in page
    assert '<dd data-difference class="warn">-500</dd>' in page


def test_the_floor_counts_a_player_by_entry_number(client):
    event, entries = playing()
    client.force_login(staff("floor"))

    response = client.post(
        f"/tournaments/{event.pk}/counts/",
        {"action": "count", "number": entries[3].number, "chips": "33000"},
    )

    assert response.status_code == 302
    entries[3].refresh_from_db()
    assert entries[3].chips == 33_000
    assert ChipCount.objects.get().source == "floor"


def test_the_floor_page_refuses_an_unknown_entry_and_writes_nothing(client):
    event, _ = playing()
    client.force_login(staff("floor"))

    response = client.post(
        f"/tournaments/{event.pk}/counts/", {"action": "count", "number": "999", "chips": "10"}
    )

    assert response.status_code == 400
    assert not ChipCount.objects.exists()


def test_the_director_starts_and_closes_a_sweep_once(client):
    event, _ = playing()
    client.force_login(staff("director"))
    url = f"/tournaments/{event.pk}/counts/"

    assert client.post(url, {"action": "sweep_start"}).status_code == 302
    again = client.post(url, {"action": "sweep_start"})
    assert again.status_code == 409
    assert client.post(url, {"action": "sweep_close"}).status_code == 302
    assert client.post(url, {"action": "sweep_close"}).status_code == 409
    assert AuditEntry.objects.filter(action__startswith="counts.sweep").count() == 2


def test_a_finished_event_takes_no_count_from_the_floor(client):
    event, entries = playing()
    Tournament.objects.filter(pk=event.pk).update(status="finished")
    client.force_login(staff("floor"))

    response = client.post(
        f"/tournaments/{event.pk}/counts/",
        {"action": "count", "number": entries[0].number, "chips": "100"},
    )

    assert response.status_code == 409
    assert not ChipCount.objects.exists()


# --- The lobby, the event page, the phone page ---------------------------------------------


def test_the_lobby_shows_the_leaders_in_chips_and_big_blinds(client):
    event, entries = playing()
    entry_count_record(actor=None, tournament_id=event.pk, entry_id=entries[2].pk, chips=41_000)

    page = text(client.get(f"/lobby/{event.pk}/?layout=leaders"))

    first = page.index('<li data-entry="')
    assert entries[2].player.name in page[first : first + 300]
    assert '<span class="chips">41,000</span><span class="bb">205 BB</span>' in page
    assert "Average 23,500 · 6 players · 118 BB" in page  # 141,000 / 6 at 100/200
    assert 'data-kinds="counts.updated' in page


def test_a_house_that_keeps_counts_private_shows_none_on_the_lobby(client):
    event, entries = playing(public=False)

    page = text(client.get(f"/lobby/{event.pk}/?layout=leaders"))

    assert "The house does not publish chip counts for this event." in page
    assert entries[0].player.name not in page.split('id="leaders"')[1]


def test_the_public_event_page_lists_the_leaders_while_it_plays(client):
    event, entries = playing()
    entry_count_record(actor=None, tournament_id=event.pk, entry_id=entries[5].pk, chips=50_000)

    page = text(client.get(f"/tournaments/{event.pk}/"))

    assert "Chip leaders" in page
    assert f'<bdi>{entries[5].player.name}</bdi></a></td><td class="num">50,000</td>' in page


def test_the_phone_page_shows_the_players_count_rank_and_chart(client):
    event, entries = playing()
    player = entries[4]
    entry_count_record(actor=None, tournament_id=event.pk, entry_id=player.pk, chips=30_000)
    entry_count_record(actor=None, tournament_id=event.pk, entry_id=player.pk, chips=45_000)

    page = text(client.get(f"/tournaments/{event.pk}/entries/{player.number}/"))

    assert "Your chip count" in page
    assert '<dd data-field="count_rank">1 of 6</dd>' in page
    assert "45,000 <small>(225 BB)</small>" in page
    assert "<polyline points=" in page
    assert 'role="img" aria-labelledby="count-chart-title count-chart-desc"' in page
    assert "2 counts, highest 45,000 chips." in page
    assert page.count("<td>1</td>") == 2  # the table says each count's level


def test_the_phone_page_shows_no_count_when_the_house_keeps_them_private(client):
    event, entries = playing(public=False)
    entry_count_record(actor=None, tournament_id=event.pk, entry_id=entries[0].pk, chips=30_000)

    page = text(client.get(f"/tournaments/{event.pk}/entries/{entries[0].number}/"))
    part = client.get(f"/tournaments/{event.pk}/entries/{entries[0].number}/count/")

    assert "Your chip count" not in page
    assert "30,000" not in page
    assert part.status_code == 404


def test_the_phone_pages_count_part_is_its_live_update(client):
    event, entries = playing()

    part = text(client.get(f"/tournaments/{event.pk}/entries/{entries[0].number}/count/"))

    assert 'id="entry-count" data-live-part' in part
    assert "not counted yet" in part


# --- The API -------------------------------------------------------------------------------


def test_the_chip_leaders_api_is_public_where_counts_are():
    event, entries = playing()
    entry_count_record(actor=None, tournament_id=event.pk, entry_id=entries[1].pk, chips=60_000)

    body = api().get(f"/api/v1/tournaments/{event.pk}/chip-leaders/?limit=2").json()

    assert body["players_left"] == 6
    assert (body["average"], body["big_blind"], body["average_big_blinds"]) == (26_666, 200, 133)
    assert [row["rank"] for row in body["leaders"]] == [1, 2]
    leader = body["leaders"][0]
    assert (leader["entry"], leader["chips"], leader["big_blinds"]) == (entries[1].pk, 60_000, 300)
    assert leader["counted_level"] == 1
    assert "email" not in str(body)


def test_the_chip_leaders_api_hides_private_counts_from_the_public():
    event, _ = playing(public=False)
    url = f"/api/v1/tournaments/{event.pk}/chip-leaders/"

    assert api().get(url).status_code == 404
    assert api(staff("floor")).get(url).status_code == 200


@pytest.mark.parametrize("limit", ["0", "51", "x"])
def test_the_chip_leaders_api_refuses_a_bad_limit(limit):
    event, _ = playing()
    response = api().get(f"/api/v1/tournaments/{event.pk}/chip-leaders/?limit={limit}")
    assert response.status_code == 400
    assert "limit" in response.json()


def test_a_tablet_posts_its_tables_counts_through_the_api():
    event, _ = playing()
    seats = seats_at(event, 2)
    seat = next(iter(seats))

    response = api(staff("dealer")).post(
        f"/api/v1/tournaments/{event.pk}/tables/2/counts/",
        {"counts": {str(seat): 18_000}},
        format="json",
    )

    assert response.status_code == 201
    assert response.json()[0]["chips"] == 18_000
    assert response.json()[0]["level"] == 1
    seats[seat].refresh_from_db()
    assert seats[seat].chips == 18_000


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"counts": {"1": 0}}, 400),
        ({"counts": {"11": 100}}, 400),
        ({"counts": {"1": "x"}}, 400),
        ({"counts": []}, 400),
        ({}, 400),
    ],
)
def test_the_table_counts_api_refuses_bad_counts_and_writes_nothing(body, status):
    event, _ = playing()
    response = api(staff("dealer")).post(
        f"/api/v1/tournaments/{event.pk}/tables/1/counts/", body, format="json"
    )
    assert response.status_code == status
    assert not ChipCount.objects.exists()


def test_the_floor_counts_and_sweeps_through_the_api():
    event, entries = playing()
    floor = api(staff("floor"))
    base = f"/api/v1/tournaments/{event.pk}/counts/"

    started = floor.post(base + "sweep/", {"action": "start"}, format="json")
    counted = floor.post(base, {"entry": entries[0].pk, "chips": 21_000}, format="json")
    again = floor.post(base + "sweep/", {"action": "start"}, format="json")
    body = floor.get(base).json()

    assert started.status_code == 200 and started.json()["sweep"]["closed_at"] is None
    assert counted.status_code == 201 and counted.json()["source"] == "floor"
    assert again.status_code == 409
    assert (body["expected"], body["counted"], body["difference"]) == (120_000, 121_000, 1_000)
    assert body["uncounted"] == 5
    reported = [t["number"] for t in body["sweep"]["tables"] if t["reported_at"]]
    assert len(reported) == 1


def test_a_count_tells_the_screens_on_commit(monkeypatch, django_capture_on_commit_callbacks):
    event, entries = playing()
    sent = []
    monkeypatch.setattr("floorman.live._send", lambda _id, message: sent.append(message))

    with django_capture_on_commit_callbacks(execute=True):
        entry_count_record(actor=None, tournament_id=event.pk, entry_id=entries[0].pk, chips=9)

    assert [m["type"] for m in sent] == ["counts.updated"]
    assert "chips" not in sent[0]["data"]  # screens fetch what they may show


# --- Queries do not grow with the field ----------------------------------------------------


def _queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/tournaments/{id}/chip-leaders/",
        "/lobby/{id}/leaders/",
        "/tournaments/{id}/counts/",
        "/api/v1/tournaments/{id}/counts/",
    ],
)
def test_the_counts_reads_ask_as_many_queries_for_a_big_field(
    client, url, django_assert_max_num_queries
):
    client.force_login(staff("floor"))
    small, small_entries = playing(4)
    big, big_entries = playing(16, first_table=5)
    for event, entries in ((small, small_entries), (big, big_entries)):
        for entry in entries[:3]:
            entry_count_record(actor=None, tournament_id=event.pk, entry_id=entry.pk, chips=1000)
        count_sweep_start(actor=None, tournament_id=event.pk)

    few = _queries(client, url.format(id=small.pk))
    with django_assert_max_num_queries(few):
        assert client.get(url.format(id=big.pk)).status_code == 200


def test_the_schema_documents_the_chip_leaders_and_the_counts():
    leaders = response_schema("/api/v1/tournaments/{tournament_pk}/chip-leaders/", "GET", 200)
    counts = response_schema("/api/v1/tournaments/{tournament_pk}/counts/", "GET", 200)

    assert {"leaders", "players_left", "average", "average_big_blinds", "big_blind"} <= set(
        leaders["properties"]
    )
    assert {"expected", "counted", "difference", "sweep", "players"} <= set(counts["properties"])
    paths = api_schema()["paths"]
    assert "post" in paths["/api/v1/tournaments/{tournament_pk}/tables/{number}/counts/"]
    assert "post" in paths["/api/v1/tournaments/{tournament_pk}/counts/sweep/"]


def test_private_counts_show_on_the_event_page_to_staff_only(client):
    event, entries = playing(public=False)
    entry_count_record(actor=None, tournament_id=event.pk, entry_id=entries[0].pk, chips=70_000)

    public = text(client.get(f"/tournaments/{event.pk}/"))
    client.force_login(staff("floor"))
    floor = text(client.get(f"/tournaments/{event.pk}/"))
    desk = text(client.get(f"/tournaments/{event.pk}/entries/{entries[0].number}/"))

    assert "Chip leaders" not in public and "70,000" not in public
    assert "Chip leaders" in floor and "70,000" in floor
    assert "Your chip count" in desk and "70,000" in desk  # the desk sees the player's count


# --- A house that keeps its counts private shows no stack anywhere public ---------------------


def test_a_private_house_shows_no_chips_in_the_public_entries_list(client):
    event, _ = playing(public=False)

    page = text(client.get(f"/tournaments/{event.pk}/entries/"))
    staff_page = text(signed_in(staff("floor")).get(f"/tournaments/{event.pk}/entries/"))

    assert "20,000" not in page and ">Chips<" not in page
    assert "20,000" in staff_page


def test_a_private_house_shows_no_chips_in_the_public_entries_api(client):
    event, _ = playing(public=False)

    public = client.get(f"/api/v1/tournaments/{event.pk}/entries/").json()["results"]
    for_staff = api(staff("floor")).get(f"/api/v1/tournaments/{event.pk}/entries/").json()

    assert {entry["chips"] for entry in public} == {None}
    assert {entry["chips"] for entry in for_staff["results"]} == {20_000}


def test_a_private_house_sends_no_chips_with_an_entrys_live_event(
    monkeypatch, django_capture_on_commit_callbacks
):
    event, entries = playing(public=False)
    sent = []
    monkeypatch.setattr(
        live, "live_publish", lambda **event: sent.append((event["kind"], event["data"]))
    )

    with django_capture_on_commit_callbacks(execute=True):
        busts.entry_bust(actor=None, tournament_id=event.pk, entry_id=entries[0].pk)

    updated = [data for kind, data in sent if kind == live.ENTRY_UPDATED]
    assert updated and updated[0]["chips"] is None

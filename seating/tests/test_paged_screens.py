"""The seating board and the seating lists in pages (issue 20): a page holds what one
screen shows (at most 100 KB of HTML however large the field), every page can be reached,
and a page filed in the shared cache is never served after a change to the seating."""

import json
import re

import pytest
from django.urls import reverse

from seating import services
from seating.models import Seat, Table
from seating.tests.factories import add_tables, field
from seating.views.tables import NAMES_PER_PAGE, TABLES_PER_PAGE
from tournaments.models import Entry, Player
from tournaments.services import player_update
from tournaments.tests.factories import staff, tournament

pytestmark = pytest.mark.django_db

KB = 1024
PAGE_MAX = 100 * KB
NAMES = re.compile(r'<td class="n">(.*?)</td>')
SEATING_CONFIG = re.compile(
    r'<script id="seating-config" type="application/json">(.*?)</script>', re.S
)
GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de"}


def festival_field(players: int, seats: int = 10):
    """`players` seated in bulk at full tables, with names as long as real ones."""
    event = tournament(name="Festival Main Event")
    people = Player.objects.bulk_create(
        Player(
            name=f"Maximiliane Schwarzenberger-Oppenheim {i:05d}",
            name_key=f"maximiliane schwarzenberger-oppenheim {i:05d}",
            name_plain=f"maximiliane schwarzenberger-oppenheim {i:05d}",
        )
        for i in range(players)
    )
    entries = Entry.objects.bulk_create(
        Entry(tournament=event, player=p, number=i + 1, chips=30000) for i, p in enumerate(people)
    )
    tables = Table.objects.bulk_create(
        Table(tournament=event, number=n, seats=seats, break_order=n)
        for n in range(1, -(-players // seats) + 1)
    )
    Seat.objects.bulk_create(
        Seat(table=tables[i // seats], number=i % seats + 1, entry=entry)
        for i, entry in enumerate(entries)
    )
    return event


@pytest.fixture
def floor(client):
    client.force_login(staff("floor"))
    return client


def board(client, event, **query):
    return client.get(reverse("seats:board", args=[event.pk]), query)


def config_of(response) -> dict:
    return json.loads(SEATING_CONFIG.search(response.content.decode()).group(1))


def test_every_board_page_of_2000_players_stays_under_100_kb(client):
    event = festival_field(2000)

    for sizes in ({}, {"columns": "6", "rows": "40"}):
        first = board(client, event, **sizes)
        config = config_of(first)
        per_page = config["columns"] * config["rows"]
        pages = -(-2000 // per_page)
        assert f"Page 1 of {pages}" in first.content.decode()
        assert len(config["seats"]) == per_page  # its own page only, never the field
        for page in (1, 2, pages):
            response = board(client, event, page=str(page), **sizes)
            assert len(response.content) <= PAGE_MAX
        data = client.get(
            reverse("seats:board-data", args=[event.pk]), {"page": pages, "per": per_page}
        )
        assert len(data.content) <= PAGE_MAX
        assert data.json()["pages"] == pages
        assert len(data.json()["seats"]) == 2000 - (pages - 1) * per_page


def test_every_seating_list_page_of_2000_players_stays_under_100_kb(floor):
    event = festival_field(2000)

    for name, pages in (
        ("seating:by-name", -(-2000 // NAMES_PER_PAGE)),
        ("seating:by-table", -(-200 // TABLES_PER_PAGE)),
    ):
        url = reverse(name, args=[event.pk])
        first = floor.get(url)
        html = first.content.decode()
        assert f"Page 1 of {pages}" in html
        assert f'href="{url}?page=2" rel="next"' in html
        assert f'href="{url}?page={pages}"' in html
        for page in range(1, pages + 1):
            assert len(floor.get(url, {"page": page}).content) <= PAGE_MAX
        last = floor.get(url, {"page": pages}).content.decode()
        assert 'rel="next"' not in last and f'href="{url}?page={pages - 1}" rel="prev"' in last
        # Past the last page: the last page.
        assert floor.get(url, {"page": 999}).content.decode().count("<tr") == last.count("<tr")


def test_a_page_past_the_last_shows_the_last(client):
    event = festival_field(60)

    data = client.get(reverse("seats:board-data", args=[event.pk]), {"page": 99, "per": 45})

    assert (data.json()["page"], data.json()["pages"], len(data.json()["seats"])) == (2, 2, 15)


def test_a_cached_page_is_never_served_after_a_move(client, floor):
    event = tournament()
    add_tables(event, 2)
    entries = field(event, 4)
    services.seating_draw(actor=None, tournament_id=event.pk)
    mover = entries[0]
    names = reverse("seating:by-name", args=[event.pk])
    tables = reverse("seating:by-table", args=[event.pk])
    board(client, event), floor.get(names), floor.get(tables)  # filed in the cache
    free = Seat.objects.filter(table__tournament=event, entry=None).order_by("table__number")
    to = free.select_related("table").first()

    services.entry_move(
        actor=None,
        tournament_id=event.pk,
        entry_id=mover.pk,
        to_table=to.table.number,
        to_seat=to.number,
    )

    seat = f'{to.table.number}</td><td class="s">{to.number}</td>'
    assert (
        f'<td class="n">{mover.player.name}</td><td class="t">{seat}'
        in board(client, event).content.decode()
    )
    row = re.search(rf"{re.escape(mover.player.name)}</bdi>.*?</tr>", floor.get(names).text)
    assert f"<strong>{to.table.number}</strong>" in row.group(0)
    assert f"<strong>{to.number}</strong>" in row.group(0)


def test_a_cached_page_is_never_served_after_a_rename(client):
    event = festival_field(3)
    board(client, event)
    player = Player.objects.order_by("name").first()

    player_update(actor=None, player_id=player.pk, data={"name": "Aaron Anders"})

    assert "Aaron Anders" in NAMES.findall(board(client, event).content.decode())


def test_the_pages_in_german(client, floor):
    event = festival_field(300)

    html = client.get(reverse("seats:board", args=[event.pk]), **GERMAN).content.decode()
    names = floor.get(reverse("seating:by-name", args=[event.pk]), **GERMAN).content.decode()

    assert 'lang="de"' in html and "Seite 1 von 7" in html
    assert "Tisch" in names and 'lang="de"' in names

"""Public seating pages: the seat lookup, the seating board, the player's live seat."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from clock.tests.factories import with_structure
from hands.services import busts as bust_services
from seating import services
from seating.models import Seat
from seating.selectors import sort_key
from seating.tests.factories import add_tables, field
from seating.views.public import board_query, lookup_query
from tournaments.tests.factories import register, tournament

pytestmark = pytest.mark.django_db

NAMES = re.compile(r'<td class="n">(.*?)</td>')
SEATING_CONFIG = re.compile(
    r'<script id="seating-config" type="application/json">(.*?)</script>', re.S
)
ENTRY_CONFIG = re.compile(
    r'<script id="entry-seat-config" type="application/json">(.*?)</script>', re.S
)


def lookup_url(event, q=None) -> str:
    url = reverse("seats:lookup", kwargs={"tournament_id": event.pk})
    return url if q is None else f"{url}?{_query(q)}"


def _query(q: str) -> str:
    from urllib.parse import urlencode

    return urlencode({"q": q})


def board_url(event, **query) -> str:
    url = reverse("seats:board", kwargs={"tournament_id": event.pk})
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def board_data_url(event) -> str:
    return reverse("seats:board-data", kwargs={"tournament_id": event.pk})


def entry_data_url(event, number: int) -> str:
    return reverse("seats:entry-data", kwargs={"tournament_id": event.pk, "number": number})


def seated(event, names: list[str], *, tables: int = 2, first: int = 1):
    """Register `names`, set up tables and draw: the entries, in the order given."""
    add_tables(event, tables, first=first)
    entries = [register(event, name).entry for name in names]
    services.seating_draw(actor=None, tournament_id=event.pk)
    return entries


def seat_of(entry) -> tuple[int, int]:
    seat = Seat.objects.select_related("table").get(entry=entry)
    return seat.table.number, seat.number


def html_of(response) -> str:
    return response.content.decode()


# --- The seat lookup ---------------------------------------------------------------------


def test_lookup_page_is_public_with_one_get_form(client):
    event = tournament(name="Friday Deepstack")

    response = client.get(lookup_url(event))

    html = html_of(response)
    assert response.status_code == 200
    assert "Friday Deepstack" in html
    assert 'method="get"' in html and 'name="q"' in html
    assert "TDA 7" in html and "TDA 8-A" in html
    assert "<script" not in html.split("</main>")[0].split("<main")[1]  # works without JS


def test_lookup_finds_mueller_for_mueller_with_umlaut_and_back(client):
    event = tournament()
    mueller, _other = seated(event, ["Thomas Mueller", "Anna Schmidt"])
    table, seat = seat_of(mueller)

    for query in ("Müller", "müller", "MUELLER", "thomas mü"):
        html = html_of(client.get(lookup_url(event, query)))
        assert "Thomas Mueller" in html, query
        assert f"<b>{table}</b>" in html and f"<b>{seat}</b>" in html
        assert "Anna Schmidt" not in html


def test_lookup_finds_a_name_with_umlaut_typed_plainly(client):
    event = tournament()
    seated(event, ["Jürgen Groß", "Anna Müller"])

    for query in ("Mueller", "Muller", "müller", "ANNA MÜ"):
        assert "Anna Müller" in html_of(client.get(lookup_url(event, query))), query

    assert "Jürgen Groß" in html_of(client.get(lookup_url(event, "juergen gross")))
    assert "Jürgen Groß" in html_of(client.get(lookup_url(event, "Jurgen")))


def test_lookup_by_entry_number_with_or_without_hash(client):
    event = tournament()
    entries = seated(event, ["Anna", "Ben", "Cleo"])
    table, seat = seat_of(entries[1])

    for query in ("2", "#2", " #2 "):
        html = html_of(client.get(lookup_url(event, query)))
        assert "Ben" in html and "#2" in html
        assert f"<b>{table}</b>" in html and f"<b>{seat}</b>" in html
        assert "Anna" not in html and "Cleo" not in html


def test_lookup_says_busted_and_not_seated_yet(client):
    event = tournament()
    busted = register(event, "Bea Busted").entry
    register(event, "Walter Waiting")  # no tables yet: not seated
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=busted.pk)

    busted_html = html_of(client.get(lookup_url(event, "Bea")))
    waiting_html = html_of(client.get(lookup_url(event, "Walter")))

    assert "Bea Busted" in busted_html and ">Busted<" in busted_html
    assert "Follow this seat live" not in busted_html
    assert "Walter Waiting" in waiting_html and "not seated yet" in waiting_html


def test_lookup_of_a_busted_player_after_the_draw_gives_no_seat(client):
    event = tournament()
    entry = seated(event, ["Bea Busted", "Other"])[0]
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=entry.pk)

    html = html_of(client.get(lookup_url(event, "bea")))

    assert ">Busted<" in html
    assert "<b>" not in html.split('class="seat-results"')[1].split("</ul>")[0]


def test_lookup_links_to_the_players_live_page(client):
    event = tournament()
    entry = seated(event, ["Anna"])[0]

    html = html_of(client.get(lookup_url(event, "anna")))

    assert reverse("tournaments:entry-public", args=[event.pk, entry.number]) in html


def test_lookup_nobody_found_says_so_and_escapes_the_query(client):
    event = tournament()
    seated(event, ["Anna"])

    response = client.get(lookup_url(event, "<b>zz</b>"))

    html = html_of(response)
    assert response.status_code == 200
    assert "Nobody found for “&lt;b&gt;zz&lt;/b&gt;”" in html
    assert "<b>zz" not in html


def test_lookup_isolates_names(client):
    """Issue 15: a direction control in a name may not reverse the entry number."""
    event = tournament()
    seated(event, ["Anna\u202e Berger"])

    page = html_of(client.get(lookup_url(event, "anna")))

    assert '<p class="seat-result-name"><bdi>Anna\u202e Berger</bdi> <span' in page


def test_lookup_limits_results_and_says_to_type_more(client):
    event = tournament()
    field(event, 25, prefix="Player")

    html = html_of(client.get(lookup_url(event, "player")))

    assert html.count('class="seat-result ') == 20
    assert "Showing the first 20 players only" in html


@pytest.mark.parametrize(
    ("query", "status", "message"),
    [
        ("x" * 61, 400, "That is too long"),
        ("Müller " * 200, 400, "That is too long"),
        ("%%%", 400, "Type a name or an entry number"),
        ("---!!", 400, "Type a name or an entry number"),
        ("\x00\x00", 200, ""),  # nothing left: just the form
        ("a", 200, "Type at least two letters"),
        ("²", 200, "Type at least two letters"),  # a digit int() refuses
        ("99999999999999999999999", 200, "Nobody found"),
        ("١٢", 200, "Nobody found"),  # Arabic-Indic digits: entry 12, which is not there
        ("Ann\x00a", 200, "Follow this seat live"),  # NUL bytes dropped: Anna
        ("'; DROP TABLE seating_seat; --", 200, "Nobody found"),
        ("%_%", 400, "Type a name or an entry number"),
        ("a%n", 200, "Nobody found"),  # LIKE wildcards are searched as text
    ],
)
def test_lookup_refuses_bad_queries_with_a_message_never_500(client, query, status, message):
    event = tournament()
    seated(event, ["Anna"])

    response = client.get(lookup_url(event, query))

    assert response.status_code == status
    assert message in html_of(response)
    assert Seat.objects.filter(entry__isnull=False).count() == 1


def test_lookup_query_rules():
    assert lookup_query("  Müller ") == ("Müller", "", "")
    assert lookup_query("#12") == ("#12", "", "")
    assert lookup_query("7") == ("7", "", "")
    assert lookup_query("") == ("", "", "")
    assert lookup_query("x" * 60)[1] == ""
    assert lookup_query("x" * 61)[1].startswith("That is too long")


def test_lookup_of_unknown_tournament_is_404_and_post_is_405(client):
    assert client.get("/seat/999999/").status_code == 404
    assert client.get("/seat/99999999999999999999999/").status_code == 404
    assert client.post(lookup_url(tournament())).status_code == 405


def test_lookup_reads_the_field_once_then_only_the_tournament(client, django_assert_num_queries):
    event = tournament()
    seated(event, ["Anna", "Anton", "Ben"])

    with django_assert_num_queries(2):  # the tournament, the field for the lookup index
        client.get(lookup_url(event, "an"))
    with django_assert_num_queries(1):  # the tournament: its lookup version is unchanged
        html = html_of(client.get(lookup_url(event, "ben")))
    assert "Ben" in html


# --- The seating board ------------------------------------------------------------------------


def test_board_lists_seated_players_alphabetically_across_pages(client):
    event = tournament(name="Main Event")
    names = ["Zoe", "anna", "Émile", "Bob", "Yuki", "Carl", "Dora", "Eve", "Frank", "Gus"]
    seated(event, [*names, "Ida", "Hugo"])
    alphabet = ["anna", "Bob", "Carl", "Dora", "Émile", "Eve", "Frank", "Gus", "Hugo", "Ida"]

    first = html_of(client.get(board_url(event, columns=2, rows=5)))
    second = html_of(client.get(board_url(event, columns=2, rows=5, page=2)))
    beyond = html_of(client.get(board_url(event, columns=2, rows=5, page=9)))

    assert NAMES.findall(first) == alphabet
    assert NAMES.findall(second) == ["Yuki", "Zoe"]
    assert NAMES.findall(beyond) == ["Yuki", "Zoe"]  # the last page
    assert ">Page 1 of 2<" in first and ">Page 2 of 2<" in second
    assert ">anna – Ida<" in first
    assert first.count('<table class="seat-column">') == 2
    assert second.count('<table class="seat-column">') == 1
    assert ">12 players seated<" in first
    assert "Main Event" in first


def test_board_gives_a_small_field_the_width_of_the_panel(client):
    """Issue 16: five players fill less than one column of three; the first paint shows
    one column across the board (seats.js usedColumns), not a third of it."""
    event = tournament()
    seated(event, ["Anna", "Bob", "Carl", "Dora", "Wolfgang Schwarzenberger", "Zoe"])

    few = html_of(client.get(board_url(event, columns=3, rows=10)))
    more = html_of(client.get(board_url(event, columns=3, rows=5)))

    assert 'style="--columns: 1; --rows: 10"' in few
    assert 'style="--columns: 2; --rows: 5"' in more
    assert json.loads(SEATING_CONFIG.search(few).group(1))["columns"] == 3  # more may come


def test_board_range_isolates_names_that_turn_text(client):
    """Issue 15: a name with a direction control in the range line ("A – B") would turn
    the dash and the other name around; it is set between FSI and PDI."""
    event = tournament()
    seated(event, ["\u202eAnna", "Bob", "Carl", "Dora", "Eve", "Fritz", "\u05d3\u05d5\u05d3"])

    first = html_of(client.get(board_url(event, columns=1, rows=5)))
    second = html_of(client.get(board_url(event, columns=1, rows=5, page=2)))

    # By their sort keys: Bob to Fritz, the Hebrew name, then the name behind the override.
    assert ">Bob – Fritz<" in first
    assert ">\u2068\u05d3\u05d5\u05d3\u2069 – \u2068\u202eAnna\u2069<" in second


def test_board_name_cells_take_the_names_direction():
    """A name cell is a paragraph of its own, directed by the name (as dir="auto")."""
    css = (Path(settings.BASE_DIR) / "static" / "css" / "seating-public.css").read_text()

    assert ".seat-column td.n { unicode-bidi: plaintext; }" in css


def test_board_shows_each_players_table_and_seat(client):
    event = tournament()
    anna = seated(event, ["Anna"])[0]
    table, seat = seat_of(anna)

    html = html_of(client.get(board_url(event)))

    assert f'<td class="n">Anna</td><td class="t">{table}</td><td class="s">{seat}</td>' in html


def test_board_leaves_out_busted_and_unseated_players(client):
    event = tournament()
    anna, ben = seated(event, ["Anna", "Ben"])
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=ben.pk)
    register(event, "Carl")  # seated late, at once (TDA 8-A)
    Seat.objects.filter(entry__player__name="Carl").update(entry=None)

    html = html_of(client.get(board_url(event)))
    body = client.get(board_data_url(event)).json()

    assert NAMES.findall(html) == ["Anna"]
    assert [row["name"] for row in body["seats"]] == ["Anna"]


def test_board_without_players_says_when_it_shows(client):
    event = tournament()

    html = html_of(client.get(board_url(event)))

    assert "once the tables are set up" in html
    assert NAMES.findall(html) == []


def test_board_embeds_every_seat_for_its_script_and_its_resync_urls(client):
    event = tournament()
    seated(event, ["Ben", "Anna", "Cleo"])

    html = html_of(client.get(board_url(event, columns=1, rows=5, every=30)))

    config = json.loads(SEATING_CONFIG.search(html).group(1))
    assert [row["name"] for row in config["seats"]] == ["Anna", "Ben", "Cleo"]
    assert (config["columns"], config["rows"], config["every"], config["page"]) == (1, 5, 30, 1)
    assert config["urls"] == {
        "data": f"/lobby/{event.pk}/seating/data/",
        "socket": f"/ws/tournaments/{event.pk}/",
    }
    assert config["strings"]["page"] == "Page %(page)s of %(pages)s"
    assert "/static/js/seats.js" in html
    assert f"/seat/{event.pk}/" in html  # where phones look seats up, with a QR code
    assert "<svg" in html


@pytest.mark.parametrize(
    "query",
    ["?columns=0", "?columns=7", "?rows=4", "?rows=41", "?every=4", "?every=121", "?every=x"],
)
def test_board_refuses_malformed_addresses_with_400(client, query):
    event = tournament()

    response = client.get(board_url(event) + query)

    assert response.status_code == 400
    assert "address is not right" in html_of(response)


def test_board_query_defaults_and_bounds():
    assert board_query({}) == (3, 15, 12)
    assert board_query({"columns": "6", "rows": "40", "every": "120"}) == (6, 40, 120)
    assert board_query({"columns": "1", "rows": "5", "every": "5"}) == (1, 5, 5)
    with pytest.raises(ValueError, match="columns runs from 1 to 6"):
        board_query({"columns": "١"})


def test_board_of_unknown_tournament_is_404(client):
    assert client.get("/lobby/999999/seating/").status_code == 404
    assert client.get("/lobby/999999/seating/data/").status_code == 404


def test_board_data_shape(client):
    event = tournament(name="Main Event")
    anna = seated(event, ["Anna"])[0]
    table, seat = seat_of(anna)

    body = client.get(board_data_url(event)).json()

    assert body == {
        "id": event.pk,
        "name": "Main Event",
        "count": 1,
        "page": 1,
        "pages": 1,
        "seats": [
            {"entry": anna.pk, "number": anna.number, "name": "Anna", "table": table, "seat": seat}
        ],
    }


def test_board_rows_carry_the_fields_of_a_live_delta():
    """The script replaces rows with the seats of "seating.updated": same keys."""
    from seating.selectors import board_rows

    event = tournament()
    seated(event, ["Anna"])
    delta_keys = {"entry", "number", "name", "table", "seat", "from_table", "from_seat"}

    assert set(board_rows(event.pk)[0]) <= delta_keys


def test_board_data_query_count_does_not_grow_with_players(client, django_assert_num_queries):
    small, large = tournament(), tournament(name="Large")
    seated(small, ["Anna", "Ben", "Cleo"], tables=1)
    add_tables(large, 5, first=10)
    field(large, 40)
    services.seating_draw(actor=None, tournament_id=large.pk)

    with django_assert_num_queries(2) as few:  # the tournament, the field
        assert len(client.get(board_data_url(small)).json()["seats"]) == 3
    with django_assert_num_queries(len(few.captured_queries)):
        assert len(client.get(board_data_url(large)).json()["seats"]) == 40
    # Issue 20: every page is filed at the seating's version; the tournament alone after.
    with django_assert_num_queries(1):
        client.get(board_url(large))
    with django_assert_num_queries(2):  # another page size: filed on its own
        assert len(client.get(board_data_url(large), {"page": 2, "per": 30}).json()["seats"]) == 10
    with django_assert_num_queries(1):
        client.get(board_data_url(large), {"page": 1, "per": 30})


def test_sort_key_reads_names_as_people_do():
    rows = [
        {"name": "Zoe", "number": 1},
        {"name": "Müller", "number": 2},
        {"name": "muller", "number": 3},
        {"name": "Mueller", "number": 4},
        {"name": "Ångström", "number": 5},
    ]

    names = [row["name"] for row in sorted(rows, key=sort_key)]

    assert names == ["Ångström", "Mueller", "Müller", "muller", "Zoe"]


# --- The board beside the clock ---------------------------------------------------------------


def test_lobby_seating_layout_shows_the_board_next_to_the_clock(client):
    event = tournament()
    with_structure(event)
    seated(event, ["Ben", "Anna"])

    html = html_of(client.get(f"/lobby/{event.pk}/?layout=seating"))

    assert 'class="lobby layout-seating"' in html
    assert ">100 / 200<" in html  # the clock is still there
    assert NAMES.findall(html) == ["Anna", "Ben"]
    assert 'id="seating-title"' in html
    assert "once the tables are set up" in html  # hidden, for when the last one busts
    config = json.loads(SEATING_CONFIG.search(html).group(1))
    assert (config["columns"], config["rows"]) == (2, 16)
    assert "/static/js/seats.js" in html and "/static/js/clock.js" in html
    assert "seating-public.css" in html


@pytest.mark.parametrize(
    ("query", "sizes"),
    [
        ("&columns=1&rows=12&every=20", (1, 12, 20)),
        ("&columns=9&rows=x", (2, 16, 10)),  # a wrong size never costs the clock its screen
        ("", (2, 16, 10)),
    ],
)
def test_lobby_seating_layout_takes_the_boards_sizes(client, query, sizes):
    event = tournament()
    seated(event, ["Anna"])

    response = client.get(f"/lobby/{event.pk}/?layout=seating{query}")

    config = json.loads(SEATING_CONFIG.search(html_of(response)).group(1))
    assert response.status_code == 200
    assert (config["columns"], config["rows"], config["every"]) == sizes


def test_rotating_lobby_shows_each_tournaments_board_in_its_turn(client):
    main, turbo = tournament(name="Main"), tournament(name="Turbo")
    seated(main, ["Anna", "Ben"])
    seated(turbo, ["Xaver"], first=11)  # the venue's tables 11 and 12

    html = html_of(client.get(f"/lobby/?t={main.pk},{turbo.pk}&every=20&layout=seating"))

    boards = re.findall(r'<section class="seat-board"[^>]*>', html)
    assert len(boards) == 2
    assert f'data-rotation-of="{main.pk}"' in boards[0] and " hidden" not in boards[0]
    assert f'data-rotation-of="{turbo.pk}"' in boards[1] and " hidden" in boards[1]
    assert NAMES.findall(html) == ["Anna", "Ben", "Xaver"]
    first = json.loads(SEATING_CONFIG.search(html).group(1))
    second = re.search(
        r'<script id="seating-config-1" type="application/json">(.*?)</script>', html
    )
    assert (first["id"], json.loads(second.group(1))["id"]) == (main.pk, turbo.pk)
    assert html.count("/static/js/seats.js") == 1


def test_single_lobby_board_does_not_take_turns(client):
    event = tournament()
    seated(event, ["Anna"])

    html = html_of(client.get(f"/lobby/{event.pk}/?layout=seating"))

    assert "data-rotation-of" not in html and "seating-config-1" not in html


def test_lobby_other_layouts_load_no_seating(client):
    event = tournament()
    seated(event, ["Anna"])

    html = html_of(client.get(f"/lobby/{event.pk}/?layout=clock"))

    assert "seating-config" not in html and "seats.js" not in html
    assert NAMES.findall(html) == []


# --- The player's own page: the live seat ------------------------------------------------------


def test_entry_page_shows_table_and_seat_and_embeds_its_live_config(client):
    event = tournament()
    anna = seated(event, ["Anna"])[0]
    table, seat = seat_of(anna)

    response = client.get(reverse("tournaments:entry-public", args=[event.pk, anna.number]))

    html = html_of(response)
    assert response.status_code == 200
    assert f'data-live="table">{table}</b>' in html
    assert f'data-live="seat">{seat}</b>' in html
    assert "not seated yet" not in html.split('data-live="none"')[1].split("</p>")[0]
    config = json.loads(ENTRY_CONFIG.search(html).group(1))
    assert config["entry"] == anna.pk
    assert config["state"] == {
        "status": "active",
        "table": table,
        "seat": seat,
        "wait_for_button": False,
    }
    assert config["urls"] == {
        "data": f"/seat/{event.pk}/entry/{anna.number}/",
        "socket": f"/ws/tournaments/{event.pk}/entries/{anna.pk}/",  # its entry's only
    }
    assert "%(from_table)s" in config["strings"]["moved"]
    assert config["strings"]["statuses"]["busted"] == "Busted"
    assert "/static/js/seats.js" in html
    assert "TDA 7" in html


def test_entry_page_of_unseated_and_busted_entries(client):
    event = tournament()
    waiting = register(event, "Walter").entry
    busted = register(event, "Bea").entry
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=busted.pk)

    waiting_html = html_of(client.get(reverse("tournaments:entry-public", args=[event.pk, 1])))
    busted_html = html_of(client.get(reverse("tournaments:entry-public", args=[event.pk, 2])))

    assert waiting.number == 1
    assert 'data-live="none">not seated yet</p>' in waiting_html
    assert 'data-live="where" hidden' in waiting_html
    assert 'data-live="none">Busted</p>' in busted_html


def test_the_hidden_attribute_wins_over_the_seat_boxs_flex_layout():
    """The page and seats.js hide the seat row of an unseated or busted entry with
    `hidden`; `.seat-box-where { display: flex }` used to show it anyway, an empty
    "Table Seat" (floorman/tests/browser/test_dealer_tablet.py found it)."""
    css = (Path(settings.BASE_DIR) / "static" / "css" / "floorman.css").read_text()

    assert re.search(r"\[hidden\]\s*\{\s*display:\s*none\s*!important;?\s*\}", css)


def test_entry_page_says_when_a_late_seat_waits_for_the_button_tda_8a(client):
    event = tournament()
    anna = seated(event, ["Anna"])[0]
    table, seat = seat_of(anna)
    services.seat_set(
        actor=None, tournament_id=event.pk, number=table, seat=seat, wait_for_button=True
    )

    html = html_of(client.get(reverse("tournaments:entry-public", args=[event.pk, anna.number])))

    assert "once the button has passed your seat (TDA 8-A)" in html
    assert 'data-live="wait" hidden' not in html


def test_entry_data_follows_moves_and_busts(client):
    event = tournament()
    anna, _ben = seated(event, ["Anna", "Ben"], tables=2)
    url = entry_data_url(event, anna.number)
    services.table_add(actor=None, tournament_id=event.pk, number=7, seats=9)

    services.entry_move(actor=None, tournament_id=event.pk, entry_id=anna.pk, to_table=7, to_seat=4)
    moved = client.get(url).json()
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=anna.pk)
    busted = client.get(url).json()

    assert moved == {
        "entry": anna.pk,
        "number": anna.number,
        "name": "Anna",
        "status": "active",
        "table": 7,
        "seat": 4,
        "wait_for_button": False,
    }
    assert busted["status"] == "busted"
    assert (busted["table"], busted["seat"]) == (None, None)


def test_entry_data_of_unknown_entry_is_404(client):
    event = tournament()

    assert client.get(entry_data_url(event, 5)).status_code == 404
    assert client.get("/seat/999999/entry/1/").status_code == 404
    assert client.post(entry_data_url(event, 1)).status_code == 405


def test_entry_data_takes_one_query(client, django_assert_num_queries):
    event = tournament()
    anna = seated(event, ["Anna"])[0]

    with django_assert_num_queries(1):
        client.get(entry_data_url(event, anna.number))


# --- Privacy ----------------------------------------------------------------------------------


def test_no_contact_data_on_any_public_seating_page(client):
    event = tournament()
    with_structure(event)
    add_tables(event, 1)
    dora = register(event, "Dora Contact", email="dora@example.com", phone="+43 660 1234567")
    services.seating_draw(actor=None, tournament_id=event.pk)

    pages = [
        client.get(lookup_url(event, "dora")),
        client.get(lookup_url(event, "1")),
        client.get(board_url(event)),
        client.get(board_data_url(event)),
        client.get(entry_data_url(event, dora.entry.number)),
        client.get(reverse("tournaments:entry-public", args=[event.pk, dora.entry.number])),
        client.get(f"/lobby/{event.pk}/?layout=seating"),
    ]

    for response in pages:
        html = html_of(response)
        assert response.status_code == 200
        assert "Dora Contact" in html
        assert "dora@example.com" not in html
        assert "1234567" not in html
        assert '"email"' not in html and '"phone"' not in html


def test_public_pages_need_no_login_and_german_is_served(client):
    event = tournament()
    seated(event, ["Anna"])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"

    # The middleware activates German in this thread: give the next tests English back.
    with translation.override("en"):
        for url in (lookup_url(event, "anna"), board_url(event), board_data_url(event)):
            assert client.get(url).status_code == 200
        assert '<html lang="de">' in html_of(client.get(board_url(event)))


# --- The script -------------------------------------------------------------------------------

JS_TESTS = Path(__file__).parent / "js"
SEATING_JS = Path(settings.BASE_DIR) / "static" / "js" / "seats.js"
needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="needs node for JS tests")


@needs_node
def test_seating_js_parses():
    result = subprocess.run(
        ["node", "--check", str(SEATING_JS)], capture_output=True, text=True, timeout=60
    )

    assert result.returncode == 0, result.stderr


@needs_node
@pytest.mark.parametrize("script", ["seating_test.js", "screens_test.js", "map_test.js"])
def test_seating_js(script):
    result = subprocess.run(
        ["node", str(JS_TESTS / script)], capture_output=True, text=True, timeout=60
    )

    assert result.returncode == 0, result.stdout + result.stderr

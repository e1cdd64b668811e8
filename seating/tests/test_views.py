"""The TD's seating pages: who may use them, what they show, how they ask before harm,
and that a refusal is shown and changes nothing."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.html import escape

from floorman.models import AuditEntry
from hands.services import busts
from seating import services
from seating.models import Seat, Seating, SeatingAction, Table, TableState
from seating.selectors import seating_settings, table_views
from seating.tests.factories import add_tables, field
from tournaments.models import Venue
from tournaments.services.house import venue_house_settings_save
from tournaments.tests.factories import staff, tournament

pytestmark = pytest.mark.django_db


def url(event, name: str, *args, **query) -> str:
    path = reverse(f"seating:{name}", args=[event.pk, *args])
    return path + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def counts(event) -> dict[int, int]:
    return {v.number: v.players for v in table_views(event.pk)}


def seat_of(entry) -> tuple[int, int] | None:
    seat = Seat.objects.select_related("table").filter(entry=entry).first()
    return (seat.table.number, seat.number) if seat else None


def occupant(event, table: int, seat: int):
    return Seat.objects.get(table__tournament=event, table__number=table, number=seat).entry_id


def seat_exactly(event, layout: dict[int, list[int]]):
    """Seat entries by hand: layout maps table -> seat numbers."""
    entries = field(event, sum(len(s) for s in layout.values()))
    it = iter(entries)
    for table, seats in layout.items():
        for seat in seats:
            services.entry_move(
                actor=None,
                tournament_id=event.pk,
                entry_id=next(it).pk,
                to_table=table,
                to_seat=seat,
            )
    return entries


@pytest.fixture
def event():
    return tournament()


@pytest.fixture
def floor(client):
    client.force_login(staff("floor"))
    return client


@pytest.fixture
def director(client):
    client.force_login(staff("director"))
    return client


def page(response) -> str:
    return response.content.decode()


# --- Who may use the pages -----------------------------------------------------------------


GET_PAGES = [
    ("map", ()),
    ("draw", ()),
    ("move", ()),
    ("balance", ()),
    ("final-table", ()),
    ("break-order", ()),
    ("seat-cards", ()),
    ("by-name", ()),
    ("by-table", ()),
    ("table-break", (1,)),
    ("table-remove", (1,)),
    ("seat", (1, 1)),
]


@pytest.mark.parametrize(("name", "args"), GET_PAGES)
def test_every_page_opens_for_floor_and_director(client, event, name, args):
    add_tables(event, 2)
    for role in ("floor", "director"):
        client.force_login(staff(role))
        assert client.get(url(event, name, *args)).status_code == 200, (role, name)


@pytest.mark.parametrize(("name", "args"), GET_PAGES + [("settings", ())])
def test_anonymous_visitors_are_sent_to_log_in(client, event, name, args):
    add_tables(event, 2)

    response = client.get(url(event, name, *args))

    assert response.status_code == 302 and "/login/" in response["Location"]


@pytest.mark.parametrize("role", ["cashier", "dealer"])
@pytest.mark.parametrize(("name", "args"), GET_PAGES + [("settings", ())])
def test_cashiers_and_dealers_may_not_seat(client, event, role, name, args):
    add_tables(event, 2)
    client.force_login(staff(role))

    assert client.get(url(event, name, *args)).status_code == 403


@pytest.mark.parametrize(
    ("name", "args", "data"),
    [
        ("table-add", (), {"first": "5"}),
        ("table-remove", (1,), {}),
        ("table-break", (1,), {}),
        ("halt-waive", (1,), {"waived": "on"}),
        ("seat", (1, 2), {"field": "blocked", "value": "on"}),
        ("draw", (), {}),
        ("undo", (), {}),
    ],
)
def test_cashier_posts_are_refused_and_change_nothing(client, event, name, args, data):
    add_tables(event, 2)
    field(event, 4)
    client.force_login(staff("cashier"))

    assert client.post(url(event, name, *args), data).status_code == 403
    assert client.post(url(event, name, *args), data).status_code == 403
    assert Table.objects.filter(tournament=event, broken_at=None).count() == 2
    assert not Seat.objects.filter(blocked=True).exists()
    assert not SeatingAction.objects.exists()


def test_anonymous_post_is_sent_to_log_in_and_changes_nothing(client, event):
    add_tables(event, 1)
    field(event, 3)

    response = client.post(url(event, "draw"))

    assert response.status_code == 302 and "/login/" in response["Location"]
    assert not SeatingAction.objects.exists()


def test_only_directors_change_the_seating_settings(floor, event):
    assert floor.get(url(event, "settings")).status_code == 403
    assert floor.post(url(event, "settings"), {"balance_threshold": "1"}).status_code == 403


def test_unknown_tournament_table_seat_or_action_is_404(floor, event):
    add_tables(event, 1)
    assert floor.get("/tournaments/99999/seating/").status_code == 404
    assert floor.get(url(event, "table-break", 7)).status_code == 404
    assert floor.post(url(event, "table-remove", 7)).status_code == 404
    assert floor.get(url(event, "seat", 1, 10)).status_code == 404
    assert floor.get(url(event, "seat", 999999999999999999, 1)).status_code == 404
    assert floor.get(url(event, "action", 12345)).status_code == 404
    assert floor.get(url(event, "slips", 12345)).status_code == 404


def test_another_tournaments_action_is_404(floor, event):
    other = tournament(name="Side event")
    add_tables(other, 1, first=50)
    field(other, 3)
    action, _assignments = services.seating_draw(actor=None, tournament_id=other.pk)

    assert floor.get(url(event, "action", action.pk)).status_code == 404
    assert floor.get(url(event, "seat-cards", action=action.pk)).status_code == 404


def test_the_tournament_menu_links_seating_for_floor_only(client, event):
    client.force_login(staff("floor"))
    assert url(event, "map") in page(client.get(reverse("tournaments:detail", args=[event.pk])))

    client.force_login(staff("cashier"))
    assert url(event, "map") not in page(client.get(reverse("tournaments:detail", args=[event.pk])))


# --- The table map --------------------------------------------------------------------------


def test_map_shows_every_table_with_its_seats_and_players(floor, event):
    add_tables(event, 2, accessible="1")
    entries = field(event, 10)
    services.seating_draw(actor=None, tournament_id=event.pk)
    free = Seat.objects.filter(table__tournament=event, table__number=1, entry=None).first()
    services.seat_set(actor=None, tournament_id=event.pk, number=1, seat=free.number, blocked=True)
    first = entries[0]
    table, seat = seat_of(first)
    services.seat_set(
        actor=None, tournament_id=event.pk, number=table, seat=seat, wait_for_button=True
    )

    html = page(floor.get(url(event, "map")))

    assert 'id="table-1"' in html and 'id="table-2"' in html
    assert html.count('class="seat ') == 18
    for entry in entries:
        assert entry.player.name in html and f"#{entry.number}" in html
    assert ">5 / 9<" in html
    assert "blocked" in html
    assert "Accessible seat (TDA 9)" in html
    assert "Dealt in after the button passes" in html
    assert "Players seated" in html
    # Each table's tablet and its link for a dealer, and hand-for-hand (RP-8).
    assert f'href="/tournaments/{event.pk}/tables/2/tablet/"' in html
    assert f'href="/tournaments/{event.pk}/tables/2/tablet/links/"' in html
    assert f'href="/tournaments/{event.pk}/hand-for-hand/"' in html


def test_map_counts_unseated_entries_and_offers_the_draw(floor, event):
    add_tables(event, 2)
    field(event, 5)

    html = page(floor.get(url(event, "map")))

    assert "5 active entries have no seat." in html
    assert url(event, "draw") in html and "Draw seats" in html


def test_map_offers_to_seat_late_entries_only_when_somebody_waits_tda_8a(floor, event):
    add_tables(event, 1, seats=2)
    field(event, 2)
    services.seating_draw(actor=None, tournament_id=event.pk)

    everyone_seated = page(floor.get(url(event, "map")))
    field(event, 1, prefix="Late")  # the table is full: the late entry waits for a seat
    one_waiting = page(floor.get(url(event, "map")))

    assert "Seat late entries" not in everyone_seated
    assert "Seat late entries" in one_waiting
    assert "1 active entry has no seat." in one_waiting


def test_map_without_tables_says_how_to_start(floor, event):
    html = page(floor.get(url(event, "map")))

    assert "No tables yet" in html and "Add tables" in html


def test_map_shows_halted_tables_suggested_moves_and_the_threshold(floor, event):
    """TDA 11-D: 8 against 5 halts the table of 5; TDA 11-A: one player moves."""
    add_tables(event, 2)
    seat_exactly(event, {1: list(range(1, 9)), 2: [1, 2, 3, 4, 5]})

    html = page(floor.get(url(event, "map")))

    assert "Play halts" in html and "TDA 11-D" in html
    assert url(event, "halt-waive", 2) in html
    assert "differ by 3 players" in html and "balances at a difference of 2" in html
    assert "One player from table 1 to table 2" in html
    assert url(event, "balance") in html
    assert "most players" in html and "fewest players" in html
    assert "The table with the most players" in html  # TDA 11-C, the source procedure


def test_waiving_the_halt_lets_the_table_play_on(floor, event):
    add_tables(event, 2)
    seat_exactly(event, {1: list(range(1, 9)), 2: [1, 2, 3, 4, 5]})

    response = floor.post(url(event, "halt-waive", 2), {"waived": "on"}, follow=True)

    assert "halt waived (TDA 11-D)" in page(response)
    assert Table.objects.get(tournament=event, number=2).halt_waived is True
    assert "Play halts" not in page(response)
    floor.post(url(event, "halt-waive", 2))
    assert Table.objects.get(tournament=event, number=2).halt_waived is False


def test_pages_of_a_broken_table_are_404_and_write_nothing(floor, event):
    """The pages find only tables in play (issue 15: the API changed broken ones)."""
    add_tables(event, 3)
    field(event, 12)
    services.seating_draw(actor=None, tournament_id=event.pk, tables=3)  # breaks into play
    broken = next(n for n, c in counts(event).items() if c)
    services.table_break(actor=None, tournament_id=event.pk, number=broken)
    before = list(Table.objects.filter(tournament=event).values())
    seats = list(Seat.objects.filter(table__tournament=event).values())
    actions, audited = SeatingAction.objects.count(), AuditEntry.objects.count()

    answers = [
        floor.post(url(event, "halt-waive", broken), {"waived": "on"}),
        floor.post(url(event, "seat", broken, 1), {"field": "blocked", "value": "on"}),
        floor.post(url(event, "table-remove", broken)),
    ]

    assert [a.status_code for a in answers] == [404, 404, 404]
    assert list(Table.objects.filter(tournament=event).values()) == before
    assert list(Seat.objects.filter(table__tournament=event).values()) == seats
    assert (SeatingAction.objects.count(), AuditEntry.objects.count()) == (actions, audited)


def test_map_says_which_tables_may_not_start_under_casino_17(floor, event):
    """Casino §17 (house setting): play at a table starts only with three players."""
    event.house_settings = {"table_minimum": "casino"}
    event.save()
    add_tables(event, 2)
    seat_exactly(event, {1: [1, 2, 3], 2: [1, 2]})

    html = page(floor.get(url(event, "map")))

    assert "Table 2 may not deal: it has fewer than three players" in html
    assert "casino §17" in html


def test_counts_on_the_map_agree_with_their_nouns(floor, event):
    """Issue 16: "1 player to seat", never "1 player(s)" or "1 players"."""
    add_tables(event, 3)
    seat_exactly(event, {1: [1, 2, 3, 4, 5, 6], 2: [1, 2, 3, 4, 5, 6], 3: [1]})

    html = page(floor.get(url(event, "map")))

    assert "Table 3 is next in the break order and fits: 1 player to seat, 6 open seats" in html
    assert "(s)" not in html


def test_map_proposes_the_next_table_to_break(floor, event):
    """TDA 10-B: table 3 breaks first (added last) once its players fit elsewhere."""
    add_tables(event, 3)
    seat_exactly(event, {1: [1, 2, 3, 4, 5], 2: [1, 2, 3, 4, 5], 3: [1, 2, 3, 4]})

    html = page(floor.get(url(event, "map")))

    assert "Next table to break" in html
    assert "Table 3 is next in the break order" in html
    assert url(event, "table-break", 3) in html
    assert "3 → 2 → 1" in html


def test_map_says_when_the_next_table_does_not_fit_yet(floor, event):
    add_tables(event, 2)
    field(event, 16)
    services.seating_draw(actor=None, tournament_id=event.pk)

    html = page(floor.get(url(event, "map")))

    assert "does not fit yet" in html


def test_a_spare_table_is_not_in_play(floor, event):
    """Table 3 stands empty: it is neither halted, balanced into nor broken into."""
    add_tables(event, 3)
    seat_exactly(event, {1: [1, 2, 3, 4], 2: [1, 2, 3]})

    html = page(floor.get(url(event, "map")))

    assert "spare: not in play" in html
    assert "Play halts" not in html and "Suggested moves" not in html
    assert url(event, "table-remove", 3) in html
    floor.post(url(event, "table-break", 2))
    assert counts(event) == {1: 7, 3: 0}


def test_map_proposes_the_final_table(floor, event):
    """RP-9: two tables of five and four make a final table of nine."""
    add_tables(event, 2)
    seat_exactly(event, {1: [1, 2, 3, 4, 5], 2: [1, 2, 3, 4]})

    html = page(floor.get(url(event, "map")))

    assert "fit at a final table of 9 (RP-9)" in html
    assert url(event, "final-table") in html


def test_every_seat_and_table_on_the_map_links_to_its_pages(floor, event):
    """The map makes its thousand links from one reversed URL each (issue 16): they are
    the links reverse() gives, for two-digit tables and seats too."""
    add_tables(event, 1, seats=10)
    add_tables(event, 1, first=12)
    html = page(floor.get(url(event, "map")))

    for table, seats in ((1, 10), (12, 9)):
        for seat in range(1, seats + 1):
            assert f'href="{url(event, "seat", table, seat)}"' in html
        assert f'href="{url(event, "table-remove", table)}"' in html  # no players: spare
        tablet = reverse("hands:tablet", args=[event.pk, table])
        links = reverse("hands:tablet-links", args=[event.pk, table])
        assert f'href="{tablet}"' in html and f'href="{links}"' in html


def test_the_maps_links_cost_as_much_for_twenty_tables_as_for_two(floor, monkeypatch):
    """Reversing a URL for each seat and several for each table was a third of the map's
    time at 1,000 seats (issue 16): the number of URLs reversed stays the same."""
    import django.urls  # the {% url %} tag looks reverse up here at each use

    reversed_urls = []
    original = django.urls.reverse
    monkeypatch.setattr(
        django.urls, "reverse", lambda *a, **k: reversed_urls.append(a) or original(*a, **k)
    )
    counts = []
    for tables, first in ((2, 1), (20, 100)):
        event = tournament(name=f"{tables} tables")
        add_tables(event, tables, first=first)
        field(event, tables * 7, prefix=f"T{tables}")
        services.seating_draw(actor=None, tournament_id=event.pk)
        floor.get(url(event, "map"))  # warm up
        reversed_urls.clear()
        assert floor.get(url(event, "map")).status_code == 200
        counts.append(len(reversed_urls))
    assert counts[0] == counts[1]


@pytest.mark.parametrize("tables", [2, 20])
def test_map_query_count_does_not_grow_with_tables(floor, django_assert_max_num_queries, tables):
    small = tournament(name="Small")
    add_tables(small, 2, first=900)
    field(small, 12, prefix="Small")
    services.seating_draw(actor=None, tournament_id=small.pk)
    floor.get(url(small, "map"))  # settings row and sessions created
    with CaptureQueriesContext(connection) as two:
        floor.get(url(small, "map"))
    most = len(two.captured_queries)  # read now: every request empties the query log

    big = tournament(name="Big")
    add_tables(big, tables)
    field(big, tables * 7, prefix="Big")
    services.seating_draw(actor=None, tournament_id=big.pk)
    floor.get(url(big, "map"))
    with django_assert_max_num_queries(most):
        response = floor.get(url(big, "map"))
    assert page(response).count('class="card seat-table') == tables


def test_map_shows_the_new_plan_at_once_after_a_bust_unbalances_the_tables(floor, event):
    """The map is built once per screen version and shared (issue 20); a bust renews the
    version, so the very next request shows the balancing it calls for (TDA 11-A)."""
    add_tables(event, 2)
    entries = seat_exactly(event, {1: list(range(1, 10)), 2: list(range(1, 10))})
    before = page(floor.get(url(event, "map")))
    assert "Suggested moves" not in before

    for entry in entries[:2]:  # both of table 1: 7 against 9
        busts.entry_bust(actor=None, tournament_id=event.pk, entry_id=entry.pk)
    after = page(floor.get(url(event, "map")))

    assert "Suggested moves" in after
    assert "from table 2" in after and "to table 1" in after


def test_map_follows_a_change_of_its_venues_reading_at_once(floor):
    """A venue's readings are saved without the events' locks: the save renews their
    screen versions itself, so the map built under the old reading is not served."""
    venue = Venue.objects.create(name="Casino")
    event = tournament(venue=venue)
    add_tables(event, 2)
    seat_exactly(event, {1: [1, 2, 3], 2: [1, 2, 3]})
    assert "Three or more players short" in page(floor.get(url(event, "map")))

    venue_house_settings_save(
        actor=staff("director"), venue_id=venue.pk, changes={"halting": "casino"}
    )

    assert "Fewer than four players" in page(floor.get(url(event, "map")))


def test_map_unchanged_is_served_without_reading_the_seats_again(floor, event):
    """Between two changes the map's plan and seats come from the shared cache."""
    add_tables(event, 2)
    seat_exactly(event, {1: [1, 2, 3], 2: [1, 2, 3]})
    floor.get(url(event, "map"))

    with CaptureQueriesContext(connection) as queries:
        response = floor.get(url(event, "map", page=1))

    assert response.status_code == 200
    assert page(response).count('class="card seat-table') == 2
    assert not [q for q in queries.captured_queries if "seating_seat" in q["sql"]]


# --- Tables and seats ------------------------------------------------------------------------


def test_add_one_table_with_accessible_seats(floor, event):
    response = floor.post(
        url(event, "table-add"), {"first": "7", "seats": "8", "accessible": "1,8"}
    )

    assert response.status_code == 302
    table = Table.objects.get(tournament=event)
    assert (table.number, table.seats) == (7, 8)
    assert list(table.seat_set.filter(accessible=True).values_list("number", flat=True)) == [1, 8]


def test_add_tables_from_1_to_12(floor, event):
    response = floor.post(url(event, "table-add"), {"first": "1", "last": "12"}, follow=True)

    assert sorted(Table.objects.filter(tournament=event).values_list("number", flat=True)) == list(
        range(1, 13)
    )
    assert Table.objects.get(tournament=event, number=1).seats == event.table_size
    assert "Tables added: 1, 2, 3" in page(response)


def test_adding_a_run_skips_and_names_tables_in_use(floor, event):
    other = tournament(name="Side event")
    add_tables(other, 1, first=3)

    response = floor.post(url(event, "table-add"), {"first": "1", "last": "4"}, follow=True)

    assert sorted(Table.objects.filter(tournament=event).values_list("number", flat=True)) == [
        1,
        2,
        4,
    ]
    assert "Table 3 is in play in another tournament." in page(response)


def test_adding_a_table_number_twice_is_refused(floor, event):
    add_tables(event, 1)

    response = floor.post(url(event, "table-add"), {"first": "1"})

    assert response.status_code == 400
    assert "already has a table 1" in page(response)
    assert Table.objects.filter(tournament=event).count() == 1


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"first": "1", "seats": "11"}, "less than or equal to 10"),
        ({"first": "1", "accessible": "12"}, "Seat numbers run from 1 to 9."),
        ({"first": "5", "last": "2"}, "must not be below the first"),
        ({"first": "1", "last": "500"}, "At most 100 tables at once."),
        ({"first": "x"}, "Enter a whole number."),
    ],
)
def test_bad_table_input_is_shown_and_adds_nothing(floor, event, data, message):
    response = floor.post(url(event, "table-add"), data)

    assert response.status_code == 400
    assert message in page(response)
    assert not Table.objects.exists()


def test_removing_an_empty_table_asks_first(floor, event):
    add_tables(event, 2)

    asked = floor.get(url(event, "table-remove", 2))
    assert "Remove table 2?" in page(asked)
    assert Table.objects.filter(tournament=event).count() == 2

    floor.post(url(event, "table-remove", 2))

    assert list(Table.objects.filter(tournament=event).values_list("number", flat=True)) == [1]


def test_removing_a_table_with_players_is_refused(floor, event):
    add_tables(event, 1)
    field(event, 3)
    services.seating_draw(actor=None, tournament_id=event.pk)

    response = floor.post(url(event, "table-remove", 1), follow=True)

    assert "Table 1 still has players; break it instead." in page(response)
    assert Table.objects.get(tournament=event).broken_at is None


def test_seat_page_blocks_marks_accessible_and_waits_for_the_button(floor, event):
    add_tables(event, 1)
    (entry,) = field(event, 1)
    services.entry_move(
        actor=None, tournament_id=event.pk, entry_id=entry.pk, to_table=1, to_seat=3
    )

    assert entry.player.name in page(floor.get(url(event, "seat", 1, 3)))
    floor.post(url(event, "seat", 1, 4), {"field": "blocked", "value": "on"})
    floor.post(url(event, "seat", 1, 5), {"field": "accessible", "value": "on"})
    floor.post(url(event, "seat", 1, 3), {"field": "wait_for_button", "value": "on"})

    seats = {s.number: s for s in Seat.objects.filter(table__tournament=event)}
    assert seats[4].blocked and seats[5].accessible and seats[3].wait_for_button

    floor.post(url(event, "seat", 1, 4), {"field": "blocked"})
    assert not Seat.objects.get(table__tournament=event, number=4).blocked


def test_seat_page_of_an_open_seat_offers_to_seat_a_player_there(floor, event):
    add_tables(event, 1)
    (entry,) = field(event, 1)

    html = page(floor.get(url(event, "seat", 1, 6)))
    assert url(event, "move", to="1-6") in html
    form = page(floor.get(url(event, "move", to="1-6")))
    assert 'value="1-6" selected' in form

    floor.post(url(event, "move"), {"entry": entry.pk, "target": "1-6"})
    assert seat_of(entry) == (1, 6)


def test_blocking_an_occupied_seat_is_refused(floor, event):
    add_tables(event, 1)
    (entry,) = field(event, 1)
    services.entry_move(
        actor=None, tournament_id=event.pk, entry_id=entry.pk, to_table=1, to_seat=3
    )

    response = floor.post(
        url(event, "seat", 1, 3), {"field": "blocked", "value": "on"}, follow=True
    )

    assert "Seat 1-3 is taken." in page(response)
    assert not Seat.objects.get(table__tournament=event, number=3).blocked


def test_unknown_seat_setting_changes_nothing(floor, event):
    add_tables(event, 1)

    response = floor.post(url(event, "seat", 1, 3), {"field": "entry", "value": "on"}, follow=True)

    assert "Unknown seat setting." in page(response)


def test_td_sets_the_break_order(floor, event):
    add_tables(event, 3)

    response = floor.post(url(event, "break-order"), {"t1": "1", "t2": "3", "t3": "2"})

    assert response.status_code == 302
    order = dict(Table.objects.filter(tournament=event).values_list("number", "break_order"))
    assert order == {1: 1, 3: 2, 2: 3}


def test_break_order_needs_a_position_per_table(floor, event):
    add_tables(event, 3)

    response = floor.post(url(event, "break-order"), {"t1": "1", "t2": "1", "t3": "2"})

    assert response.status_code == 400
    assert "Give every table its own position." in page(response)
    order = dict(Table.objects.filter(tournament=event).values_list("number", "break_order"))
    assert order == {3: 1, 2: 2, 1: 3}


# --- The draw ---------------------------------------------------------------------------------


def test_draw_with_too_few_tables_says_how_many_more_and_seats_nobody(floor, event):
    add_tables(event, 1)
    field(event, 12)

    response = floor.post(url(event, "draw"))

    assert response.status_code == 400
    assert "1 more table." in page(response)  # one table: singular (issue 16)
    assert not Seat.objects.filter(entry__isnull=False).exists()
    assert not SeatingAction.objects.exists()


def test_draw_seats_everyone_and_links_the_printouts(floor, event):
    add_tables(event, 3)
    entries = field(event, 20)

    response = floor.post(url(event, "draw"))

    action = SeatingAction.objects.get()
    assert response["Location"] == url(event, "action", action.pk)
    html = page(floor.get(response["Location"]))
    assert all(seat_of(e) for e in entries)
    assert "20 players took seats." in html
    assert action.seed in html
    for name in ("seat-cards", "by-name", "by-table"):
        assert url(event, name) in html
    assert all(e.player.name in html for e in entries)


def test_draw_keeps_seats_free_for_late_arrivals(floor, event):
    """Casino §8a."""
    add_tables(event, 4)
    field(event, 18)

    floor.post(url(event, "draw"), {"keep_free": "9"})

    assert sorted(counts(event).values()) == [0, 6, 6, 6]


def test_draw_may_use_more_tables_than_needed(floor, event):
    add_tables(event, 4)
    field(event, 18)

    floor.post(url(event, "draw"), {"tables": "3"})

    assert sorted(counts(event).values()) == [0, 6, 6, 6]


def test_draw_page_explains_the_first_draw_and_later_late_seats(floor, event):
    add_tables(event, 2)
    field(event, 10)

    assert "TDA 7" in page(floor.get(url(event, "draw")))
    services.seating_draw(actor=None, tournament_id=event.pk)
    field(event, 2, prefix="Late")
    Seat.objects.filter(entry__player__name__startswith="Late").update(entry=None)

    html = page(floor.get(url(event, "draw")))

    assert "Seat late entries" in html and "TDA 8-A" in html
    assert "2 active entries have no seat." in html


def test_draw_with_nobody_to_seat_is_refused(floor, event):
    add_tables(event, 1)

    response = floor.post(url(event, "draw"))

    assert "Every active entry already has a seat." in page(response)


# --- Moves ----------------------------------------------------------------------------------


def test_move_a_player_to_an_open_seat(floor, event):
    """TDA 7: a player found in a wrong seat moves with the stack."""
    add_tables(event, 2)
    entries = field(event, 4)
    services.seating_draw(actor=None, tournament_id=event.pk)
    mover = entries[0]
    free = next((t, s) for t in (1, 2) for s in range(1, 10) if occupant(event, t, s) is None)
    form = page(floor.get(url(event, "move", entry=mover.number)))
    assert f'value="{mover.pk}" selected' in form

    response = floor.post(
        url(event, "move"), {"entry": mover.pk, "target": f"{free[0]}-{free[1]}", "reason": ""}
    )

    assert seat_of(mover) == free
    action = SeatingAction.objects.get(kind="move")
    assert response["Location"] == url(event, "action", action.pk)
    assert action.moves.get().reason == "TDA 7"
    assert url(event, "slips", action.pk) in page(floor.get(response["Location"]))


def test_move_to_a_taken_seat_is_not_offered_and_changes_nothing(floor, event):
    add_tables(event, 1)
    a, b = field(event, 2)
    services.entry_move(actor=None, tournament_id=event.pk, entry_id=a.pk, to_table=1, to_seat=1)
    services.entry_move(actor=None, tournament_id=event.pk, entry_id=b.pk, to_table=1, to_seat=2)

    response = floor.post(url(event, "move"), {"entry": a.pk, "target": "1-2"})

    assert response.status_code == 400
    assert "Select a valid choice" in page(response)
    assert seat_of(a) == (1, 1) and seat_of(b) == (1, 2)


def test_move_refused_by_the_service_is_shown_on_the_form(floor, event, monkeypatch):
    """A seat taken between opening the dialog and sending it (another floor person)."""
    add_tables(event, 1)
    a, b = field(event, 2)
    services.entry_move(actor=None, tournament_id=event.pk, entry_id=a.pk, to_table=1, to_seat=1)
    services.entry_move(actor=None, tournament_id=event.pk, entry_id=b.pk, to_table=1, to_seat=2)
    from seating.views import tables as views

    monkeypatch.setattr(views, "_open_seat_choices", lambda tournament: [("1-2", "1-2")])

    response = floor.post(url(event, "move"), {"entry": a.pk, "target": "1-2"})

    assert response.status_code == 400
    assert "Seat 1-2 is taken." in page(response)
    assert seat_of(a) == (1, 1)


# --- Balancing (TDA 11-A) ------------------------------------------------------------------


@pytest.fixture
def nine_and_seven(event):
    """Table 1 full, table 2 with 7 (seats 4 and 9 open)."""
    add_tables(event, 2)
    return seat_exactly(event, {1: list(range(1, 10)), 2: [1, 2, 3, 5, 6, 7, 8]})


def test_balance_dialog_asks_each_table_for_its_next_big_blind(floor, event, nine_and_seven):
    html = page(floor.get(url(event, "balance")))

    assert "One player from table 1 to table 2" in html
    assert 'name="bb_1"' in html and 'name="bb_2"' in html
    assert "Seat 4 (open)" in html  # the target table offers its open seats too
    assert "worst position" in html


def test_balance_preview_names_who_moves_where_and_changes_nothing(floor, event, nine_and_seven):
    mover = Seat.objects.get(table__tournament=event, table__number=1, number=4).entry

    response = floor.post(url(event, "balance"), {"bb_1": "4", "bb_2": "5"})

    html = page(response)
    assert mover.player.name in html
    assert "table 1, seat 4 → table 2, seat 4" in html
    assert "RP-16" in html and 'name="confirm" value="on"' in html
    assert not SeatingAction.objects.filter(kind="balance").exists()


def test_balance_applies_the_moves_when_big_blind_seats_are_given(floor, event, nine_and_seven):
    """TDA 11-A: the big blind next at table 1 (seat 4) moves to table 2's worst seat."""
    mover = occupant(event, 1, 4)

    response = floor.post(url(event, "balance"), {"bb_1": "4", "bb_2": "5", "confirm": "on"})

    action = SeatingAction.objects.get(kind="balance")
    assert response["Location"] == url(event, "action", action.pk)
    assert occupant(event, 2, 4) == mover
    assert counts(event) == {1: 8, 2: 8}
    slips = page(floor.get(url(event, "slips", action.pk)))
    assert "Table 1 · seat 4" in slips and "Table 2 · seat 4" in slips
    assert "RP-16" in slips and "TDA 11-A" in slips


def test_balance_dialog_asks_only_for_tables_whose_tablet_logged_nothing(
    floor, event, nine_and_seven
):
    """Issue 16: table 1's tablet drew its button (seat 2): its big blind next, seat 4,
    is known and shown (TDA 11-A). Table 2 logged nothing: asked, pre-filled with a guess
    that says it is one."""
    TableState.objects.create(table=Table.objects.get(tournament=event, number=1), button=2)
    mover = Seat.objects.get(table__tournament=event, table__number=1, number=4).entry

    html = page(floor.get(url(event, "balance")))

    assert 'name="bb_1"' not in html and 'name="bb_2"' in html
    assert "Table 1: seat 4" in html and mover.player.name in html
    assert '<option value="2" selected>' in html  # the guess: blinds at seats 1 and 2
    assert "A guess: this table's tablet has logged no button and no hand." in html


def test_balance_apply_after_a_bust_changes_nothing_and_shows_the_moves_now(floor, event):
    """Issue 16, TDA 11-A: 9 against 6; the preview moved seat 1-4 (big blind next); that
    player busted before "Apply". Nobody moves; the page says why and shows who moves
    now (seat 1-5), and applying that does exactly it."""
    add_tables(event, 2)
    seat_exactly(event, {1: list(range(1, 10)), 2: [1, 2, 3, 5, 6, 7]})
    for number in (1, 2):
        TableState.objects.create(
            table=Table.objects.get(tournament=event, number=number),
            button=1,
            small_blind_seat=2,
            big_blind=3,
        )
    shown = page(floor.get(url(event, "balance")))
    key = f"{occupant(event, 1, 4)}@1-4>2-4|1:4,2:5"
    assert f'name="plan" value="{escape(key)}"' in shown
    busts.entry_bust(actor=None, tournament_id=event.pk, entry_id=occupant(event, 1, 4))
    now = Seat.objects.get(table__tournament=event, table__number=1, number=5).entry

    stale = floor.post(url(event, "balance"), {"confirm": "on", "plan": key})

    assert stale.status_code == 409
    html = page(stale)
    assert "The tables have changed since these moves were shown" in html
    assert now.player.name in html and "table 1, seat 5 → table 2, seat 4" in html
    assert counts(event) == {1: 8, 2: 6}
    assert not SeatingAction.objects.filter(kind="balance").exists()

    new_key = f"{now.pk}@1-5>2-4|1:5,2:5"
    assert f'name="plan" value="{escape(new_key)}"' in html
    floor.post(url(event, "balance"), {"confirm": "on", "plan": new_key})
    assert occupant(event, 2, 4) == now.pk and counts(event) == {1: 7, 2: 7}


def test_balance_without_a_big_blind_seat_is_refused(floor, event, nine_and_seven):
    response = floor.post(url(event, "balance"), {"bb_1": "4", "confirm": "on"})

    assert response.status_code == 400
    assert "This field is required." in page(response)
    assert counts(event) == {1: 9, 2: 7}


def test_balance_of_balanced_tables_says_so(floor, event):
    add_tables(event, 2)
    seat_exactly(event, {1: [1, 2, 3], 2: [1, 2, 3]})

    assert "nothing to move" in page(floor.get(url(event, "balance")))
    response = floor.post(url(event, "balance"), {"confirm": "on"})
    assert "nothing to move" in page(response)
    assert not SeatingAction.objects.filter(kind="balance").exists()


def test_stud_balancing_shows_seats_at_once(floor, event):
    """TDA 11-A, stud: the last open seat is filled from the highest occupied seat."""
    add_tables(event, 2)
    seat_exactly(event, {1: list(range(1, 10)), 2: [1, 2, 3, 5, 6, 7, 8]})
    Seating.objects.update_or_create(tournament=event, defaults={"stud_positions": True})

    html = page(floor.get(url(event, "balance")))
    assert "table 1, seat 9 → table 2, seat 9" in html
    floor.post(url(event, "balance"), {"confirm": "on"})

    assert counts(event) == {1: 8, 2: 8}


# --- Breaking, the final table, undo ----------------------------------------------------------


def test_break_asks_first_then_moves_everyone_and_prints_slips(floor, event):
    add_tables(event, 3)
    entries = field(event, 15)
    services.seating_draw(actor=None, tournament_id=event.pk, tables=3)

    asked = floor.get(url(event, "table-break", 3))
    assert "Break table 3?" in page(asked) and "TDA 10-B" in page(asked)
    assert "RP-16" in page(asked)
    assert SeatingAction.objects.filter(kind="break").count() == 0

    response = floor.post(url(event, "table-break", 3))

    action = SeatingAction.objects.get(kind="break")
    assert response["Location"] == url(event, "action", action.pk)
    assert 3 not in counts(event)
    slips = page(floor.get(url(event, "slips", action.pk)))
    moved = [e for e in entries if action.moves.filter(entry=e).exists()]
    assert len(moved) == 5
    assert all(e.player.name in slips for e in moved)
    assert slips.count('class="slip"') == 5


def test_break_without_room_is_refused_and_changes_nothing(floor, event):
    add_tables(event, 2)
    field(event, 16)
    services.seating_draw(actor=None, tournament_id=event.pk)

    response = floor.post(url(event, "table-break", 1), follow=True)

    assert "do not fit at the other tables" in page(response)
    assert Table.objects.filter(tournament=event, broken_at__isnull=True).count() == 2


@pytest.fixture
def nine_to_break(event):
    """Issue 16: nine players at table 5; tables 1 and 2 (ten seats) have one open seat
    each; table 6 stands empty."""
    add_tables(event, 1, first=6)
    add_tables(event, 1, first=5)
    add_tables(event, 2, seats=10)
    seat_exactly(event, {1: list(range(1, 10)), 2: list(range(1, 10)), 5: list(range(1, 10))})


def test_map_says_on_a_tables_card_when_its_break_would_open_a_table(floor, event):
    add_tables(event, 3)
    seat_exactly(event, {1: [1, 2, 3, 4, 5, 6, 7, 8], 2: [1, 2, 3, 4, 5, 6, 7, 8, 9]})

    html = page(floor.get(url(event, "map")))

    def card(number):
        return html[html.index(f'id="table-{number}"') :].split("</article>")[0]

    assert "opens an empty table" in card(1)  # 8 players, 0 open seats at table 2
    assert "opens an empty table" in card(2)
    assert "break-needs" not in card(3)  # empty: removed, not broken
    services.table_remove(actor=None, tournament_id=event.pk, number=3)
    html = page(floor.get(url(event, "map")))
    assert "no room to break it" in card(1)


def test_break_confirmation_says_it_opens_a_table_and_does_exactly_that(
    floor, event, nine_to_break
):
    asked = page(floor.get(url(event, "table-break", 5)))

    assert "Break table 5 and open table 6?" in asked
    assert "do not fit at the tables in play (open seats: 2): this opens table 6." in asked
    assert "Table 6, opened for them: 9 players" in asked
    assert 'name="plan" value="5:9&gt;6+:9-9"' in asked
    assert "Open table 6 and break table 5" in asked

    response = floor.post(url(event, "table-break", 5), {"plan": "5:9>6+:9-9"}, follow=True)

    assert "Table 5 broken: 9 players moved (TDA 10-B). Table 6 opened for them." in page(response)
    assert counts(event) == {1: 9, 2: 9, 6: 9}


def test_break_that_opens_a_table_unconfirmed_or_stale_is_refused_and_shown_again(
    floor, event, nine_to_break
):
    unconfirmed = floor.post(url(event, "table-break", 5))
    stale = floor.post(url(event, "table-break", 5), {"plan": "5:9>1:0-1,2:0-1"})

    assert unconfirmed.status_code == stale.status_code == 409
    assert "Confirm that plan to break it." in page(unconfirmed)
    assert "The tables have changed since the break of table 5 was shown" in page(stale)
    assert "Table 6, opened for them: 9 players" in page(stale)  # the plan as it is now
    assert counts(event) == {1: 9, 2: 9, 5: 9, 6: 0}
    assert not SeatingAction.objects.filter(kind="break").exists()


def test_break_confirmation_of_a_table_that_does_not_fit_gives_the_reason(floor, event):
    add_tables(event, 2)
    seat_exactly(event, {1: list(range(1, 9)), 2: list(range(1, 10))})

    html = page(floor.get(url(event, "table-break", 2)))

    assert "Table 2 cannot be broken" in html
    assert "(open seats in play: 1) and no empty table can open" in html
    assert "Break the table" not in html and 'name="plan"' not in html


def test_final_table_draw(floor, event):
    add_tables(event, 2)
    entries = seat_exactly(event, {1: [1, 2, 3, 4, 5], 2: [1, 2, 3, 4]})

    form = page(floor.get(url(event, "final-table")))
    assert "RP-9" in form and 'name="big_blind"' not in form

    response = floor.post(url(event, "final-table"), {"table": "1"})

    action = SeatingAction.objects.get(kind="final")
    assert response["Location"] == url(event, "action", action.pk)
    assert counts(event) == {1: 9}
    assert all(seat_of(e)[0] == 1 for e in entries)


def test_final_table_by_blind_position(floor, event):
    """Casino §30: the big blinds next draw seats 2 and 3."""
    add_tables(event, 2)
    entries = seat_exactly(event, {1: [1, 2, 3, 4, 5], 2: [1, 2, 3, 4]})
    Seating.objects.update_or_create(tournament=event, defaults={"final_draw": "position"})
    big_blinds = [entries[0].pk, entries[5].pk]

    form = page(floor.get(url(event, "final-table")))
    assert 'name="big_blind"' in form and "casino §30" in form.lower()

    floor.post(url(event, "final-table"), {"table": "1", "big_blind": big_blinds})

    assert sorted(seat_of(e)[1] for e in entries if e.pk in big_blinds) == [2, 3]
    assert SeatingAction.objects.get(kind="final").params["by_position"] is True


def test_final_table_by_position_refuses_a_player_in_two_positions(floor, event):
    add_tables(event, 2)
    entries = seat_exactly(event, {1: [1, 2, 3, 4, 5], 2: [1, 2, 3, 4]})
    Seating.objects.update_or_create(tournament=event, defaults={"final_draw": "position"})

    response = floor.post(
        url(event, "final-table"),
        {"table": "1", "big_blind": [entries[0].pk], "button": [entries[0].pk]},
    )

    assert response.status_code == 400
    assert "only one position" in page(response)
    assert not SeatingAction.objects.filter(kind="final").exists()


def test_final_table_refused_while_too_many_players_remain(floor, event):
    add_tables(event, 2)
    field(event, 10)
    services.seating_draw(actor=None, tournament_id=event.pk)

    response = floor.post(url(event, "final-table"), {"table": "1"})

    assert response.status_code == 400
    assert "more than the final table" in page(response)
    assert len(counts(event)) == 2


def undo_shown(event) -> dict:
    """The undo form as the confirmation page fills it in: the action it names."""
    return {"action": str(SeatingAction.objects.filter(tournament=event).latest("id").pk)}


def test_undo_asks_first_naming_each_player_then_reverts_the_last_break(floor, event):
    add_tables(event, 3)
    entries = field(event, 12)
    services.seating_draw(actor=None, tournament_id=event.pk, tables=3)  # breaks into play
    before = {e.pk: seat_of(e) for e in entries}
    broken = next(n for n, c in counts(event).items() if c)
    leaving = [e for e in entries if seat_of(e)[0] == broken]
    services.table_break(actor=None, tournament_id=event.pk, number=broken)
    moved = leaving[0]
    now_at = seat_of(moved)

    asked = floor.get(url(event, "undo"))

    assert f"Undo: break of table {broken}: {len(leaving)} players to tables" in page(asked)
    assert (
        f"{moved.player.name} (#{moved.number}): from table {now_at[0]}, seat {now_at[1]} "
        f"back to table {broken}, seat {before[moved.pk][1]}"
    ) in page(asked)
    assert f"Table {broken} opens again." in page(asked)
    assert Table.objects.get(tournament=event, number=broken).broken_at is not None

    response = floor.post(url(event, "undo"), undo_shown(event), follow=True)

    assert f"Undone: break of table {broken}: {len(leaving)} players" in page(response)
    assert (
        f"{moved.player.name} (#{moved.number}) sits at table {broken}, "
        f"seat {before[moved.pk][1]} again."
    ) in page(response)
    assert {e.pk: seat_of(e) for e in entries} == before


def test_the_map_names_the_player_and_seats_the_undo_changes(floor, event):
    add_tables(event, 2)
    (anna,) = seat_exactly(event, {1: [2]})
    services.entry_move(actor=None, tournament_id=event.pk, entry_id=anna.pk, to_table=2, to_seat=7)

    response = floor.get(url(event, "map"))

    assert (
        f"Undo: move of {anna.player.name} (#{anna.number}) from table 1, seat 2 to table 2, seat 7"
    ) in page(response)


def test_undo_clicked_twice_undoes_only_the_action_shown(floor, event):
    """The second click names the action the first one undid: refused, and the late seat
    before it (another player's) stays."""
    add_tables(event, 2)
    anna, _bert = seat_exactly(event, {1: [1, 2]})
    (carl,) = field(event, 1, prefix="Late")  # seated at once (TDA 8-A): a late seat
    carl_seat = seat_of(carl)
    services.entry_move(actor=None, tournament_id=event.pk, entry_id=anna.pk, to_table=2, to_seat=5)
    shown = undo_shown(event)

    first = floor.post(url(event, "undo"), shown)
    second = floor.post(url(event, "undo"), shown)

    assert first.status_code == 302
    assert second.status_code == 409
    assert "That seating action has already been undone: nothing was changed." in page(second)
    assert seat_of(anna) == (1, 1)
    assert carl_seat is not None and seat_of(carl) == carl_seat


def test_undo_of_an_action_no_longer_last_is_409_and_changes_nothing(floor, event):
    add_tables(event, 2)
    anna, bert = seat_exactly(event, {1: [1, 2]})
    services.entry_move(actor=None, tournament_id=event.pk, entry_id=anna.pk, to_table=2, to_seat=5)
    shown = undo_shown(event)
    services.entry_move(actor=None, tournament_id=event.pk, entry_id=bert.pk, to_table=2, to_seat=6)

    response = floor.post(url(event, "undo"), shown)

    assert response.status_code == 409
    assert "That is no longer the last seating action" in page(response)
    assert (seat_of(anna), seat_of(bert)) == ((2, 5), (2, 6))


def test_undo_without_naming_the_action_is_400(floor, event):
    add_tables(event, 2)
    (anna,) = seat_exactly(event, {1: [1]})
    services.entry_move(actor=None, tournament_id=event.pk, entry_id=anna.pk, to_table=2, to_seat=5)

    for data in ({}, {"action": "last"}, {"action": "-1"}):
        response = floor.post(url(event, "undo"), data)
        assert response.status_code == 400
        assert seat_of(anna) == (2, 5)


def test_undo_refused_once_a_moved_player_busted_changes_nothing(floor, event):
    add_tables(event, 2)
    entries = field(event, 6)
    services.seating_draw(actor=None, tournament_id=event.pk)
    shown = undo_shown(event)
    busts.entry_bust(actor=None, tournament_id=event.pk, entry_id=entries[0].pk)

    offered = floor.get(url(event, "map"))
    asked = floor.get(url(event, "undo"))
    response = floor.post(url(event, "undo"), shown)

    assert "cannot be undone any more" in page(offered)
    assert url(event, "undo") not in page(offered)
    assert "cannot be undone any more" in page(asked) and "Undo it" not in page(asked)
    assert response.status_code == 409
    assert "cannot be undone any more" in page(response)
    assert all(seat_of(e) for e in entries[1:])
    assert SeatingAction.objects.get().undone_at is None


def test_undo_with_nothing_to_undo_says_so(floor, event):
    response = floor.get(url(event, "undo"), follow=True)
    assert "There is no seating action to undo." in page(response)

    response = floor.post(url(event, "undo"), {"action": "1"})
    assert response.status_code == 409
    assert "There is no seating action to undo." in page(response)


# --- Printouts --------------------------------------------------------------------------------


@pytest.fixture
def drawn(event):
    add_tables(event, 3)
    entries = field(event, 22)
    action, _assignments = services.seating_draw(actor=None, tournament_id=event.pk)
    return action, entries


def test_seat_cards_one_per_seated_entry(floor, event, drawn):
    action, entries = drawn

    html = page(floor.get(url(event, "seat-cards")))

    assert html.count('class="seat-card"') == 22
    for entry in entries:
        table, seat = seat_of(entry)
        assert entry.player.name in html and f"Entry #{entry.number}" in html
    assert event.name in html
    assert "@media print" not in html  # print rules live in the stylesheet
    assert "css/seating.css" in html


def test_seat_cards_of_one_draw(floor, event, drawn):
    action, _entries = drawn
    late = field(event, 1, prefix="Late")[0]  # seated at the desk by a late-seat action

    html = page(floor.get(url(event, "seat-cards", action=action.pk)))

    assert html.count('class="seat-card"') == 22
    assert late.player.name not in html


def test_lists_by_name_and_by_table_list_every_seated_entry(floor, event, drawn):
    _action, entries = drawn

    by_name = page(floor.get(url(event, "by-name")))
    by_table = page(floor.get(url(event, "by-table")))

    for entry in entries:
        assert entry.player.name in by_name and entry.player.name in by_table
    names = sorted(e.player.name for e in entries)
    assert by_name.index(names[0]) < by_name.index(names[-1])
    assert by_table.count("<caption>") == 3


# --- Settings --------------------------------------------------------------------------------


def test_director_saves_the_seating_settings(director, event):
    response = director.post(
        url(event, "settings"),
        {
            "balance_threshold": "1",
            "source_rule": "break_order",
            "break_headroom": "2",
            "final_table_size": "10",
            "final_draw": "position",
            "stud_positions": "on",
        },
    )

    assert response.status_code == 302
    settings = Seating.objects.get(tournament=event)
    assert settings.balance_threshold == 1 and settings.source_rule == "break_order"
    assert settings.break_headroom == 2
    assert settings.final_table_size == 10 and settings.final_draw == "position"
    assert settings.stud_positions is True


def test_balance_threshold_runs_from_1_to_5(director, event):
    response = director.post(
        url(event, "settings"),
        {
            "balance_threshold": "6",
            "source_rule": "most",
            "break_headroom": "0",
            "final_draw": "random",
        },
    )

    assert response.status_code == 400
    assert "less than or equal to 5" in page(response)
    assert seating_settings(event.pk).balance_threshold == 2

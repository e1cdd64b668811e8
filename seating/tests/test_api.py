"""The seating API (/api/v1/) as a client sees it: status codes, bodies, what was stored,
and bad input that must always be a 4xx with field messages, never a 500."""

from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from floorman.models import AuditEntry
from floorman.tests.worlds import world_fixtures
from hands import services as hands
from hands.services import busts as bust_services
from seating import services
from seating.models import Move, Seat, Seating, SeatingAction, Table, VenueTable
from seating.selectors import last_seating_action, seating_public, seating_settings
from seating.services import desk as desk_intentions
from seating.tests.factories import add_tables, field
from tournaments import services as desk
from tournaments.models import Entry, Tournament
from tournaments.tests.factories import api, register, staff, tournament

pytestmark = pytest.mark.django_db

API = "/api/v1"
HUGE = 10**30
LONG = "x" * 10_000
STORED = (Table, Seat, SeatingAction, Move, VenueTable, Seating, Entry, AuditEntry)


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def url(event: Tournament, path: str) -> str:
    return f"{API}/tournaments/{event.pk}/{path}"


def stored() -> dict:
    """Every row the seating API could write, to compare before and after a request."""
    return {model.__name__: list(model.objects.order_by("pk").values()) for model in STORED}


def seat_of(entry: Entry) -> tuple[int, int] | None:
    seat = Seat.objects.select_related("table").filter(entry=entry).first()
    return (seat.table.number, seat.number) if seat else None


def occupant(event, table: int, seat: int) -> int | None:
    return Seat.objects.get(table__tournament=event, table__number=table, number=seat).entry_id


def seat_exactly(event, layout: dict[int, list[int]]) -> list[Entry]:
    """Register and seat players by hand: layout maps table -> seat numbers."""
    entries = field(event, sum(len(seats) for seats in layout.values()))
    places = [(table, seat) for table, seats in layout.items() for seat in seats]
    for entry, (table, seat) in zip(entries, places, strict=True):
        services.entry_move(
            actor=None, tournament_id=event.pk, entry_id=entry.pk, to_table=table, to_seat=seat
        )
    return entries


@dataclass
class World:
    director: User
    floor: User
    cashier: User
    dealer: User
    event: Tournament  # tables 1-3: 4, 2 and 3 players, unbalanced (TDA 11-A)
    entries: list[Entry]
    fresh: Tournament  # tables 11 and 12, four entries not yet drawn
    small: Tournament  # tables 21 (three players) and 22 (empty)


def build_world() -> World:
    event = tournament()
    add_tables(event, 3)
    entries = seat_exactly(event, {1: [1, 2, 3, 4], 2: [1, 2], 3: [1, 2, 3]})
    fresh = tournament(name="Fresh")
    add_tables(fresh, 2, first=11)
    field(fresh, 4, prefix="Fresh")
    small = tournament(name="Small")
    add_tables(small, 2, first=21)
    field(small, 3, prefix="Small")
    services.seating_draw(actor=None, tournament_id=small.pk)
    for each in (event, fresh, small):
        seating_settings(each.pk)  # so that reading the seating creates no row
    return World(
        director=staff("director"),
        floor=staff("floor"),
        cashier=staff("cashier"),
        dealer=staff("dealer"),
        event=event,
        entries=entries,
        fresh=fresh,
        small=small,
    )


world_made, world = world_fixtures(build_world)

# Endpoints that take a JSON body: (method, url, a valid body).
BODY_ENDPOINTS = {
    "table-create": lambda w: ("post", url(w.event, "tables/"), {"number": 4, "accessible": [9]}),
    "seat-set": lambda w: ("post", url(w.event, "tables/3/seats/9/"), {"blocked": True}),
    "halt-waiver": lambda w: ("post", url(w.event, "tables/2/halt-waiver/"), {"waived": True}),
    "break-order": lambda w: ("put", url(w.event, "tables/break-order/"), {"order": [2, 1, 3]}),
    "draw": lambda w: ("post", url(w.fresh, "draw/"), {"tables": 2, "keep_free": 0}),
    "move": lambda w: (
        "post",
        url(w.event, "moves/"),
        {"entry": w.entries[0].pk, "to_table": 3, "to_seat": 9, "reason": "TDA 7"},
    ),
    "balance": lambda w: ("post", url(w.event, "balance/"), {"big_blind_next": {"1": 4, "2": 2}}),
    # The plan of GET tables/3/break/, echoed back (issue 16).
    "break-plan": lambda w: ("post", url(w.event, "tables/3/break/"), {"plan": "3:3>1:0-1,2:2-3"}),
    "final-table": lambda w: ("post", url(w.small, "final-table/"), {"table": 21}),
    "undo": lambda w: (
        "post",
        url(w.event, "seating/undo/"),
        {"action": last_seating_action(w.event.pk).pk},
    ),
}
# Endpoints that read no body: (method, url).
ACTION_ENDPOINTS = {
    "table-delete": lambda w: ("delete", url(w.small, "tables/22/")),
    "break": lambda w: ("post", url(w.event, "tables/3/break/")),
}
PUBLIC_READS = {
    "tables": lambda w: url(w.event, "tables/"),
    "seating": lambda w: url(w.event, "seating/"),
    "lookup": lambda w: url(w.event, "lookup/?q=player"),
}


def send(world: World, endpoint: str, body=None, *, user=None, raw: str | None = None):
    method, address, valid = BODY_ENDPOINTS[endpoint](world)
    call = getattr(api(user or world.floor), method)
    if raw is not None:
        return call(address, data=raw, content_type="application/json")
    return call(address, valid if body is None else body, format="json")


def messages_in(errors) -> list:
    """The messages of one field, also those of its list items or subfields."""
    if isinstance(errors, dict):
        return [m for value in errors.values() for m in messages_in(value)]
    return list(errors)


def assert_field_messages(response, field: str) -> None:
    """A 400 whose body holds messages for `field`."""
    assert response.status_code == 400, response.content
    messages = messages_in(response.json()[field])
    assert messages and all(isinstance(m, str) and m for m in messages)


def assert_refused(response, before: dict, status: int = 400) -> None:
    assert response.status_code == status, response.content
    assert stored() == before


# --- Tables -------------------------------------------------------------------------------


def test_tables_list_shows_seats_occupants_and_halted_tables():
    event = tournament()
    services.table_add(actor=None, tournament_id=event.pk, number=7, seats=3, accessible="1")
    (anna,) = seat_exactly(event, {7: [2]})

    response = api().get(url(event, "tables/"))

    assert response.status_code == 200
    assert response.json() == [
        {
            "number": 7,
            "size": 3,
            "players": 1,
            "break_order": 1,
            "halted": False,
            "halt_rule": None,
            "halt_waived": False,
            "may_not_start": False,
            "seats": [
                {
                    "number": 1,
                    "accessible": True,
                    "blocked": False,
                    "wait_for_button": False,
                    "occupant": None,
                },
                {
                    "number": 2,
                    "accessible": False,
                    "blocked": False,
                    "wait_for_button": False,
                    "occupant": {"entry": anna.pk, "number": anna.number, "name": "Player 0001"},
                },
                {
                    "number": 3,
                    "accessible": False,
                    "blocked": False,
                    "wait_for_button": False,
                    "occupant": None,
                },
            ],
        }
    ]


def test_tables_list_marks_a_table_three_players_short_halted():
    """TDA 11-D."""
    event = tournament()
    add_tables(event, 2)
    seat_exactly(event, {1: list(range(1, 9)), 2: [1, 2, 3, 4, 5]})

    tables = api().get(url(event, "tables/")).json()

    assert [(t["number"], t["players"], t["halted"], t["halt_rule"]) for t in tables] == [
        (1, 8, False, None),
        (2, 5, True, "TDA 11-D"),
    ]


def test_tables_list_query_count_does_not_grow_with_tables():
    event = tournament()
    add_tables(event, 1)
    seating_settings(event.pk)
    with CaptureQueriesContext(connection) as one:
        assert len(api().get(url(event, "tables/")).json()) == 1
    add_tables(event, 2, first=2)
    field(event, 12)
    services.seating_draw(actor=None, tournament_id=event.pk)
    with CaptureQueriesContext(connection) as three:
        assert len(api().get(url(event, "tables/")).json()) == 3

    assert len(three) == len(one)


def test_table_create_by_floor_answers_the_new_table(world):
    response = send(world, "table-create", {"number": 4, "seats": 6, "accessible": [1, 6]})

    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["number"], body["size"], body["players"], body["break_order"]) == (4, 6, 0, 1)
    assert [s["number"] for s in body["seats"] if s["accessible"]] == [1, 6]
    assert Table.objects.get(tournament=world.event, number=4).seats == 6


def test_table_create_refusals(world):
    client = api(world.floor)
    before = stored()

    taken = client.post(url(world.event, "tables/"), {"number": 2}, format="json")
    elsewhere = client.post(url(world.event, "tables/"), {"number": 21}, format="json")
    too_narrow = client.post(
        url(world.event, "tables/"), {"number": 5, "seats": 6, "accessible": [9]}, format="json"
    )

    assert (taken.status_code, taken.json()["code"]) == (409, "table_number_taken")
    assert taken.json()["detail"] == "This tournament already has a table 2."
    assert (elsewhere.status_code, elsewhere.json()["code"]) == (409, "table_in_use")
    assert too_narrow.status_code == 400
    assert too_narrow.json() == {"accessible": ["Seat numbers run from 1 to 6."]}
    assert stored() == before


def test_table_delete_only_empty_tables(world):
    client = api(world.floor)

    full = client.delete(url(world.small, "tables/21/"))
    empty = client.delete(url(world.small, "tables/22/"))

    assert (full.status_code, full.json()["code"]) == (409, "table_not_empty")
    assert empty.status_code == 204
    assert list(Table.objects.filter(tournament=world.small).values_list("number", flat=True)) == [
        21
    ]


def test_seat_set_blocks_and_marks_only_the_fields_given(world):
    client = api(world.floor)

    blocked = client.post(url(world.event, "tables/3/seats/9/"), {"blocked": True}, format="json")
    marked = client.post(url(world.event, "tables/3/seats/9/"), {"accessible": True}, format="json")

    assert blocked.status_code == 200, blocked.content
    assert marked.json() == {
        "number": 9,
        "accessible": True,
        "blocked": True,
        "wait_for_button": False,
        "occupant": None,
    }


def test_seat_set_refusals(world):
    client = api(world.floor)
    before = stored()

    taken = client.post(url(world.event, "tables/1/seats/1/"), {"blocked": True}, format="json")
    no_seat = client.post(url(world.event, "tables/1/seats/10/"), {"blocked": True}, format="json")
    nothing = client.post(url(world.event, "tables/1/seats/9/"), {}, format="json")
    no_body = client.post(url(world.event, "tables/1/seats/9/"))

    assert (taken.status_code, taken.json()["code"]) == (409, "seat_taken")
    assert no_seat.status_code == 404
    assert no_seat.json()["detail"] == "No such seat."
    assert_field_messages(nothing, "non_field_errors")
    assert_field_messages(no_body, "non_field_errors")
    assert stored() == before


def test_break_order_and_halt_waiver(world):
    client = api(world.floor)

    order = client.put(url(world.event, "tables/break-order/"), {"order": [2, 1, 3]}, format="json")
    wrong = client.put(url(world.event, "tables/break-order/"), {"order": [1, 2]}, format="json")
    waiver = client.post(url(world.event, "tables/2/halt-waiver/"), {}, format="json")

    assert [(t["number"], t["break_order"]) for t in order.json()] == [(1, 2), (2, 1), (3, 3)]
    assert wrong.json() == {"order": ["Name every table in play exactly once."]}
    assert waiver.json()["halt_waived"] is True
    assert Table.objects.get(tournament=world.event, number=2).halt_waived


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("post", "tables/3/halt-waiver/", {"waived": True}),
        ("post", "tables/3/seats/1/", {"blocked": True}),
        ("post", "tables/3/seats/1/", {"accessible": True}),
        ("post", "tables/3/seats/9/", {"wait_for_button": True}),
        ("delete", "tables/3/", None),
    ],
    ids=["halt-waiver", "seat-blocked", "seat-accessible", "seat-wait", "remove"],
)
def test_changes_to_a_broken_table_are_409_and_write_nothing(world, method, path, body):
    """Issue 15: the halt waiver and seat changes were saved with an audit entry, then
    answered 500; removing the table rewrote its broken_at with a false audit entry."""
    services.table_break(actor=None, tournament_id=world.event.pk, number=3)
    before = stored()

    response = getattr(api(world.floor), method)(url(world.event, path), body, format="json")

    assert response.status_code == 409, response.content
    assert response.json() == {
        "code": "table_broken",
        "detail": "Table 3 has been broken: it can no longer be changed.",
        "number": 3,
    }
    assert stored() == before


# --- TDA 7: the draw ----------------------------------------------------------------------


def test_draw_seats_every_entry_and_answers_the_assignments_and_seed(world):
    world.fresh.house_settings = {"table_minimum": "casino"}
    world.fresh.save()
    response = send(world, "draw")

    assert response.status_code == 200, response.content
    body = response.json()
    action = SeatingAction.objects.get(pk=body["action"])
    assert body["seed"] == action.seed and len(body["seed"]) == 32
    entries = Entry.objects.filter(tournament=world.fresh).select_related("player")
    assert sorted(body["assignments"], key=lambda a: a["entry"]) == [
        {
            "entry": e.pk,
            "number": e.number,
            "name": e.player.name,
            "table": seat_of(e)[0],
            "seat": seat_of(e)[1],
        }
        for e in entries.order_by("pk")
    ]
    assert body["short_tables"] == [11, 12]  # two players each (casino §17)


def test_draw_under_the_tda_names_no_table_too_short_to_start(world):
    """TDA (the default): no minimum for a table; two players each may deal."""
    response = send(world, "draw")

    assert response.status_code == 200, response.content
    assert response.json()["short_tables"] == []


def test_draw_without_enough_seats_is_409_saying_how_many_tables(world):
    field(world.fresh, 15, prefix="More")
    before = stored()

    response = send(world, "draw", {})

    assert_refused(response, before, status=409)
    assert response.json() == {
        "code": "not_enough_seats",
        "detail": "Not enough open seats: 1 more needed, that is 1 more table.",
        "missing": 1,
        "tables": 1,
    }


def test_draw_with_everyone_seated_is_409(world):
    before = stored()

    response = api(world.floor).post(url(world.event, "draw/"))

    assert_refused(response, before, status=409)
    assert response.json()["code"] == "nobody_to_seat"


# --- Public reading -------------------------------------------------------------------------


def test_seating_list_is_public_and_never_shows_contact_data(world):
    register(world.event, "Eva Privat", email="eva@example.com", phone="+43 1 234")

    response = api().get(url(world.event, "seating/"))

    assert response.status_code == 200
    assert response.json() == seating_public(world.event.pk)
    assert len(response.json()) == 10
    for path in ("tables/", "seating/", "lookup/?q=eva"):
        content = api().get(url(world.event, path)).content
        assert b"Eva Privat" in content
        assert b"eva@example.com" not in content and b"+43" not in content


def test_lookup_finds_a_seat_by_name_or_entry_number(world):
    müller = register(world.event, "Jürgen Müller").entry

    by_name = api().get(url(world.event, "lookup/"), {"q": "juergen mueller"})
    by_number = api().get(url(world.event, "lookup/"), {"q": f"#{müller.number}"})

    assert by_name.status_code == 200
    table, seat = seat_of(müller)
    assert by_name.json() == [
        {
            "entry": müller.pk,
            "number": müller.number,
            "name": "Jürgen Müller",
            "status": "active",
            "table": table,
            "seat": seat,
        }
    ]
    assert by_number.json() == by_name.json()


def test_lookup_follows_every_change_to_the_field(world):
    """The lookup keeps an index of the field per process (seating.lookup): each change
    must show in the very next search, never a stale seat."""
    eva = world.entries[0]

    def found(q: str) -> list[tuple]:
        rows = api().get(url(world.event, "lookup/"), {"q": q}).json()
        return [(row["name"], row["status"], row["table"], row["seat"]) for row in rows]

    name = eva.player.name
    assert found(name) == [(name, "active", 1, 1)]
    services.entry_move(
        actor=None, tournament_id=world.event.pk, entry_id=eva.pk, to_table=3, to_seat=9
    )
    assert found(name) == [(name, "active", 3, 9)]
    bust_services.entry_bust(actor=None, tournament_id=world.event.pk, entry_id=eva.pk)
    assert found(name) == [(name, "busted", None, None)]
    bust_services.entry_bust_undo(actor=None, tournament_id=world.event.pk, entry_id=eva.pk)
    assert found(name) == [(name, "active", 3, 9)]
    desk.player_update(actor=None, player_id=eva.player_id, data={"name": "Eva Größer"})
    assert found("groesser") == [("Eva Größer", "active", 3, 9)]
    assert found(name) == []
    newcomer = register(world.event, "Nora Neu").entry
    assert found("nora") == [("Nora Neu", "active", *seat_of(newcomer))]
    desk_intentions.entry_cancel(actor=None, tournament_id=world.event.pk, entry_id=newcomer.pk)
    assert found("nora") == []


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({}, "This field may not be blank."),
        ({"q": ""}, "This field may not be blank."),
        ({"q": "   "}, "This field may not be blank."),
        ({"q": LONG}, "Ensure this field has no more than 120 characters."),
        ({"q": "a\x00b"}, "Null characters are not allowed."),
    ],
    ids=["missing", "empty", "blank", "long", "null-byte"],
)
def test_lookup_without_a_usable_query_is_400(world, params, message):
    response = api().get(url(world.event, "lookup/"), params)

    assert response.status_code == 400
    assert response.json() == {"q": [message]}


@pytest.mark.parametrize("q", ["#", "9" * 30, "-1", "%", "_", "' OR 1=1 --"])
def test_lookup_odd_queries_find_nothing(world, q):
    response = api().get(url(world.event, "lookup/"), {"q": q})

    assert response.status_code == 200
    assert response.json() == []


# --- TDA 7: moves --------------------------------------------------------------------------


def test_move_to_an_open_seat_answers_the_move(world):
    anna = world.entries[0]

    response = send(world, "move")

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["kind"] == "move" and body["undone"] is False and body["seed"] == ""
    assert body["moves"] == [
        {
            "entry": anna.pk,
            "number": anna.number,
            "name": "Player 0001",
            "from_table": 1,
            "from_seat": 1,
            "to_table": 3,
            "to_seat": 9,
            "reason": "TDA 7",
        }
    ]
    assert seat_of(anna) == (3, 9)


@pytest.mark.parametrize(
    ("target", "status", "code"),
    [
        ((2, 1), 409, "seat_taken"),
        ((1, 1), 409, "same_seat"),
        ((77, 1), 404, "not_found"),
        ((3, 10), 404, "not_found"),
    ],
)
def test_move_refusals_change_nothing(world, target, status, code):
    before = stored()

    response = send(
        world,
        "move",
        {"entry": world.entries[0].pk, "to_table": target[0], "to_seat": target[1]},
    )

    assert_refused(response, before, status=status)
    assert response.json()["code"] == code


def test_move_into_a_blocked_seat_is_409(world):
    services.seat_set(actor=None, tournament_id=world.event.pk, number=3, seat=9, blocked=True)
    before = stored()

    response = send(world, "move")

    assert_refused(response, before, status=409)
    assert response.json() == {
        "code": "seat_blocked",
        "detail": "Seat 3-9 is blocked.",
        "table": 3,
        "seat": 9,
    }


def test_move_of_another_tournaments_or_a_busted_entry_is_refused(world):
    stranger = Entry.objects.filter(tournament=world.small).first()
    busted = world.entries[1]
    bust_services.entry_bust(actor=None, tournament_id=world.event.pk, entry_id=busted.pk)
    before = stored()

    other = send(world, "move", {"entry": stranger.pk, "to_table": 3, "to_seat": 9})
    gone = send(world, "move", {"entry": busted.pk, "to_table": 3, "to_seat": 9})

    assert_refused(other, before, status=404)
    assert_refused(gone, before, status=409)
    assert gone.json()["code"] == "entry_not_active"


# --- TDA 11: balancing ----------------------------------------------------------------------


def test_balance_plan_without_positions_names_the_tables_only(world):
    response = api(world.floor).get(url(world.event, "balance/"))

    assert response.status_code == 200, response.content
    assert response.json() == {
        "moves": [
            {
                "entry": None,
                "number": None,
                "name": None,
                "from_table": 1,
                "from_seat": None,
                "to_table": 2,
                "to_seat": None,
                "reason": "TDA 11-A",
            }
        ],
        "halted_tables": [],
        "needs_big_blind_next": [1, 2],
        "big_blind_next": {},
        # Issue 16: guesses to show, as if each button were on the last occupied seat.
        "big_blind_guesses": {"1": 2, "2": 1},
        "plan": None,  # no key until the moves are known
    }


def test_balance_plan_takes_the_big_blind_next_from_the_tablets_button(world):
    """Issue 16: table 1's tablet drew its button (seat 1, no hand dealt yet): the first
    hand's big blind, seat 3, moves (TDA 11-A, IFP 2.2). Only table 2 is asked for."""
    hands.button_set(actor=None, tournament_id=world.event.pk, number=1, button=1)

    response = api(world.floor).get(url(world.event, "balance/"))

    body = response.json()
    assert body["big_blind_next"] == {"1": 3}
    assert body["needs_big_blind_next"] == [2]
    assert body["big_blind_guesses"] == {"2": 1}
    assert (body["moves"][0]["from_seat"], body["moves"][0]["entry"]) == (3, world.entries[2].pk)


def test_balance_plan_with_positions_names_player_and_worst_seat(world):
    """TDA 11-A: the player due the big blind at table 1 (seat 4) goes to the seat at table
    2 that pays the big blind soonest: seat 2 is big blind next, so open seat 3."""
    mover = world.entries[3]
    before = stored()

    response = api(world.floor).get(url(world.event, "balance/") + "?bb=1:4&bb=2:2")

    assert response.status_code == 200, response.content
    assert response.json()["moves"] == [
        {
            "entry": mover.pk,
            "number": mover.number,
            "name": "Player 0004",
            "from_table": 1,
            "from_seat": 4,
            "to_table": 2,
            "to_seat": 3,
            "reason": "TDA 11-A",
        }
    ]
    assert response.json()["needs_big_blind_next"] == []
    assert stored() == before


def test_balance_applies_the_moves(world):
    mover = world.entries[3]

    response = send(world, "balance")

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["kind"] == "balance"
    assert [(m["entry"], m["from_table"], m["to_table"], m["to_seat"]) for m in body["moves"]] == [
        (mover.pk, 1, 2, 3)
    ]
    assert seat_of(mover) == (2, 3)


def test_balance_with_a_stale_plan_is_409_and_moves_nobody(world):
    """Issue 16, TDA 11-A: the plan was shown; then the player at table 2 seat 1 moved to
    seat 3, the seat the plan gave the mover. The old plan is refused, nothing written,
    and the plan as it is now comes back; echoing that makes exactly those moves."""
    mover = world.entries[3]
    shown = api(world.floor).get(url(world.event, "balance/") + "?bb=1:4&bb=2:2").json()
    assert shown["plan"] == f"{mover.pk}@1-4>2-3|1:4,2:2"
    services.entry_move(
        actor=None,
        tournament_id=world.event.pk,
        entry_id=occupant(world.event, 2, 1),
        to_table=2,
        to_seat=3,
    )
    body = {"big_blind_next": {"1": 4, "2": 2}}
    before = stored()

    stale = api(world.floor).post(
        url(world.event, "balance/"), {**body, "plan": shown["plan"]}, format="json"
    )

    assert_refused(stale, before, status=409)
    assert stale.json()["code"] == "balance_plan_changed"
    now = api(world.floor).get(url(world.event, "balance/") + "?bb=1:4&bb=2:2").json()["plan"]
    assert stale.json()["plan"] == now != shown["plan"]

    made = api(world.floor).post(url(world.event, "balance/"), {**body, "plan": now}, format="json")

    assert made.status_code == 200, made.content
    assert [(m["entry"], m["from_table"], m["to_table"]) for m in made.json()["moves"]] == [
        (mover.pk, 1, 2)
    ]


def test_balance_missing_positions_is_400_naming_each_table(world):
    before = stored()

    response = send(world, "balance", {"big_blind_next": {"1": 4}})

    assert_refused(response, before)
    assert response.json() == {"big_blind_next.2": ["Which seat of table 2 is big blind next?"]}


def test_balance_when_balanced_is_409(world):
    send(world, "balance")
    before = stored()

    response = send(world, "balance")

    assert_refused(response, before, status=409)
    assert response.json() == {
        "code": "balanced",
        "detail": "The tables are balanced: nothing to move.",
    }


@pytest.mark.parametrize(
    "query",
    [
        "bb=x",
        "bb=1:",
        "bb=:5",
        "bb=1:11",
        "bb=1:0",
        "bb=0:5",
        "bb=99999:1",
        "bb=1:5:6",
        "bb=1%3A%00",
        "bb=%D9%A3:5",
        "bb=" + "9" * 30 + ":1",
        "&".join(["bb=1:1"] * 501),
    ],
)
def test_balance_plan_bad_positions_are_400(world, query):
    response = api(world.floor).get(url(world.event, "balance/") + "?" + query)

    assert_field_messages(response, "bb")


# --- TDA 10: breaking; RP-9: the final table; undo --------------------------------------------


def test_break_sends_every_player_to_the_other_tables(world):
    on_three = [e for e in world.entries if seat_of(e)[0] == 3]

    response = api(world.floor).post(url(world.event, "tables/3/break/"))

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["kind"] == "break" and len(body["seed"]) == 32
    assert sorted(m["entry"] for m in body["moves"]) == sorted(e.pk for e in on_three)
    assert all(m["from_table"] == 3 and m["reason"] == "TDA 10-B" for m in body["moves"])
    assert {seat_of(e)[0] for e in on_three} <= {1, 2}
    assert [t["number"] for t in api().get(url(world.event, "tables/")).json()] == [1, 2]


@pytest.mark.parametrize(
    ("number", "status"), [(4, 404), (0, 404), (9999, 404), (10**17, 404), (22, 404)]
)
def test_break_unknown_table_is_404(world, number, status):
    before = stored()

    response = api(world.floor).post(url(world.event, f"tables/{number}/break/"))

    assert_refused(response, before, status=status)


def test_break_plan_says_what_the_break_does_and_writes_nothing(world):
    before = stored()

    response = api(world.floor).get(url(world.event, "tables/3/break/"))

    assert response.status_code == 200, response.content
    assert response.json() == {
        "table": 3,
        "players": 3,
        "free": 12,
        "opens": [],
        "shares": [
            {"table": 1, "fewest": 0, "most": 1, "opens": False},
            {"table": 2, "fewest": 2, "most": 3, "opens": False},
        ],
        "plan": "3:3>1:0-1,2:2-3",
    }
    assert stored() == before


def test_break_that_opens_an_empty_table_is_made_only_as_confirmed(world):
    """Issue 16: table 21's three players fit at no table in play; breaking it opens the
    empty table 22. Refused (409, nothing written) unless its plan is echoed back."""
    plan = api(world.floor).get(url(world.small, "tables/21/break/")).json()
    assert (plan["opens"], plan["plan"]) == ([22], "21:3>22+:3-3")
    before = stored()

    refused = api(world.floor).post(url(world.small, "tables/21/break/"))

    assert_refused(refused, before, status=409)
    assert refused.json()["code"] == "break_opens_table"
    assert refused.json()["opens"] == [22] and refused.json()["plan"] == plan["plan"]
    assert "opens table 22" in refused.json()["detail"]

    made = api(world.floor).post(
        url(world.small, "tables/21/break/"), {"plan": plan["plan"]}, format="json"
    )

    assert made.status_code == 200, made.content
    assert {m["to_table"] for m in made.json()["moves"]} == {22}
    assert SeatingAction.objects.get(kind="break").params == {"table": 21, "opens": [22]}


def test_break_with_a_stale_plan_is_409_and_writes_nothing(world):
    """The plan was shown; then a player of table 3 moved: the confirmation no longer
    says what the break would do."""
    plan = api(world.floor).get(url(world.event, "tables/3/break/")).json()["plan"]
    send(world, "move")  # a player of table 1 moves to table 3
    before = stored()

    response = api(world.floor).post(
        url(world.event, "tables/3/break/"), {"plan": plan}, format="json"
    )

    assert_refused(response, before, status=409)
    assert response.json()["code"] == "break_plan_changed"
    assert response.json()["plan"] == "3:4>1:1-2,2:2-3"


def test_break_of_the_last_table_is_409(world):
    plan = api(world.floor).get(url(world.small, "tables/21/break/")).json()["plan"]
    api(world.floor).post(url(world.small, "tables/21/break/"), {"plan": plan}, format="json")
    before = stored()

    last = api(world.floor).post(url(world.small, "tables/22/break/"))
    shown = api(world.floor).get(url(world.small, "tables/22/break/"))

    assert_refused(last, before, status=409)
    assert last.json()["code"] == "last_table"
    assert shown.status_code == 409 and shown.json()["code"] == "last_table"


def test_final_table_draws_the_last_players_to_one_table(world):
    response = send(world, "final-table")

    assert response.status_code == 200, response.content
    assert response.json()["kind"] == "final"
    assert len(response.json()["moves"]) == 3
    tables = api().get(url(world.small, "tables/")).json()
    assert [(t["number"], t["players"]) for t in tables] == [(21, 3)]


def test_final_table_refused_with_too_many_players(world):
    field(world.event, 1, prefix="Late")  # ten players left: more than one table of 9
    before = stored()

    response = api(world.floor).post(url(world.event, "final-table/"), {}, format="json")

    assert_refused(response, before, status=409)
    assert response.json()["code"] == "final_too_many"


def test_undo_reverses_the_last_move(world):
    anna = world.entries[0]
    send(world, "move")
    shown = api(world.floor).get(url(world.event, "seating/undo/")).json()

    response = api(world.floor).post(
        url(world.event, "seating/undo/"), {"action": shown["action"]}, format="json"
    )

    assert response.status_code == 200, response.content
    assert response.json()["undone"] is True
    assert response.json()["moves"][0]["to_seat"] == 9
    assert seat_of(anna) == (1, 1)


def test_undo_names_the_action_its_players_and_where_they_go(world):
    anna = world.entries[0]
    send(world, "move")

    response = api(world.floor).get(url(world.event, "seating/undo/"))

    assert response.status_code == 200, response.content
    plan = response.json()
    assert plan["kind"] == "move" and plan["undoable"] is True and plan["refusal"] == ""
    assert plan["moves"] == [
        {
            "entry": anna.pk,
            "number": anna.number,
            "name": anna.player.name,
            "from_table": 1,
            "from_seat": 1,
            "to_table": 3,
            "to_seat": 9,
        }
    ]
    assert plan["summary"] == (
        f"move of {anna.player.name} (#{anna.number}) from table 1, seat 1 to table 3, seat 9"
    )


def test_undo_sent_twice_undoes_once_and_refuses_the_second(world):
    """A repeated request names the action already undone: the action before it (the
    last player's seat) stays as it is."""
    send(world, "move")
    shown = api(world.floor).get(url(world.event, "seating/undo/")).json()
    api(world.floor).post(
        url(world.event, "seating/undo/"), {"action": shown["action"]}, format="json"
    )
    before = stored()

    again = api(world.floor).post(
        url(world.event, "seating/undo/"), {"action": shown["action"]}, format="json"
    )

    assert_refused(again, before, status=409)
    assert again.json()["code"] == "undo_done"
    assert seat_of(world.entries[-1]) == (3, 3)


def test_undo_of_an_action_that_is_not_the_last_is_409(world):
    earlier = last_seating_action(world.event.pk).pk
    send(world, "move")
    before = stored()

    response = api(world.floor).post(
        url(world.event, "seating/undo/"), {"action": earlier}, format="json"
    )

    assert_refused(response, before, status=409)
    assert response.json()["code"] == "undo_not_last"


def test_undo_without_naming_the_action_is_400(world):
    before = stored()

    response = api(world.floor).post(url(world.event, "seating/undo/"), {}, format="json")

    assert_field_messages(response, "action")
    assert stored() == before


def test_undo_with_nothing_to_undo_is_409(world):
    before = stored()

    response = api(world.floor).post(
        url(world.fresh, "seating/undo/"), {"action": 1}, format="json"
    )
    shown = api(world.floor).get(url(world.fresh, "seating/undo/"))

    assert_refused(response, before, status=409)
    assert response.json()["code"] == "nothing_to_undo"
    assert shown.status_code == 409 and shown.json()["code"] == "nothing_to_undo"


# --- Who may do what ------------------------------------------------------------------------


@pytest.mark.parametrize("endpoint", BODY_ENDPOINTS)
@pytest.mark.parametrize("role", ["floor", "director"])
def test_write_endpoint_valid_body_is_accepted(world, endpoint, role):
    response = send(world, endpoint, user=getattr(world, role))

    assert response.status_code in (200, 201), response.content


@pytest.mark.parametrize("endpoint", ACTION_ENDPOINTS)
@pytest.mark.parametrize("role", ["floor", "director"])
def test_action_endpoint_is_accepted(world, endpoint, role):
    method, address = ACTION_ENDPOINTS[endpoint](world)

    response = getattr(api(getattr(world, role)), method)(address)

    assert response.status_code in (200, 204), response.content


WRITES = [("body", name) for name in BODY_ENDPOINTS] + [("action", n) for n in ACTION_ENDPOINTS]


def _request(world, kind, endpoint, client):
    if kind == "body":
        method, address, body = BODY_ENDPOINTS[endpoint](world)
        return getattr(client, method)(address, body, format="json")
    method, address = ACTION_ENDPOINTS[endpoint](world)
    return getattr(client, method)(address)


@pytest.mark.parametrize(("kind", "endpoint"), WRITES)
@pytest.mark.parametrize(("role", "status"), [(None, 401), ("cashier", 403), ("dealer", 403)])
def test_write_endpoint_refuses_anyone_but_floor_and_directors(world, kind, endpoint, role, status):
    before = stored()
    client = api(getattr(world, role) if role else None)

    response = _request(world, kind, endpoint, client)

    assert_refused(response, before, status=status)


@pytest.mark.parametrize(("role", "status"), [(None, 401), ("cashier", 403), ("dealer", 403)])
def test_balance_plan_is_for_floor_and_directors(world, role, status):
    response = api(getattr(world, role) if role else None).get(url(world.event, "balance/"))

    assert response.status_code == status


@pytest.mark.parametrize("read", PUBLIC_READS)
def test_public_reads_need_no_login(world, read):
    assert api().get(PUBLIC_READS[read](world)).status_code == 200


# --- Malformed bodies -----------------------------------------------------------------------


@pytest.mark.parametrize("endpoint", BODY_ENDPOINTS)
@pytest.mark.parametrize(
    "raw",
    ['{"number": ', "{'number': 4}", "{", "nul\x00l", '{"a": NaN}', '{"a": Infinity}', "\ufeff{}"],
    ids=["truncated", "single-quotes", "brace", "null-byte", "nan", "infinity", "bom"],
)
def test_write_endpoint_malformed_json_is_400(world, endpoint, raw):
    before = stored()

    response = send(world, endpoint, raw=raw)

    assert_refused(response, before)
    assert response.json()["detail"].startswith("JSON parse error")


@pytest.mark.parametrize("endpoint", BODY_ENDPOINTS)
@pytest.mark.parametrize(
    "body",
    [[], [{"number": 4}], "4", 42, True],
    ids=["list", "list-of-object", "str", "int", "bool"],
)
def test_write_endpoint_non_object_body_is_400(world, endpoint, body):
    before = stored()

    response = send(world, endpoint, body)

    assert_refused(response, before)
    assert_field_messages(response, "non_field_errors")


@pytest.mark.parametrize("endpoint", BODY_ENDPOINTS)
def test_write_endpoint_null_body_is_400(world, endpoint):
    before = stored()

    response = send(world, endpoint, raw="null")

    assert_refused(response, before)


@pytest.mark.parametrize("endpoint", BODY_ENDPOINTS)
@pytest.mark.parametrize(
    ("content_type", "data"),
    [("text/plain", "number=4"), ("application/x-www-form-urlencoded", "number=4&blocked=1")],
)
def test_write_endpoint_takes_json_only(world, endpoint, content_type, data):
    method, address, _valid = BODY_ENDPOINTS[endpoint](world)
    before = stored()

    response = getattr(api(world.floor), method)(address, data, content_type=content_type)

    assert_refused(response, before, status=415)


@pytest.mark.parametrize("endpoint", ACTION_ENDPOINTS)
@pytest.mark.parametrize("raw", ['{"x": ', "[1, 2]", "null"], ids=["truncated", "list", "null"])
def test_action_endpoint_junk_body_is_no_server_error(world, endpoint, raw):
    """These read no body: whatever is sent, the answer is never a 500."""
    method, address = ACTION_ENDPOINTS[endpoint](world)

    response = getattr(api(world.floor), method)(address, data=raw, content_type="application/json")

    assert response.status_code < 500


# --- Wrong types and values, field by field ---------------------------------------------------

BAD_INTEGERS = ["four", None, 4.5, True, [4], {"n": 4}, HUGE, -1, 0]
BAD_FIELDS = {
    "table-create": {
        "number": [*BAD_INTEGERS, 10000],
        "seats": [*BAD_INTEGERS, 1, 11],
        "accessible": ["1,9", 9, None, [0], [11], ["x"], [None], list(range(1, 12)), {"a": 1}],
    },
    "seat-set": {
        "blocked": ["maybe", None, [True], {"b": 1}, 2, ""],
        "accessible": ["maybe", None, [True], 2],
        "wait_for_button": ["maybe", None, {}, -1],
    },
    "halt-waiver": {"waived": ["maybe", None, [True], 2]},
    "break-order": {
        "order": [None, "1,2,3", 1, [1, 2, "x"], [0, 1, 2], [1, 2, HUGE], list(range(1, 600))]
    },
    "draw": {"tables": [*BAD_INTEGERS, 501], "keep_free": [*BAD_INTEGERS[:-1], 5001]},
    "move": {
        "entry": BAD_INTEGERS,
        "to_table": [*BAD_INTEGERS, 10000],
        "to_seat": [*BAD_INTEGERS, 11],
        "reason": [LONG, "wrong\x00seat", None, ["x"], {"why": "x"}],
    },
    "balance": {
        "big_blind_next": [
            None,
            [4, 3],
            "1:4",
            {"1": "four"},
            {"1": 11},
            {"1": 0},
            {"1": None},
            {"1": HUGE},
            {"x": 4},
            {"-1": 4},
            {"": 4},
            {"12345": 4},
            {"٣": 4},
            {str(n): 1 for n in range(1, 600)},
        ]
    },
    "final-table": {
        "table": BAD_INTEGERS,
        "positions": [
            "button",
            [1],
            {"button": 1},
            {"button": ["x"]},
            {"big_blind": [HUGE]},
            {"small_blind": [0]},
            {"button": list(range(1, 20))},
        ],
    },
    "undo": {"action": BAD_INTEGERS},
}
BAD_CASES = [
    (endpoint, name, value)
    for endpoint, fields in BAD_FIELDS.items()
    for name, values in fields.items()
    for value in values
]


@pytest.mark.parametrize(
    ("endpoint", "field", "value"),
    BAD_CASES,
    ids=[f"{e}-{f}-{i}" for i, (e, f, _v) in enumerate(BAD_CASES)],
)
def test_write_endpoint_wrong_value_names_the_field(world, endpoint, field, value):
    body = {**BODY_ENDPOINTS[endpoint](world)[2], field: value}
    before = stored()

    response = send(world, endpoint, body)

    assert_refused(response, before)
    assert_field_messages(response, field)


@pytest.mark.parametrize(
    ("endpoint", "field"),
    [("table-create", "number"), ("move", "entry"), ("move", "to_table"), ("move", "to_seat")],
)
def test_write_endpoint_missing_field_is_400(world, endpoint, field):
    body = dict(BODY_ENDPOINTS[endpoint](world)[2])
    del body[field]
    before = stored()

    response = send(world, endpoint, body)

    assert_refused(response, before)
    assert response.json()[field] == ["This field is required."]


def test_largest_accepted_values_fit_the_database(world):
    """The upper limits the API accepts reach the services without overflow."""
    client = api(world.director)

    table = client.post(url(world.event, "tables/"), {"number": 9999, "seats": 10}, format="json")
    move = client.post(
        url(world.event, "moves/"),
        {"entry": 2**63 - 1, "to_table": 9999, "to_seat": 10},
        format="json",
    )
    draw = client.post(url(world.fresh, "draw/"), {"tables": 500, "keep_free": 5000}, format="json")

    assert table.status_code == 201, table.content
    assert move.status_code == 404
    assert draw.status_code == 409 and draw.json()["code"] == "not_enough_seats"


# --- Ids that do not exist or cannot exist ---------------------------------------------------

# (method, path after the tournament) for every seating endpoint.
ALL_URLS = [
    ("get", "tables/"),
    ("post", "tables/"),
    ("put", "tables/break-order/"),
    ("delete", "tables/1/"),
    ("get", "tables/1/break/"),
    ("post", "tables/1/break/"),
    ("post", "tables/1/halt-waiver/"),
    ("post", "tables/1/seats/1/"),
    ("post", "draw/"),
    ("post", "moves/"),
    ("get", "balance/"),
    ("post", "balance/"),
    ("post", "final-table/"),
    ("get", "seating/"),
    ("post", "seating/undo/"),
    ("get", "lookup/?q=anna"),
]
BAD_IDS = ["9" * 30, "9" * 18, "0"]


@pytest.mark.parametrize(("method", "path"), ALL_URLS, ids=lambda v: str(v))
@pytest.mark.parametrize("bad_id", BAD_IDS, ids=lambda v: f"{len(v)}-digits")
def test_unknown_or_impossible_tournament_is_404(world, method, path, bad_id):
    address = f"{API}/tournaments/{bad_id}/{path}"
    body = {"number": 4, "order": [1], "entry": 1, "to_table": 1, "to_seat": 1, "blocked": True}
    before = stored()

    response = getattr(api(world.director), method)(address, body, format="json")

    assert_refused(response, before, status=404)


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("delete", "tables/{n}/"),
        ("get", "tables/{n}/break/"),
        ("post", "tables/{n}/break/"),
        ("post", "tables/{n}/halt-waiver/"),
        ("post", "tables/{n}/seats/1/"),
        ("post", "tables/1/seats/{n}/"),
    ],
)
@pytest.mark.parametrize("bad_number", ["0", "11", "21", "32768", "9" * 18, "9" * 19])
def test_unknown_or_impossible_table_or_seat_is_404(world, method, path, bad_number):
    address = url(world.event, path.format(n=bad_number))
    before = stored()

    response = getattr(api(world.director), method)(address, {"blocked": True}, format="json")

    assert_refused(response, before, status=404)


# --- Random JSON objects ---------------------------------------------------------------------

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**31), max_value=10**31)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.sampled_from(["", "\x00", LONG, 0, 1, 3, 9, 10, 11, 9999, 2**63 - 1, 2**63, HUGE])
)
KEYS = [
    "number",
    "seats",
    "accessible",
    "blocked",
    "wait_for_button",
    "waived",
    "order",
    "tables",
    "keep_free",
    "entry",
    "to_table",
    "to_seat",
    "reason",
    "big_blind_next",
    "plan",
    "table",
    "positions",
    "button",
    "big_blind",
    "1",
    "2",
]
JSON_VALUES = st.recursive(
    SCALARS,
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=10,
)
BODIES = st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=6), JSON_VALUES, max_size=6)
RANDOM_INPUT = settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@pytest.mark.parametrize("endpoint", BODY_ENDPOINTS)
@RANDOM_INPUT
@given(body=BODIES)
def test_write_endpoint_random_json_is_never_a_server_error(world, endpoint, body):
    response = send(world, endpoint, body)

    assert response.status_code < 500, response.content


@RANDOM_INPUT
@given(values=st.lists(st.text(max_size=12), max_size=4), q=st.text(max_size=30))
def test_random_query_strings_are_never_a_server_error(world, values, q):
    plan = api(world.floor).get(url(world.event, "balance/"), {"bb": values})
    lookup = api().get(url(world.event, "lookup/"), {"q": q})

    assert plan.status_code in (200, 400)
    assert lookup.status_code in (200, 400)


# --- Schema ---------------------------------------------------------------------------------


def test_schema_documents_the_seating_endpoints():
    response = api().get(f"{API}/schema/", {"format": "json"})

    paths = response.json()["paths"]
    prefix = "/api/v1/tournaments/{tournament_pk}/"
    for _method, path in ALL_URLS:
        documented = prefix + path.split("?")[0].replace("tables/1/", "tables/{number}/")
        assert documented.replace("seats/1/", "seats/{seat}/") in paths
    balance = paths[prefix + "balance/"]["get"]
    assert [p["name"] for p in balance["parameters"] if p["in"] == "query"] == ["bb"]


def test_schema_validates_without_warnings(tmp_path):
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "s.yaml"))

"""Seating services: draws, late seats, moves, balancing, breaking, final table, undo."""

import random
from datetime import timedelta

import pytest

from clock import services as clock_services
from clock.selectors import player_clocks_running
from floorman.errors import Conflict, Invalid, NotFound
from floorman.models import AuditEntry
from hands.services import busts as bust_services
from seating import engine, services
from seating.messages import undo_summary
from seating.models import Seat, SeatingAction, Table, TableState
from seating.selectors import (
    Balancing,
    balancing,
    seat_lookup,
    seating_public,
    table_views,
    undo_plan,
)
from seating.services import desk as desk_intentions
from seating.tests.factories import add_tables, field, undo_last
from tournaments.tests.factories import register, tournament

pytestmark = pytest.mark.django_db


def counts(event) -> dict[int, int]:
    return {v.number: v.players for v in table_views(event.pk)}


def seat_of(entry) -> tuple[int, int] | None:
    seat = Seat.objects.select_related("table").filter(entry=entry).first()
    return (seat.table.number, seat.number) if seat else None


def occupant(event, table: int, seat: int):
    return Seat.objects.get(table__tournament=event, table__number=table, number=seat).entry_id


# --- Tables ----------------------------------------------------------------------------


def test_table_added_last_breaks_first():
    """Casino §8."""
    event = tournament()
    add_tables(event, 3)
    order = dict(Table.objects.filter(tournament=event).values_list("number", "break_order"))
    assert order == {3: 1, 2: 2, 1: 3}


def test_a_venue_table_serves_one_tournament_at_a_time():
    first, second = tournament(), tournament(name="Side event")
    add_tables(first, 1)
    with pytest.raises(Conflict, match="Table 1 is in play in another tournament"):
        services.table_add(actor=None, tournament_id=second.pk, number=1)


def test_a_finished_tournament_hands_its_venue_tables_back():
    # Late registration still open: the last bust leaves the director to finish by hand.
    first = tournament(late_reg_until_level=5)
    second = tournament(name="Side event")
    add_tables(first, 2)
    winner, runner_up = field(first, 2)
    services.seating_draw(actor=None, tournament_id=first.pk)
    desk_intentions.tournament_status_set(actor=None, tournament_id=first.pk, status="running")
    bust_services.entry_bust(actor=None, tournament_id=first.pk, entry_id=runner_up.pk)

    desk_intentions.tournament_status_set(actor=None, tournament_id=first.pk, status="finished")

    assert not Table.objects.filter(tournament=first, broken_at=None).exists()
    assert Seat.objects.filter(entry=winner).exists()  # where the winner sat stays on record
    services.table_add(actor=None, tournament_id=second.pk, number=1)  # free for the next


def test_a_cancelled_tournament_frees_its_seats_and_tables():
    event = tournament()
    add_tables(event, 2)
    field(event, 6)
    services.seating_draw(actor=None, tournament_id=event.pk)

    desk_intentions.tournament_status_set(actor=None, tournament_id=event.pk, status="cancelled")

    assert not Seat.objects.filter(table__tournament=event, entry__isnull=False).exists()
    assert not Table.objects.filter(tournament=event, broken_at=None).exists()
    assert seat_lookup(event.pk, "Player 0001") == []


def test_table_size_must_be_two_to_ten_and_accessible_seats_must_exist():
    event = tournament()
    with pytest.raises(Invalid) as error:
        services.table_add(actor=None, tournament_id=event.pk, number=5, seats=11)
    assert "seats" in error.value.fields
    with pytest.raises(Invalid) as error:
        services.table_add(actor=None, tournament_id=event.pk, number=5, accessible="12")
    assert "accessible" in error.value.fields
    assert not Table.objects.exists()


# --- TDA 7: the draw ------------------------------------------------------------------


def test_first_draw_uses_the_fewest_tables_those_that_break_last():
    """TDA 7: 20 players at 9-handed tables need 3 tables: 7, 7 and 6."""
    event = tournament()
    add_tables(event, 4)
    entries = field(event, 20)

    action, assignments = services.seating_draw(actor=None, tournament_id=event.pk)

    assert len(assignments) == 20
    assert counts(event)[4] == 0  # added last, breaks first: left free
    assert sorted(counts(event).values()) == [0, 6, 7, 7]
    assert len(action.seed) == 32
    assert {seat_of(e) for e in entries} == {(m.to_table, m.to_seat) for m in action.moves.all()}
    assert AuditEntry.objects.filter(action="seating.draw").count() == 1


def test_the_draw_starts_the_tournament_where_the_house_says_so():
    """Issue 16: a house that starts its events at the draw (a seating setting); by
    default the clock's start does it, and the draw leaves the event registering."""
    event, other = tournament(), tournament()
    for number, each in enumerate((event, other), start=1):
        add_tables(each, 1, first=number)  # a venue table serves one event at a time
        field(each, 4)
    services.settings_update(actor=None, tournament_id=event.pk, data={"draw_starts": True})

    services.seating_draw(actor=None, tournament_id=event.pk)
    services.seating_draw(actor=None, tournament_id=other.pk)

    event.refresh_from_db()
    other.refresh_from_db()
    assert (event.status, other.status) == ("running", "registering")
    assert AuditEntry.objects.filter(action="tournament.running", tournament_id=event.pk).exists()


def test_draw_replays_from_its_stored_seed():
    event = tournament()
    add_tables(event, 3)
    field(event, 20)
    views_before = table_views(event.pk)
    entries = sorted(e for e in Seat.objects.values_list("entry_id", flat=True) if e) or None
    assert entries is None

    action, assignments = services.seating_draw(actor=None, tournament_id=event.pk)

    used = [v for v in views_before if v.number in action.params["tables"]]
    order = [a.entry for a in assignments]
    replay = engine.draw_seats(used, order, random.Random(action.seed))
    assert replay == assignments


def test_td_may_open_more_tables_or_keep_seats_free():
    event = tournament()
    add_tables(event, 4)
    field(event, 18)

    services.seating_draw(actor=None, tournament_id=event.pk, keep_free=9)

    assert sorted(counts(event).values()) == [0, 6, 6, 6]


def test_draw_without_enough_seats_says_how_many_tables_are_missing():
    event = tournament()
    add_tables(event, 1)
    field(event, 12)

    with pytest.raises(Conflict, match="1 more table"):
        services.seating_draw(actor=None, tournament_id=event.pk)
    assert not Seat.objects.filter(entry__isnull=False).exists()
    assert not SeatingAction.objects.exists()


def test_players_needing_access_get_accessible_seats():
    """TDA 9."""
    event = tournament()
    add_tables(event, 2, accessible="1")
    field(event, 10)
    needs = register(event, "Anna Rollstuhl", accessible_seat=True).entry

    services.seating_draw(actor=None, tournament_id=event.pk)

    assert seat_of(needs)[1] == 1


def test_a_lone_table_of_two_may_deal_even_under_casino_17():
    """Casino §17 keeps a table of two from dealing only while other tables play."""
    event = tournament()
    add_tables(event, 1, seats=2)
    field(event, 2)
    services.seating_draw(actor=None, tournament_id=event.pk)
    assert engine.short_tables(table_views(event.pk), rule=engine.MINIMUM_CASINO) == []


# --- TDA 8-A, casino §12: late seats ----------------------------------------------------


def test_late_registration_is_seated_at_the_desk_at_the_shortest_table():
    event = tournament()
    add_tables(event, 2)
    field(event, 15)
    services.seating_draw(actor=None, tournament_id=event.pk)
    short = min(counts(event), key=counts(event).get)

    late = register(event, "Late Larry").entry

    assert seat_of(late)[0] == short
    assert SeatingAction.objects.filter(kind="late").count() == 1


def test_late_seats_are_drawn_among_every_shortest_table_reading_one_tables_seats(
    monkeypatch,
):
    """TDA 8-A with four tables of three: each late entry goes to a table short of the
    others, any of the shortest as likely, and its draw reads the seats of that table
    alone (issue 20: early in a 10,000-entry event most tables are the shortest)."""
    event = tournament()
    add_tables(event, 4, seats=9)
    field(event, 12)
    services.seating_draw(actor=None, tournament_id=event.pk, tables=4)
    read = []
    views = services.table_views
    monkeypatch.setattr(
        services, "table_views", lambda pk, only=None: read.append(only) or views(pk, only=only)
    )

    first_round = [seat_of(register(event, f"Late {n}").entry)[0] for n in range(4)]

    assert sorted(first_round) == [1, 2, 3, 4]  # water-filling: one each before a second
    assert set(counts(event).values()) == {4}
    assert [len(only) for only in read] == [1, 1, 1, 1]


def test_late_seat_stays_at_the_tables_in_play_until_they_are_full():
    """TDA 8-A: a spare table opens only when the tables in play have no open seat."""
    event = tournament()
    add_tables(event, 2, seats=2)
    field(event, 1)
    services.seating_draw(actor=None, tournament_id=event.pk)
    in_play = next(n for n, c in counts(event).items() if c)

    second = register(event, "Second").entry
    third = register(event, "Third").entry

    assert seat_of(second)[0] == in_play
    assert seat_of(third)[0] != in_play


def test_late_entry_without_open_seat_waits_unseated():
    event = tournament()
    add_tables(event, 1, seats=2)
    field(event, 2)
    services.seating_draw(actor=None, tournament_id=event.pk)

    late = register(event, "No Room").entry

    assert seat_of(late) is None
    with pytest.raises(Conflict, match="1 more table"):
        services.seating_draw(actor=None, tournament_id=event.pk)


def test_reentry_avoids_the_seat_its_player_busted_from():
    """Casino §12: 8 of 9 seats taken at one table; the busted seat and one other open."""
    event = tournament(reentry_allowed=True)
    add_tables(event, 1)
    entries = field(event, 8)
    services.seating_draw(actor=None, tournament_id=event.pk)
    first = entries[0]
    busted_seat = seat_of(first)
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=first.pk)

    again = desk_intentions.entry_register(
        actor=None, tournament_id=event.pk, player_id=first.player_id, reentry=True
    ).entry

    assert seat_of(again) not in (None, busted_seat)


def test_bust_frees_the_seat_and_undoing_it_returns_the_player():
    event = tournament()
    add_tables(event, 1)
    entries = field(event, 5)
    services.seating_draw(actor=None, tournament_id=event.pk)
    where = seat_of(entries[2])

    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=entries[2].pk)
    assert seat_of(entries[2]) is None
    bust_services.entry_bust_undo(actor=None, tournament_id=event.pk, entry_id=entries[2].pk)

    assert seat_of(entries[2]) == where


# --- TDA 7: moving a player -------------------------------------------------------------


def test_move_to_an_open_seat_and_refusals_change_nothing():
    event = tournament()
    add_tables(event, 2)
    entries = field(event, 4)
    services.seating_draw(actor=None, tournament_id=event.pk)
    a, b = entries[0], entries[1]
    b_seat = seat_of(b)
    free = next((t, s) for t in (1, 2) for s in range(1, 10) if occupant(event, t, s) is None)

    with pytest.raises(Conflict, match="is taken"):
        services.entry_move(
            actor=None, tournament_id=event.pk, entry_id=a.pk, to_table=b_seat[0], to_seat=b_seat[1]
        )
    with pytest.raises(NotFound):
        services.entry_move(
            actor=None, tournament_id=event.pk, entry_id=a.pk, to_table=77, to_seat=1
        )
    services.seat_set(
        actor=None, tournament_id=event.pk, number=free[0], seat=free[1], blocked=True
    )
    with pytest.raises(Conflict, match="blocked"):
        services.entry_move(
            actor=None, tournament_id=event.pk, entry_id=a.pk, to_table=free[0], to_seat=free[1]
        )
    services.seat_set(
        actor=None, tournament_id=event.pk, number=free[0], seat=free[1], blocked=False
    )

    services.entry_move(
        actor=None, tournament_id=event.pk, entry_id=a.pk, to_table=free[0], to_seat=free[1]
    )

    assert seat_of(a) == free
    assert seat_of(b) == b_seat
    assert Seat.objects.filter(entry__isnull=False).count() == 4


# --- TDA 11: balancing ----------------------------------------------------------------------


def _seat_exactly(event, layout: dict[int, list[int]]):
    """Seat entries by hand: layout maps table -> seat numbers (through moves)."""
    total = sum(len(s) for s in layout.values())
    entries = field(event, total)
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


def test_balance_moves_the_big_blind_next_to_the_worst_seat():
    """TDA 11-A: table 1 has 9, table 2 has 7 (seats 4 and 9 open, big blind next at 5)."""
    event = tournament()
    add_tables(event, 2)
    _seat_exactly(event, {1: list(range(1, 10)), 2: [1, 2, 3, 5, 6, 7, 8]})
    mover = occupant(event, 1, 4)

    plan, halted, _views = services.balance_state(event)
    assert [(m.from_table, m.to_table) for m in plan.moves] == [(1, 2)]
    assert plan.needs_big_blind == (1, 2)
    with pytest.raises(Invalid) as error:
        services.tables_balance(actor=None, tournament_id=event.pk, big_blind_next={1: 4})
    assert "big_blind_next.2" in error.value.fields

    services.tables_balance(actor=None, tournament_id=event.pk, big_blind_next={1: 4, 2: 5})

    assert occupant(event, 2, 4) == mover
    assert counts(event) == {1: 8, 2: 8}
    with pytest.raises(Conflict, match="balanced"):
        services.tables_balance(actor=None, tournament_id=event.pk, big_blind_next={1: 5, 2: 5})


def _table_state(event, number: int, *, button: int, small_blind: int, big_blind: int):
    """Last hand's button and blinds at a table, everyone seated there dealt in (what the
    hands services leave after a hand)."""
    table = Table.objects.get(tournament=event, number=number)
    dealt = list(Seat.objects.filter(table=table, entry__isnull=False).values_list("entry_id"))
    return TableState.objects.create(
        table=table,
        button=button,
        small_blind_seat=small_blind,
        big_blind=big_blind,
        hands_played=1,
        last_dealt=[entry for (entry,) in dealt],
    )


def test_balancing_reads_the_next_big_blind_from_the_table_state():
    """TDA 11-A, the same tables as above: the button and blinds of the tables' last
    hands (seating.selectors.balancing) name the player who moves, and the TD is asked
    only about a table whose blinds are not known."""
    event = tournament()
    add_tables(event, 2)
    _seat_exactly(event, {1: list(range(1, 10)), 2: [1, 2, 3, 5, 6, 7, 8]})
    mover = occupant(event, 1, 4)
    _table_state(event, 2, button=1, small_blind=2, big_blind=3)

    assert balancing(event.pk) == Balancing(
        big_blind_next={2: 5}, dead_small_blind={}, at_open_seat={2: True}
    )
    assert services.balance_state(event)[0].needs_big_blind == (1,)

    _table_state(event, 1, button=1, small_blind=2, big_blind=3)

    assert balancing(event.pk) == Balancing(
        big_blind_next={1: 4, 2: 5}, dead_small_blind={}, at_open_seat={1: False, 2: True}
    )
    plan, _halted, _views = services.balance_state(event)
    assert plan.needs_big_blind == ()
    assert [(m.entry, m.from_table, m.from_seat, m.to_table, m.to_seat) for m in plan.moves] == [
        (mover, 1, 4, 2, 4)
    ]
    services.tables_balance(actor=None, tournament_id=event.pk, big_blind_next={})
    assert occupant(event, 2, 4) == mover


def test_balancing_takes_the_next_big_blind_from_a_drawn_button_before_any_hand():
    """Issue 16: table 1's tablet drew the button (seat 2) and has dealt no hand yet: its
    first hand's blinds are seats 3 and 4 (IFP 2.2), so seat 4 is due the big blind and
    moves (TDA 11-A). Only table 2, which logged nothing, is asked for, with a guess."""
    event = tournament()
    add_tables(event, 2)
    _seat_exactly(event, {1: list(range(1, 10)), 2: [1, 2, 3, 5, 6, 7, 8]})
    mover = occupant(event, 1, 4)
    TableState.objects.create(table=Table.objects.get(tournament=event, number=1), button=2)

    assert balancing(event.pk) == Balancing(
        big_blind_next={1: 4}, dead_small_blind={}, at_open_seat={}
    )
    plan, _halted, _views = services.balance_state(event)
    assert plan.needs_big_blind == (2,)
    assert (plan.moves[0].entry, plan.big_blind_next, plan.guesses) == (mover, {1: 4}, {2: 2})


def test_balance_with_moves_that_went_stale_is_refused_and_writes_nothing():
    """Issue 16, TDA 11-A: the director was shown seat 1-4 (due the big blind) moving to
    table 2; that player busted before "Apply". The old moves are refused, nothing is
    written, and the refusal names the moves as they are now; those can be applied."""
    event = tournament()
    add_tables(event, 2)
    _seat_exactly(event, {1: list(range(1, 10)), 2: [1, 2, 3, 5, 6, 7]})
    _table_state(event, 1, button=1, small_blind=2, big_blind=3)
    _table_state(event, 2, button=1, small_blind=2, big_blind=3)
    shown = services.balance_state(event)[0].key
    assert shown == f"{occupant(event, 1, 4)}@1-4>2-4|1:4,2:5"
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=occupant(event, 1, 4))
    audited = AuditEntry.objects.count()

    with pytest.raises(Conflict) as refused:
        services.tables_balance(actor=None, tournament_id=event.pk, big_blind_next={}, plan=shown)

    now = f"{occupant(event, 1, 5)}@1-5>2-4|1:5,2:5"
    assert refused.value.code == "balance_plan_changed"
    assert refused.value.data["plan"] == now
    assert "nobody was moved" in refused.value.message
    assert counts(event) == {1: 8, 2: 6}
    assert AuditEntry.objects.count() == audited
    assert not SeatingAction.objects.filter(kind="balance").exists()

    mover = occupant(event, 1, 5)
    services.tables_balance(actor=None, tournament_id=event.pk, big_blind_next={}, plan=now)
    assert occupant(event, 2, 4) == mover
    assert counts(event) == {1: 7, 2: 7}


def test_short_table_halts_and_the_td_may_waive_it():
    """TDA 11-D: 8 against 5 halts the table of 5."""
    event = tournament()
    add_tables(event, 2)
    _seat_exactly(event, {1: list(range(1, 9)), 2: [1, 2, 3, 4, 5]})

    _plan, halted, _views = services.balance_state(event)
    assert halted == [(2, "TDA 11-D")]

    services.halt_waive(actor=None, tournament_id=event.pk, number=2)
    assert services.balance_state(event)[1] == []


# --- TDA 10: breaking -------------------------------------------------------------------


def test_break_sends_every_player_to_an_open_seat_and_keeps_tables_balanced():
    event = tournament()
    add_tables(event, 3)
    field(event, 18)
    services.seating_draw(actor=None, tournament_id=event.pk, tables=3)
    breaking = engine.table_to_break(table_views(event.pk))

    action = services.table_break(actor=None, tournament_id=event.pk, number=breaking.number)

    assert breaking.number not in counts(event)
    assert sorted(counts(event).values()) == [9, 9]
    assert action.moves.count() == 6
    assert all(m.reason == "TDA 10-B" for m in action.moves.all())


def test_break_without_room_is_refused():
    event = tournament()
    add_tables(event, 2)
    field(event, 16)
    services.seating_draw(actor=None, tournament_id=event.pk)
    with pytest.raises(Conflict, match="do not fit"):
        services.table_break(actor=None, tournament_id=event.pk, number=1)
    assert Table.objects.filter(broken_at__isnull=True).count() == 2


def _nine_to_break_two_seats_in_play():
    """Issue 16: nine players at table 5; tables 1 and 2 (ten seats) have one open seat
    each; table 6 stands empty."""
    event = tournament()
    add_tables(event, 1, first=6)
    add_tables(event, 1, first=5)
    add_tables(event, 2, seats=10)
    _seat_exactly(event, {1: list(range(1, 10)), 2: list(range(1, 10)), 5: list(range(1, 10))})
    return event


def test_break_that_opens_a_table_is_refused_unless_its_plan_was_confirmed():
    """Issue 16: the break opened the empty table 6 and moved all nine there unasked. Now
    it is refused, with the reason and nothing written, until that plan is confirmed."""
    event = _nine_to_break_two_seats_in_play()
    audited = AuditEntry.objects.count()

    with pytest.raises(Conflict) as refused:
        services.table_break(actor=None, tournament_id=event.pk, number=5)

    assert refused.value.code == "break_opens_table"
    assert "opens table 6" in refused.value.message and "(open seats: 2)" in refused.value.message
    assert counts(event) == {1: 9, 2: 9, 5: 9, 6: 0}
    assert AuditEntry.objects.count() == audited
    assert not SeatingAction.objects.filter(kind="break").exists()

    plan = services.break_preview(tournament_id=event.pk, number=5)
    assert (plan.opens, plan.key) == ((6,), "5:9>6+:9-9")
    action = services.table_break(actor=None, tournament_id=event.pk, number=5, plan=plan.key)

    assert counts(event) == {1: 9, 2: 9, 6: 9}
    assert action.params == {"table": 5, "opens": [6]}


def test_break_with_a_plan_that_went_stale_is_refused_and_writes_nothing():
    """A confirmation shown before a player busted at table 5 no longer says what the
    break does: the break is refused, and says the plan as it is now."""
    event = _nine_to_break_two_seats_in_play()
    plan = services.break_preview(tournament_id=event.pk, number=5).key
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=occupant(event, 5, 1))

    with pytest.raises(Conflict) as refused:
        services.table_break(actor=None, tournament_id=event.pk, number=5, plan=plan)

    assert refused.value.code == "break_plan_changed"
    assert refused.value.data["plan"] == "5:8>6+:8-8"
    assert counts(event) == {1: 9, 2: 9, 5: 8, 6: 0}


def test_break_that_fits_in_play_needs_no_plan_and_leaves_the_spare_table_empty():
    event = tournament()
    add_tables(event, 3)
    _seat_exactly(event, {1: [1, 2, 3, 4], 2: [1, 2, 3]})

    services.table_break(actor=None, tournament_id=event.pk, number=2)

    assert counts(event) == {1: 7, 3: 0}


def test_break_without_room_says_how_many_seats_there_are():
    event = tournament()
    add_tables(event, 2)
    _seat_exactly(event, {1: list(range(1, 9)), 2: list(range(1, 10))})

    with pytest.raises(Conflict) as refused:
        services.break_preview(tournament_id=event.pk, number=2)

    assert refused.value.code == "break_no_room"
    assert refused.value.message.startswith("The 9 players of table 2 do not fit")
    assert "(open seats in play: 1) and no empty table can open" in refused.value.message


def test_a_broken_table_refuses_every_change_and_writes_nothing():
    """Issue 15: the halt waiver, seat changes and removal of a broken table wrote their
    change and an audit entry (the removal a new broken_at)."""
    event = tournament()
    add_tables(event, 3)
    field(event, 12)
    services.seating_draw(actor=None, tournament_id=event.pk, tables=3)  # breaks into play
    broken = next(n for n, c in counts(event).items() if c)
    services.table_break(actor=None, tournament_id=event.pk, number=broken)
    table = Table.objects.filter(tournament=event, number=broken)
    before = (list(table.values()), list(Seat.objects.filter(table__in=table).values()))
    audited = AuditEntry.objects.count()
    changes = [
        (services.halt_waive, {}),
        (services.seat_set, {"seat": 1, "blocked": True}),
        (services.seat_set, {"seat": 2, "accessible": True}),
        (services.seat_set, {"seat": 3, "wait_for_button": True}),
        (services.table_remove, {}),
    ]

    for service, change in changes:
        with pytest.raises(Conflict) as refused:
            service(actor=None, tournament_id=event.pk, number=broken, **change)
        assert refused.value.code == "table_broken"

    assert (list(table.values()), list(Seat.objects.filter(table__in=table).values())) == before
    assert AuditEntry.objects.count() == audited


def test_undo_last_break_reopens_the_table():
    event = tournament()
    add_tables(event, 3)
    entries = field(event, 12)
    services.seating_draw(actor=None, tournament_id=event.pk, tables=3)  # breaks into play
    before = {e.pk: seat_of(e) for e in entries}
    broken = next(n for n, c in counts(event).items() if c)
    services.table_break(actor=None, tournament_id=event.pk, number=broken)

    undo_last(event)

    assert {e.pk: seat_of(e) for e in entries} == before
    assert Table.objects.get(tournament=event, number=broken).broken_at is None


def test_undo_names_the_action_shown_and_refuses_it_once_undone():
    """A second undo naming the same action must not reach the action before it: here a
    late seat, which would leave its player without a seat (issue 16)."""
    event = tournament()
    add_tables(event, 2)
    _seat_exactly(event, {1: [1, 2]})
    (late,) = field(event, 1, prefix="Late")  # seated at once (TDA 8-A)
    late_seat = seat_of(late)
    mover = occupant(event, 1, 1)
    move = services.entry_move(
        actor=None, tournament_id=event.pk, entry_id=mover, to_table=2, to_seat=5
    )
    services.seating_undo(actor=None, tournament_id=event.pk, action_id=move.pk)

    with pytest.raises(Conflict) as refused:
        services.seating_undo(actor=None, tournament_id=event.pk, action_id=move.pk)

    assert refused.value.code == "undo_done"
    assert late_seat is not None and seat_of(late) == late_seat
    assert occupant(event, 1, 1) == mover


def test_undo_refuses_an_action_that_is_no_longer_the_last():
    event = tournament()
    add_tables(event, 2)
    _seat_exactly(event, {1: [1, 2]})
    first = services.entry_move(
        actor=None, tournament_id=event.pk, entry_id=occupant(event, 1, 1), to_table=2, to_seat=5
    )
    services.entry_move(
        actor=None, tournament_id=event.pk, entry_id=occupant(event, 1, 2), to_table=2, to_seat=6
    )
    audited = AuditEntry.objects.count()

    with pytest.raises(Conflict) as refused:
        services.seating_undo(actor=None, tournament_id=event.pk, action_id=first.pk)

    assert refused.value.code == "undo_not_last"
    assert counts(event) == {1: 0, 2: 2}
    assert AuditEntry.objects.count() == audited


def test_undo_plan_says_where_each_player_goes():
    event = tournament()
    add_tables(event, 2)
    (anna,) = field(event, 1)
    services.seating_draw(actor=None, tournament_id=event.pk)
    (late,) = field(event, 1, prefix="Late")
    table, seat = seat_of(late)

    plan = undo_plan(event.pk)

    assert plan.action.kind == "late" and plan.refusal == ""
    assert [(m.entry, m.from_table, m.to_table, m.to_seat) for m in plan.moves] == [
        (late.pk, None, table, seat)
    ]
    assert plan.unseated == list(plan.moves)  # undone, the late entry has no seat
    assert undo_summary(plan.action, plan.moves) == (
        f"late seat of Late 0001 (#{late.number}) at table {table}, seat {seat}"
    )


def test_undo_plan_says_why_it_cannot_be_undone():
    event = tournament()
    add_tables(event, 2)
    entries = field(event, 4)
    services.seating_draw(actor=None, tournament_id=event.pk)
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=entries[0].pk)

    assert undo_plan(event.pk).refusal == "undo_stale"


def test_undo_of_breaking_an_empty_table_opens_it_again():
    event = tournament()
    add_tables(event, 2)
    _seat_exactly(event, {1: [1, 2]})
    action = services.table_break(actor=None, tournament_id=event.pk, number=2)

    assert undo_plan(event.pk).reopens == (2,)
    services.seating_undo(actor=None, tournament_id=event.pk, action_id=action.pk)

    assert Table.objects.get(tournament=event, number=2).broken_at is None


@pytest.mark.django_db(transaction=True)
def test_undo_is_one_transaction_of_its_own():
    """As a page or the API calls it: no transaction around it. On PostgreSQL its row
    locks need one (found by the simulated event)."""
    event = tournament()
    add_tables(event, 2)
    entries = field(event, 8)
    before = {e.pk: seat_of(e) for e in entries}
    services.seating_draw(actor=None, tournament_id=event.pk)

    undo_last(event)

    assert {e.pk: seat_of(e) for e in entries} == before


def test_undo_refused_once_a_moved_player_busted():
    event = tournament()
    add_tables(event, 2)
    entries = field(event, 6)
    services.seating_draw(actor=None, tournament_id=event.pk)
    bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=entries[0].pk)

    with pytest.raises(Conflict, match="cannot be undone"):
        undo_last(event)


def test_undo_refused_once_a_table_it_touched_dealt_a_hand_after_it():
    """A hand dealt with the new seating stays: the tables' states say when each last
    dealt. A hand before the move, or at a table the move did not touch, does not count."""
    event = tournament()
    add_tables(event, 3)
    _seat_exactly(event, {1: [1, 2], 2: [1, 2], 3: [1, 2]})
    mover = occupant(event, 1, 1)
    action = services.entry_move(
        actor=None, tournament_id=event.pk, entry_id=mover, to_table=2, to_seat=5
    )
    tables = {t.number: t for t in Table.objects.filter(tournament=event)}
    before, after = action.at - timedelta(seconds=1), action.at + timedelta(seconds=1)
    TableState.objects.create(table=tables[1], dealt_at=before)
    TableState.objects.create(table=tables[2], dealt_at=after)
    TableState.objects.create(table=tables[3], dealt_at=after)

    with pytest.raises(Conflict) as refused:
        undo_last(event)
    assert refused.value.code == "undo_after_hand"
    assert occupant(event, 2, 5) == mover

    TableState.objects.filter(table=tables[2]).update(dealt_at=before)
    undo_last(event)

    assert occupant(event, 1, 1) == mover


# --- RP-9: the final table ----------------------------------------------------------------


def test_the_final_table_draw_stops_the_player_clocks_of_the_tables_it_redraws():
    """TDA 29: a clock is on the player in the seat. After the final-table draw nobody
    from before sits there: it stopped (issue 16: it stayed on a now-empty seat)."""
    event = tournament()
    add_tables(event, 2)
    _seat_exactly(event, {1: [1, 2, 3], 2: [4, 5]})
    on_seat = clock_services.player_clock_call(
        actor=None, tournament_id=event.pk, table=2, seat=5, facing_bet=True
    )
    on_empty = clock_services.player_clock_call(
        actor=None, tournament_id=event.pk, table=1, seat=9, facing_bet=False
    )

    services.final_table_draw(actor=None, tournament_id=event.pk, number=1)

    assert not player_clocks_running(event).exists()
    on_seat.refresh_from_db()
    on_empty.refresh_from_db()
    assert on_seat.stopped_at is not None and on_empty.stopped_at is not None
    audited = AuditEntry.objects.get(action="seating.final").after
    assert sorted(audited["player_clocks_stopped"]) == [[1, 9], [2, 5]]


def test_a_move_stops_the_clock_of_the_seats_it_changes_only():
    event = tournament()
    add_tables(event, 2)
    _seat_exactly(event, {1: [1, 2], 2: [1, 2]})
    mover = occupant(event, 1, 1)
    moved = clock_services.player_clock_call(
        actor=None, tournament_id=event.pk, table=1, seat=1, facing_bet=True
    )
    other = clock_services.player_clock_call(
        actor=None, tournament_id=event.pk, table=2, seat=2, facing_bet=True
    )

    services.entry_move(actor=None, tournament_id=event.pk, entry_id=mover, to_table=2, to_seat=5)

    assert list(player_clocks_running(event)) == [other]
    moved.refresh_from_db()
    assert moved.stopped_at is not None


def test_final_table_combines_the_last_two_tables():
    event = tournament()
    add_tables(event, 2)
    entries = field(event, 9)
    services.seating_draw(actor=None, tournament_id=event.pk)

    action = services.final_table_draw(actor=None, tournament_id=event.pk)

    assert len(counts(event)) == 1
    assert list(counts(event).values()) == [9]
    assert all(seat_of(e)[0] == action.params["table"] for e in entries)


def test_final_table_refused_while_too_many_players_remain():
    event = tournament()
    add_tables(event, 2)
    field(event, 10)
    services.seating_draw(actor=None, tournament_id=event.pk)
    with pytest.raises(Conflict, match="more than the final table"):
        services.final_table_draw(actor=None, tournament_id=event.pk)


# --- Lookup ---------------------------------------------------------------------------


def test_lookup_by_name_forgives_german_spellings_and_by_entry_number():
    event = tournament()
    add_tables(event, 1)
    müller = register(event, "Jürgen Müller").entry
    field(event, 3)
    services.seating_draw(actor=None, tournament_id=event.pk)

    (found,) = seat_lookup(event.pk, "juergen mueller")
    assert (found["table"], found["seat"]) == seat_of(müller)
    assert seat_lookup(event.pk, "Muller")[0]["entry"] == müller.pk
    assert seat_lookup(event.pk, f"#{müller.number}")[0]["entry"] == müller.pk
    assert seat_lookup(event.pk, "   ") == []


def test_public_seating_lists_names_tables_and_seats_only():
    event = tournament()
    add_tables(event, 1)
    register(event, "Eva Privat", email="eva@example.com", phone="+43 1 234")
    services.seating_draw(actor=None, tournament_id=event.pk)

    (row,) = seating_public(event.pk)

    assert set(row) == {"entry", "number", "name", "table", "seat", "wait_for_button"}


def test_lookup_treats_percent_and_underscore_as_plain_characters():
    event = tournament()
    register(event, "Anna Nowak")
    assert seat_lookup(event.pk, "a_n") == []
    assert seat_lookup(event.pk, "%") == []
    assert [row["name"] for row in seat_lookup(event.pk, "nna no")] == ["Anna Nowak"]

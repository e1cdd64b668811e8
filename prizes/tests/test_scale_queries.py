"""Issue 20: every floor action costs the same number of queries at 30 entries as at 300
(and so at 10,000: bench/prize_pay.py). Each action runs once on an event of each size,
built alike but for its field, and the statements are counted.

Two events of each size: one in play (six players at each nine-seat table, the clock
running) and one in the money (twelve places paid, six players left, a bust-out a
hand but two busted in one hand, a place entered by hand). Re-entries, late seats and
the hands a table deals are another part's (their tests: simulation and hands).
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from clock import services as clock_services
from clock.engine import LEVEL, Step
from floorman.tests.worlds import world_fixtures
from hands.models import Elimination
from hands.services import busts as bust_services
from payouts.models import PlacesMode
from prizes import services as prize_services
from prizes.models import PlaceEntered
from prizes.selectors import results, results_for_entry
from seating import services as seating_services
from seating.models import Seat, Table
from seating.services import counts as count_services
from seating.services import desk as desk_intentions
from tournaments.models import Entry, EntryStatus, Player, Tournament, Transaction
from tournaments.selectors import chips_in_play
from tournaments.services.ledger import ledger_totals_recount
from tournaments.tests.factories import staff

SIZES = (30, 300)
WARM = 36  # the same action once before, on an event of its own: Django's caches filled
PAID = 12  # places paid at every size
LEFT = 6  # players left in the event in the money
PER_TABLE = 6  # of nine seats: room to break a table and to seat a late player
STACK = 20000


def _event(size: int, name: str, **fields) -> tuple[Tournament, list[Entry]]:
    event = Tournament.objects.create(
        name=f"{name} {size}",
        buy_in=10000,
        fee=1000,
        currency="EUR",
        starting_stack=STACK,
        table_size=9,
        start_at=timezone.now(),
        late_reg_until_level=10,
        **fields,
    )
    Tournament.objects.filter(pk=event.pk).update(status="running", current_level=1)
    event.refresh_from_db()
    people = Player.objects.bulk_create(
        Player(name=f"{name} {size} {n}", name_key=f"{name} {size} {n}".lower())
        for n in range(size)
    )
    entries = Entry.objects.bulk_create(
        Entry(tournament=event, player=person, number=n + 1, chips=STACK)
        for n, person in enumerate(people)
    )
    Transaction.objects.bulk_create(
        Transaction(
            tournament=event,
            entry=e,
            kind="buy_in",
            amount=11000,
            prize_share=10000,
            fee_share=1000,
        )
        for e in entries
    )
    ledger_totals_recount(tournament=event)  # the lines went in bulk, past ledger_line_add
    return event, entries


def _seated(event: Tournament, entries: list[Entry]) -> None:
    """Six at each nine-seat table, seats 1 to 6."""
    tables = Table.objects.bulk_create(
        Table(tournament=event, number=n + 1, seats=9, break_order=n + 1)
        for n in range(-(-len(entries) // PER_TABLE))
    )
    seats = iter(entries)
    Seat.objects.bulk_create(
        Seat(table=table, number=n, entry=next(seats, None) if n <= PER_TABLE else None)
        for table in tables
        for n in range(1, 10)
    )


def _clock(event: Tournament) -> None:
    steps = [Step(LEVEL, 20, 100 * n, 200 * n) for n in range(1, 11)]
    structure = clock_services.structure_create(
        actor=None, name=f"Scale {event.pk}", steps=steps, is_template=True, chip_set_id=None
    )
    clock_services.clock_structure_set(
        actor=None, tournament_id=event.pk, structure_id=structure.pk
    )
    clock_services.clock_act(actor=None, tournament_id=event.pk, action="start")


def _in_the_money(size: int) -> dict:
    """Twelve places paid; all but six busted, one hand each but the last two (one hand,
    the bigger stack placed higher); the six left play on with the chips."""
    event, entries = _event(size, "Money")
    _seated(event, entries)
    prize_services.payouts_update(
        actor=None,
        tournament_id=event.pk,
        settings={"places_mode": PlacesMode.FIXED, "places_fixed": PAID},
    )
    busts, keep = entries[:-LEFT], entries[-LEFT:]
    Entry.objects.filter(pk__in=[e.pk for e in busts]).update(status=EntryStatus.BUSTED, chips=0)
    Seat.objects.filter(entry__in=busts).update(entry=None)
    Elimination.objects.bulk_create(
        Elimination(
            tournament=event,
            entry=e,
            hand_key="h-last" if n >= len(busts) - 2 else f"e{e.pk}",
            stack=1000 + n,
        )
        for n, e in enumerate(busts)
    )
    Entry.objects.filter(pk__in=[e.pk for e in keep]).update(chips=0)
    in_play = chips_in_play(event)
    for n, entry in enumerate(keep):
        share = in_play // LEFT + (in_play % LEFT if n == 0 else 0)
        Entry.objects.filter(pk=entry.pk).update(chips=share)
    # A place typed in by hand for a player still playing.
    PlaceEntered.objects.create(tournament=event, entry=keep[-1], place=1)
    return {"event": event, "keep": keep, "busts": busts}


def _build() -> dict:
    world = {"director": staff("director"), "cashier": staff("cashier")}
    for size in (WARM, *SIZES):
        event, entries = _event(size, "Play")
        _seated(event, entries)
        _clock(event)
        world[size] = {"play": event, "players": entries, "money": _in_the_money(size)}
    return world


world_made, world = world_fixtures(_build)


def _queries(call) -> int:
    with CaptureQueriesContext(connection) as captured:
        call()
    return len(captured.captured_queries)


def _payable(money: dict) -> list[int]:
    return [row.entry_id for row in results(money["event"]).rows if row.payable]


def _pay(world, size):
    money = world[size]["money"]
    entry_id = _payable(money)[-1]
    return lambda: prize_services.prize_pay(
        actor=world["cashier"], tournament_id=money["event"].pk, entry_id=entry_id
    )


def _pay_undo(world, size):
    money = world[size]["money"]
    entry_id = _payable(money)[-1]
    prize_services.prize_pay(
        actor=world["cashier"], tournament_id=money["event"].pk, entry_id=entry_id
    )
    return lambda: prize_services.prize_pay_undo(
        actor=world["cashier"], tournament_id=money["event"].pk, entry_id=entry_id
    )


def _pay_tied(world, size):
    """The two out in the last hand with the same stack share their places (RP-8 A)."""
    money = world[size]["money"]
    last = money["busts"][-2:]
    Elimination.objects.filter(entry__in=last).update(stack=500)
    return lambda: prize_services.prize_pay(
        actor=world["cashier"], tournament_id=money["event"].pk, entry_id=last[0].pk
    )


def _place_enter(world, size):
    money = world[size]["money"]
    return lambda: prize_services.place_enter(
        actor=world["director"],
        tournament_id=money["event"].pk,
        entry_id=money["keep"][0].pk,
        place=2,
    )


def _deal(world, size):
    money = world[size]["money"]
    keep = money["keep"]
    PlaceEntered.objects.filter(tournament=money["event"]).delete()
    chips = [Entry.objects.get(pk=e.pk).chips for e in keep]
    figures = prize_services.deal_calculate(
        tournament_id=money["event"].pk, method="chip_chop", chips=chips
    )
    players = [
        {"entry": e.pk, "chips": row["chips"], "amount": row["amount"]}
        for e, row in zip(keep, figures["players"], strict=True)
    ]
    return lambda: prize_services.deal_record(
        actor=world["director"],
        tournament_id=money["event"].pk,
        method="chip_chop",
        players=players,
    )


def _clock_act(action):
    def prepare(world, size):
        event = world[size]["play"]
        if action == "resume":
            clock_services.clock_act(actor=None, tournament_id=event.pk, action="pause")
        return lambda: clock_services.clock_act(
            actor=world["director"], tournament_id=event.pk, action=action
        )

    return prepare


def _table_add(world, size):
    event = world[size]["play"]
    return lambda: seating_services.table_add(
        actor=world["director"], tournament_id=event.pk, number=900 + size
    )


def _table_break(world, size):
    event = world[size]["play"]
    return lambda: seating_services.table_break(
        actor=world["director"], tournament_id=event.pk, number=1
    )


def _balance(world, size):
    """Two players out at table 1: four there, six elsewhere; one moves."""
    event = world[size]["play"]
    Seat.objects.filter(table__tournament=event, table__number=1, number__gte=5).update(entry=None)
    seats_due = {n: 1 for n in range(1, size // PER_TABLE + 1)}
    return lambda: seating_services.tables_balance(
        actor=world["director"], tournament_id=event.pk, big_blind_next=seats_due
    )


def _move(world, size):
    event, players = world[size]["play"], world[size]["players"]
    return lambda: seating_services.entry_move(
        actor=world["director"],
        tournament_id=event.pk,
        entry_id=players[0].pk,
        to_table=2,
        to_seat=9,
    )


def _bust(world, size):
    event, players = world[size]["play"], world[size]["players"]
    return lambda: bust_services.entry_bust(
        actor=world["director"], tournament_id=event.pk, entry_id=players[0].pk
    )


def _bust_undo(world, size):
    event, players = world[size]["play"], world[size]["players"]
    bust_services.entry_bust(
        actor=world["director"], tournament_id=event.pk, entry_id=players[0].pk
    )
    return lambda: bust_services.entry_bust_undo(
        actor=world["director"], tournament_id=event.pk, entry_id=players[0].pk
    )


def _register(world, size):
    event = world[size]["play"]
    return lambda: desk_intentions.entry_register(
        actor=world["director"], tournament_id=event.pk, player_data={"name": "Late Arrival"}
    )


def _table_counts(world, size):
    event = world[size]["play"]
    return lambda: count_services.table_counts_record(
        actor=world["director"],
        tournament_id=event.pk,
        number=2,
        counts={seat: STACK + 100 * seat for seat in range(1, PER_TABLE + 1)},
    )


ACTIONS = {
    "pay a prize": _pay,
    "pay a shared place": _pay_tied,
    "undo a payment": _pay_undo,
    "enter a place": _place_enter,
    "record a deal": _deal,
    "pause the clock": _clock_act("pause"),
    "resume the clock": _clock_act("resume"),
    "next level": _clock_act("next"),
    "add a table": _table_add,
    "break a table": _table_break,
    "balance the tables": _balance,
    "move a player": _move,
    "bust a player": _bust,
    "undo a bust": _bust_undo,
    "register at the desk": _register,
    "a table's chip counts": _table_counts,
}


@pytest.mark.parametrize("action", ACTIONS)
def test_a_floor_action_costs_the_same_queries_at_30_and_300_entries(world, action):
    ACTIONS[action](world, WARM)()
    counts = {size: _queries(ACTIONS[action](world, size)) for size in SIZES}
    assert counts[SIZES[0]] == counts[SIZES[1]], counts


def test_the_line_paid_is_the_line_of_the_results(world):
    """results_for_entry gives each entry the very line of the whole results: place,
    range, prize, conflict, payment; with places entered by hand, a shared place, a
    place claimed twice and one paid."""
    money = world[SIZES[1]]["money"]
    event = money["event"]
    last = money["busts"][-2:]
    Elimination.objects.filter(entry__in=last).update(stack=500)  # they share
    PlaceEntered.objects.create(tournament=event, entry=money["keep"][0], place=1)  # twice
    PlaceEntered.objects.create(tournament=event, entry=money["busts"][-5], place=9)
    prize_services.prize_pay(
        actor=world["cashier"], tournament_id=event.pk, entry_id=money["busts"][-4].pk
    )
    whole = results(event, entries=False)
    assert whole.conflicts  # the place claimed twice
    # The lines near the money, where they meet, and every 25th of the others.
    for row in [r for n, r in enumerate(whole.rows) if r.place <= 2 * PAID or n % 25 == 0]:
        found = results_for_entry(event, row.entry_id)
        assert found.rows == [row]
        assert found.playing == whole.playing
    for entry in money["keep"][1:-1]:
        assert results_for_entry(event, entry.pk).rows == []


def test_the_winner_s_line_is_the_line_of_the_results(world):
    """Every other player out and no more to come: the one left has place 1."""
    money = world[SIZES[0]]["money"]
    event = money["event"]
    PlaceEntered.objects.filter(tournament=event).delete()
    Tournament.objects.filter(pk=event.pk).update(late_reg_until_level=0)
    for entry in money["keep"][1:]:
        bust_services.entry_bust(actor=world["director"], tournament_id=event.pk, entry_id=entry.pk)
    event.refresh_from_db()
    whole = results(event, entries=False)
    winner = money["keep"][0].pk
    assert [row.entry_id for row in whole.rows[:1]] == [winner]
    assert results_for_entry(event, winner).rows == [whole.for_entry(winner)]
    assert results_for_entry(event, None).playing == whole.playing == 0

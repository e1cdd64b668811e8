"""The simulated event (`manage.py simulate`): a short run to the end, and the
invariant checks shown to fail on a state broken on purpose."""

import random
from io import StringIO

import pytest
from django.core.management import call_command
from django.db.models import F
from hypothesis import given
from hypothesis import strategies as st

from hands.models import Elimination, Knockout, KnockoutSource
from hands.services import busts as bust_services
from prizes.models import Payment
from prizes.selectors import results
from seating import services as seating
from seating.models import Seat
from seating.selectors import table_views
from simulation.config import Config
from simulation.dealer import play_hand
from simulation.invariants import (
    SimulationError,
    chips_check,
    ledger_check,
    over_check,
    places_check,
    seats_check,
    tables_check,
)
from simulation.run import Simulation, simulate
from tournaments.models import (
    Entry,
    EntryStatus,
    Tournament,
    TournamentStatus,
    Transaction,
    TransactionKind,
)
from tournaments.selectors import tournament_totals
from tournaments.services.ledger import ledger_line_add

# --- The dealer ------------------------------------------------------------------------


@given(
    stacks=st.dictionaries(st.integers(1, 10), st.integers(1, 10**9), min_size=2, max_size=10),
    seed=st.integers(0, 2**32),
    chance=st.floats(0, 1),
    most=st.integers(0, 9),
)
def test_a_simulated_hand_conserves_chips_and_leaves_a_winner(stacks, seed, chance, most):
    outcome = play_hand(stacks, random.Random(seed), bust_chance=chance, max_busts=most)

    assert sum(outcome.stacks.values()) == sum(stacks.values())
    assert set(outcome.busts) | set(outcome.stacks) == set(stacks)
    assert not set(outcome.busts) & set(outcome.stacks)
    assert len(outcome.busts) <= min(most, len(stacks) - 1)
    assert all(chips >= 1 for chips in outcome.stacks.values())
    assert outcome.winner in outcome.stacks


def test_a_simulated_hand_needs_two_players():
    with pytest.raises(ValueError):
        play_hand({1: 100}, random.Random(1), bust_chance=1, max_busts=1)


# --- A whole event ---------------------------------------------------------------------


@pytest.mark.django_db
def test_simulate_plays_an_event_to_a_winner_and_pays_every_place():
    out = StringIO()

    call_command("simulate", entries=40, seed=7, stdout=out)

    text = out.getvalue()
    assert "winner" in text and "hand_finish (bust-out)" in text
    event = Tournament.objects.get()
    assert event.status == TournamentStatus.FINISHED
    assert event.entries.count() == 40
    assert event.entries.filter(reentry_number__gt=1).exists()
    assert event.alternates.filter(entry__isnull=False).exists()
    assert event.entries.filter(status=EntryStatus.ACTIVE).count() == 1
    found = results(event)
    assert [row.place for row in found.rows][:1] == [1]
    assert sorted({p for row in found.rows for p in range(row.shared[0], row.shared[1] + 1)}) == (
        list(range(1, 41))
    )
    paid = [row for row in found.rows if row.prize]
    assert len(paid) >= found.table.places_paid > 0
    assert all(row.paid == row.prize for row in paid)
    pool = tournament_totals(event).prize_pool
    assert pool.total == 40 * event.buy_in
    assert pool.paid_out == pool.total and pool.remaining == 0
    assert Payment.objects.filter(entry__tournament=event).count() == len(paid)


@pytest.mark.django_db
def test_simulate_with_a_deal_pays_the_deal_and_the_places_before_it():
    report = simulate(Config(entries=30, seed=3, deal=True, deal_chance=1.0))

    event = Tournament.objects.get()
    assert report.deal is not None
    assert hasattr(event, "deal")
    assert event.status == TournamentStatus.FINISHED
    pool = tournament_totals(event).prize_pool
    assert report.paid_out == pool.total == pool.paid_out == 30 * event.buy_in
    assert report.h4h_rounds and report.final_table and report.tables_broken > 0


@pytest.mark.django_db
def test_the_same_seed_plays_the_same_event():
    first = simulate(Config(entries=14, seed=5))
    second = simulate(Config(entries=14, seed=5))

    def played(event):
        return list(
            Elimination.objects.filter(tournament=event)
            .order_by("pk")
            .values_list("entry__number", "stack", "hand_key")
        )

    one, two = Tournament.objects.order_by("pk")
    assert (first.hands, first.busts, first.moves, first.winner) == (
        second.hands,
        second.busts,
        second.moves,
        second.winner,
    )
    assert [(n, s) for n, s, _key in played(one)] == [(n, s) for n, s, _key in played(two)]


# --- The invariants, against a state broken on purpose --------------------------------


@pytest.fixture
def drawn():
    """26 places sold out (one alternate waiting), drawn at three tables, running."""
    sim = Simulation(Config(entries=30, seed=1))
    sim.open_registration()
    sim.start()
    return sim.tournament


def all_checks(event):
    chips_check(event, step="test")
    seats_check(event, step="test")
    tables_check(event, step="test")
    places_check(event, step="test")
    ledger_check(event, step="test")


@pytest.mark.django_db
def test_the_checks_pass_on_the_drawn_field(drawn):
    all_checks(drawn)


@pytest.mark.django_db
def test_an_entry_with_a_chip_too_many_breaks_the_chip_invariant(drawn):
    entry = drawn.entries.filter(status=EntryStatus.ACTIVE).first()
    Entry.objects.filter(pk=entry.pk).update(chips=F("chips") + 1)

    with pytest.raises(SimulationError, match="hold .* chips but .* are in play") as broken:
        chips_check(drawn, step="round 3: hands")

    assert broken.value.step == "round 3: hands"


@pytest.mark.django_db
def test_an_active_entry_without_a_seat_breaks_the_seat_invariant(drawn):
    seat = Seat.objects.filter(entry__tournament=drawn).order_by("pk").first()
    Seat.objects.filter(pk=seat.pk).update(entry=None)

    with pytest.raises(SimulationError, match="1 active entries have no seat"):
        seats_check(drawn, step="test")


@pytest.mark.django_db
def test_a_busted_entry_left_in_its_seat_breaks_the_seat_invariant(drawn):
    Entry.objects.filter(pk=drawn.entries.first().pk).update(status=EntryStatus.BUSTED)

    with pytest.raises(SimulationError, match="no longer in play still hold a seat"):
        seats_check(drawn, step="test")


@pytest.mark.django_db
def test_a_player_moved_to_an_empty_table_breaks_the_balance_invariant(drawn):
    views = table_views(drawn.pk)
    spare = next(v for v in views if not v.players)
    mover = next(iter(next(v for v in views if v.players).occupied.values()))
    seating.entry_move(
        actor=None, tournament_id=drawn.pk, entry_id=mover, to_table=spare.number, to_seat=1
    )

    with pytest.raises(SimulationError, match="tables differ by 8 players"):
        tables_check(drawn, step="test")


@pytest.mark.django_db
def test_a_bust_without_its_place_breaks_the_places_invariant(drawn):
    entry = drawn.entries.filter(status=EntryStatus.ACTIVE).first()
    bust_services.entry_bust(actor=None, tournament_id=drawn.pk, entry_id=entry.pk)
    places_check(drawn, step="test")
    Elimination.objects.filter(entry=entry).delete()

    with pytest.raises(SimulationError, match="1 busted entries have no place"):
        places_check(drawn, step="test")


@pytest.mark.django_db
def test_money_outside_the_buy_ins_breaks_the_ledger_invariant(drawn):
    ledger_line_add(
        tournament=drawn, kind=TransactionKind.BUY_IN, amount=500, prize_share=500, fee_share=0
    )

    with pytest.raises(SimulationError, match="27 buy-ins for 26 entries"):
        ledger_check(drawn, step="test")


@pytest.mark.django_db
def test_a_line_written_past_the_ledger_s_writer_breaks_the_ledger_invariant(drawn):
    Transaction.objects.create(  # the running totals never hear of it
        tournament=drawn, kind=TransactionKind.BUY_IN, amount=500, prize_share=500, fee_share=0
    )

    with pytest.raises(SimulationError, match="the running totals differ from the ledger"):
        ledger_check(drawn, step="test")


@pytest.mark.django_db
def test_an_unpaid_prize_breaks_the_final_ledger_check(drawn):
    with pytest.raises(SimulationError, match="the prizes due add up to 0"):
        ledger_check(drawn, step="the payments", finished=True)


@pytest.mark.django_db
def test_an_event_over_with_a_table_still_open_breaks_the_end_check(drawn):
    Tournament.objects.filter(pk=drawn.pk).update(status=TournamentStatus.FINISHED)

    with pytest.raises(SimulationError, match="the event is over but tables .* are open"):
        over_check(drawn, step="the end")


# --- A bounty event (issue 18) -----------------------------------------------------------


@pytest.mark.django_db
def test_a_progressive_knockout_pays_every_bounty_taken_in():
    """Every euro of bounty money the buy-ins took in is paid at the cage: half of each
    bounty to its eliminator, the rest grown on heads until the winner collects their own."""
    out = StringIO()

    call_command("simulate", entries=30, seed=11, bounty="pko", stdout=out)

    event = Tournament.objects.get()
    lines = Transaction.objects.filter(tournament=event)
    taken_in = sum(line.bounty_share for line in lines.exclude(kind=TransactionKind.BOUNTY))
    paid = -sum(line.amount for line in lines.filter(kind=TransactionKind.BOUNTY))
    own = Knockout.objects.get(tournament=event, source=KnockoutSource.WINNER)
    winner = own.winner
    assert taken_in == event.bounty * event.entries.exclude(status="cancelled").count()
    assert paid == taken_in
    assert own.busted == winner and own.cash > event.bounty  # grown by the knockouts
    assert winner.status == EntryStatus.ACTIVE
    assert "bounties: in" in out.getvalue()


def test_a_bounty_event_is_not_simulated_with_a_deal():
    with pytest.raises(ValueError):
        Config(entries=20, deal=True, bounty_format="pko")

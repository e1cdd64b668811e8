"""Prize money through the services: the payout table follows the pool, locks, is edited;
results split ties (RP-8 A); the cashier pays once; deals (casino §6)."""

import pytest

from floorman.errors import Conflict, Invalid
from hands.services import busts as bust_services
from payouts.models import PayoutLock
from payouts.selectors import payout_table
from prizes import services as prize_services
from prizes.models import Payment
from prizes.selectors import results, results_public
from seating.services import desk as desk_intentions
from tournaments.models import Transaction, TransactionKind
from tournaments.selectors import tournament_totals
from tournaments.tests.factories import (
    bust_in_order,
    field,
    register,
    registration_closed,
    staff,
    tournament,
)

pytestmark = pytest.mark.django_db


# --- The table follows the pool --------------------------------------------------------------


def test_table_follows_the_pool_while_registration_is_open():
    event = tournament(buy_in=10000, fee=1000)
    field(event, 20)
    first = payout_table(event)
    assert first.places_paid == 3  # 15 % of 20, rounded up
    assert sum(first.amounts) == 200000
    assert not first.locked

    field_more = [register(event, f"Late {n}").entry for n in range(10)]
    assert len(field_more) == 10
    second = payout_table(event)
    assert sum(second.amounts) == 300000
    assert second.places_paid == 5  # 15 % of 30, rounded up


def test_table_holds_once_registration_has_closed():
    event = tournament(buy_in=10000, fee=1000)
    field(event, 20)
    registration_closed(event)
    table = payout_table(event)
    assert table.locked and table.locked_reason == "registration_closed"
    with pytest.raises(Conflict) as refused:
        prize_services.payouts_update(
            actor=staff("director"), tournament_id=event.pk, settings={"unit": 500}
        )
    assert refused.value.code == "payouts_locked"


def test_director_unlocks_and_changes_the_settings():
    event = tournament(buy_in=10000, fee=1000)
    field(event, 20)
    registration_closed(event)
    director = staff("director")
    prize_services.payouts_update(actor=director, tournament_id=event.pk, locked=False)
    table = prize_services.payouts_update(
        actor=director,
        tournament_id=event.pk,
        settings={"places_mode": "fixed", "places_fixed": 4},
    )
    assert table.places_paid == 4 and not table.locked


def test_typed_lines_must_add_up_to_the_pool():
    event = tournament(buy_in=10000, fee=0)
    field(event, 10)  # pool 100,000
    director = staff("director")
    with pytest.raises(Invalid) as refused:
        prize_services.payouts_update(
            actor=director, tournament_id=event.pk, lines=[60000, 30000, 5000]
        )
    assert "€50.00 too little" in refused.value.fields["lines"][0]

    table = prize_services.payouts_update(
        actor=director, tournament_id=event.pk, lines=[60000, 30000, 10000]
    )
    assert table.amounts == (60000, 30000, 10000)
    assert table.locked and table.locked_reason == "edited"
    register(event, "Late")  # the typed table no longer follows the pool
    table = payout_table(event)
    assert table.amounts == (60000, 30000, 10000)
    assert not table.balanced and table.difference == -10000


def test_house_table_of_shares():
    event = tournament(buy_in=10000, fee=0)
    field(event, 10)
    table = prize_services.payouts_update(
        actor=staff("director"), tournament_id=event.pk, settings={"shares": [5000, 3000, 2000]}
    )
    assert table.amounts == (50000, 30000, 20000)


# --- Results and payments ------------------------------------------------------------------


def test_ties_split_the_prizes_of_the_places_they_share():
    """RP-8 A: players out in the same hand-for-hand hand at different tables share."""
    from hands.models import Elimination

    event = tournament(buy_in=10000, fee=0)
    entries = field(event, 10)
    registration_closed(event)
    director = staff("director")
    prize_services.payouts_update(
        actor=director, tournament_id=event.pk, lines=[50001, 30000, 19999]
    )
    bust_in_order(event, *entries[:6])  # places 10 to 5
    bust_in_order(event, entries[6], entries[7])
    # Out in the same round at two tables: they share places 4 and 3.
    Elimination.objects.filter(entry__in=entries[6:8]).update(hand_key="r7")
    found = results(event)
    shared = [row for row in found.rows if row.place == 3]
    assert [row.shared for row in shared] == [(3, 4), (3, 4)]
    # Place 3 pays 199.99 and place 4 nothing: one cent does not split, the lower
    # entry gets it.
    assert [row.prize for row in shared] == [10000, 9999]


def test_cashier_pays_once_and_the_ledger_reconciles():
    event = tournament(buy_in=10000, fee=1000)
    entries = field(event, 10)
    registration_closed(event)
    bust_in_order(event, *entries[:9])  # places 10 to 2; 15 % of 10 pays two
    cashier = staff("cashier")
    second = entries[8]
    found = results(event)
    due = found.for_entry(second.pk).prize
    assert due > 0

    prize_services.prize_pay(actor=cashier, tournament_id=event.pk, entry_id=second.pk)
    with pytest.raises(Conflict) as refused:
        prize_services.prize_pay(actor=cashier, tournament_id=event.pk, entry_id=second.pk)
    assert refused.value.code == "already_paid"

    line = Transaction.objects.get(kind=TransactionKind.PAYOUT)
    assert (line.amount, line.prize_share, line.entry_id) == (-due, -due, second.pk)
    pool = tournament_totals(event).prize_pool
    assert (pool.paid_out, pool.remaining) == (due, 100000 - due)
    # Money has left by this table: it is stored and no longer changes.
    assert payout_table(event).structure.lock == PayoutLock.LOCKED


def test_screens_are_told_of_the_prize_paid_with_its_line_only(
    monkeypatch, django_capture_on_commit_callbacks
):
    event = tournament(buy_in=10000, fee=1000)
    entries = field(event, 10)
    registration_closed(event)
    bust_in_order(event, *entries[:9])
    sent = []
    monkeypatch.setattr("floorman.live._send", lambda _id, message: sent.append(message))

    with django_capture_on_commit_callbacks(execute=True):
        prize_services.prize_pay(
            actor=staff("cashier"), tournament_id=event.pk, entry_id=entries[8].pk
        )

    (published,) = [m["data"] for m in sent if m["type"] == "results.updated"]
    event.refresh_from_db()  # the last bust finished it (issue 16)
    page = results_public(event, results(event))
    (line,) = [r for r in page["results"] if r["entry"]["id"] == entries[8].pk]
    assert line["paid"] is True
    # Only the line that changed travels, not the whole list (megabytes at 10,000 entries).
    assert published["changed"] == [line]
    assert {k: v for k, v in published.items() if k != "changed"} == {
        k: v for k, v in page.items() if k != "results"
    }


def test_out_of_the_money_is_not_paid():
    event = tournament(buy_in=10000, fee=0)
    entries = field(event, 10)
    registration_closed(event)
    bust_in_order(event, entries[0])
    with pytest.raises(Conflict) as refused:
        prize_services.prize_pay(
            actor=staff("cashier"), tournament_id=event.pk, entry_id=entries[0].pk
        )
    assert refused.value.code == "not_in_the_money"


def test_payment_taken_back_reverses_the_line():
    event = tournament(buy_in=10000, fee=0)
    entries = field(event, 10)
    registration_closed(event)
    bust_in_order(event, *entries[:9])
    cashier = staff("cashier")
    prize_services.prize_pay(actor=cashier, tournament_id=event.pk, entry_id=entries[8].pk)
    prize_services.prize_pay_undo(actor=cashier, tournament_id=event.pk, entry_id=entries[8].pk)
    assert not Payment.objects.exists()
    assert tournament_totals(event).prize_pool.paid_out == 0
    prize_services.prize_pay(actor=cashier, tournament_id=event.pk, entry_id=entries[8].pk)
    assert Payment.objects.count() == 1


# --- Deals ---------------------------------------------------------------------------------


def test_deal_figures_for_the_players_left():
    event = tournament(buy_in=10000, fee=0, starting_stack=1000)
    entries = field(event, 10)
    registration_closed(event)
    bust_in_order(event, *entries[:7])
    figures = prize_services.deal_calculate(
        tournament_id=event.pk, method="icm", chips=[5000, 3000, 2000]
    )
    table = payout_table(event)
    assert sum(p["amount"] for p in figures["players"]) == sum(table.amounts[:3])
    assert figures["players"][0]["amount"] > figures["players"][1]["amount"]


@pytest.mark.parametrize("method", ["icm", "chip_chop", "save"])
def test_deal_figures_are_whole_euros_when_the_house_unit_is_one_euro(method):
    """Issue 16: the house rounds its payouts to €1 (unit 100 cents, the default); a
    deal's figures are whole euros too, and still add up exactly to what is shared."""
    event = tournament(buy_in=10000, fee=0, starting_stack=1000)
    entries = field(event, 10)
    registration_closed(event)
    bust_in_order(event, *entries[:7])
    assert payout_table(event).structure.unit == 100

    figures = prize_services.deal_calculate(
        tournament_id=event.pk,
        method=method,
        chips=[4699, 3101, 2200],
        save=1000 if method == "save" else None,
    )

    amounts = [p["amount"] for p in figures["players"]]
    assert all(amount % 100 == 0 for amount in amounts), amounts
    assert sum(amounts) + figures["left_to_play"] == sum(figures["prizes"])


def test_deal_figures_follow_the_house_unit_and_keep_the_odd_cents():
    """A €5 house unit: figures in fives. Prizes typed to the cent (odd 7 cents) keep
    their total: what is below one unit goes to the biggest stack."""
    event = tournament(buy_in=10000, fee=0, starting_stack=1000)
    entries = field(event, 10)
    prize_services.payouts_update(
        actor=staff("director"), tournament_id=event.pk, settings={"unit": 500}
    )
    registration_closed(event)
    bust_in_order(event, *entries[:7])

    figures = prize_services.deal_calculate(
        tournament_id=event.pk,
        method="icm",
        chips=[4700, 3100, 2200],
        prizes=[50003, 30002, 20002],
    )

    amounts = [p["amount"] for p in figures["players"]]
    assert sum(amounts) == 100007
    assert [amount % 500 for amount in amounts] == [7, 0, 0]


def test_deal_chips_must_match_the_chips_in_play():
    event = tournament(buy_in=10000, fee=0, starting_stack=1000)
    entries = field(event, 10)
    registration_closed(event)
    bust_in_order(event, *entries[:7])
    with pytest.raises(Invalid) as refused:
        prize_services.deal_calculate(
            tournament_id=event.pk, method="icm", chips=[5000, 3000, 1000]
        )
    message = refused.value.fields["chips"][0]
    assert "9,000" in message and "10,000" in message


def test_recorded_deal_ends_the_tournament():
    event = tournament(buy_in=10000, fee=0, starting_stack=1000)
    entries = field(event, 10)
    registration_closed(event)
    bust_in_order(event, *entries[:7])
    left = entries[7:]
    prizes = payout_table(event).amounts[:3]
    figures = prize_services.deal_calculate(
        tournament_id=event.pk, method="chip_chop", chips=[5000, 3000, 2000]
    )
    players = [
        {"entry": e.pk, "chips": p["chips"], "amount": p["amount"]}
        for e, p in zip(left, figures["players"], strict=True)
    ]
    prize_services.deal_record(
        actor=staff("director"), tournament_id=event.pk, method="chip_chop", players=players
    )
    event.refresh_from_db()
    assert event.status == "finished"
    found = results(event)
    top = found.rows[:3]
    assert [row.place for row in top] == [1, 2, 3]
    assert sum(row.prize for row in top) == sum(prizes)


def test_no_reentry_once_in_the_money():
    """Casino §12: the re-entry period ends at the latest when the money is reached."""
    event = tournament(buy_in=10000, fee=0, reentry_allowed=True, late_reg_until_level=9)
    entries = [register(event, f"P{n}", birth_year=1980).entry for n in range(10)]
    type(event).objects.filter(pk=event.pk).update(status="running", current_level=2)
    bust_in_order(event, *entries[:7])  # three left, two are paid: re-entries still welcome
    register(event, "P0", birth_year=1980, reentry=True)
    bust_in_order(event, entries[7], entries[8])  # two of eleven left: 15 % of 11 pays two
    with pytest.raises(Conflict) as refused:
        register(event, "P1", birth_year=1980, reentry=True)
    assert refused.value.code == "reentry_in_the_money"


def test_paid_bust_cannot_be_undone_and_paid_event_not_cancelled():
    event = tournament(buy_in=10000, fee=0)
    entries = field(event, 10)
    director = staff("director")
    prize_services.payouts_update(
        actor=director, tournament_id=event.pk, lines=[50000, 30000, 20000]
    )
    registration_closed(event)
    bust_in_order(event, *entries[:8])  # two play on: the event runs
    prize_services.prize_pay(actor=staff("cashier"), tournament_id=event.pk, entry_id=entries[7].pk)
    with pytest.raises(Conflict) as refused:
        bust_services.entry_bust_undo(
            actor=director, tournament_id=event.pk, entry_id=entries[7].pk
        )
    assert refused.value.code == "entry_paid"
    with pytest.raises(Conflict) as refused:
        desk_intentions.tournament_status_set(
            actor=director, tournament_id=event.pk, status="cancelled"
        )
    assert refused.value.code == "prizes_paid"


def test_large_deal_by_sampling_gives_the_same_figures_each_time():
    """Beyond 20 players ICM is sampled: the same counts must not give new figures."""
    event = tournament(buy_in=10000, fee=0, starting_stack=1000)
    entries = field(event, 30)
    registration_closed(event)
    prize_services.payouts_update(actor=staff("director"), tournament_id=event.pk, locked=False)
    prize_services.payouts_update(
        actor=staff("director"),
        tournament_id=event.pk,
        settings={"places_mode": "fixed", "places_fixed": 25},
    )
    bust_in_order(event, *entries[:5])
    chips = [1000 + 400 * (n % 3) - 400 for n in range(25)]
    chips[0] += 30000 - sum(chips)
    first = prize_services.deal_calculate(tournament_id=event.pk, method="icm", chips=chips)
    again = prize_services.deal_calculate(tournament_id=event.pk, method="icm", chips=chips)
    assert first == again
    assert sum(p["amount"] for p in first["players"]) == 300000

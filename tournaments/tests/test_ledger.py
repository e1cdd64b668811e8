"""The money ledger: every payment is a line, refunds reverse lines, totals reconcile."""

import pytest
from django.db.models import Sum
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from floorman.errors import ServiceError
from hands.services import busts as bust_services
from seating.services import desk as desk_intentions
from tournaments.models import Entry, Transaction, TransactionKind
from tournaments.selectors import ledger_totals_check, tournament_totals
from tournaments.tests.factories import register, staff, tournament

pytestmark = pytest.mark.django_db


def _ledger(event):
    return Transaction.objects.filter(tournament=event).aggregate(
        prize=Sum("prize_share", default=0), fees=Sum("fee_share", default=0)
    )


def test_buy_in_splits_into_prize_pool_and_fee():
    event = tournament(buy_in=10000, fee=1500)
    cashier = staff("cashier")
    entry = register(event, "Ida", actor=cashier).entry

    line = Transaction.objects.get(entry=entry)
    assert (line.kind, line.amount, line.prize_share, line.fee_share) == (
        "buy_in",
        11500,
        10000,
        1500,
    )
    assert line.cashier == cashier
    totals = tournament_totals(event)
    assert (totals.prize_pool.total, totals.fees) == (10000, 1500)


def test_guarantee_overlay_tops_up_the_pool():
    event = tournament(buy_in=10000, fee=0, guarantee=50000)
    for name in ("A", "B", "C"):
        register(event, name)

    pool = tournament_totals(event).prize_pool
    assert (pool.collected, pool.overlay, pool.total) == (30000, 20000, 50000)


def test_cancelled_entry_is_refunded_by_a_reversing_line_not_deleted():
    event = tournament(buy_in=10000, fee=1000)
    entry = register(event, "Jo").entry

    desk_intentions.entry_cancel(actor=staff("cashier"), tournament_id=event.pk, entry_id=entry.pk)

    lines = list(Transaction.objects.filter(entry=entry).order_by("id"))
    assert [(t.kind, t.amount) for t in lines] == [("buy_in", 11000), ("refund", -11000)]
    assert lines[1].reverses == lines[0]
    assert Entry.objects.get(pk=entry.pk).status == "cancelled"
    totals = tournament_totals(event)
    assert (totals.entries, totals.prize_pool.total, totals.fees) == (0, 0, 0)


def test_cancelling_the_tournament_refunds_everyone():
    event = tournament(rebuy_until_level=3, rebuy_max=1, rebuy_price=10000, rebuy_chips=20000)
    first = register(event, "Kai").entry
    register(event, "Lea")
    desk_intentions.entry_rebuy(actor=None, tournament_id=event.pk, entry_id=first.pk)

    desk_intentions.tournament_status_set(
        actor=staff("director"), tournament_id=event.pk, status="cancelled"
    )

    assert _ledger(event) == {"prize": 0, "fees": 0}
    assert Transaction.objects.filter(tournament=event, kind=TransactionKind.REFUND).count() == 3
    assert set(event.entries.values_list("status", flat=True)) == {"cancelled"}


ACTIONS = st.lists(
    st.tuples(
        st.sampled_from(["register", "reenter", "bust", "rebuy", "addon", "cancel"]),
        st.integers(0, 5),
    ),
    max_size=25,
)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(actions=ACTIONS)
def test_totals_always_reconcile_with_the_ledger(actions):
    """Whatever the desk does, the totals equal the sums of the ledger lines."""
    event = tournament(
        buy_in=5000,
        fee=500,
        capacity=4,
        reentry_allowed=True,
        reentry_max=2,
        rebuy_until_level=2,
        rebuy_max=2,
        rebuy_price=5000,
        rebuy_chips=10000,
        addon_at_break_after_level=2,
        addon_price=3000,
        addon_chips=15000,
    )
    for action, who in actions:
        name = f"Player {who}"
        entry = event.entries.filter(player__name=name).order_by("-number").first()
        try:
            if action in ("register", "reenter"):
                register(event, name, birth_year=1980, reentry=action == "reenter")
            elif entry and action == "bust":
                bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=entry.pk)
            elif entry and action == "rebuy":
                desk_intentions.entry_rebuy(actor=None, tournament_id=event.pk, entry_id=entry.pk)
            elif entry and action == "addon":
                desk_intentions.entry_addon(actor=None, tournament_id=event.pk, entry_id=entry.pk)
            elif entry and action == "cancel":
                desk_intentions.entry_cancel(actor=None, tournament_id=event.pk, entry_id=entry.pk)
        except ServiceError:
            pass  # refused by the rules: must change nothing, checked below

    assert ledger_totals_check(event) == {}  # the running totals are the ledger's sums
    totals = tournament_totals(event)
    ledger = _ledger(event)
    entries = event.entries.exclude(status="cancelled")
    assert totals.prize_pool.collected == ledger["prize"]
    assert totals.fees == ledger["fees"]
    assert totals.entries == entries.filter(reentry_number=1).count()
    assert totals.reentries == entries.filter(reentry_number__gt=1).count()
    assert totals.rebuys == sum(entries.values_list("rebuys", flat=True))
    assert totals.addons == entries.filter(addon=True).count()
    assert totals.active <= 4
    expected = totals.total_buy_ins * 5000 + totals.rebuys * 5000 + totals.addons * 3000
    assert ledger["prize"] == expected
    assert ledger["fees"] == totals.total_buy_ins * 500
    for entry in entries:
        assert entry.chips == 20000 + entry.rebuys * 10000 + entry.addon * 15000


def test_buy_in_after_a_refunded_entry_is_a_first_entry_again():
    event = tournament()
    entry = register(event, "Mo", birth_year=1970).entry
    desk_intentions.entry_cancel(actor=None, tournament_id=event.pk, entry_id=entry.pk)

    again = register(event, "Mo", birth_year=1970).entry

    assert (again.reentry_number, again.number) == (1, 2)
    assert Transaction.objects.get(entry=again).kind == "buy_in"


def test_rebuy_and_addon_fees_stay_out_of_the_prize_pool():
    event = tournament(
        buy_in=10000,
        fee=1000,
        rebuy_until_level=3,
        rebuy_price=10000,
        rebuy_fee=500,
        rebuy_chips=20000,
        addon_at_break_after_level=3,
        addon_price=5000,
        addon_fee=250,
        addon_chips=10000,
    )
    entry = register(event, "Mo").entry
    desk_intentions.entry_rebuy(actor=None, tournament_id=event.pk, entry_id=entry.pk)
    desk_intentions.entry_addon(actor=None, tournament_id=event.pk, entry_id=entry.pk)

    lines = Transaction.objects.filter(entry=entry).order_by("id")
    assert [(t.kind, t.amount, t.prize_share, t.fee_share) for t in lines] == [
        ("buy_in", 11000, 10000, 1000),
        ("rebuy", 10500, 10000, 500),
        ("addon", 5250, 5000, 250),
    ]
    totals = tournament_totals(event)
    assert (totals.prize_pool.total, totals.fees) == (25000, 1750)


PAYOUT_ACTIONS = st.lists(
    st.tuples(
        st.sampled_from(["register", "cancel", "bust", "close", "pay", "unpay"]),
        st.integers(0, 7),
    ),
    max_size=30,
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(actions=PAYOUT_ACTIONS)
def test_ledger_reconciles_after_entries_refunds_and_payouts(actions):
    """Money in, refunds and prizes paid in any order: the ledger's lines always add up
    to the pool's figures, nobody is paid twice, and no more is paid than the pool."""
    from prizes import services as prize_services
    from prizes.models import Payment
    from prizes.selectors import results

    event = tournament(buy_in=5000, fee=500, guarantee=30000)
    cashier = staff("cashier")
    for action, who in actions:
        name = f"Player {who}"
        entry = event.entries.filter(player__name=name).order_by("-number").first()
        try:
            if action == "register":
                register(event, name, birth_year=1980)
            elif action == "close" and event.status == "registering":
                event.status = "running"
                event.late_reg_until_level, event.current_level = 1, 2
                event.save()
            elif entry and action == "cancel":
                desk_intentions.entry_cancel(actor=None, tournament_id=event.pk, entry_id=entry.pk)
            elif entry and action == "bust":
                bust_services.entry_bust(actor=None, tournament_id=event.pk, entry_id=entry.pk)
            elif entry and action == "pay":
                prize_services.prize_pay(actor=cashier, tournament_id=event.pk, entry_id=entry.pk)
            elif entry and action == "unpay":
                prize_services.prize_pay_undo(
                    actor=cashier, tournament_id=event.pk, entry_id=entry.pk
                )
        except ServiceError:
            pass  # refused by the rules: must change nothing, checked below

    lines = Transaction.objects.filter(tournament=event)
    pool = tournament_totals(event).prize_pool
    money_in = lines.exclude(kind=TransactionKind.PAYOUT).aggregate(s=Sum("prize_share"))["s"]
    paid = -(lines.filter(kind=TransactionKind.PAYOUT).aggregate(s=Sum("amount"))["s"] or 0)
    assert pool.collected == (money_in or 0)
    assert pool.paid_out == paid
    assert pool.remaining == pool.total - paid >= 0
    payments = Payment.objects.filter(entry__tournament=event).select_related("line")
    assert paid == -sum(p.line.amount for p in payments)  # taken-back lines cancel out
    found = {row.entry.pk: row for row in results(event).rows}
    for payment in payments:
        assert -payment.line.amount == found[payment.entry_id].prize

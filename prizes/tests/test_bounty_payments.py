"""The cashier pays bounties as prizes are paid (issue 18): one BOUNTY line per knockout
that stands, out of the bounty money and never the prize pool; paid once; taken back by
a reversing line; a refused payment writes nothing."""

import pytest

from floorman.errors import Conflict, NotFound
from floorman.models import AuditEntry
from prizes import selectors as prizes_selectors
from prizes.models import BountyPayment
from prizes.selectors import bounty_knockouts, bounty_totals
from prizes.services import bounties as bounty_services
from prizes.tests.bounty_factories import bounty_event, knockout, reversed_knockout
from tournaments.models import Transaction, TransactionKind
from tournaments.selectors import tournament_totals
from tournaments.tests.factories import staff

pytestmark = pytest.mark.django_db


def _pay(event, found, cashier=None):
    return bounty_services.bounty_pay(
        actor=cashier or staff("cashier"), tournament_id=event.pk, knockout_id=found.pk
    )


def test_a_bounty_paid_is_one_bounty_line_to_the_eliminator():
    event, (anna, ben, *_rest) = bounty_event()
    found = knockout(event, ben, anna)  # Anna knocked Ben out: his €50 is hers
    cashier = staff("cashier")

    payment = _pay(event, found, cashier)

    line = payment.line
    assert (line.kind, line.entry_id, line.cashier) == (TransactionKind.BOUNTY, anna.pk, cashier)
    assert (line.amount, line.bounty_share, line.prize_share, line.fee_share) == (
        -5000,
        -5000,
        0,
        0,
    )
    assert BountyPayment.objects.get(knockout=found).line == line


def test_a_bounty_paid_leaves_the_prize_pool_alone():
    event, (anna, ben, *_rest) = bounty_event()
    pool_before = tournament_totals(event).prize_pool.total

    _pay(event, knockout(event, ben, anna))

    pool = tournament_totals(event).prize_pool
    assert (pool.total, pool.paid_out) == (pool_before, 0)


def test_a_bounty_is_paid_once():
    event, (anna, ben, *_rest) = bounty_event()
    found = knockout(event, ben, anna)
    _pay(event, found)

    with pytest.raises(Conflict) as refused:
        _pay(event, found)

    assert refused.value.code == "bounty_paid"
    assert Transaction.objects.filter(kind=TransactionKind.BOUNTY).count() == 1


def test_a_refused_payment_writes_nothing():
    event, (anna, ben, *_rest) = bounty_event()
    found = knockout(event, ben, anna)
    _pay(event, found)
    lines, audits = Transaction.objects.count(), AuditEntry.objects.count()

    with pytest.raises(Conflict):
        _pay(event, found)

    assert (Transaction.objects.count(), AuditEntry.objects.count()) == (lines, audits)


def test_a_corrected_knockout_is_not_paid():
    event, (anna, ben, *_rest) = bounty_event()
    wrong = reversed_knockout(event, ben, anna)

    with pytest.raises(Conflict) as refused:
        _pay(event, wrong)

    assert refused.value.code == "bounty_reversed"
    assert not Transaction.objects.filter(kind=TransactionKind.BOUNTY).exists()


def test_a_pko_knockout_without_cash_needs_no_payment():
    """A progressive knockout paying 0 % in cash adds the whole bounty to the
    eliminator's own: nothing to pay at the cage."""
    event, (anna, ben, *_rest) = bounty_event("pko", bounty_cash_percent=0)
    found = knockout(event, ben, anna, cash=0, added=5000)
    audits = AuditEntry.objects.count()

    with pytest.raises(Conflict) as refused:
        _pay(event, found)

    assert refused.value.code == "bounty_no_cash"
    assert AuditEntry.objects.count() == audits


def test_another_events_knockout_is_not_found():
    event, (anna, ben, *_rest) = bounty_event()
    other, (carl, dora, *_others) = bounty_event()
    found = knockout(other, dora, carl)

    with pytest.raises(NotFound):
        _pay(event, found)


def test_paying_is_audited():
    event, (anna, ben, *_rest) = bounty_event()
    found = knockout(event, ben, anna)

    payment = _pay(event, found)

    entry = AuditEntry.objects.get(action="bounty.pay")
    assert entry.tournament_id == event.pk
    assert entry.after == {
        "knockout": found.pk,
        "busted": ben.pk,
        "amount": 5000,
        "line": payment.line.pk,
    }


def test_taking_a_bounty_back_reverses_its_line():
    event, (anna, ben, *_rest) = bounty_event()
    found = knockout(event, ben, anna)
    line = _pay(event, found).line

    bounty_services.bounty_pay_undo(
        actor=staff("cashier"), tournament_id=event.pk, knockout_id=found.pk
    )

    reversal = Transaction.objects.get(reverses=line)
    assert (reversal.kind, reversal.entry_id) == (TransactionKind.BOUNTY, anna.pk)
    assert (reversal.amount, reversal.bounty_share, reversal.prize_share) == (5000, 5000, 0)
    assert not BountyPayment.objects.filter(knockout=found).exists()
    assert AuditEntry.objects.filter(action="bounty.pay_undo").count() == 1
    # Taken back, it may be paid again, on a new line.
    assert _pay(event, found).line.pk not in (line.pk, reversal.pk)


def test_an_unpaid_bounty_cannot_be_taken_back():
    event, (anna, ben, *_rest) = bounty_event()
    found = knockout(event, ben, anna)

    with pytest.raises(Conflict) as refused:
        bounty_services.bounty_pay_undo(
            actor=staff("cashier"), tournament_id=event.pk, knockout_id=found.pk
        )

    assert refused.value.code == "bounty_not_paid"
    assert not Transaction.objects.filter(kind=TransactionKind.BOUNTY).exists()


def test_a_players_bounties_are_paid_at_once_one_line_each():
    event, (anna, ben, carl, dora, *_rest) = bounty_event()
    first, second = knockout(event, ben, anna), knockout(event, carl, anna)
    paid_before = _pay(event, knockout(event, dora, anna))
    not_hers = knockout(event, anna, dora, bust=False)  # not Anna's to collect

    payments = bounty_services.bounties_pay_all(
        actor=staff("cashier"), tournament_id=event.pk, entry_id=anna.pk
    )

    assert [p.knockout_id for p in payments] == [first.pk, second.pk]
    assert [p.line.amount for p in payments] == [-5000, -5000]
    assert not BountyPayment.objects.filter(knockout=not_hers).exists()
    assert BountyPayment.objects.filter(knockout__winner=anna).count() == 3
    assert paid_before.pk in BountyPayment.objects.values_list("pk", flat=True)
    (audit,) = AuditEntry.objects.filter(action="bounty.pay_all")
    assert audit.after["amount"] == 10000


def test_paying_all_with_nothing_due_is_refused():
    event, (anna, ben, *_rest) = bounty_event()
    _pay(event, knockout(event, ben, anna))

    with pytest.raises(Conflict) as refused:
        bounty_services.bounties_pay_all(
            actor=staff("cashier"), tournament_id=event.pk, entry_id=anna.pk
        )

    assert refused.value.code == "bounties_none_due"


def test_bounty_totals_are_won_paid_and_left_to_pay():
    event, (anna, ben, carl, dora, *_rest) = bounty_event()
    _pay(event, knockout(event, ben, anna))
    knockout(event, carl, anna)
    reversed_knockout(event, dora, anna)  # a correction: no longer won

    totals = bounty_totals(bounty_knockouts(event))

    assert (totals.won, totals.paid, totals.left, totals.count, totals.unpaid) == (
        10000,
        5000,
        5000,
        2,
        1,
    )


def test_screens_are_told_of_the_bounty_paid(monkeypatch, django_capture_on_commit_callbacks):
    event, (anna, ben, *_rest) = bounty_event()
    found = knockout(event, ben, anna)
    sent = []
    monkeypatch.setattr("floorman.live._send", lambda _id, message: sent.append(message))

    with django_capture_on_commit_callbacks(execute=True):
        _pay(event, found)

    (message,) = [m for m in sent if m["type"] == "bounties.updated"]
    assert message["data"] == {
        "currency": "EUR",
        "changed": [{"id": found.pk, "winner": anna.pk, "paid": True}],
        "won": 5000,
        "paid": 5000,
        "left": 0,
    }


def test_the_totals_a_payment_announces_are_counted_alike_by_the_database(
    django_assert_num_queries,
):
    event, (anna, ben, cleo, dan, eva, *_rest) = bounty_event("pko")
    _pay(event, knockout(event, ben, anna, cash=2500, added=2500))
    knockout(event, cleo, anna, cash=3750, added=3750)  # not paid yet
    knockout(event, dan, eva, cash=0, added=5000)  # nothing in cash to pay
    reversed_knockout(event, eva, anna)  # a correction took it back

    with django_assert_num_queries(1):
        counted = prizes_selectors.bounty_totals_of(event)

    assert counted == bounty_totals(bounty_knockouts(event))
    assert (counted.won, counted.paid, counted.left, counted.unpaid) == (6250, 2500, 3750, 1)

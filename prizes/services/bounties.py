"""The cashier pays bounties as prizes are paid (issue 18): one BOUNTY line in the ledger
for each knockout that stands, out of the bounty money, never the prize pool; taking a
payment back reverses its line.

The knockouts themselves (who eliminated whom, the cash, a PKO's part added to the
eliminator's own bounty, a mystery draw) are the hands app's, recorded with the bust; a
correction there reverses them. Here they are only paid.

Each public function is one user intention: the tournament locked once, one audit entry,
the live event after commit. A refused request writes nothing.
"""

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from floorman import live
from floorman.audit import audit_record, staff_user
from floorman.errors import NotFound
from hands.models import Knockout
from prizes.models import BountyPayment
from prizes.selectors import bounty_totals_of
from prizes.services import refuse
from tournaments.models import Entry, Tournament, Transaction, TransactionKind
from tournaments.services import ledger_line_add, line_reverse, tournament_lock


def _knockout_locked(tournament: Tournament, knockout_id: int) -> Knockout:
    # The row is locked so that a correction of the knockout (hands) and its payment
    # never cross: both take the tournament lock first, this is the second line.
    knockout = (
        Knockout.objects.select_for_update().filter(tournament=tournament, pk=knockout_id).first()
    )
    if knockout is None:
        raise NotFound(_("No such knockout in this tournament."))
    return knockout


def _publish(tournament: Tournament, changed: list[Knockout], *, paid: bool) -> None:
    totals = bounty_totals_of(tournament)  # one query, whatever the field
    live.live_publish(
        tournament_id=tournament.pk,
        kind=live.BOUNTIES_UPDATED,
        data={
            "currency": tournament.currency,
            "changed": [{"id": k.pk, "winner": k.winner_id, "paid": paid} for k in changed],
            "won": totals.won,
            "paid": totals.paid,
            "left": totals.left,
        },
    )


def _pay(actor, tournament: Tournament, knockout: Knockout) -> BountyPayment:
    """A knockout's payment, under the caller's lock: checked, its line, its row."""
    if knockout.reversed_at is not None:
        raise refuse("bounty_reversed", knockout=knockout.pk)
    if BountyPayment.objects.filter(knockout=knockout).exists():
        raise refuse("bounty_paid", knockout=knockout.pk)
    if knockout.cash <= 0:
        raise refuse("bounty_no_cash", knockout=knockout.pk)
    line = ledger_line_add(
        tournament=tournament,
        entry_id=knockout.winner_id,
        kind=TransactionKind.BOUNTY,
        amount=-knockout.cash,
        prize_share=0,
        fee_share=0,
        bounty_share=-knockout.cash,
        cashier=staff_user(actor),
    )
    try:
        with transaction.atomic():
            payment = BountyPayment.objects.create(knockout=knockout, line=line)
    except IntegrityError:
        raise refuse("bounty_paid", knockout=knockout.pk) from None
    return payment


def _paid_record(knockout: Knockout, line: Transaction) -> dict:
    return {
        "knockout": knockout.pk,
        "busted": knockout.busted_id,
        "amount": -line.amount,
        "line": line.pk,
    }


@transaction.atomic
def bounty_pay(*, actor, tournament_id: int, knockout_id: int) -> BountyPayment:
    """The cashier pays the eliminator a knockout's bounty.

    Steps: lock the tournament, then the knockout → it stands, is unpaid and pays cash
    (409 otherwise; a PKO with 0 % in cash pays nothing here) → a BOUNTY line, the
    winner's entry, the bounty share and amount its cash paid out (negative) → the
    BountyPayment row → audit `bounty.pay` → the live event `bounties.updated`.
    """
    tournament = tournament_lock(tournament_id)
    knockout = _knockout_locked(tournament, knockout_id)
    payment = _pay(actor, tournament, knockout)
    audit_record(
        actor=actor,
        action="bounty.pay",
        obj=knockout,
        tournament=tournament,
        after=_paid_record(knockout, payment.line),
    )
    _publish(tournament, [knockout], paid=True)
    return payment


@transaction.atomic
def bounty_pay_undo(*, actor, tournament_id: int, knockout_id: int) -> Knockout:
    """Take back a bounty paid by mistake: the ledger line is reversed, not removed, and
    the payment row goes (as a prize's, `prizes.services.prize_pay_undo`).

    Steps: lock the tournament, then the knockout → paid (409 otherwise) → the reversing
    BOUNTY line → the row removed → audit `bounty.pay_undo` → the live event.
    """
    tournament = tournament_lock(tournament_id)
    knockout = _knockout_locked(tournament, knockout_id)
    payment = BountyPayment.objects.filter(knockout=knockout).select_related("line").first()
    if payment is None:
        raise refuse("bounty_not_paid", knockout=knockout.pk)
    line = payment.line
    line_reverse(actor=actor, line=line, kind=TransactionKind.BOUNTY)
    payment.delete()
    audit_record(
        actor=actor,
        action="bounty.pay_undo",
        obj=knockout,
        tournament=tournament,
        before=_paid_record(knockout, line),
    )
    _publish(tournament, [knockout], paid=False)
    return knockout


@transaction.atomic
def bounties_pay_all(*, actor, tournament_id: int, entry_id: int) -> list[BountyPayment]:
    """The cashier pays a player every bounty still due to one entry at once: one BOUNTY
    line each, as `bounty_pay` would, under one lock and one audit entry
    (`bounty.pay_all`). Nothing due: 409."""
    tournament = tournament_lock(tournament_id)
    entry = Entry.objects.filter(tournament=tournament, pk=entry_id).first()
    if entry is None:
        raise NotFound(_("No such entry in this tournament."))
    due = list(
        Knockout.objects.select_for_update(of=("self",))
        .filter(
            tournament=tournament,
            winner=entry,
            reversed_at__isnull=True,
            cash__gt=0,
            payment__isnull=True,
        )
        .order_by("recorded_at", "id")
    )
    if not due:
        raise refuse("bounties_none_due", entry=entry.pk)
    payments = [_pay(actor, tournament, knockout) for knockout in due]
    audit_record(
        actor=actor,
        action="bounty.pay_all",
        obj=entry,
        tournament=tournament,
        after={
            "paid": [_paid_record(p.knockout, p.line) for p in payments],
            "amount": sum(-p.line.amount for p in payments),
        },
    )
    _publish(tournament, due, paid=True)
    return payments

"""The bounty money of a simulated bounty event adds up (issue 18): what the ledger took
in as the bounty part of the buy-ins is what the knockouts paid, the winner's own bounty
in a progressive knockout among them, and what the cage paid out."""

from dataclasses import dataclass

from django.db.models import Sum

from hands.models import Knockout, KnockoutSource
from simulation.invariants import SimulationError
from tournaments.models import Tournament, Transaction, TransactionKind


@dataclass(frozen=True)
class BountyMoney:
    taken_in: int  # the bounty shares of the sales, less refunds
    won: int  # the cash of the knockouts that stand
    paid: int  # the BOUNTY lines, as a positive amount
    winner_own: int
    knockouts: int


def _standing(tournament: Tournament):
    return Knockout.objects.filter(tournament=tournament, reversed_at__isnull=True)


def bounties_unpaid(tournament: Tournament) -> list[int]:
    """The knockouts the cage has still to pay, in the order they happened."""
    unpaid = _standing(tournament).filter(payment__isnull=True, cash__gt=0)
    return list(unpaid.order_by("recorded_at", "id").values_list("pk", flat=True))


def bounty_money(tournament: Tournament) -> BountyMoney:
    lines = Transaction.objects.filter(tournament=tournament)
    taken_in = lines.exclude(kind=TransactionKind.BOUNTY).aggregate(
        total=Sum("bounty_share", default=0)
    )["total"]
    paid = -lines.filter(kind=TransactionKind.BOUNTY).aggregate(total=Sum("amount", default=0))[
        "total"
    ]
    standing = _standing(tournament)
    won = standing.aggregate(total=Sum("cash", default=0))["total"]
    own = standing.filter(source=KnockoutSource.WINNER).aggregate(total=Sum("cash", default=0))
    return BountyMoney(
        taken_in=taken_in,
        won=won,
        paid=paid,
        winner_own=own["total"],
        knockouts=standing.count(),
    )


def bounty_check(tournament: Tournament, *, step: str) -> None:
    """At the end, every bounty paid: bounty money in = knockouts won = paid at the cage;
    none is left on anybody's head but paid; nothing came from the prize pool."""
    money = bounty_money(tournament)
    if money.taken_in <= 0:
        raise SimulationError(step, "a bounty event took in no bounty money")
    if money.won != money.taken_in:
        raise SimulationError(
            step, f"knockouts won {money.won} of the {money.taken_in} bounty money taken in"
        )
    if money.paid != money.taken_in:
        raise SimulationError(
            step, f"the cage paid {money.paid} of the {money.taken_in} bounty money taken in"
        )
    taken = Transaction.objects.filter(tournament=tournament, kind=TransactionKind.BOUNTY)
    if taken.exclude(prize_share=0, fee_share=0).exists():
        raise SimulationError(step, "a bounty was paid out of the prize pool or the fees")

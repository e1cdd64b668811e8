"""Reads of the payout table: how many places are paid and what each gets. The floor
asks it (hand-for-hand plays the bubble of the places paid, RP-8; a re-entry is refused
once the players left are in the money, casino §12), and the prize money pays from it.

While a payout structure follows the prize pool its lines are not stored: they are
worked out from the pool whenever read, so a registration writes one ledger line and
not a thousand payout rows. Once frozen (locked by the director, edited by hand, paid
from, or dealt on) the lines are stored and never follow the pool again.
"""

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from clock.selectors import entry_rules
from payouts.engine import money, payouts, satellites
from payouts.models import Payout, PayoutLock, PayoutStructure, PlacesMode
from tournaments import engine
from tournaments.models import Tournament, TournamentStatus
from tournaments.selectors import Totals, bounty_due, tournament_totals


def payout_structure(tournament: Tournament) -> PayoutStructure:
    """The tournament's settings, or the house defaults (unsaved) until the TD sets any."""
    structure = PayoutStructure.objects.filter(tournament=tournament).first()
    return structure or PayoutStructure(tournament=tournament)


def payout_setup(tournament: Tournament) -> dict:
    """The payout settings as plain values (JSON: decimals as text), for an event's copy
    or a saved event template. Never the lines, the lock or what was paid."""
    settings = payout_structure(tournament).settings_dict()
    return {
        name: str(value) if isinstance(value, Decimal) else value
        for name, value in settings.items()
    }


@dataclass(frozen=True)
class PayoutTable:
    pool: engine.PrizePool
    structure: PayoutStructure
    amounts: tuple[int, ...]  # best place first, cents
    locked_reason: str | None  # "director", "edited", "registration_closed"
    adjustments: tuple[str, ...] = ()
    problems: tuple[payouts.Problem, ...] = ()
    # A satellite (issue 17): places 1 to `seats` each win a seat worth `seat_value`
    # (a ticket to the target event); `amounts` is then the cash on top.
    seats: int = 0
    seat_value: int = 0

    @property
    def locked(self) -> bool:
        """Held as it stands: it no longer follows the prize pool."""
        return self.locked_reason is not None

    @property
    def places_paid(self) -> int:
        if self.seat_value:
            found = satellites.Seats(self.seats, 0)
            return satellites.places_paid(found, self.amounts)
        return sum(1 for amount in self.amounts if amount > 0)

    @property
    def balanced(self) -> bool:
        return not self.problems

    @property
    def difference(self) -> int:
        """What the lines pay more (positive) or less than the prize pool."""
        return sum(self.amounts) + self.seats * self.seat_value - self.pool.total

    def by_place(self) -> dict[int, int]:
        return {place: amount for place, amount in enumerate(self.amounts, start=1)}


def generated_amounts(
    structure: PayoutStructure, *, pool: int, entries: int, buy_in: int
) -> payouts.Generated:
    """The lines the settings give for this pool and field."""
    if pool <= 0 or entries <= 0:
        return payouts.Generated((), 0, ())
    if structure.shares:
        # A house table: paid as written, but never more places than entries.
        shares = structure.shares[:entries]
        amounts = tuple(money.apportion(pool, shares, unit=structure.unit))
        return payouts.Generated(amounts, len(amounts), ())
    if structure.places_mode == PlacesMode.FIXED and structure.places_fixed:
        places = payouts.places_paid(entries, fixed=structure.places_fixed)
    else:
        places = payouts.places_paid(entries, percent=structure.places_percent)
    winner = structure.winner_share
    return payouts.generate(
        pool,
        places,
        buy_in=buy_in,
        winner_share=None if winner is None else Fraction(winner) / 100,
        min_cash_multiple=Decimal(structure.min_cash_multiple),
        unit=structure.unit,
    )


def payout_table(tournament: Tournament, totals: Totals | None = None) -> PayoutTable:
    totals = totals or tournament_totals(tournament)
    structure = payout_structure(tournament)
    if tournament.satellite_target_id:
        return satellite_table(tournament, totals, structure)
    pool = totals.prize_pool
    adjustments: tuple[str, ...] = ()
    if structure.frozen:
        amounts = tuple(
            Payout.objects.filter(tournament=tournament).values_list("amount", flat=True)
        )
    else:
        generated = generated_amounts(
            structure,
            pool=pool.total,
            entries=totals.total_buy_ins,
            buy_in=tournament.buy_in + tournament.fee,
        )
        amounts, adjustments = generated.amounts, generated.adjustments
    reason = lock_reason(tournament, structure)
    return PayoutTable(
        pool=pool,
        structure=structure,
        amounts=amounts,
        locked_reason=reason,
        adjustments=adjustments,
        problems=tuple(payouts.problems(amounts, pool.total)),
    )


def lock_reason(tournament: Tournament, structure: PayoutStructure) -> str | None:
    """Why the table no longer follows the pool, or None while it does."""
    if structure.lock == PayoutLock.LOCKED:
        return "edited" if structure.edited else "director"
    if structure.lock == PayoutLock.AUTO and not engine.money_open(entry_rules(tournament)):
        return "registration_closed"
    return None


def in_the_money(tournament: Tournament) -> bool:
    """Casino §12: have the players left reached the paid places? The desk's sales
    (seating.services.desk) ask it under their lock and pass the answer down: no
    re-entry once the field is in the money."""
    if tournament.status != TournamentStatus.RUNNING:
        return False
    totals = tournament_totals(tournament)
    paid = payout_table(tournament, totals).places_paid
    return 0 < totals.active <= paid


def places_paid(tournament: Tournament) -> int:
    """How many places the table pays: the bubble hand-for-hand plays (RP-8,
    hands.selectors.places_paid) unless the house set its own number."""
    return payout_table(tournament).places_paid


# --- Satellites (issue 17) ----------------------------------------------------------


def seat_value(tournament: Tournament) -> int:
    """What one seat in the satellite's target costs now: its buy-in with its fee and, in
    an event with bounties, its bounty (issue 18: the ticket pays all three)."""
    target = Tournament.objects.only("buy_in", "fee", "bounty_format", "bounty").get(
        pk=tournament.satellite_target_id
    )
    return target.buy_in + target.fee + bounty_due(target)


def satellite_seats(tournament: Tournament, totals: Totals | None = None) -> satellites.Seats:
    """The seats the satellite's prize pool buys and the cash left
    (payouts.engine.satellites.seats): never more seats than entries."""
    totals = totals or tournament_totals(tournament)
    return _seats(totals, seat_value(tournament))


def _seats(totals: Totals, value: int) -> satellites.Seats:
    if value <= 0:  # a free target: no seat to buy, the director sees the problem
        return satellites.Seats(0, totals.prize_pool.total)
    return satellites.seats(totals.prize_pool.total, value, players=totals.total_buy_ins)


def satellite_table(tournament: Tournament, totals: Totals, structure) -> PayoutTable:
    """A satellite's table: N seats and the cash line(s). It always follows the pool and
    the house's remainder rule (`Tournament.satellite_remainder`), in the house unit; a
    pool that buys no seat is a problem shown to the director."""
    value = seat_value(tournament)
    found = _seats(totals, value)
    amounts = satellites.cash_lines(
        found, remainder=tournament.satellite_remainder, unit=structure.unit
    )
    problems = []
    if found.count == 0 and totals.total_buy_ins:
        problems.append(payouts.Problem(satellites.NO_SEAT, None, None))
    return PayoutTable(
        pool=totals.prize_pool,
        structure=structure,
        amounts=amounts,
        locked_reason=lock_reason(tournament, structure),
        problems=tuple(problems),
        seats=found.count,
        seat_value=value,
    )

"""Bounties: who eliminated whom, and what each elimination pays (issue 18).

Pure Python, no Django. The players are plain ints: seats while reading a hand's awards,
entries once the caller has mapped them; the functions only need the same ids throughout.
Money is in the smallest currency unit (cents); `unit` is the house's smallest payable
amount (100 for whole euros).

Who eliminated a player comes from the logged hand: the winner(s) of the pot the player
was all-in for. A player can win only the pots their chips reached (TDA 21: each pot is
settled on its own), so that is the highest pot they were eligible for; side pots above
it were never theirs to lose. A split pot splits the bounty; odd units go one at a time
in odd-chip order, as TDA 20 gives odd chips of a split pot.

Three formats:
- knockout: a fixed bounty on every entry, paid to whoever eliminates the player;
- progressive knockout (PKO): a share of the busted player's bounty is paid in cash, the
  rest grows the eliminator's own bounty; the winner collects their own at the end;
- mystery bounty: each elimination from a set point draws one sealed prize from a published
  list, by a seeded draw that replays.
RP-22: bounty chips have no betting value; the engine never counts them as chips.
"""

import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from .pots import split_pot
from .showdown import Award

DEFAULT_CASH_PERCENT = 50  # the usual PKO: half in cash, half on the eliminator's head


@dataclass(frozen=True)
class Elimination:
    busted: int
    eliminators: tuple[int, ...]  # in odd-unit order (see `eliminators`)
    stack: int = 0  # chips at the start of the hand: orders several busts of one hand


@dataclass(frozen=True)
class BountyPayment:
    busted: int  # whose bounty it was (the winner's own at the end)
    to: int
    cash: int  # paid out at the cage: one ledger line
    added: int = 0  # PKO: put on the receiver's own bounty, not paid now


@dataclass(frozen=True)
class PkoHand:
    payments: tuple[BountyPayment, ...]  # in settle order, each eliminator's in odd-unit order
    bounties: Mapping[int, int]  # after the hand: the busted gone, the eliminators' grown


@dataclass(frozen=True)
class MysteryPrize:
    amount: int
    count: int  # how many sealed bounties of this amount the published list holds


# --- who eliminated whom ----------------------------------------------------------------------


def eliminators(busted_seat: int, awards: Sequence[Award]) -> tuple[int, ...]:
    """The seat(s) that eliminated `busted_seat` in a hand, from its awards (main pot first).

    The eliminator won the highest pot the busted player was eligible for, the pot they
    were all-in for. A side pot above it is between the bigger stacks (TDA 21) and names
    nobody's eliminator: the short stack all-in who loses the main pot to A while B wins the
    side pot was eliminated by A. Several winners of that pot (a split, or the high and the
    low half of a hi-lo pot) all eliminated the player. They come in odd-chip order, as the
    showdown gave them (TDA 20): the high winners, then the low winners not already listed.

    ValueError when the seat was in no pot (it folded, so it could not have busted in this
    hand) or won chips from any pot (then it did not bust).
    """
    if any(award.shares.get(busted_seat, 0) > 0 for award in awards):
        raise ValueError(f"seat {busted_seat} won chips in this hand, so it did not bust")
    pots = [award for award in awards if busted_seat in award.pot.eligible]
    if not pots:
        raise ValueError(f"seat {busted_seat} was in no pot of this hand (folded?)")
    lost = pots[-1]  # pots come main first, so the last one is the highest it reached
    winners = tuple(dict.fromkeys(lost.high + lost.low))  # a scoop is one eliminator
    if not winners:
        raise ValueError(f"the pot seat {busted_seat} lost has no winner")
    return winners


def eliminations(
    busted_seats: Iterable[int], awards: Sequence[Award]
) -> dict[int, tuple[int, ...]]:
    """Each busted seat's eliminators, every one settled on its own pot (see `eliminators`).

    Several players busted in one hand may have lost different pots to different players:
    the short stack the main pot to A, the middle stack a side pot to B.
    """
    return {seat: eliminators(seat, awards) for seat in busted_seats}


def settle_order(hand: Iterable[Elimination]) -> list[Elimination]:
    """The busts of one hand in the order they settle: smallest starting stack first, then
    the lower id. The smaller stack busts "first" as it finishes lower (IFP 4.27, casino
    §29c, as `places` ranks them); the id only makes equal stacks stable."""
    return sorted(hand, key=lambda e: (e.stack, e.busted))


# --- splitting a bounty ---------------------------------------------------------------------


def bounty_shares(
    amount: int,
    eliminators: Sequence[int],
    unit: int = 1,
    order: Sequence[int] | None = None,
) -> dict[int, int]:
    """Share a bounty of `amount` equally between the players who eliminated together.

    The bounty is counted in whole `unit`s (the house's smallest payable amount); units
    left over after an equal share go one each to the eliminators in `order` (the seats
    from the button, as TDA 20-A gives odd chips; the eliminators' own order when None).
    An amount that is not a whole number of units leaves a remainder below one unit: it
    goes to the first eliminator in order, so the shares always add up to the amount.
    A hi-lo split shares the bounty equally too: the bounty is one prize for one bust,
    not a pot with halves.
    """
    if not eliminators:
        raise ValueError("an elimination needs at least one eliminator")
    if unit < 1 or amount < 0:
        raise ValueError("the unit must be positive and the amount not negative")
    if order is not None:
        missing = [seat for seat in eliminators if seat not in order]
        if missing:
            raise ValueError(f"the odd-unit order does not list {missing}")
        position = {seat: i for i, seat in enumerate(order)}
        eliminators = sorted(eliminators, key=position.__getitem__)
    return split_pot(amount, eliminators, unit)  # the odd-chip rule, in money


def _check_hand(hand: Sequence[Elimination]) -> None:
    busted = [e.busted for e in hand]
    if len(set(busted)) != len(busted):
        raise ValueError("a player busts once")
    for e in hand:
        if not e.eliminators or len(set(e.eliminators)) != len(e.eliminators):
            raise ValueError(f"the eliminators of {e.busted} must be listed once each")
        if e.busted in e.eliminators:
            raise ValueError(f"{e.busted} cannot eliminate themselves")
        # An eliminator won the pot, so they cannot bust in the same hand; this also keeps
        # a bounty grown in a hand from being paid out in that hand.
        if set(e.eliminators) & set(busted):
            raise ValueError(f"an eliminator of {e.busted} busted in the same hand")


# --- knockout: a fixed bounty -----------------------------------------------------------------


def knockout_payments(
    hand: Sequence[Elimination], bounties: Mapping[int, int], unit: int = 1
) -> tuple[BountyPayment, ...]:
    """A knockout hand: each busted entry's bounty (`bounties`, fixed at the buy-in) goes
    to its eliminator(s), split by `bounty_shares`; one payment per eliminator."""
    _check_hand(hand)
    payments = []
    for e in settle_order(hand):
        if e.busted not in bounties:
            raise ValueError(f"{e.busted} has no bounty")
        for seat, cash in bounty_shares(bounties[e.busted], e.eliminators, unit).items():
            payments.append(BountyPayment(e.busted, seat, cash))
    return tuple(payments)


# --- progressive knockout ---------------------------------------------------------------------


def pko_cash(bounty: int, cash_percent: int = DEFAULT_CASH_PERCENT, unit: int = 1) -> int:
    """The cash part of a PKO bounty: `cash_percent` of it, rounded down to the house unit
    so the cage can pay it; the rest (what the rounding leaves too) goes on the
    eliminator's head, so no money is lost, it is paid later."""
    if not 0 <= cash_percent <= 100:
        raise ValueError("the cash share is a percentage from 0 to 100")
    if unit < 1 or bounty < 0:
        raise ValueError("the unit must be positive and the bounty not negative")
    return bounty * cash_percent // 100 // unit * unit


def pko_hand(
    bounties: Mapping[int, int],
    hand: Sequence[Elimination],
    *,
    cash_percent: int = DEFAULT_CASH_PERCENT,
    unit: int = 1,
) -> PkoHand:
    """Settle one hand's eliminations in a progressive knockout.

    `bounties` are the bounties of the players still in at the start of the hand. Each
    busted player's bounty is split into cash (`pko_cash`) and the rest; both parts are
    shared between the eliminators the same way (`bounty_shares`). Busts settle in
    `settle_order`, and every one from the bounties at the start of the hand: a bounty
    that grows in this hand is paid out in a later one, never in this one.
    """
    _check_hand(hand)
    after = dict(bounties)
    payments = []
    for e in settle_order(hand):
        if e.busted not in bounties:
            raise ValueError(f"{e.busted} has no bounty in play")
        if any(seat not in bounties for seat in e.eliminators):
            raise ValueError(f"an eliminator of {e.busted} has no bounty in play")
        bounty = bounties[e.busted]  # the start of the hand's, not one grown in it
        cash = pko_cash(bounty, cash_percent, unit)
        cash_shares = bounty_shares(cash, e.eliminators, unit)
        added_shares = bounty_shares(bounty - cash, e.eliminators, unit)
        for seat in e.eliminators:
            payments.append(BountyPayment(e.busted, seat, cash_shares[seat], added_shares[seat]))
            after[seat] += added_shares[seat]
        del after[e.busted]
    return PkoHand(tuple(payments), after)


def pko_winner(bounties: Mapping[int, int], winner: int) -> BountyPayment:
    """The winner collects their own bounty at the end: the last bounty in play.

    With other bounties still in play the event is not over (a deal that ends it must
    settle them first), so that is a ValueError.
    """
    if set(bounties) != {winner}:
        raise ValueError("the winner collects their bounty when no other bounty is in play")
    return BountyPayment(winner, winner, bounties[winner])


# --- mystery bounty ---------------------------------------------------------------------------


def mystery_pool(prizes: Iterable[MysteryPrize]) -> tuple[int, ...]:
    """The sealed bounties of a published list, one amount per envelope, largest first."""
    pool: list[int] = []
    for prize in prizes:
        if prize.amount <= 0 or prize.count < 0:
            raise ValueError("a mystery prize has a positive amount and a count of 0 or more")
        pool.extend([prize.amount] * prize.count)
    return tuple(sorted(pool, reverse=True))


def mystery_draw(remaining: Collection[int], rng: random.Random) -> tuple[int, tuple[int, ...]]:
    """Draw one sealed bounty: the prize drawn and the pool left, largest first.

    The pool is sorted before drawing, so the draw depends only on the seed and the
    prizes left, not on the order the caller stored them in: `random.Random(seed)` and the
    same pool replay the same draws. ValueError when every bounty has been drawn.
    """
    pool = sorted(remaining, reverse=True)
    if not pool:
        raise ValueError("no mystery bounty is left to draw")
    drawn = pool.pop(rng.randrange(len(pool)))
    return drawn, tuple(pool)


def mystery_payments(
    elimination: Elimination, remaining: Collection[int], rng: random.Random, unit: int = 1
) -> tuple[tuple[BountyPayment, ...], tuple[int, ...]]:
    """One elimination's mystery bounty: one prize drawn (`mystery_draw`) and shared by its
    eliminators (`bounty_shares`); the payments and the pool left. Several busts of one
    hand draw one each, in `settle_order`, so a replay draws them in the same order."""
    prize, left = mystery_draw(remaining, rng)
    shares = bounty_shares(prize, elimination.eliminators, unit)
    payments = tuple(BountyPayment(elimination.busted, seat, cash) for seat, cash in shares.items())
    return payments, left


def mystery_replay(pool: Collection[int], seed: int | str | bytes, count: int) -> list[int]:
    """The first `count` prizes drawn from `pool` with `seed`, in draw order: how a draw
    made earlier is shown again, or the next one made, from the stored seed alone."""
    rng = random.Random(seed)
    remaining: Collection[int] = pool
    drawn = []
    for _ in range(count):
        prize, remaining = mystery_draw(remaining, rng)
        drawn.append(prize)
    return drawn

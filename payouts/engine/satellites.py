"""A satellite's prize pool buys seats in its target event (issue 17).

Money is integer cents. Each seat is worth the target's buy-in with its fee; the pool
buys as many whole seats as it can, and what is left is cash: paid to the next place
(the first player out of the seats) or shared among the seat winners, as the house
says. The seat winners are not ranked among themselves: they share the seat places
(casino and TDA practice: play stops when as many players are left as there are seats).
"""

from dataclasses import dataclass

from payouts.engine import money

NEXT_PLACE = "next_place"  # the cash left goes to the first player out of the seats
SHARED = "shared"  # the cash left is split among the seat winners
NO_SEAT = "no_seat"  # problem code: the pool buys no seat


@dataclass(frozen=True)
class Seats:
    count: int  # seats the pool buys
    left: int  # cash left after them, cents


def seats(pool: int, seat_value: int, *, players: int | None = None) -> Seats:
    """How many seats `pool` buys at `seat_value` each, and the cash left.

    Never more seats than `players` (the entries): a seat nobody can win is cash."""
    if pool < 0:
        raise ValueError("the pool cannot be negative")
    if seat_value <= 0:
        raise ValueError("a seat is worth more than nothing")
    count, left = divmod(pool, seat_value)
    if players is not None and count > players:
        left += (count - players) * seat_value
        count = players
    return Seats(count, left)


def cash_lines(found: Seats, *, remainder: str, unit: int = 1) -> tuple[int, ...]:
    """The cash each place gets, best first: places 1 to `found.count` are the seat
    winners (they also win a seat each).

    NEXT_PLACE: the seat winners get no cash; place count + 1 gets all that is left.
    SHARED: the seat winners split the cash left evenly in whole house units (`unit`,
    money.apportion with equal weights); what does not split evenly among them (less
    than one unit each) goes to the next place, so every seat winner gets the same.
    No seat: no line (the director sees the problem)."""
    if remainder not in (NEXT_PLACE, SHARED):
        raise ValueError(f"unknown remainder rule {remainder!r}")
    if found.count == 0:
        return ()
    if remainder == NEXT_PLACE:
        lines = [0] * found.count
        odd = found.left
    else:
        each = unit * (found.left // (unit * found.count))
        lines = money.apportion(each * found.count, [1] * found.count, unit=unit)
        odd = found.left - each * found.count
    return tuple(lines) + ((odd,) if odd else ())


def places_paid(found: Seats, lines: tuple[int, ...]) -> int:
    """The places that win something: every seat, and the next place if it gets cash."""
    return found.count + sum(1 for amount in lines[found.count :] if amount > 0)


def play_over(*, players_left: int, seats_won: int, registration_open: bool) -> bool:
    """The satellite's play stops when as many players are left as there are seats
    (no more can come): every one of them wins a seat, none is ranked above another."""
    return seats_won >= 1 and 0 < players_left <= seats_won and not registration_open

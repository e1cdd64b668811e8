"""The simulated festival's plan, in plain Python: its settings, how the entries are
spread over the flights, and who comes back for another flight.

A festival's main event starts on several days (flights, Day 1A, 1B, ...). Each flight
sells its share of the entries; players busted in an earlier flight come back for a
later one where the house lets them (`flight_reentry`), one survivor plays another
flight as well (so that the survivor rule forfeits one of the two bags), and the seats
won in a satellite enter the last flight as tickets.
"""

import math
import random
import string
from collections.abc import Sequence
from dataclasses import dataclass

from simulation.config import Config

MIN_FLIGHT_ENTRIES = 10  # a flight is a simulated event of its own (Config.entries)
MOST_FLIGHTS = 26  # Day 1A .. Day 1Z


@dataclass(frozen=True)
class FestivalConfig:
    entries: int = 2_000  # buy-ins sold over all flights (and the tickets used in them)
    flights: int = 3
    seed: int = 2026
    flight_end_percent: int = 30  # a flight stops when this share of its entries is left
    flight_reentry_chance: float = 0.3  # a player busted in a flight plays a later one
    flight_returning_share: float = 0.25  # ... at most this share of a flight's entries
    survivors_again: int = 1  # survivors of the first flight who play the second too
    satellite_entries: int | None = None  # None: a twentieth of the entries, at least 30
    satellite_buy_in: int = 1_000  # cents to the satellite's pool: a tenth of a seat
    satellite_fee: int = 100
    day2_late_entries: int = 2  # new players buying in straight to Day 2 (house allows it)
    bag_miscount: int = 25  # chips the floor bags too many in the last flight (confirmed)
    event: Config = Config()  # buy-in, stack, structure, dealer: the flights' and Day 2's

    def __post_init__(self) -> None:
        if not 2 <= self.flights <= MOST_FLIGHTS:
            raise ValueError(f"A festival has 2 to {MOST_FLIGHTS} flights.")
        if self.entries < MIN_FLIGHT_ENTRIES * self.flights:
            raise ValueError(
                f"{self.flights} flights need at least {MIN_FLIGHT_ENTRIES * self.flights} "
                "entries, 10 a flight."
            )
        if not 1 <= self.flight_end_percent <= 99:
            raise ValueError("A flight stops at a share of 1 to 99 % of its entries.")
        if self.satellite_seats < 1:
            raise ValueError("The satellite's pool buys no seat: more entries or a dearer buy-in.")
        if self.flight_tickets > self.returning_room(self.flights - 1):
            raise ValueError("The satellite wins more seats than the last flight has room for.")
        if self.day2_late_entries < 0:
            raise ValueError("Late entries into Day 2 cannot be fewer than none.")

    @property
    def satellite_field(self) -> int:
        if self.satellite_entries is not None:
            return self.satellite_entries
        return max(30, self.entries // 20)

    @property
    def seat_value(self) -> int:
        """A seat is the target's buy-in with its fee (issue 17)."""
        return self.event.buy_in + self.event.fee

    @property
    def satellite_seats(self) -> int:
        return self.satellite_field * self.satellite_buy_in // self.seat_value

    @property
    def day2_tickets(self) -> int:
        """The tickets used for a late entry into Day 2: half of them, rounded down (the
        house allows late entry into Day 2 when there are any)."""
        return self.satellite_seats // 2

    @property
    def flight_tickets(self) -> int:
        """The tickets used to enter the last flight: the others."""
        return self.satellite_seats - self.day2_tickets

    @property
    def day2_late_entry(self) -> bool:
        return bool(self.day2_late_entries or self.day2_tickets)

    def flight_entries(self) -> list[int]:
        return flight_shares(self.entries, self.flights)

    def returning_room(self, flight: int) -> int:
        """How many of a flight's entries may be players seen before (returning players,
        the survivors playing again, the ticket holders): the rest are new faces."""
        return math.floor(self.flight_entries()[flight] * self.flight_returning_share)

    def flight_config(self, flight: int) -> Config:
        """A flight is one simulated event of its entries, with a seed of its own."""
        return Config(
            **{
                **_config_fields(self.event),
                "entries": self.flight_entries()[flight],
                "seed": self.seed * 100 + flight + 1,
                "deal": False,
            }
        )

    def satellite_config(self) -> Config:
        return Config(
            **{
                **_config_fields(self.event),
                "entries": self.satellite_field,
                "seed": self.seed * 100 + 99,
                "buy_in": self.satellite_buy_in,
                "fee": self.satellite_fee,
                "deal": False,
            }
        )

    def day2_config(self) -> Config:
        return Config(**{**_config_fields(self.event), "seed": self.seed * 100})


def _config_fields(config: Config) -> dict:
    return {name: getattr(config, name) for name in Config.__dataclass_fields__}


def flight_names(count: int) -> list[str]:
    """Day 1A, Day 1B, ... as the festival's schedule prints them."""
    return [f"Day 1{letter}" for letter in string.ascii_uppercase[:count]]


def flight_shares(entries: int, flights: int) -> list[int]:
    """The entries spread over the flights: as even as whole entries allow, the later
    flights taking the odd ones (the last day of a festival fills up most)."""
    if flights < 1:
        raise ValueError("at least one flight")
    base, odd = divmod(entries, flights)
    return [base + (1 if flight >= flights - odd else 0) for flight in range(flights)]


def flight_stop_target(entries: int, percent: int) -> int:
    """How many players are left when a flight of `entries` stops at `percent`: the
    most with `left * 100 <= entries * percent` (tournaments.engine.flights), and at
    least two (one left is a winner, not a survivor)."""
    return max(2, entries * percent // 100)


def returning_pick(
    busted: Sequence[int], rng: random.Random, *, chance: float, most: int, least: int = 0
) -> list[int]:
    """The players busted in earlier flights who buy in to the next one: each with
    `chance`, in the order they busted, at most `most`, at least `least` (the first to
    bust come back where chance brought too few); a player once."""
    players = list(dict.fromkeys(busted))  # in order, once each
    picked: list[int] = []
    for player in players:
        if len(picked) >= most:
            break
        if rng.random() < chance:
            picked.append(player)
    for player in players:
        if len(picked) >= min(least, most):
            break
        if player not in picked:
            picked.append(player)
    return picked


def survivors_pick(survivors: Sequence[int], count: int) -> list[int]:
    """The survivors of the first flight who play the second as well (the house allows
    re-entering a later flight): the first `count` of them, by entry."""
    return list(dict.fromkeys(survivors))[:count]

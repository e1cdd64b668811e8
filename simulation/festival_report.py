"""What a simulated festival reports: a line per flight, the satellite, Day 2, and the
time each kind of operation took over the whole festival."""

from dataclasses import dataclass, field

from simulation.config import Report
from simulation.timing import Figures, figures_table


@dataclass
class FlightLine:
    name: str
    entries: int = 0  # buy-ins sold in the flight (re-entries and tickets too)
    reentries: int = 0  # within the flight
    returning: int = 0  # players who played an earlier flight
    tickets: int = 0  # entered with a satellite's ticket
    survivors: int = 0
    bags: int = 0
    bagged: int = 0  # chips in the bags
    difference: int = 0  # confirmed: bags less chips in play
    reason: str = ""  # why play stopped (FlightEnd.reason)
    level: int = 0
    forfeited: int = 0  # bags forfeited under the survivor rule (known at Day 2)


@dataclass
class SatelliteLine:
    entries: int = 0
    seats: int = 0
    tickets_issued: int = 0
    tickets_used: int = 0
    cash_paid: int = 0  # what the seats left, in cents


@dataclass
class FestivalReport:
    seed: int
    seconds: float = 0.0
    flights: list[FlightLine] = field(default_factory=list)
    satellite: SatelliteLine = field(default_factory=SatelliteLine)
    day2: Report | None = None
    day2_seed: str = ""
    day2_field: int = 0  # entries on Day 2, one per carried bag
    day2_late: int = 0  # late entries straight into Day 2 (with a ticket or cash)
    day2_chips: int = 0  # their chips at the redraw
    players_two_flights: int = 0  # players who entered more than one flight
    timings: list[Figures] = field(default_factory=list)

    @property
    def entries(self) -> int:
        return sum(line.entries for line in self.flights)

    def lines(self) -> list[str]:
        lines = [
            f"Simulated festival, seed {self.seed}: {self.seconds:,.1f} s",
            f"  {len(self.flights)} flights, {self.entries:,} entries; "
            f"{self.players_two_flights:,} players entered two flights or more",
            "",
            "Flights: entries (re-entries, returning, tickets), survivors, bags, chips bagged, "
            "difference, forfeited, stopped",
        ]
        lines += [
            f"  {f.name:<7} {f.entries:>6,} ({f.reentries:,}, {f.returning:,}, {f.tickets:,})"
            f"  {f.survivors:>5,}  {f.bags:>5,}  {f.bagged:>12,}  {f.difference:>+6,}"
            f"  {f.forfeited:>3,}  {f.reason} in level {f.level}"
            for f in self.flights
        ]
        s = self.satellite
        lines += [
            "",
            f"Satellite: {s.entries:,} entries; seats won as tickets {s.seats:,} "
            f"({s.tickets_issued:,} issued, {s.tickets_used:,} used); "
            f"cash {s.cash_paid / 100:,.2f}",
        ]
        if self.day2 is not None:
            d = self.day2
            lines += [
                "",
                f"Day 2 (redraw seed {self.day2_seed}): {self.day2_field:,} players with "
                f"{self.day2_chips:,} chips from the bags, {self.day2_late:,} late entries, "
                f"at {d.tables:,} tables",
                f"  rounds {d.rounds:,}, hands {d.hands:,}, bust-outs {d.busts:,}; "
                f"hand-for-hand rounds {len(d.h4h_rounds)}; final table drawn: "
                f"{'yes' if d.final_table else 'no'}; ended in level {d.level}",
                f"  prize pool {d.prize_pool / 100:,.2f}; places paid {d.places_paid:,}; "
                f"payments {d.payments:,} ({d.paid_out / 100:,.2f}); winner {d.winner}",
            ]
        lines += ["", *figures_table(self.timings, wall=self.seconds)]
        return lines

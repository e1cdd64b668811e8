"""A whole festival's main event through Floorman's services (issue 17), for
`manage.py simulate --flights N`.

1. The event, with its structure and the house's settings for flights and Day 2
   (flights stop at a share of their entries, a player may enter a later flight, a
   player surviving two flights keeps the larger stack), and its flights (Day 1A, ...:
   prizes.services.events.flight_add).
2. Each flight is one run (`FlightRun`): registration, draw, play until the services
   stop it at the share; then bag and tag: every survivor's chips bagged, the bags
   checked against the chips in play, confirmed by the director. Players busted in an
   earlier flight buy in again; one survivor of the first flight plays the second too
   (the survivor rule forfeits one of the two bags).
3. Before the last flight, the satellite (`SatelliteRun`): its seats are won as
   tickets, used to enter the last flight.
4. Day 2 (`Day2Run`): the bags carried, the seeded redraw, play to the end, every
   prize of the event paid.
The festival's invariants (`festival_invariants`) are checked after every step.
"""

import random
import time
from collections.abc import Callable
from datetime import timedelta

from django.utils import timezone

from hands.services.busts import tournament_edit
from payouts.selectors import payout_table
from prizes.services import events as event_services
from simulation import setup
from simulation.desk import Arrival
from simulation.festival_plan import (
    FestivalConfig,
    flight_names,
    returning_pick,
    survivors_pick,
)
from simulation.festival_report import FestivalReport, FlightLine, SatelliteLine
from simulation.festival_runs import Day2Run, FlightRun, SatelliteRun
from simulation.invariants import festival as festival_invariants
from simulation.timing import Timings
from tournaments.models import (
    Bag,
    BagStatus,
    Entry,
    EntryStatus,
    FlightEnd,
    Ticket,
    TicketStatus,
    Tournament,
)


class Festival:
    """One festival's main event, its flights, satellite and Day 2 (see the module)."""

    def __init__(self, config: FestivalConfig, say: Callable[[str], None] | None = None):
        self.config = config
        self.rng = random.Random(f"floorman-festival-{config.seed}")
        self.names = setup.player_names(random.Random(f"floorman-names-{config.seed}"))
        self.timings = Timings()
        self.report = FestivalReport(seed=config.seed)
        self.say_to = say
        self.started = time.perf_counter()
        self.event: Tournament | None = None
        self.flights: list[Tournament] = []
        self.tickets: list[int] = []  # the satellite's, not used yet
        self.day2 = Day2Run(self, config.day2_config())  # the event: made first, played last

    def say(self, text: str) -> None:
        if self.say_to:
            self.say_to(f"[{time.perf_counter() - self.started:7.1f} s] {text}")

    def run(self) -> FestivalReport:
        with setup.seeded_draws(self.config.seed):
            self.event_create()
        last = len(self.flights) - 1
        for number, flight in enumerate(self.flights):
            if number == last:
                self.satellite_play()
            self.flight_play(number, flight)
        self.day2_play()
        self.report.seconds = time.perf_counter() - self.started
        self.report.timings = self.timings.figures()
        return self.report

    # --- The event and its flights --------------------------------------------------

    def event_create(self) -> None:
        config = self.config
        self.day2.create(
            {
                "flight_end_percent": config.flight_end_percent,
                "flight_reentry": True,
                "survivor_keeps": "larger",
                "day2_late_entry": config.day2_late_entry,
                # A late entry into Day 2 gets about the stack of a survivor.
                "day2_late_stack": 2 * config.event.starting_stack,
            }
        )
        self.event = self.day2.tournament
        start = timezone.now()
        for number, name in enumerate(flight_names(config.flights)):
            flight = self.timings.call(
                "flight_add",
                event_services.flight_add,
                actor=None,
                event_id=self.event.pk,
                flight_name=name,
                start_at=start + timedelta(days=number),
            )
            self.flights.append(flight)
        self.say(f"event {self.event.pk}: flights {', '.join(flight_names(config.flights))}")

    def flight_play(self, number: int, flight: Tournament) -> None:
        config = self.config.flight_config(number)
        run = FlightRun(self, config, tournament=flight)
        if number == len(self.flights) - 1:
            run.miscount = self.config.bag_miscount
        if config.capacity != flight.capacity:  # the director sizes each day's field
            run.service(
                "tournament_edit",
                tournament_edit,
                data={"capacity": config.capacity},
            )
        arrivals = self.arrivals(number)
        run.desk.arrivals = list(arrivals)  # the desk takes them in turn
        run.run()
        flight.refresh_from_db()
        line = FlightLine(name=flight.flight_name)
        line.entries = run.report.entries
        line.reentries = run.report.reentries
        line.returning = sum(1 for a in arrivals if a.ticket_id is None)
        line.tickets = sum(1 for a in arrivals if a.ticket_id is not None)
        end = FlightEnd.objects.get(flight=flight)
        bags = Bag.objects.filter(flight=flight)
        line.survivors = flight.entries.filter(status=EntryStatus.ACTIVE).count()
        line.bags = bags.count()
        line.bagged = sum(bags.values_list("chips", flat=True))
        line.difference = end.difference or 0
        line.reason = end.reason
        line.level = flight.current_level or 0
        self.report.flights.append(line)

    def arrivals(self, number: int) -> list[Arrival]:
        """Who of the players seen before buys in to flight `number`: in the second
        flight the first flight's chosen survivors (spared by the dealer, so that they
        survive twice), then players busted in earlier flights where the house lets
        them enter a later flight; in the last flight the satellite's ticket holders."""
        config = self.config
        room = config.returning_room(number)
        arrivals: list[Arrival] = []
        if number == len(self.flights) - 1:
            arrivals += self.ticket_holders()[: config.flight_tickets]
        if number == 1:
            survivors = (
                Entry.objects.filter(tournament=self.flights[0], status=EntryStatus.ACTIVE)
                .order_by("number")
                .values_list("player_id", flat=True)
            )
            arrivals += [
                Arrival(player, spared=True)
                for player in survivors_pick(list(survivors), config.survivors_again)
            ]
        if number >= 1 and self.event.flight_reentry:
            came = {arrival.player_id for arrival in arrivals}
            came |= set(
                Entry.objects.filter(tournament__in=self.flights[1:number]).values_list(
                    "player_id", flat=True
                )
            )
            survived = set(
                Entry.objects.filter(
                    tournament__in=self.flights[:number], status=EntryStatus.ACTIVE
                ).values_list("player_id", flat=True)
            )
            busted = [
                player
                for player in Entry.objects.filter(
                    tournament__in=self.flights[:number], status=EntryStatus.BUSTED
                )
                .order_by("tournament_id", "number")
                .values_list("player_id", flat=True)
                if player not in survived and player not in came
            ]
            picked = returning_pick(
                busted,
                self.rng,
                chance=config.flight_reentry_chance,
                most=max(0, room - len(arrivals)),
                least=1,  # a player busted in an earlier flight plays this one
            )
            arrivals += [Arrival(player) for player in picked]
        return arrivals

    def ticket_holders(self) -> list[Arrival]:
        """The satellite's tickets not used yet, each with its holder."""
        return [
            Arrival(player_id, ticket_id=ticket_id)
            for ticket_id, player_id in Ticket.objects.filter(
                pk__in=self.tickets, status=TicketStatus.ISSUED
            )
            .order_by("pk")
            .values_list("pk", "holder_id")
        ]

    # --- The satellite ----------------------------------------------------------------

    def satellite_play(self) -> None:
        run = SatelliteRun(self, self.config.satellite_config())
        report = run.run()
        satellite = run.tournament
        tickets = list(
            Ticket.objects.filter(satellite=satellite).order_by("pk").values_list("pk", flat=True)
        )
        self.tickets = tickets
        line = self.report.satellite = SatelliteLine(entries=report.entries)
        line.seats = payout_table(satellite).seats
        line.tickets_issued = len(tickets)
        line.cash_paid = report.paid_out
        self.say(f"satellite: {len(tickets)} seats won as tickets")
        festival_invariants.tickets_check(self.event, step="the satellite's end")

    # --- Day 2 ------------------------------------------------------------------------

    def day2_play(self) -> None:
        run = self.day2
        report = self.report
        festival_invariants.tickets_check(self.event, step="before Day 2")
        run.late = self.ticket_holders()  # the tickets left enter Day 2 late
        report.day2 = run.run()
        event = self.event
        report.day2_chips = sum(
            Bag.objects.filter(flight__parent=event, status=BagStatus.CARRIED).values_list(
                "chips", flat=True
            )
        )
        forfeited = dict.fromkeys((flight.pk for flight in self.flights), 0)
        for flight_id in Bag.objects.filter(
            flight__parent=event, status=BagStatus.FORFEITED
        ).values_list("flight_id", flat=True):
            forfeited[flight_id] += 1
        for line, flight in zip(report.flights, self.flights, strict=True):
            line.forfeited = forfeited[flight.pk]
        players = Entry.objects.filter(tournament__in=self.flights).values_list(
            "player_id", "tournament_id"
        )
        flights_of: dict[int, set[int]] = {}
        for player, flight in players:
            flights_of.setdefault(player, set()).add(flight)
        report.players_two_flights = sum(1 for seen in flights_of.values() if len(seen) > 1)
        report.satellite.tickets_used = Ticket.objects.filter(
            pk__in=self.tickets, status=TicketStatus.USED
        ).count()
        festival_invariants.tickets_check(event, step="the end")


def simulate_festival(
    config: FestivalConfig, say: Callable[[str], None] | None = None
) -> FestivalReport:
    """Run one simulated festival; raise SimulationError when an invariant breaks."""
    return Festival(config, say).run()

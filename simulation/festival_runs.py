"""The runs of a festival (issue 17), each one `Simulation` of its tournament: a
flight played until its day ends, the satellite played until its seats are won, and
Day 2 of the event played to the end and paid. What differs from a single event is
said by the hooks they override; the selling, dealing and floor are the simulation's own.
"""

from clock import engine as clock_engine
from clock import services as clock_services
from clock.models import Clock
from clock.selectors import registration_open
from payouts.selectors import satellite_seats
from seating.services import day2 as day2_services
from seating.services import desk as desk_intentions
from simulation import floor, setup
from simulation.festival_plan import flight_stop_target
from simulation.invariants import SimulationError
from simulation.invariants import festival as festival_invariants
from simulation.run import Simulation
from tournaments.models import Bag, BagStatus, EntryStatus, FlightEnd, TournamentStatus
from tournaments.selectors import active_entry_count
from tournaments.services import bags as bag_services


class FestivalRun(Simulation):
    """A run of the festival: the names, the timings and the wall clock are the
    festival's (`festival`), the tournament may already exist."""

    light_checks = False  # a flight's, the satellite's and Day 2's own checks, in full

    def __init__(self, festival, config, tournament=None):
        super().__init__(
            config,
            festival.say_to,
            timings=festival.timings,
            names=festival.names,
            started=festival.started,
        )
        self.festival = festival
        self.tournament = tournament

    def stop_at(self) -> int:
        """The players left when the run's play stops."""
        return 1

    def bust_budget(self) -> int | None:
        """Never past the players left when play stops: the run's last bust-out ends
        its play with the last hand finished (`busts_last`). While registration is open
        one more stays: play stops at a bust once no more can come."""
        own = super().bust_budget()
        stop = self.stop_at() + (0 if self.desk.closed else 1)
        left = max(0, active_entry_count(self.tournament) - stop)
        return left if own is None else min(own, left)

    def stop_missed(self) -> None:
        """Play must have stopped by itself once the players left are down to the stop
        (registration over): a run that goes on is a broken invariant, not a long day."""
        tournament = self.tournament
        tournament.refresh_from_db()
        if tournament.status == TournamentStatus.FINISHED or registration_open(tournament):
            return
        left = active_entry_count(self.tournament)
        if left <= self.stop_at():
            raise SimulationError(
                f"round {self.report.rounds}",
                f"{left} players are left (the stop is {self.stop_at()}) but play goes on",
            )

    def _round(self) -> None:
        super()._round()
        self.stop_missed()


class FlightRun(FestivalRun):
    """A flight (Day 1A, ...): its own registration and draw, played until the house's
    share of its entries is left (tournaments.engine.flights: the services stop it);
    then its survivors bag their chips (`bags_record`). No hand-for-hand: nobody is
    paid on Day 1."""

    hand_for_hand = False
    miscount = 0  # chips the floor bags too many in the first bag (the director confirms)
    draws_final_table = False  # a day's last tables are broken as any (TDA 10-B), not redrawn
    busts_last = True

    def open_registration(self) -> None:
        config = self.config
        self.service(
            "tournament_status_set", desk_intentions.tournament_status_set, status="registering"
        )
        self.say(f"{self.tournament.flight_name}: {config.entries:,} entries to sell")
        self.desk.register_new(config.capacity)
        self.desk.register_new(config.early_alternates)
        self.check("registration", seated=False)
        self.report.tables = setup.tables_add(self)

    def stop_at(self) -> int:
        """The share of the flight's entries at which the services stop it (the
        parent's `flight_end_percent`)."""
        sold = self.tournament.entries.exclude(status=EntryStatus.CANCELLED).count()
        return flight_stop_target(sold, self.tournament.parent.flight_end_percent)

    def check(self, step: str, **what) -> None:
        self.timings.call(
            "invariants",
            festival_invariants.flight_check,
            flight=self.tournament,
            step=f"{self.tournament.flight_name}, {step}",
            **what,
        )

    def finish(self) -> None:
        """The day is over: every survivor's chips bagged, the bags checked against the
        chips in play and confirmed by the director."""
        flight = self.tournament
        flight.refresh_from_db()
        if not FlightEnd.objects.filter(flight=flight).exists():
            raise SimulationError(f"{flight.flight_name}, the end", "the flight never stopped")
        self.check("play stopped", stopped=True)
        survivors = list(
            flight.entries.filter(status=EntryStatus.ACTIVE)
            .order_by("number")
            .values_list("pk", "chips")
        )
        miscount = self.miscount
        for entry_id, chips in survivors:  # as the floor calls them, table by table
            counted = chips + miscount if entry_id == survivors[0][0] else chips
            self.service("bag_record", bag_services.bag_record, entry_id=entry_id, chips=counted)
        self.check("bags counted", stopped=True)
        self.service(
            "flight_bags_confirm",
            bag_services.flight_bags_confirm,
            accept_difference=bool(miscount),
            note=f"Bag 1 counted again: {miscount:+} chips, confirmed." if miscount else "",
        )
        self.check("bags confirmed", stopped=True, confirmed=True)
        self.say(f"{flight.flight_name}: {len(survivors):,} survivors bagged")


class SatelliteRun(FestivalRun):
    """The satellite: its field plays until as many are left as its pool buys seats
    (hands.services.busts.play_end); each of them wins a ticket to the event; what the
    seats leave is paid in cash."""

    hand_for_hand = False
    busts_last = True

    def open_registration(self) -> None:
        config = self.config
        event = self.festival.event
        setup.tournament_create(
            self,
            name=f"Satellite to {event.name}",
            settings={"satellite_target_id": event.pk, "satellite_remainder": "next_place"},
        )
        self.say(f"satellite {self.tournament.pk}: {config.entries:,} entries to sell")
        self.desk.register_new(config.capacity)
        self.desk.register_new(config.early_alternates)
        self.check("registration", seated=False)
        self.report.tables = setup.tables_add(self)

    def stop_at(self) -> int:
        """The seats its pool buys (the payout table's count, as the services read it)."""
        return satellite_seats(self.tournament).count

    def check(self, step: str, **what) -> None:
        self.timings.call(
            "invariants",
            festival_invariants.satellite_check,
            satellite=self.tournament,
            step=f"satellite, {step}",
            **what,
        )


class Day2Run(FestivalRun):
    """The event itself: made first (the flights take its structure and settings),
    played last. Day 2 seats the carried bags by a seeded redraw (TDA 7,
    seating.services.day2.day2_start), plays to a winner and pays over the whole event."""

    late: list = []  # the Arrivals entering Day 2 late (with the tickets left)

    def create(self, settings: dict) -> None:
        setup.tournament_create(
            self,
            name=f"Simulated festival main event (seed {self.festival.config.seed})",
            settings=settings,
            status=None,
        )

    def open_registration(self) -> None:
        carried = Bag.objects.filter(flight__parent=self.tournament).exclude(
            status=BagStatus.FORFEITED
        )
        late = len(self.late) + self.festival.config.day2_late_entries
        self.report.tables = setup.tables_add(self, places=carried.count() + late)

    def start(self) -> None:
        event = self.tournament
        seed = self.festival.rng.randbytes(16).hex()
        entries = self.timings.call(
            "day2_start", day2_services.day2_start, actor=None, event_id=event.pk, seed=seed
        )
        self.festival.report.day2_seed = seed
        self.festival.report.day2_field = len(entries)
        self.check("the redraw", balanced=True, day2_start=True)
        late = self.festival.config.day2_late_entries
        if self.late or late:  # TDA 8-A: late entries straight into Day 2, seated late
            self.desk.arrivals = list(self.late)
            self.desk.register_new(len(self.late) + late)
            self.festival.report.day2_late = self.report.entries
            self.check("late entries")
            floor.seating_pass(self)  # the floor balances what the late seats left uneven
        self.desk.closed = True  # and then no more (the desk does not sell during Day 2)
        event.refresh_from_db()
        if event.status != TournamentStatus.RUNNING:
            if event.status == TournamentStatus.PLANNED:
                self.service(
                    "tournament_status_set",
                    desk_intentions.tournament_status_set,
                    status="registering",
                )
            self.service(
                "tournament_status_set", desk_intentions.tournament_status_set, status="running"
            )
        clock = Clock.objects.get(pk=event.pk)
        if clock.status != clock_engine.RUNNING:
            self.service("clock_act", clock_services.clock_act, action="start")
        self.service("clock_act", clock_services.clock_act, action="pause")
        floor.h4h_set_margin(self)
        self.check("the start", balanced=True)

    def check(self, step: str, **what) -> None:
        self.timings.call(
            "invariants",
            festival_invariants.day2_check,
            event=self.tournament,
            step=f"Day 2, {step}",
            **what,
        )

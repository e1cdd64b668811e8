"""The registration desk: buy-ins, re-entries, the alternates list (casino §8b)."""

import math
from dataclasses import dataclass

from clock import engine as clock_engine
from clock.selectors import registration_open
from seating import services as seating_services
from seating.selectors import unseated_entries
from seating.services import desk as desk_intentions
from tournaments import engine as desk_engine
from tournaments import services as desk_services
from tournaments.models import Entry, EntryStatus
from tournaments.selectors import active_entry_count, waiting_alternates

STATISTICS_EVERY = 500  # sales between two looks at the planner's statistics


@dataclass(frozen=True)
class Arrival:
    """A player the house knows who buys in, with a ticket (issue 17) or cash."""

    player_id: int
    ticket_id: int | None = None
    spared: bool = False  # the dealer never busts this entry (Simulation.spared)

    @property
    def kind(self) -> str:
        return "entry_register (ticket)" if self.ticket_id else "entry_register (returning)"


class Desk:
    """Sells the `entries` buy-ins of the run: a sold-out field and the first alternates
    before the start, then during late registration the re-entries of busted players
    and new players, spread over the rounds left so that all are sold before it closes.
    Whoever is on the alternates list takes a freed place first."""

    def __init__(self, sim):
        self.sim = sim
        self.entries_of: dict[int, int] = {}  # player -> entries bought
        self.closed = False
        # Players known to the house who buy in before new ones do (a festival's
        # players back from an earlier flight, the satellite's ticket holders).
        self.arrivals: list[Arrival] = []

    # --- Selling ---------------------------------------------------------------------

    def register_new(self, count: int) -> None:
        sim = self.sim
        for sold in range(count):
            if sold and sold % STATISTICS_EVERY == 0:
                sim.statistics_keep()  # as autovacuum would while the desk sells
            if self.arrivals:
                self._arrive(self.arrivals.pop(0))
                continue
            name = next(sim.names)
            registration = sim.service(
                "entry_register", desk_intentions.entry_register, player_data={"name": name}
            )
            self._sold(registration)

    def _arrive(self, arrival: "Arrival") -> None:
        extra = {} if arrival.ticket_id is None else {"ticket_id": arrival.ticket_id}
        registration = self.sim.service(
            arrival.kind, desk_intentions.entry_register, player_id=arrival.player_id, **extra
        )
        self._sold(registration)
        if registration.entry is not None and arrival.spared:
            self.sim.spared.add(registration.entry.pk)

    def reenter(self, player_ids: list[int]) -> None:
        for player_id in player_ids:
            registration = self.sim.service(
                "entry_register (re-entry)",
                desk_intentions.entry_register,
                player_id=player_id,
                reentry=True,
            )
            self._sold(registration)

    def _sold(self, registration) -> None:
        report = self.sim.report
        if registration.entry is not None:
            entry = registration.entry
            report.entries += 1
            report.reentries += entry.is_reentry
            self.entries_of[entry.player_id] = entry.reentry_number
        else:
            report.alternates += 1
            self.entries_of.setdefault(registration.alternate.player_id, 0)

    def alternates_enter(self) -> None:
        """Casino §8b: each freed place goes to the first alternate in line."""
        sim = self.sim
        tournament = sim.tournament
        while waiting_alternates(tournament).exists():
            free = desk_engine.free_places(
                tournament.capacity, active_entries=active_entry_count(tournament)
            )
            if not free:
                return
            entry = sim.service("alternate_enter_next", desk_intentions.alternate_enter_next)
            sim.report.entries += 1
            sim.report.reentries += entry.is_reentry
            sim.report.alternates_entered += 1
            self.entries_of[entry.player_id] = entry.reentry_number

    # --- Late registration -----------------------------------------------------------

    def is_open(self) -> bool:
        tournament = self.sim.tournament
        tournament.refresh_from_db()
        return registration_open(tournament)

    def rounds_left(self) -> int:
        """How many more times the desk sells before late registration closes: the clock
        time left until the end of the last late level, in rounds of hands."""
        clock, steps, reading = self.sim.clock_reading()
        until = clock_engine.position_of_level(steps, self.sim.tournament.late_reg_until_level)
        if until is None or reading.position > until:
            return 0
        # Breaks are skipped: no hands are dealt in them (steps are 1-based positions).
        now = 0 if steps[reading.position - 1].is_break else reading.left_ms / 1000
        later = steps[reading.position : until]
        seconds = now + sum(step.minutes * 60 for step in later if not step.is_break)
        return max(1, math.ceil(seconds / self.sim.config.seconds_per_round))

    def after_round(self, busted: list[int]) -> None:
        """Between rounds while late registration is open: freed places to the
        alternates, then this round's share of the buy-ins still to sell."""
        sim = self.sim
        tournament = sim.tournament
        self.alternates_enter()
        waiting = waiting_alternates(tournament).count()
        remaining = sim.config.entries - sim.report.entries - waiting
        if remaining > 0:
            share = math.ceil(remaining / max(1, self.rounds_left()))
            reentries = self._reentries(busted, share)
            self.reenter(reentries)
            self.register_new(share - len(reentries))
        self.alternates_enter()
        if unseated_entries(tournament.pk):
            # Every table was full: the floor seats them as tables open (TDA 8-A).
            sim.service("draw (late)", seating_services.seating_draw)

    def _reentries(self, busted: list[int], share: int) -> list[int]:
        sim = self.sim
        players = list(
            Entry.objects.filter(pk__in=busted, status=EntryStatus.BUSTED)
            .order_by("number")
            .values_list("player_id", flat=True)
        )
        waiting = set(waiting_alternates(sim.tournament).values_list("player_id", flat=True))
        return [
            player
            for player in players
            if player not in waiting
            and self.entries_of.get(player, 1) <= sim.config.reentry_max
            and sim.rng.random() < sim.config.reentry_chance
        ][:share]

    def close(self) -> None:
        """Late registration is over: whoever still waits on the alternates list goes
        home (the TD withdraws them), and the payout table holds from now on."""
        sim = self.sim
        self.closed = True
        for alternate in list(waiting_alternates(sim.tournament)):
            sim.service(
                "alternate_withdraw",
                desk_services.alternate_withdraw,
                alternate_id=alternate.pk,
            )
            sim.report.alternates_withdrawn += 1

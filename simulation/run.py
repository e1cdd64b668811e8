"""The run: set up, sell the field, draw, play rounds until a winner (or a deal), pay.

Every change goes through the services the pages and the API call; the invariants are
checked after every step. The clock is started and then held: the simulation moves it
on by the clock time of each round with the console's own actions (adjust, next level),
so that wall time, which differs from run to run, never decides when a level ends.
"""

import random
import time
from collections.abc import Callable

from django.utils import timezone

from clock import engine as clock_engine
from clock import services as clock_services
from clock.models import Clock
from clock.selectors import level_in_play, structure_steps
from hands.selectors import hand_for_hand
from payouts.selectors import payout_table
from prizes import services as prize_services
from prizes.models import DealMethod, Payment
from prizes.selectors import results, unpaid_prizes
from prizes.services import bounties as bounty_services
from seating import services as seating_services
from seating.selectors import table_views
from seating.services import desk as desk_intentions
from simulation import floor, setup
from simulation.config import Config, Report
from simulation.desk import Desk
from simulation.invariants import check_all
from simulation.invariants.bounties import bounties_unpaid, bounty_check, bounty_money
from simulation.play import round_play
from simulation.statistics import autovacuum_off, stale_tables_analyze
from simulation.timing import Timings
from tournaments.models import Entry, EntryStatus, TournamentStatus
from tournaments.selectors import active_entry_count, tournament_totals

PROGRESS_EVERY = 10  # rounds between progress lines
# Rounds between full checks of the places and the ledger: each reads every bust and
# payment of the field, so checking them after every step made the checks themselves
# grow with the square of the field. The chips, seats and tables are checked after
# every step; every other step (registration, the draw, hand-for-hand, the final table,
# the deal, the end and the payments) checks everything.
FULL_CHECK_EVERY = 5


class Simulation:
    """One tournament run from its registration to its end: by itself the whole event
    (`simulate`); in a festival each flight, the satellite and Day 2 are one run each
    (`simulation.festival`), sharing the names, the timings and the clock of the wall.

    What a kind of run does differently it says by overriding the hooks below: how
    it opens and starts, how many busts a round may take, whether it plays hand-for-hand
    on the bubble, which invariants it checks and how it ends (`finish`)."""

    hand_for_hand = True  # RP-8 on the bubble
    light_checks = True  # rounds between full checks check the chips, seats and tables only
    draws_final_table = True  # RP-9: the final table drawn once it is due
    busts_last = False  # finish the hands with a bust-out after the others of a round

    def __init__(
        self,
        config: Config,
        say: Callable[[str], None] | None = None,
        *,
        timings: Timings | None = None,
        names=None,
        started: float | None = None,
    ):
        self.config = config
        self.rng = random.Random(config.seed)
        self.names = names or setup.player_names(random.Random(f"floorman-names-{config.seed}"))
        self.timings = timings or Timings()
        self.report = Report(seed=config.seed)
        self.tournament = None
        self.desk = Desk(self)
        self.h4h_done = False
        self.analyzes = False  # run(): the server's autovacuum is off, we analyze
        self.spared: set[int] = set()  # entries the dealer never busts (the festival's)
        self._say = say or (lambda text: None)
        self._started = started if started is not None else time.perf_counter()
        self._run_started = time.perf_counter()

    def say(self, text: str) -> None:
        self._say(f"[{time.perf_counter() - self._started:7.1f} s] {text}")

    def service(self, kind: str, function: Callable, /, **kwargs):
        """A service of this tournament, as staff call it, timed under `kind`."""
        return self.timings.call(
            kind, function, actor=None, tournament_id=self.tournament.pk, **kwargs
        )

    def check(self, step: str, **what) -> None:
        self.timings.call("invariants", check_all, tournament=self.tournament, step=step, **what)

    def check_round(self, step: str, number: int, **what) -> None:
        """The checks after a round's hands or seating: everything every
        FULL_CHECK_EVERY rounds and while hand-for-hand plays (the bubble's places),
        else the checks of what a round changes (check_all's `light`)."""
        full = (
            not self.light_checks
            or number % FULL_CHECK_EVERY == 0
            or hand_for_hand(self.tournament.pk).active
        )
        if full:
            self.check(step, **what)
            return
        self.timings.call(
            "invariants", check_all, tournament=self.tournament, step=step, light=True, **what
        )

    def bust_chance(self) -> float:
        early = not self.desk.closed
        return self.config.bust_chance_early if early else self.config.bust_chance

    def bust_budget(self) -> int | None:
        """The most bust-outs this round may take (None: no limit): before the bubble,
        for a run that plays it hand for hand."""
        return floor.bust_budget(self) if self.hand_for_hand else None

    # --- The clock -------------------------------------------------------------------

    def clock_reading(self):
        clock = Clock.objects.get(pk=self.tournament.pk)
        steps = structure_steps(clock.structure_id)
        return clock, steps, clock_engine.read(clock.as_state(), steps, timezone.now())

    def clock_advance(self, seconds: int) -> None:
        """One round's clock time: off the level, or on to the next level once its time
        is up (skipping breaks: nobody deals in them)."""
        _clock, steps, reading = self.clock_reading()
        left = reading.left_ms // 1000
        if seconds < left:
            self.service("clock_act", clock_services.clock_act, action="adjust", seconds=-seconds)
            return
        if reading.last_step:
            return  # the last level goes on
        self.service("clock_act", clock_services.clock_act, action="next")
        rest = seconds - left
        while True:
            _clock, steps, reading = self.clock_reading()
            if not steps[reading.position - 1].is_break or reading.last_step:
                break
            self.service("clock_act", clock_services.clock_act, action="next")
            self.report.breaks += 1
        if 0 < rest < reading.left_ms // 1000:
            self.service("clock_act", clock_services.clock_act, action="adjust", seconds=-rest)

    # --- The run ---------------------------------------------------------------------

    def statistics_keep(self) -> None:
        """The planner's statistics kept as autovacuum keeps them, where the server's
        autovacuum is off (simulation.statistics); timed as an operation of its own."""
        if self.analyzes:
            self.timings.call("analyze (autovacuum off)", stale_tables_analyze)

    def run(self) -> Report:
        self.analyzes = autovacuum_off()
        if self.analyzes:
            self.say("the server's autovacuum is off: the tables are analyzed by its rule")
        with setup.seeded_draws(self.config.seed):
            self.open_registration()
            self.start()
            while not self._over():
                self._round()
            self.finish()
        self.report.seconds = time.perf_counter() - self._run_started
        self.report.timings = self.timings.figures()
        return self.report

    def finish(self) -> None:
        """The end of the run: the prizes paid."""
        self._pay()

    def open_registration(self) -> None:
        config = self.config
        setup.tournament_create(self)
        self.say(f"tournament {self.tournament.pk}: {config.entries:,} entries to sell")
        self.desk.register_new(config.capacity)
        self.desk.register_new(config.early_alternates)  # sold out: the alternates list
        self.check("registration", seated=False)
        self.report.tables = setup.tables_add(self)
        self.say(f"{self.report.entries:,} entries, {self.report.tables} tables")
        self.statistics_keep()

    def start(self) -> None:
        self.service("seating_draw", seating_services.seating_draw)
        self.check("the draw", balanced=True)
        self.service(
            "tournament_status_set", desk_intentions.tournament_status_set, status="running"
        )
        self.service("clock_act", clock_services.clock_act, action="start")
        self.service("clock_act", clock_services.clock_act, action="pause")
        self.check("the start", balanced=True)

    def _round(self) -> None:
        self.statistics_keep()
        h4h = hand_for_hand(self.tournament.pk).active
        busted = round_play(self)
        number = self.report.rounds
        self.check_round(f"round {number}: hands", number)
        if not self.desk.closed:
            if self.desk.is_open():
                self.desk.after_round(busted)
                self.check(f"round {number}: registration")
            else:
                self.desk.close()
                closed = f"registration closed: {self.report.entries:,} entries"
                if self.hand_for_hand:  # a run that pays places (no flight, no satellite)
                    floor.h4h_set_margin(self)
                    closed += f", {payout_table(self.tournament).places_paid:,} places paid"
                self.say(closed)
        floor.seating_pass(self)
        self.check_round(f"round {number}: seating", number, balanced=True)
        if self._over() or self._deal():
            return
        if not h4h:
            self.clock_advance(self.config.seconds_per_round)
        if self.desk.closed and self.hand_for_hand and floor.h4h_maybe_start(self):
            self.check(f"round {number}: hand-for-hand starts", balanced=True)
        if number % PROGRESS_EVERY == 0:
            left = active_entry_count(self.tournament)
            tables = sum(1 for view in table_views(self.tournament.pk) if view.players)
            self.say(
                f"round {number}: {left:,} players at {tables:,} tables, "
                f"level {level_in_play(self.tournament)}"
            )

    def _over(self) -> bool:
        self.tournament.refresh_from_db()
        if self.tournament.status == TournamentStatus.FINISHED:
            return True
        return self.report.rounds > 0 and active_entry_count(self.tournament) <= 1

    # --- Deal, end, payments ---------------------------------------------------------

    def _deal(self) -> bool:
        """Casino §6: two to four players left at the final table may agree a deal;
        returns whether it ended the tournament."""
        config = self.config
        tournament = self.tournament
        left = list(
            Entry.objects.filter(tournament=tournament, status=EntryStatus.ACTIVE)
            .order_by("number")
            .values_list("pk", "chips")
        )
        tables = sum(1 for view in table_views(tournament.pk) if view.players)
        if not config.deal or self.report.deal or tables != 1 or not 2 <= len(left) <= 4:
            return False
        if self.rng.random() >= config.deal_chance:
            return False
        method = self.rng.choice([DealMethod.ICM, DealMethod.CHIP_CHOP, DealMethod.SAVE])
        chips = [count for _entry, count in left]
        save = 0
        if method == DealMethod.SAVE:
            prizes = unpaid_prizes(payout_table(tournament), len(left))
            save = (prizes[0] - prizes[1]) // 4 // 100 * 100  # a quarter of the gap, whole
            if save <= 0:
                method = DealMethod.ICM
        figures = self.timings.call(
            "deal_calculate",
            prize_services.deal_calculate,
            tournament_id=tournament.pk,
            method=method,
            chips=chips,
            save=save or None,
        )
        players = [
            {"entry": entry, "chips": count, "amount": row["amount"]}
            for (entry, count), row in zip(left, figures["players"], strict=True)
        ]
        ends = method != DealMethod.SAVE
        self.service(
            "deal_record",
            prize_services.deal_record,
            method=method,
            players=players,
            save=save,
            continue_play=not ends,
        )
        self.report.deal = f"{method} among {len(left)}" + ("" if ends else ", play went on")
        self.say(f"deal: {self.report.deal}")
        self.check("the deal", balanced=True)
        return ends

    def _pay(self) -> None:
        tournament = self.tournament
        tournament.refresh_from_db()
        if tournament.status == TournamentStatus.RUNNING:  # the clock stops with it
            self.service(
                "tournament_status_set", desk_intentions.tournament_status_set, status="finished"
            )
        self.check("the end", finished=True)
        found = results(tournament)
        for row in sorted(found.rows, key=lambda row: -row.place):  # as the cashier calls them
            if row.payable:
                self.service(
                    "prize_pay", prize_services.prize_pay, entry_id=row.entry.pk, expected=row.prize
                )
        self._bounties_pay()
        self.check("the payments", finished=True, paid=True)
        self._outcome()

    def _bounties_pay(self) -> None:
        """The cage pays every bounty won (issue 18), the winner's own among them."""
        if not self.config.bounty_format:
            return
        for knockout in bounties_unpaid(self.tournament):
            self.service("bounty_pay", bounty_services.bounty_pay, knockout_id=knockout)
        self.timings.call("invariants", bounty_check, tournament=self.tournament, step="bounties")

    def _outcome(self) -> None:
        tournament = self.tournament
        report = self.report
        totals = tournament_totals(tournament)
        table = payout_table(tournament, totals)
        report.level = level_in_play(tournament)
        report.places_paid = table.places_paid
        report.prize_pool = totals.prize_pool.total
        report.paid_out = totals.prize_pool.paid_out
        report.payments = Payment.objects.filter(entry__tournament=tournament).count()
        first = [row for row in results(tournament, table).rows if row.place == 1]
        report.winner = " / ".join(
            f"{row.entry.player.name} (#{row.entry.number})" for row in first
        )
        self.say(f"winner: {report.winner}")
        if self.config.bounty_format:
            money = bounty_money(tournament)
            report.bounty_in, report.bounties_paid = money.taken_in, money.paid
            report.winner_bounty, report.knockouts = money.winner_own, money.knockouts


def simulate(config: Config, say: Callable[[str], None] | None = None) -> Report:
    """Run one simulated event; raise SimulationError when an invariant breaks."""
    return Simulation(config, say).run()

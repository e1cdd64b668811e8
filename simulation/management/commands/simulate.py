"""`manage.py simulate`: a whole tournament through Floorman's services, with figures;
with `--flights N`, a festival's main event: N flights, bag and tag, a satellite
feeding the last flight with tickets, Day 2 (issue 17).

Writes a tournament, its players and tables into the configured database. 10,000
entries want PostgreSQL (DATABASE_URL); the embedded SQLite works, slowly.
"""

from django.core.management.base import BaseCommand, CommandError, CommandParser

from simulation.config import Config
from simulation.festival import simulate_festival
from simulation.festival_plan import FestivalConfig
from simulation.invariants import SimulationError
from simulation.run import simulate


class Command(BaseCommand):
    help = (
        "Simulate a whole tournament through Floorman's own services (registration, "
        "seating, clock, hands, hand-for-hand, deals, payouts), checking its invariants "
        "after every step, and print the time each kind of operation took."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--entries", type=int, default=Config.entries, help="Buy-ins to sell in all."
        )
        parser.add_argument(
            "--seed", type=int, default=Config.seed, help="The same seed plays the same event."
        )
        parser.add_argument(
            "--deal",
            action="store_true",
            help="Let the last two to four players agree a deal now and then (casino §6).",
        )
        parser.add_argument(
            "--flights",
            type=int,
            default=0,
            help="A festival's main event: the entries spread over this many flights "
            "(Day 1A, 1B, ...), bag and tag, a satellite, Day 2 (issue 17).",
        )

        parser.add_argument(
            "--bounty",
            choices=("knockout", "pko"),
            default="",
            help="A bounty event (issue 18): a fixed knockout or a progressive knockout "
            "(half of each bounty paid, half on the eliminator's head); every bounty paid "
            "at the end and checked against the bounty money taken in.",
        )

    def handle(
        self, *args, entries: int, seed: int, deal: bool, flights: int, bounty: str, **options
    ) -> None:
        try:
            config = Config(entries=entries, seed=seed, deal=deal, bounty_format=bounty)
            if flights:
                festival = FestivalConfig(entries=entries, flights=flights, seed=seed, event=config)
        except ValueError as error:
            raise CommandError(str(error)) from None
        say = self.stdout.write if options["verbosity"] >= 1 else None
        try:
            report = simulate_festival(festival, say) if flights else simulate(config, say)
        except SimulationError as error:
            raise CommandError(f"Invariant broken at {error}") from error
        self.stdout.write("")
        for line in report.lines():
            self.stdout.write(line)

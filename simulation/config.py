"""The simulated event's settings and what a run reports."""

import math
from dataclasses import dataclass, field

from simulation.timing import Figures, figures_table, target_line


@dataclass(frozen=True)
class Config:
    entries: int = 10_000  # buy-ins sold in all: first entries, re-entries, alternates
    seed: int = 2026
    deal: bool = False  # the players left may agree a deal at the final table
    deal_chance: float = 0.35  # ... each hand while two to four are left
    buy_in: int = 10_000  # cents to the prize pool
    fee: int = 1_000
    starting_stack: int = 20_000
    table_size: int = 9
    level_minutes: int = 10
    late_until_level: int = 2  # late registration and re-entries until the end of this level
    reentry_max: int = 2
    seconds_per_round: int = 120  # the clock time one hand at every table takes
    capacity_share: float = 0.85  # the places sold before the start: the rest come later
    early_alternates_share: float = 0.02  # walk-ups put on the alternates list before the start
    reentry_chance: float = 0.4  # a player busted in the re-entry period buys in again
    bust_chance_early: float = 0.3  # per table and hand, while registration is open
    bust_chance: float = 0.8  # afterwards
    # Bounties (issue 18): "" none, "knockout" or "pko"; the bounty on each entry in cents.
    bounty_format: str = ""
    bounty: int = 5_000
    bounty_cash_percent: int = 50  # PKO: the cash share, the rest on the eliminator's head

    def __post_init__(self) -> None:
        if self.entries < 10:
            raise ValueError("A simulated event needs at least 10 entries.")
        if self.bounty_format not in ("", "knockout", "pko"):
            raise ValueError("A simulated event plays no bounties, knockout or pko.")
        if self.bounty_format and self.deal:
            # A deal that ends the event leaves bounties on the heads still in play.
            raise ValueError("A simulated bounty event plays to the end, without a deal.")

    @property
    def capacity(self) -> int:
        return max(self.table_size, math.ceil(self.entries * self.capacity_share))

    @property
    def early_alternates(self) -> int:
        return max(1, round(self.entries * self.early_alternates_share))


@dataclass(frozen=True)
class HandForHandRound:
    round: int
    tables: int
    held: int  # tables that held an all-in for the showdown in turn (RP-8 F)
    busts: int
    players_left: int


@dataclass
class Report:
    seed: int
    seconds: float = 0.0
    entries: int = 0
    reentries: int = 0
    alternates: int = 0  # put on the list
    alternates_entered: int = 0
    alternates_withdrawn: int = 0
    rounds: int = 0
    hands: int = 0
    busts: int = 0
    moves: int = 0  # players moved by balancing, breaking and the final table draw
    balances: int = 0
    tables: int = 0
    tables_broken: int = 0
    breaks: int = 0  # breaks on the clock
    level: int = 0  # the level the event ended in
    h4h_rounds: list[HandForHandRound] = field(default_factory=list)
    final_table: bool = False
    places_paid: int = 0
    prize_pool: int = 0
    paid_out: int = 0
    payments: int = 0
    deal: str | None = None
    winner: str = ""
    bounty_in: int = 0  # the bounty money the ledger took in (issue 18)
    bounties_paid: int = 0  # BOUNTY lines paid at the cage, the winner's own among them
    winner_bounty: int = 0  # PKO: the winner's own bounty, collected at the end
    knockouts: int = 0
    timings: list[Figures] = field(default_factory=list)

    def lines(self) -> list[str]:
        money = f"{self.prize_pool / 100:,.2f}"
        lines = [
            f"Simulated event, seed {self.seed}: {self.seconds:,.1f} s",
            f"  entries {self.entries:,} (re-entries {self.reentries:,}); alternates "
            f"{self.alternates:,} listed, {self.alternates_entered:,} entered, "
            f"{self.alternates_withdrawn:,} withdrawn",
            f"  tables {self.tables:,}, broken {self.tables_broken:,}; balancing "
            f"{self.balances:,} times; players moved {self.moves:,}",
            f"  rounds {self.rounds:,}, hands {self.hands:,}, bust-outs {self.busts:,}; "
            f"breaks {self.breaks}, ended in level {self.level}",
            f"  hand-for-hand rounds {len(self.h4h_rounds)}; final table drawn: "
            f"{'yes' if self.final_table else 'no'}; deal: {self.deal or 'none'}",
            f"  prize pool {money}; places paid {self.places_paid:,}; payments "
            f"{self.payments:,} ({self.paid_out / 100:,.2f}); winner {self.winner}",
        ]
        if self.bounty_in:
            lines.append(
                f"  bounties: in {self.bounty_in / 100:,.2f}; paid {self.bounties_paid / 100:,.2f}"
                f" in {self.knockouts:,} knockouts, the winner's own "
                f"{self.winner_bounty / 100:,.2f} among them"
            )
        if self.h4h_rounds:
            lines += ["", "Hand-for-hand (RP-8): round, tables, held, bust-outs, players left"]
            lines += [
                f"  {r.round:>3}  {r.tables:>5}  {r.held:>4}  {r.busts:>4}  {r.players_left:>6,}"
                for r in self.h4h_rounds
            ]
        lines += ["", *figures_table(self.timings, wall=self.seconds)]
        return [*lines, "", target_line(self.entries, self.seconds)]

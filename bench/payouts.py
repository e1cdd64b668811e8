"""Benchmark: the money rules for payouts and final-table deals, in plain Python.

Each figure is the median of BENCH_RUNS timed runs (time.perf_counter) after one untimed
run; the inputs are drawn first from a fixed seed and are not timed.

1. Exact ICM (deals.icm_exact), 10 players, 10 prizes: what the TD's screen computes
   when a final table asks for a deal.
2. Exact ICM, 20 players (deals.EXACT_MAX), 20 prizes: the most the exact method takes.
3. Monte Carlo ICM (deals.icm_monte_carlo), 180 players, 18 prizes, the default
   200,000 finishing orders: a deal offered deep in a big field.
4. Payout generation (payouts.generate): 10,000 entries at 100 EUR (90 EUR of it to the
   pool), 15 % paid (1,500 places), the default winner's share and min cash.

No Django and no database: the engine modules are pure Python (and numpy).

    python bench/payouts.py

Prints "payouts: <what> median <ms> ms (target ...)" lines. Environment: BENCH_RUNS
(default 21 for the fast figures; the 20-player and Monte Carlo figures take at most 5).
"""

import os
import random
import sys
import time
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from statistics import median

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from payouts.engine import payouts  # noqa: E402
from prizes.engine import deals  # noqa: E402

RUNS = int(os.environ.get("BENCH_RUNS", "21"))
SLOW_RUNS = min(RUNS, 5)
SEED = 20261
EURO = 100  # cents


def timed(function: Callable[[], object], runs: int) -> float:
    """Median milliseconds of `runs` calls, after one untimed call."""
    function()
    seconds = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        seconds.append(time.perf_counter() - start)
    return 1000 * median(seconds)


def final_table(rng: random.Random, players: int, paid: int) -> tuple[list[int], list[int]]:
    chips = [rng.randint(10, 500) * 1000 for _ in range(players)]
    prizes = sorted((rng.randint(1, 1000) * 10 * EURO for _ in range(paid)), reverse=True)
    return chips, prizes


def main() -> None:
    rng = random.Random(SEED)
    chips, prizes = final_table(rng, 10, 10)
    ms = timed(lambda: deals.icm_exact(chips, prizes), RUNS)
    print(f"payouts: exact ICM 10 players median {ms:.2f} ms (target <= 5 ms)")

    chips, prizes = final_table(rng, deals.EXACT_MAX, deals.EXACT_MAX)
    ms = timed(lambda: deals.icm_exact(chips, prizes), SLOW_RUNS)
    print(f"payouts: exact ICM {deals.EXACT_MAX} players median {ms:.0f} ms")

    chips, prizes = final_table(rng, 180, 18)
    ms = timed(lambda: deals.icm_monte_carlo(chips, prizes, seed=SEED), SLOW_RUNS)
    print(
        f"payouts: Monte Carlo ICM 180 players 18 prizes {deals.TRIALS} trials median {ms:.0f} ms"
    )

    entries = 10_000
    places = payouts.places_paid(entries, percent=Decimal(15))
    pool = entries * 90 * EURO
    ms = timed(lambda: payouts.generate(pool, places, buy_in=100 * EURO), RUNS)
    table = payouts.generate(pool, places, buy_in=100 * EURO)
    if sum(table.amounts) != pool or table.places != places:
        sys.exit(f"payouts: the generated table pays {sum(table.amounts)} over {table.places}")
    print(
        f"payouts: generate {entries} entries {places} places median {ms:.1f} ms "
        f"(target <= 100 ms); winner {table.amounts[0] // EURO} EUR, "
        f"min cash {table.amounts[-1] // EURO} EUR"
    )
    print(
        f"payouts: medians of {RUNS} runs ({SLOW_RUNS} for 20 players and Monte Carlo), "
        f"seed {SEED}, exact ICM in plain Python up to {deals.PURE_PYTHON_MAX} players, "
        f"numpy above"
    )


if __name__ == "__main__":
    main()

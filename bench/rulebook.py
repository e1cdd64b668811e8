"""Benchmark: the rule book search as the floor types (rulings.engine.rulebook.search).

The search box asks again at every keystroke, so one search must stay well under a
frame of typing: the target is 20 ms. Nine queries, typed as a word grows, a phrase, a
rule number and a German word, are each searched BENCH_RUNS times after one untimed
warm-up; the figure is the median time of one search. Pure Python, no database.

    python bench/rulebook.py

Prints "rulebook: one search median <ms> ms (target ≤ 20 ms)".
"""

import os
import sys
import time
from pathlib import Path
from statistics import median

from common import verdict

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from rulings.engine.rulebook import search  # noqa: E402

RUNS = int(os.environ.get("BENCH_RUNS", "21"))
QUERIES = ["o", "ov", "ove", "over", "overc", "overchip", "hand for hand", "45-B", "Überchip"]


def main() -> None:
    search("warm up")
    seconds = []
    for _ in range(RUNS):
        for query in QUERIES:
            start = time.perf_counter()
            search(query)
            seconds.append(time.perf_counter() - start)
    slowest = max(seconds)
    print(
        f"rulebook: one search median {1000 * median(seconds):.2f} ms, "
        f"slowest {1000 * slowest:.2f} ms — target ≤ 20 ms: {verdict(slowest <= 0.020)}"
    )


if __name__ == "__main__":
    main()

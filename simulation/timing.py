"""How long each kind of operation took: count, total, median, 95th percentile, slowest."""

import math
import statistics
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Figures:
    kind: str
    count: int
    total: float  # seconds
    max: float
    p95: float
    median: float = 0.0


class Timings:
    def __init__(self) -> None:
        self._samples: dict[str, list[float]] = defaultdict(list)

    def call(self, kind: str, function: Callable, /, **kwargs):
        """Run `function(**kwargs)` and record its wall time under `kind`."""
        start = time.perf_counter()
        try:
            return function(**kwargs)
        finally:
            self._samples[kind].append(time.perf_counter() - start)

    def figures(self) -> list[Figures]:
        """Every kind, the most time spent first."""
        rows = []
        for kind, samples in self._samples.items():
            ordered = sorted(samples)
            p95 = ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]
            median = statistics.median(ordered)
            rows.append(Figures(kind, len(ordered), sum(ordered), ordered[-1], p95, median))
        return sorted(rows, key=lambda row: -row.total)


TARGET_ENTRIES = 10_000  # issue 20: a whole event of this size ...
TARGET_SECONDS = 600  # ... in at most ten minutes on an idle two-core machine


def figures_table(rows: list[Figures], wall: float | None = None) -> list[str]:
    """The figures as lines of a plain-text table, times in milliseconds: each kind's
    count, total, median, p95 and slowest; below them the timed total and, given
    `wall`, the run's wall time and what the simulation itself took between the calls
    (the dealer, its reads, the invariants' bookkeeping)."""
    width = max([len("operation"), *(len(row.kind) for row in rows)])
    head = (
        f"{'operation':<{width}}  {'count':>7}  {'total s':>9}  {'median ms':>9}  "
        f"{'p95 ms':>9}  {'max ms':>9}"
    )
    lines = [head, "-" * len(head)]
    for row in rows:
        lines.append(
            f"{row.kind:<{width}}  {row.count:>7,}  {row.total:>9.2f}  "
            f"{row.median * 1000:>9.1f}  {row.p95 * 1000:>9.1f}  {row.max * 1000:>9.1f}"
        )
    timed = sum(row.total for row in rows)
    lines += ["-" * len(head), f"{'all timed operations':<{width}}  {'':>7}  {timed:>9.2f}"]
    if wall is not None:
        lines += [
            f"{'between the calls':<{width}}  {'':>7}  {max(0.0, wall - timed):>9.2f}",
            f"{'wall time':<{width}}  {'':>7}  {wall:>9.2f}",
        ]
    return lines


def target_line(entries: int, seconds: float) -> str:
    """The headline (bench convention): the whole event's wall time beside issue 20's
    target, which is set for 10,000 entries; another size has no target."""
    head = f"simulate: {entries:,} entries in {seconds:,.0f} s"
    if entries != TARGET_ENTRIES:
        return f"{head} — target — (≤ {TARGET_SECONDS} s is set for {TARGET_ENTRIES:,} entries)"
    verdict = "met" if seconds <= TARGET_SECONDS else "NOT met"
    return f"{head} — target ≤ {TARGET_SECONDS} s: {verdict}"

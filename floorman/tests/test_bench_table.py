"""`make bench` ends with one table of every benchmark's figures beside its target
(bench/run_all.py), and lists the targets not met (issue 20)."""

import importlib.util
from pathlib import Path

SPEC = importlib.util.spec_from_file_location(
    "run_all", Path(__file__).resolve().parents[2] / "bench" / "run_all.py"
)
run_all = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(run_all)
Row = run_all.Row

OUTPUT = """Starting the server...
seating: draw 10000 entries onto 1112 tables 640 ms (target <= 1000 ms)
seating: seat lookup 3000 vs trivial 4000 req/s: ratio 0.75 — target ≥ 0.5: met
seating: e.g. a timeout at 12 ms
hands: hand-for-hand Redis layer skipped (REDIS_URL is unset)
simulate: 10,000 entries in 700 s — target ≤ 600 s: NOT met
screens: board pages 12 — target —
registration: 64 entries/s
"""


def test_the_headline_figures_are_collected_with_their_targets_and_the_details_left_out():
    assert run_all.headlines(OUTPUT) == [
        Row("seating", "draw 10000 entries onto 1112 tables 640 ms", "<= 1000 ms"),
        Row("seating", "seat lookup 3000 vs trivial 4000 req/s: ratio 0.75", "≥ 0.5", "met"),
        Row("simulate", "10,000 entries in 700 s", "≤ 600 s", "NOT met"),
        Row("screens", "board pages 12", "—"),
        Row("registration", "64 entries/s"),
    ]


def test_the_table_names_the_machine_the_failures_and_the_targets_missed():
    rows = run_all.headlines(OUTPUT)
    text = run_all.table(rows, [("clock_ws", "exit 1")])
    assert text.startswith("Machine: ")
    assert "cores" in text.splitlines()[0]
    assert "| simulate | 10,000 entries in 700 s | ≤ 600 s | NOT met |" in text
    assert "| clock_ws | failed (exit 1) | | |" in text
    assert "Targets: 1 met, 1 not met" in text
    assert "- not met: simulate: 10,000 entries in 700 s (target ≤ 600 s)" in text

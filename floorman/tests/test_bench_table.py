"""`make bench` ends with one table of every benchmark's figures (bench/run_all.py)."""

import importlib.util
from pathlib import Path

SPEC = importlib.util.spec_from_file_location(
    "run_all", Path(__file__).resolve().parents[2] / "bench" / "run_all.py"
)
run_all = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(run_all)

OUTPUT = """Starting the server...
seating: draw 10000 entries onto 1112 tables 640 ms (target <= 1000 ms)
seating: lookup ratio 0.63 (target >= 0.5)
seating: e.g. a timeout at 12 ms
hands: hand-for-hand Redis layer skipped (REDIS_URL is unset)
payouts: exact ICM 10 players median 0.51 ms (target <= 5 ms)
registration: 64 entries/s
"""


def test_the_headline_figures_are_collected_and_the_details_left_out():
    assert run_all.headlines(OUTPUT) == [
        ("seating", "draw 10000 entries onto 1112 tables 640 ms (target <= 1000 ms)"),
        ("seating", "lookup ratio 0.63 (target >= 0.5)"),
        ("payouts", "exact ICM 10 players median 0.51 ms (target <= 5 ms)"),
        ("registration", "64 entries/s"),
    ]


def test_the_table_names_the_machine_and_the_failures():
    text = run_all.table([("payouts", "exact ICM 0.5 ms")], [("clock_ws", "exit 1")])
    assert text.startswith("Machine: ")
    assert "cores" in text.splitlines()[0]
    assert "| payouts | exact ICM 0.5 ms |" in text
    assert "| clock_ws | failed (exit 1) |" in text

"""Run every benchmark and print one table of their figures, with the machine they ran on.

Each script in SCRIPTS runs in turn (its own output passes through as it comes); the
lines it prints as "<name>: ..." that carry a figure (a rate, a time, a ratio, a
percentile) are collected and printed at the end as one Markdown table, ready for the
README's "Measured" section. A script that fails is listed with its exit code and the
others still run.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
    REDIS_URL=redis://127.0.0.1:6379/0 python bench/run_all.py [name ...]
"""

import os
import platform
import re
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPTS = (
    "registration",
    "asgi_vs_wsgi",
    "clock_ws",
    "ws_flood",
    "clock_api",
    "seating",
    "hands",
    "payouts",
    "rulebook",
    "audit",
    "floor_actions",
    "screens",
)
HEADLINE = re.compile(r"^(?P<name>[a-z_]+): (?P<text>.*\d.*)$")
FIGURE = re.compile(r"req/s|entries/s|hands/s|\bms\b|ratio|p99|median|×")
DETAIL = re.compile(r"\be\.g\.|skipped|slowest tablet|failures|^medians of")


def machine() -> str:
    cpus = os.cpu_count() or 0
    memory = ""
    meminfo = Path("/proc/meminfo")
    if meminfo.exists():
        kib = int(meminfo.read_text().split("\n", 1)[0].split()[1])
        memory = f", {kib / 1024 / 1024:.0f} GiB"
    return (
        f"{platform.node()}: {platform.machine()}, {cpus} cores{memory}, "
        f"{platform.system()} {platform.release()}, Python {platform.python_version()}"
    )


def headlines(output: str) -> list[tuple[str, str]]:
    found = []
    for line in output.splitlines():
        match = HEADLINE.match(line.strip())
        if match and FIGURE.search(match["text"]) and not DETAIL.search(match["text"]):
            found.append((match["name"], match["text"]))
    return found


def run(name: str) -> tuple[int, str, float]:
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, str(HERE / f"{name}.py")],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines = []
    for line in process.stdout:
        print(line, end="", flush=True)
        lines.append(line)
    return process.wait(), "".join(lines), time.perf_counter() - started


def table(rows: list[tuple[str, str]], failed: list[str]) -> str:
    out = [
        f"Machine: {machine()}; {time.strftime('%Y-%m-%d %H:%M %Z')}",
        "",
        "| benchmark | figure |",
        "| --- | --- |",
    ]
    out += [f"| {name} | {text} |" for name, text in rows]
    out += [f"| {name} | failed ({reason}) |" for name, reason in failed]
    return "\n".join(out)


def main(names: list[str]) -> int:
    rows, failed = [], []
    for name in names or SCRIPTS:
        print(f"\n== {name}", flush=True)
        code, output, seconds = run(name)
        rows += headlines(output)
        if code:
            failed.append((name, f"exit {code}"))
        print(f"== {name}: {seconds:.0f} s", flush=True)
    print("\n" + table(rows, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

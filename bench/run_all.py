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
from dataclasses import dataclass
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
    "prize_pay",
    "rulebook",
    "audit",
    "floor_actions",
    "cluster",
    "screens",
)
HEADLINE = re.compile(r"^(?P<name>[a-z_]+): (?P<text>.*\d.*)$")
# "<figure> — target <target>: met" (or "NOT met", or "— target —" where the issue names
# none); older lines end "(target <= x)".
TARGET = re.compile(r"\s+(?:—|--)\s+target\s+(?P<target>.+?)(?::\s*(?P<verdict>met|NOT met))?$")
OLD_TARGET = re.compile(r"\s*\(target (?P<target>[^)]*)\)$")
FIGURE = re.compile(r"req/s|entries/s|hands/s|\bms\b|ratio|p99|median|×")
DETAIL = re.compile(r"\be\.g\.|skipped|slowest tablet|failures|^medians of|: latency p50")


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


@dataclass(frozen=True)
class Row:
    name: str
    figure: str
    target: str = "—"
    verdict: str = ""  # "met", "NOT met", or "" where no verdict was printed


def headlines(output: str) -> list[Row]:
    found = []
    for line in output.splitlines():
        match = HEADLINE.match(line.strip())
        if not match:
            continue
        text = match["text"]
        if TARGET.search(text) or (FIGURE.search(text) and not DETAIL.search(text)):
            found.append(row(match["name"], text))
    return found


def row(name: str, text: str) -> Row:
    """Split a headline into its figure and the target printed beside it."""
    for pattern in (TARGET, OLD_TARGET):
        if found := pattern.search(text):
            target = found["target"].strip()
            verdict = found.groupdict().get("verdict") or ""
            return Row(name, text[: found.start()].strip(), target, verdict)
    return Row(name, text)


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


def table(rows: list[Row], failed: list[tuple[str, str]]) -> str:
    out = [
        f"Machine: {machine()}; {time.strftime('%Y-%m-%d %H:%M %Z')}",
        "",
        "| benchmark | figure | target | met |",
        "| --- | --- | --- | --- |",
    ]
    out += [f"| {r.name} | {r.figure} | {r.target} | {r.verdict} |" for r in rows]
    out += [f"| {name} | failed ({reason}) | | |" for name, reason in failed]
    missed = [r for r in rows if r.verdict == "NOT met"]
    out += ["", f"Targets: {sum(r.verdict == 'met' for r in rows)} met, {len(missed)} not met"]
    out += [f"- not met: {r.name}: {r.figure} (target {r.target})" for r in missed]
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

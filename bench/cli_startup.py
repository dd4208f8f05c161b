"""How long `freecell-arena` takes to start, beside `python3 -c pass` measured in the same run.

    python3 bench/cli_startup.py [--rounds 15]

Each command runs as a whole process, as a user types it (`python3 -m freecell_arena ...` with this
interpreter), alternating with the baseline; the figure is the median wall time of the rounds. Target
(docs/performance.md): `--help`, `deal`, `replay` and `solve` each within 5 x `python3 -c pass`.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

BASELINE = ("-c", "pass")
COMMANDS: dict[str, tuple[str, ...]] = {
    "--help": ("--help",),
    "deal freecell 1": ("deal", "freecell", "1"),
    "replay freecell 1 5a 5b": ("replay", "freecell", "1", "5a", "5b"),
    "solve freecell 1 --budget 0.001": ("solve", "freecell", "1", "--budget", "0.001"),
    "migrate --help": ("migrate", "--help"),
}
TARGET_RATIO = 5.0
LIGHT = {"--help", "deal freecell 1", "replay freecell 1 5a 5b", "solve freecell 1 --budget 0.001"}


def wall_time(args: tuple[str, ...]) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
                   timeout=60)  # fmt: skip
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=15)
    options = parser.parse_args()
    baseline: list[float] = []
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for _ in range(options.rounds):
        for name, args in COMMANDS.items():
            baseline.append(wall_time(BASELINE))
            times[name].append(wall_time(("-m", "freecell_arena", *args)))
    base = statistics.median(baseline)
    print(f"baseline: python3 -c pass = {base * 1000:.1f} ms (median of {len(baseline)})")
    worst = 0.0
    for name, samples in times.items():
        median = statistics.median(samples)
        ratio = median / base
        if name in LIGHT:
            worst = max(worst, ratio)
        note = "" if name in LIGHT else "  (uses the database stack: no target)"
        print(f"freecell-arena {name:34} {median * 1000:7.1f} ms  {ratio:4.1f} x baseline{note}")
    print(f"slowest light command: {worst:.1f} x baseline (target <= {TARGET_RATIO:g} x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The compiled engine beside the interpreted one, both measured in the same run (setup.py, docs/performance.md).

    FREECELL_ARENA_COMPILE=1 pip install --no-deps --no-build-isolation .   # once, in a venv of its own
    python3 bench/builds.py                                  # the engine per move, both builds (about 5 minutes)
    python3 bench/builds.py --load --connections 200         # and the server's CPU per move, beside the durable echo

Each figure comes from child processes started twice, once with `FREECELL_ARENA_PURE_PYTHON=1` (the same modules,
interpreted) and once without (the compiled extensions), so the ratio holds on whatever machine runs it:
- the engine: bench/engine.py --quick (play+pop, check, listing, replay per action, per variant; its own
  json.loads baseline);
- with --load: bench/load.py flat out on SQLite, the server then its durable echo (bench/echo_durable.py: a
  websocket echo that appends every frame through the same group commit), with the same compression policy;
  the figure is the server process's CPU per move (moves/s moves with other load on a shared machine).
Needs the compiled build installed: it says so and stops otherwise.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
BUILDS = {"interpreted": "1", "compiled": "0"}  # FREECELL_ARENA_PURE_PYTHON for each
ENGINE_COLUMNS = {"play+pop us": 2, "check us": 4, "listing us": 5, "replay us/action": 8}
LOAD_LINE = re.compile(r"^(.+?)\s+conns\s+(\d+)\s+moves/s\s+(\d+).*?\((\d+) us/move")


def run(script: str, build: str, *arguments: str) -> str:
    """`script` under `build`, its output (a failure stops the bench with the child's own words)."""
    env = {**os.environ, "FREECELL_ARENA_PURE_PYTHON": BUILDS[build]}
    result = subprocess.run([sys.executable, str(BENCH / script), *arguments], capture_output=True, text=True,
                            env=env, timeout=1800)  # fmt: skip
    if result.returncode != 0:
        raise SystemExit(f"{script} ({build}) failed: {result.stdout[-2000:]}{result.stderr[-2000:]}")
    return result.stdout


def build_of_this_install() -> str:
    probe = "from freecell_arena.build import running_build; print(running_build())"
    return subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                          timeout=60).stdout.strip()  # fmt: skip


def engine_figures(output: str) -> tuple[float, dict[str, list[float]]]:
    """bench/engine.py's json.loads baseline (us) and, per variant, the figures of ENGINE_COLUMNS."""
    loads = float(re.search(r"= ([\d.]+) us", output).group(1))  # type: ignore[union-attr]
    rows: dict[str, list[float]] = {}
    lines = output.splitlines()
    start = next(number for number, line in enumerate(lines) if line.startswith("---")) + 1
    for line in lines[start:]:
        if not line.strip():
            break
        fields = line.split()
        rows[fields[0]] = [float(fields[column]) for column in ENGINE_COLUMNS.values()]
    return loads, rows


def best(runs: list[tuple[float, dict[str, list[float]]]]) -> tuple[float, dict[str, list[float]]]:
    """Each figure's lowest over the runs (the least disturbed by other work on the machine)."""
    loads = min(loads for loads, _ in runs)
    rows = {variant: [min(column) for column in zip(*(rows[variant] for _, rows in runs), strict=True)]
            for variant in runs[0][1]}  # fmt: skip
    return loads, rows


def compare_engine(rounds: int, quick: bool) -> None:
    """bench/engine.py `rounds` times per build, the builds alternating, so a burst of other load hits both."""
    runs: dict[str, list[tuple[float, dict[str, list[float]]]]] = {build: [] for build in BUILDS}
    for _ in range(rounds):
        for build in BUILDS:
            runs[build].append(engine_figures(run("engine.py", build, *(("--quick",) if quick else ()))))
    (loads_i, rows_i), (loads_c, rows_c) = best(runs["interpreted"]), best(runs["compiled"])
    print(f"engine (bench/engine.py{' --quick' if quick else ''}, best of {rounds} alternating runs), "
          f"interpreted / compiled / speed-up; json.loads baseline "
          f"{loads_i:.2f} / {loads_c:.2f} us")
    print(f"{'variant':<20}" + "".join(f"{name:>32}" for name in ENGINE_COLUMNS))
    for variant, interpreted in rows_i.items():
        cells = (f"{i:>10.2f} / {c:>8.2f} / {i / c:>5.2f} x" for i, c in zip(interpreted, rows_c[variant], strict=True))
        print(f"{variant:<20}" + "".join(f"{cell:>32}" for cell in cells))
    play_c = sum(row[0] for row in rows_c.values()) / len(rows_c)
    print(f"compiled play+pop, mean over the variants: {play_c:.2f} us = {play_c / loads_c:.2f} x json.loads")


def load_figures(output: str) -> dict[str, tuple[int, int]]:
    """bench/load.py's lines: per target, (moves/s, server CPU us per move)."""
    found = {}
    for line in output.splitlines():
        match = LOAD_LINE.match(line)
        if match:
            found[match.group(1)] = (int(match.group(3)), int(match.group(4)))
    return found


def compare_load(connections: int, duration: float) -> None:
    arguments = ("--connections", str(connections), "--duration", str(duration), "--target", "both",
                 "--echo", "durable")  # fmt: skip
    for build in BUILDS:
        output = run("load.py", build, *arguments)
        figures = load_figures(output)
        servers = [(name, value) for name, value in figures.items() if "echo" not in name]
        echoes = [value for name, value in figures.items() if "echo" in name]
        if len(servers) != 1 or len(echoes) != 1:
            raise SystemExit(f"bench/load.py printed no server and echo line to read:\n{output}")
        (server, (server_rate, server_us)), (echo_rate, echo_us) = servers[0], echoes[0]
        print(f"load, {build:<11} {connections} connections, {duration:.0f} s: {server} {server_us} us/move "
              f"({server_rate} moves/s); durable echo {echo_us} us/move ({echo_rate} moves/s); "
              f"server / echo {server_us / echo_us:.2f} x")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="engine runs per build, alternating (%(default)s)")
    parser.add_argument("--quick", action="store_true", help="bench/engine.py --quick: a smoke run")
    parser.add_argument("--load", action="store_true", help="also bench/load.py's CPU per move with each build")
    parser.add_argument("--connections", type=int, default=200, help="with --load (default %(default)s)")
    parser.add_argument("--duration", type=float, default=10.0, help="with --load: seconds per run")
    args = parser.parse_args()
    if build_of_this_install() != "compiled":
        print("the installed freecell_arena is interpreted: FREECELL_ARENA_COMPILE=1 pip install --no-deps "
              "--no-build-isolation . (in a venv of its own) first", file=sys.stderr)  # fmt: skip
        return 2
    compare_engine(args.rounds, args.quick)
    if args.load:
        compare_load(args.connections, args.duration)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

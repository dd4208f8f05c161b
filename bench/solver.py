"""The solver's speed and par beside Freecell Solver (`fc-solve -l fg`, atomic moves) on the same deals, same run.

    PYTHONPATH=$PWD python3 bench/solver.py                       # MS deals 1-1000, 100 seeds per other variant
    PYTHONPATH=$PWD python3 bench/solver.py --deals 200 --seeds 30 --total 900
    PYTHONPATH=$PWD python3 bench/solver.py --quick               # 30 deals, 5 seeds, a smoke run

What is timed, per deal:

- ours: `solve(Board.deal(variant, seed), budget=--budget)` in a worker process, wall clock (`perf_counter`)
  around the call, which includes dealing, the search and the certification (the path replayed twice on engine
  boards); the worker's CPU time beside it;
- Freecell Solver (Microsoft FreeCell only): `fc-solve -m -sn -l fg` on the board text from
  `make-microsoft-freecell-board -t N` (made before the clock starts), wall clock around the subprocess, so it
  includes starting the process; its CPU time (user + sys from `wait4`) beside it. Its solution length is the
  number of moves it prints, all single-card (`-sn`), the 52 foundation moves included.

Solution lengths: par = our player moves with safe autoplay on (a multi-card move counts one); "1-card" = the
same moves counted one card at a time; "atomic" = 1-card + the foundation moves autoplay made, which is what
fc-solve's length counts. For the other four variants (no baseline): solved / unsolvable (search exhausted) /
unknown (budget spent) and times, `--seeds` seeds each (1..N).

Deals and seeds run on `--workers` processes (2 by default), interleaved across the sections, so when `--total`
seconds run out every section has run its first N deals (N is printed). Targets (issue 4): every MS deal 1-1000
solved; median time <= 10 x fc-solve's; median par <= 0.8 x fc-solve's atomic length; >= 95% of the other
variants' deals settled (solved or proved unsolvable) within 10 s each.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from freecell_arena.build import running_build  # noqa: E402
from freecell_arena.engine import VARIANTS, Board, variant_by_id  # noqa: E402
from freecell_arena.engine.solver import solve  # noqa: E402

FC_SOLVE = ["fc-solve", "-m", "-sn", "-l", "fg"]
FC_MOVE = re.compile(r"^[1-8a-dh]{2}$")
FC_SEPARATOR = "-=-=-=-=-=-=-=-=-=-=-=-"
FC_TIMEOUT_S = 120
SETTLE_S = 10.0


@dataclass(frozen=True, slots=True)
class Task:
    variant: str
    seed: int
    budget: float
    baseline: bool


@dataclass(slots=True)
class Outcome:
    variant: str
    seed: int
    status: str
    seconds: float
    cpu: float
    par: int = 0
    single: int = 0
    atomic: int = 0
    fc_status: str = ""
    fc_seconds: float = 0.0
    fc_cpu: float = 0.0
    fc_length: int = 0


def freecell_solver(deal: int) -> tuple[str, float, float, int]:
    """fc-solve on MS deal `deal`: (status, wall seconds, cpu seconds, atomic solution length)."""
    board = subprocess.run(
        ["make-microsoft-freecell-board", "-t", str(deal)], capture_output=True, text=True, check=True, timeout=30
    ).stdout
    cpu_before = children_cpu()
    began = time.perf_counter()
    process = subprocess.Popen(
        FC_SOLVE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env={**os.environ, "FREECELL_SOLVER_QUIET": "1"},
    )  # fmt: skip
    try:
        output, _ = process.communicate(board, timeout=FC_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        return "unknown", time.perf_counter() - began, children_cpu() - cpu_before, 0
    wall = time.perf_counter() - began
    # communicate() has reaped the child: its user + sys time is now in this process's children totals
    cpu = children_cpu() - cpu_before
    if "This game is solveable." not in output:
        return "unsolved", wall, cpu, 0
    moves = [word for word in output.split(FC_SEPARATOR)[-1].split() if FC_MOVE.match(word)]
    return "solved", wall, cpu, len(moves)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(task: Task) -> Outcome:
    board = Board.deal(variant_by_id(task.variant), task.seed)
    cpu_began = time.process_time()
    began = time.perf_counter()
    result = solve(board, budget=task.budget)
    seconds = time.perf_counter() - began
    cpu = time.process_time() - cpu_began
    outcome = Outcome(task.variant, task.seed, str(result.status), seconds, cpu)
    if result.solution is not None:
        outcome.par = result.solution.player_moves
        outcome.single = result.solution.single_card_moves
        outcome.atomic = result.solution.single_card_moves + result.solution.autoplay_moves
    if task.baseline:
        outcome.fc_status, outcome.fc_seconds, outcome.fc_cpu, outcome.fc_length = freecell_solver(task.seed)
    return outcome


def interleaved(sections: dict[str, list[Task]]) -> list[Task]:
    """All tasks, the next one always from the section that is least far along (so a cut-off leaves prefixes)."""
    order: list[Task] = []
    done = dict.fromkeys(sections, 0)
    while True:
        open_ = [name for name in sections if done[name] < len(sections[name])]
        if not open_:
            return order
        name = min(open_, key=lambda n: (done[n] / len(sections[n]), n != "freecell"))
        order.append(sections[name][done[name]])
        done[name] += 1


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def maximum(values: list[float]) -> float:
    return max(values) if values else float("nan")


def report_freecell(outcomes: list[Outcome], planned: int, budget: float) -> None:
    outcomes.sort(key=lambda o: o.seed)
    n = len(outcomes)
    print(
        f"Microsoft FreeCell: deals 1..{planned} planned, {n} run"
        + (f" (1..{max(o.seed for o in outcomes)}, contiguous)" if n and n == max(o.seed for o in outcomes) else "")
    )
    if not n:
        return
    solved = [o for o in outcomes if o.status == "solved"]
    fc_solved = [o for o in outcomes if o.fc_status == "solved"]
    both = [o for o in outcomes if o.status == "solved" and o.fc_status == "solved"]
    ours_t = [o.seconds for o in outcomes]
    fc_t = [o.fc_seconds for o in outcomes]
    header = f"{'':<30} {'ours':>12} {'fc-solve -l fg':>15} {'ours / fc':>10}"
    print(header)
    print("-" * len(header))

    def row(label: str, ours: float, theirs: float, fmt: str = ".4f") -> None:
        ratio = ours / theirs if theirs else float("nan")
        print(f"{label:<30} {ours:>12{fmt}} {theirs:>15{fmt}} {ratio:>10.2f}")

    print(f"{'solved':<30} {len(solved):>8}/{n:<3} {len(fc_solved):>11}/{n:<3}")
    row("median wall s", median(ours_t), median(fc_t))
    row("max wall s", maximum(ours_t), maximum(fc_t))
    row("mean wall s", statistics.fmean(ours_t), statistics.fmean(fc_t))
    row("median cpu s", median([o.cpu for o in outcomes]), median([o.fc_cpu for o in outcomes]))
    if both:
        fc_len = [o.fc_length for o in both]
        row("median par (player moves)", median([o.par for o in both]), median(fc_len), ".1f")
        row("median 1-card moves", median([o.single for o in both]), median(fc_len), ".1f")
        row("median atomic (1-card + found.)", median([o.atomic for o in both]), median(fc_len), ".1f")
        row("max par / fc-solve length", maximum([o.par for o in both]), maximum(fc_len), ".0f")
        ratios = [o.par / o.fc_length for o in both]
        print(
            f"{'par / fc-solve length, per deal':<30} median {median(ratios):.3f}, max {maximum(ratios):.3f} "
            f"({len(both)} deals both solved)"
        )
        per_deal = [o.seconds / o.fc_seconds for o in outcomes if o.fc_seconds]
        print(f"{'time ours / fc-solve, per deal':<30} median {median(per_deal):.2f}, max {maximum(per_deal):.2f}")
    failed = [o.seed for o in outcomes if o.status != "solved"]
    fc_failed = [o.seed for o in outcomes if o.fc_status != "solved"]
    print(f"not solved by ours (budget {budget:g} s): {failed or 'none'}; by fc-solve: {fc_failed or 'none'}")
    print()
    print("Targets: all solved; median time <= 10 x fc-solve's; median par <= 0.8 x fc-solve's atomic length")
    print(f"  solved {len(solved)}/{n}: {'MET' if len(solved) == n else 'NOT MET'}")
    time_ratio = median(ours_t) / median(fc_t) if median(fc_t) else float("nan")
    print(f"  median time ratio {time_ratio:.2f}: {'MET' if time_ratio <= 10 else 'NOT MET'}")
    if both:
        par_ratio = median([o.par for o in both]) / median([o.fc_length for o in both])
        print(f"  median par / median fc-solve length {par_ratio:.3f}: {'MET' if par_ratio <= 0.8 else 'NOT MET'}")


def report_variants(sections: dict[str, list[Outcome]], planned: int, budget: float) -> None:
    header = (f"{'variant':<20} {'run':>4} {'solved':>6} {'unsolv.':>7} {'unknown':>7} {'settled<=10s':>12} "
              f"{'med s':>7} {'max s':>7} {'med solved s':>12} {'med par':>7} {'med 1-card':>10}")  # fmt: skip
    print(f"Other variants: seeds 1..{planned} planned per variant, budget {budget:g} s per deal")
    print(header)
    print("-" * len(header))
    for name, outcomes in sections.items():
        n = len(outcomes)
        solved = [o for o in outcomes if o.status == "solved"]
        unsolvable = [o for o in outcomes if o.status == "unsolvable"]
        unknown = n - len(solved) - len(unsolvable)
        settled = sum(1 for o in outcomes if o.status != "unknown" and o.seconds <= SETTLE_S)
        share = f"{settled}/{n} {100 * settled / n:.0f}%" if n else "-"
        print(f"{name:<20} {n:>4} {len(solved):>6} {len(unsolvable):>7} {unknown:>7} {share:>12} "
              f"{median([o.seconds for o in outcomes]):>7.2f} {maximum([o.seconds for o in outcomes]):>7.2f} "
              f"{median([o.seconds for o in solved]):>12.2f} {median([o.par for o in solved]):>7.0f} "
              f"{median([o.single for o in solved]):>10.0f}")  # fmt: skip
    total = sum(len(o) for o in sections.values())
    settled = sum(1 for o in sections.values() for x in o if x.status != "unknown" and x.seconds <= SETTLE_S)
    if total:
        verdict = "MET" if settled >= 0.95 * total else "NOT MET"
        print(
            f"Target: >= 95% settled within {SETTLE_S:g} s: {settled}/{total} = {100 * settled / total:.1f}%: {verdict}"
        )
        for name, outcomes in sections.items():
            left = [o.seed for o in outcomes if o.status == "unknown"]
            if left:
                print(f"  {name} unknown: {sorted(left)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=1000, help="MS FreeCell deals 1..N (default 1000)")
    parser.add_argument("--seeds", type=int, default=100, help="seeds 1..N for each other variant (default 100)")
    parser.add_argument("--budget", type=float, default=10.0, help="our solver's budget per deal, s (default 10)")
    parser.add_argument("--total", type=float, default=3600.0, help="stop starting deals after this many s")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--variants", default=",".join(VARIANTS), help="comma-separated variant ids")
    parser.add_argument("--quick", action="store_true", help="30 deals, 5 seeds per variant (a smoke run)")
    parser.add_argument("--progress", action="store_true", help="print one line per finished deal")
    args = parser.parse_args()
    if args.quick:
        args.deals, args.seeds = min(args.deals, 30), min(args.seeds, 5)
    wanted = [name.strip() for name in args.variants.split(",") if name.strip()]
    baseline = bool(shutil.which("fc-solve") and shutil.which("make-microsoft-freecell-board"))
    if "freecell" in wanted and not baseline:
        sys.exit("fc-solve / make-microsoft-freecell-board missing: apt-get install freecell-solver-bin")

    plans: dict[str, list[Task]] = {}
    for name in wanted:
        count = args.deals if name == "freecell" else args.seeds
        plans[name] = [Task(name, seed, args.budget, name == "freecell") for seed in range(1, count + 1)]
    order = interleaved(plans)

    print(f"python {platform.python_version()} on {platform.machine()}, engine {running_build()}, "
          f"{os.cpu_count()} cpus, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"{args.workers} workers; budget {args.budget:g} s per deal, {args.total:g} s in all")  # fmt: skip
    began = time.perf_counter()
    results: dict[str, list[Outcome]] = {name: [] for name in wanted}
    context = multiprocessing.get_context("fork")
    with context.Pool(args.workers, maxtasksperchild=50) as pool:
        pending = []
        index = 0
        # keep at most `workers` deals in flight, so that a cut-off stops everything at the same point
        while index < len(order) or pending:
            while index < len(order) and len(pending) < args.workers and time.perf_counter() - began < args.total:
                pending.append(pool.apply_async(run, (order[index],)))
                index += 1
            if not pending:
                break
            time.sleep(0.002)
            for job in [job for job in pending if job.ready()]:
                pending.remove(job)
                outcome = job.get()
                results[outcome.variant].append(outcome)
                if args.progress:
                    print(f"  {outcome.variant} {outcome.seed}: {outcome.status} {outcome.seconds:.3f}s par "
                          f"{outcome.par} | fc {outcome.fc_status} {outcome.fc_seconds:.3f}s {outcome.fc_length}",
                          flush=True)  # fmt: skip
    elapsed = time.perf_counter() - began
    print(f"ran {sum(map(len, results.values()))} of {len(order)} deals in {elapsed:.0f} s; "
          f"load average now {' '.join(f'{x:.2f}' for x in os.getloadavg())}")  # fmt: skip
    print()
    if "freecell" in results:
        report_freecell(results["freecell"], args.deals, args.budget)
        print()
    others = {name: outcomes for name, outcomes in results.items() if name != "freecell"}
    if others:
        for outcomes in others.values():
            outcomes.sort(key=lambda o: o.seed)
        report_variants(others, args.seeds, args.budget)


if __name__ == "__main__":
    main()

"""`freecell-arena solve VARIANT SEED [--atomic] [--budget SECONDS]`: solve a deal with the project's solver.

Standard output holds only the moves, in the variant's notation, ten to a line (foundation moves included), so
`freecell-arena solve V S | freecell-arena replay V S --file -` replays the solution; the summary with the par goes
to standard error. When there is no solution, standard output is empty and standard error says `unsolvable` (the
search space was exhausted) or `unknown` (the budget ran out). Exit code 0 for an answer of any kind, 2 for bad
input.
"""

from __future__ import annotations

import argparse
import sys

from freecell_arena.commands.common import UsageError, add_variant_and_seed, fail, seed_for
from freecell_arena.engine import Board
from freecell_arena.engine.solver import DEFAULT_BUDGET_SECONDS, Status, solve

MOVES_PER_LINE = 10


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Solve a deal with the built-in solver. Standard output holds only the moves, ten per line, foundation "
        "moves included, so it pipes into `freecell-arena replay VARIANT SEED --file -`; the summary (the par) "
        "goes to standard error."
    )
    add_variant_and_seed(parser)
    parser.add_argument("--atomic", action="store_true", help="single-card moves only")
    parser.add_argument(
        "--budget",
        type=_positive_seconds,
        default=DEFAULT_BUDGET_SECONDS,
        metavar="SECONDS",
        help=f"give up with `unknown` after this long (default {DEFAULT_BUDGET_SECONDS:g})",
    )
    parser.set_defaults(run=run)


def _positive_seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"budget must be a number of seconds, not {text!r}") from None
    if not 0 < seconds <= 86400:
        raise argparse.ArgumentTypeError(f"budget must be more than 0 and at most 86400 seconds, not {text}")
    return seconds


def run(args: argparse.Namespace) -> int:
    try:
        seed = seed_for(args.variant, args.seed)
    except UsageError as error:
        return fail(str(error))
    result = solve(Board.deal(args.variant, seed), atomic=args.atomic, budget=args.budget)
    if result.status is not Status.SOLVED or result.solution is None:
        print(result.status.value, file=sys.stderr)
        return 0
    solution = result.solution
    notation = solution.notation
    for start in range(0, len(notation), MOVES_PER_LINE):
        print(" ".join(notation[start : start + MOVES_PER_LINE]))
    print(
        f"solved: par {solution.player_moves} moves ({solution.single_card_moves} single-card), "
        f"{len(notation)} moves to replay with the {solution.autoplay_moves} autoplay foundation moves",
        file=sys.stderr,
    )
    return 0

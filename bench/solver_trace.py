"""What the solver finds, as one JSON line per deal, to diff before and after a change meant only to make it faster.

    python3 bench/solver_trace.py > after.jsonl                  # MS deals 1-200, 8 seeds of each other variant
    git stash; python3 bench/solver_trace.py > before.jsonl; git stash pop; cmp before.jsonl after.jsonl

Everything runs under a node budget, so the output is the same on every machine and under any load: `solve`
(status, nodes, detail, notation, par), the complete and the eager search alone (status, nodes, expansions, what
ran out, path), and for the first three seeds an atomic search and a search on the player's view (face-down
cards unknown, stopping at a reveal). A speed-up that changes none of them searched the same positions in the
same order. The build that ran goes to stderr with the CPU time (compiled and interpreted must print the same
lines too: tests/test_build.py checks a smaller sample of that on every run of the suite).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from freecell_arena.build import running_build
from freecell_arena.engine import VARIANTS, Board, variant_by_id
from freecell_arena.engine.solver import solve
from freecell_arena.engine.solver.search import BestFirst, SearchResult
from freecell_arena.engine.solver.state import rules_for, state_from_board

SOLVE_NODES = 60_000
SEARCH_NODES = 3_000
SMALL_SEARCH_NODES = 2_000


def searched(result: SearchResult) -> list[object]:
    return [str(result.status), result.nodes, result.expanded, result.out_of, [tuple(move) for move in result.path]]


def trace(variant: str, seed: int) -> dict[str, object]:
    board = Board.deal(variant_by_id(variant), seed)
    solved = solve(board, budget=1e9, max_nodes=SOLVE_NODES)
    row: dict[str, object] = {
        "variant": variant, "seed": seed, "status": str(solved.status), "nodes": solved.nodes,
        "detail": solved.detail, "notation": list(solved.notation),
        "par": solved.solution.player_moves if solved.solution else None,
    }  # fmt: skip
    rules = rules_for(board.variant)
    start = state_from_board(board, visible_only=False)
    for eager in (False, True):
        search = BestFirst(rules, start, atomic=False, eager=eager, keep_runs=eager and rules.copies > 1)
        row["eager" if eager else "complete"] = searched(search.run(1e9, SEARCH_NODES))
    if seed <= 3:
        row["atomic"] = searched(BestFirst(rules, start, atomic=True).run(1e9, SMALL_SEARCH_NODES))
        view = state_from_board(board, visible_only=True)
        player = BestFirst(rules, view, atomic=False, stop_at_reveal=any(board.hidden))
        row["view"] = searched(player.run(1e9, SMALL_SEARCH_NODES))
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=200, help="MS FreeCell deals 1..N (default 200)")
    parser.add_argument("--seeds", type=int, default=8, help="seeds 1..N of each other variant (default 8)")
    args = parser.parse_args()
    began = time.process_time()
    cases = [("freecell", deal) for deal in range(1, args.deals + 1)]
    cases += [(name, seed) for name in VARIANTS if name != "freecell" for seed in range(1, args.seeds + 1)]
    for variant, seed in cases:
        print(json.dumps(trace(variant, seed)), flush=True)
    print(f"{len(cases)} deals, engine {running_build()}, {time.process_time() - began:.1f} s CPU", file=sys.stderr)


if __name__ == "__main__":
    main()

"""The solver: certified solutions, par, proofs of unsolvability and hints for every variant. Pure Python.

`solve(board)` searches on the solver's compact state (`state`), orders it with `heuristic`, runs the best-first
search in `search`, and proves every solution on an engine board (`certify`) before returning it.
`hint(board_or_game)` uses only what the player can see; `finish(game)` plays out a decided game (auto-finish).
"""

from freecell_arena.engine.solver.certify import CertificationError, CertifiedSolution, certify
from freecell_arena.engine.solver.heuristic import DEFAULT_WEIGHTS, Weights
from freecell_arena.engine.solver.hint import finish, hint
from freecell_arena.engine.solver.search import Status
from freecell_arena.engine.solver.solve import DEFAULT_BUDGET_SECONDS, SolveResult, solve

__all__ = [
    "DEFAULT_BUDGET_SECONDS",
    "DEFAULT_WEIGHTS",
    "CertificationError",
    "CertifiedSolution",
    "SolveResult",
    "Status",
    "Weights",
    "certify",
    "finish",
    "hint",
    "solve",
]

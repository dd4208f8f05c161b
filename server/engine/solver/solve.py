"""`solve(board)`: a certified solution, `unsolvable` (search space exhausted), or `unknown` (budget spent).

Never a wrong answer: a solution is returned only after `certify` replayed it to a win on an engine board, and
`unsolvable` only when the complete search (sound pruning only) ran dry within the budget.
"""

from __future__ import annotations

from dataclasses import dataclass

from server.engine import Board, Move
from server.engine.solver.certify import CertificationError, CertifiedSolution, certify
from server.engine.solver.heuristic import DEFAULT_WEIGHTS, Weights
from server.engine.solver.search import SearchResult, Status, best_first
from server.engine.solver.state import rules_for, state_from_board

DEFAULT_BUDGET_SECONDS = 10.0


@dataclass(frozen=True, slots=True)
class SolveResult:
    status: Status
    solution: CertifiedSolution | None
    nodes: int
    seconds: float
    detail: str = ""
    """Why the answer is `unknown` (budget kind, or a certification failure), for logs and the CLI."""

    @property
    def moves(self) -> tuple[Move, ...]:
        return self.solution.moves if self.solution else ()

    @property
    def notation(self) -> tuple[str, ...]:
        return self.solution.notation if self.solution else ()


def solve(
    board: Board,
    *,
    atomic: bool = False,
    budget: float = DEFAULT_BUDGET_SECONDS,
    max_nodes: int | None = None,
    weights: Weights = DEFAULT_WEIGHTS,
) -> SolveResult:
    """Solve from `board`'s position using the whole position (face-down cards included: certification)."""
    rules = rules_for(board.variant)
    start = state_from_board(board, visible_only=False)
    found = best_first(rules, start, atomic=atomic, seconds=budget, max_nodes=max_nodes, weights=weights)
    return _certified(board, found)


def _certified(board: Board, found: SearchResult) -> SolveResult:
    if found.status is not Status.SOLVED:
        detail = f"the {found.out_of} budget ran out" if found.status is Status.UNKNOWN else "search space exhausted"
        return SolveResult(found.status, None, found.nodes, found.seconds, detail)
    try:
        solution = certify(board, found.path)
    except CertificationError as error:
        return SolveResult(Status.UNKNOWN, None, found.nodes, found.seconds, f"solver bug: {error}")
    return SolveResult(Status.SOLVED, solution, found.nodes, found.seconds)

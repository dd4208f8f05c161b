"""`solve(board)`: a certified solution, `unsolvable` (search space exhausted), or `unknown` (budget spent).

Never a wrong answer: a solution is returned only after `certify` replayed it to a win on an engine board, and
`unsolvable` only when the complete search (sound pruning only) ran dry within the budget.

Two searches share the budget: the complete one (short solutions, and the only one that can prove a deal lost)
runs first for `COMPLETE_FIRST` of it; if that settles nothing, the eager one (every card a foundation takes goes
up at once: incomplete, but it finds long solutions many times faster) runs until `EAGER_UNTIL`; then the complete
search goes on from where it stopped for the rest. The first solution found is certified and returned.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from server.engine import Board, Move
from server.engine.solver.certify import CertificationError, CertifiedSolution, certify
from server.engine.solver.heuristic import DEFAULT_WEIGHTS, Weights
from server.engine.solver.search import BestFirst, SearchResult, Status
from server.engine.solver.state import rules_for, state_from_board

DEFAULT_BUDGET_SECONDS = 10.0
COMPLETE_FIRST = 0.05
"""Share of the budget (time and nodes) the complete search has before the eager one starts."""
EAGER_UNTIL = 0.6
"""The eager search runs until this share of the budget is spent; the complete search has what is left."""


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
    began = time.perf_counter()
    complete = BestFirst(rules, start, atomic=atomic, weights=weights)
    found = complete.run(budget * COMPLETE_FIRST, _share(max_nodes, COMPLETE_FIRST))
    if found.status is not Status.UNKNOWN:
        return _certified(board, found)
    eager = BestFirst(rules, start, atomic=atomic, weights=weights, eager=True)
    quick = eager.run(began + budget * EAGER_UNTIL - time.perf_counter(), _share(max_nodes, EAGER_UNTIL))
    if quick.status is Status.SOLVED:
        result = _certified(board, quick)
        if result.status is Status.SOLVED:
            return replace(result, nodes=complete.nodes + quick.nodes, seconds=time.perf_counter() - began)
    left_nodes = None if max_nodes is None else max(max_nodes - eager.nodes, 0)
    found = complete.run(began + budget - time.perf_counter(), left_nodes)
    result = _certified(board, found)
    return replace(result, nodes=complete.nodes + eager.nodes, seconds=time.perf_counter() - began)


def _share(max_nodes: int | None, share: float) -> int | None:
    return None if max_nodes is None else max(int(max_nodes * share), 1)


def _certified(board: Board, found: SearchResult) -> SolveResult:
    if found.status is not Status.SOLVED:
        detail = f"the {found.out_of} budget ran out" if found.status is Status.UNKNOWN else "search space exhausted"
        return SolveResult(found.status, None, found.nodes, found.seconds, detail)
    try:
        solution = certify(board, found.path)
    except CertificationError as error:
        return SolveResult(Status.UNKNOWN, None, found.nodes, found.seconds, f"solver bug: {error}")
    return SolveResult(Status.SOLVED, solution, found.nodes, found.seconds)

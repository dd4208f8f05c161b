"""`solve(board)`: a certified solution, `unsolvable` (search space exhausted), or `unknown` (budget spent).

Never a wrong answer: a solution is returned only after `certify` replayed it to a win on an engine board, and
`unsolvable` only when the complete search (sound pruning only) ran dry within the budget.

Two searches share the budget: the complete one (short solutions, and the only one that can prove a deal lost)
runs first for `COMPLETE_FIRST` of it; if that settles nothing, it takes turns, in growing slices, with four eager
searches (every card a foundation takes goes up at once: incomplete, but they find long solutions many times
faster) that have different weights, until `EAGER_UNTIL` (a larger share with several copies of each
card); then the complete search has the rest alone. Each search goes on from where it stopped. The first
solution found is certified and returned.

With several copies of each card (Chinese FreeCell, Three and Four Deck) the eager searches also keep runs
together (`keep_runs`: no card is lifted off a card it builds on, into a cell, onto another card or into an
empty column, unless the card uncovered goes up). A card there has several equal parents, and a search with
every cell full otherwise spends its nodes swapping them: Three Deck seeds 1-50 at 350,000 nodes settled 44
with it against 33 without.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from freecell_arena.engine import Board, Move
from freecell_arena.engine.solver.certify import CertificationError, CertifiedSolution, certify
from freecell_arena.engine.solver.heuristic import DEFAULT_WEIGHTS, Weights
from freecell_arena.engine.solver.search import BestFirst, SearchResult, Status, collector_paused
from freecell_arena.engine.solver.state import rules_for, state_from_board

DEFAULT_BUDGET_SECONDS = 10.0
COMPLETE_FIRST = 0.05
"""Share of the budget the complete search has before the eager ones start. The budget is counted in nodes when
`solve` is given a node budget (the answer is then the same on every machine), else in seconds."""
EAGER_UNTIL = (0.85, 0.95)
"""The eager searches run until this share of the budget is spent, with one deck and with several; the complete
search has what is left (with several decks its space is far too big to exhaust, so it gets less)."""
FIRST_SLICE = 0.01
"""The searches take turns in slices of this share of the budget, doubled after every round."""
COMPLETE_TURN = (4.0, 0.0)
"""The complete search's turn in slices (an eager search's is one), with one deck and with several. With one deck
it is the search that finds the shortest solutions (and the only one that can prove a loss) and often the first
to finish (deal 617: 3 s alone on a quiet machine, 7 s for the best eager search); with several decks its space
is far too big and the eager searches find nearly every solution, so it waits for the rest of the budget."""


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
    with collector_paused():  # and the searches, freed by reference counting on the way out
        return _solve(board, atomic, budget, max_nodes, weights)


def _solve(board: Board, atomic: bool, budget: float, max_nodes: int | None, weights: Weights) -> SolveResult:
    rules = rules_for(board.variant)
    start = state_from_board(board, visible_only=False)
    spend = _Budget(budget, max_nodes)
    complete = BestFirst(rules, start, atomic=atomic, weights=weights)
    spend.searches.append(complete)
    found = spend.run(complete, COMPLETE_FIRST)
    if found.status is not Status.UNKNOWN:
        return _certified(board, found)
    several_decks = rules.copies > 1
    eager = [
        BestFirst(rules, start, atomic=atomic, weights=w, eager=True, keep_runs=several_decks)
        for w in eager_weights(weights)
    ]
    spend.searches.extend(eager)
    complete_turn = COMPLETE_TURN[several_decks]
    turns = [*([(complete, complete_turn)] if complete_turn else []), *((search, 1.0) for search in eager)]
    slice_share = FIRST_SLICE
    eager_until = EAGER_UNTIL[several_decks]
    while spend.used() < eager_until and any(search.finished is None for search, _ in turns):
        for search, turn in turns:
            left = eager_until - spend.used()
            if left <= 0:
                break
            if search.finished is not None:
                continue
            found = spend.run(search, min(slice_share * turn, left))
            if search is complete and found.status is not Status.UNKNOWN:
                return spend.totals(_certified(board, found))
            if found.status is Status.SOLVED:
                result = _certified(board, found)
                if result.status is Status.SOLVED:
                    return spend.totals(result)
        slice_share *= 2
    spend.retire(eager)  # their trees and tables: the complete search may need the memory
    eager.clear()
    return spend.totals(_certified(board, spend.run(complete, 1.0 - spend.used())))


class _Budget:
    """The solve's budget in one unit, shared out between the searches as fractions of it.

    With a node budget the unit is nodes and the seconds are only a safety net: which search runs when, and so
    the answer, is then the same on every machine however busy (the daily challenge certifies its deals this
    way, so that every process picks the same deal with the same par). Without one, the unit is seconds.
    """

    def __init__(self, seconds: float, max_nodes: int | None) -> None:
        self.seconds = seconds
        self.max_nodes = max_nodes
        self.began = time.perf_counter()
        self.searches: list[BestFirst] = []
        self.retired_nodes = 0

    def nodes(self) -> int:
        return self.retired_nodes + sum(search.nodes for search in self.searches)

    def used(self) -> float:
        """The share of the budget spent so far (all of it once the seconds are gone, whatever the unit)."""
        elapsed = (time.perf_counter() - self.began) / self.seconds if self.seconds > 0 else 1.0
        if self.max_nodes is None or elapsed >= 1.0:
            return elapsed
        return self.nodes() / self.max_nodes

    def run(self, search: BestFirst, share: float) -> SearchResult:
        """Let `search` go on for `share` of the budget (at least one node), never past the whole budget."""
        seconds_left = self.began + self.seconds - time.perf_counter()
        if self.max_nodes is None:
            return search.run(min(self.seconds * share, seconds_left))
        nodes = max(1, min(int(self.max_nodes * share), self.max_nodes - self.nodes()))
        return search.run(seconds_left, search.nodes + nodes)

    def retire(self, searches: list[BestFirst]) -> None:
        self.retired_nodes += sum(search.nodes for search in searches)
        self.searches = [search for search in self.searches if search not in searches]

    def totals(self, result: SolveResult) -> SolveResult:
        return replace(result, nodes=self.nodes(), seconds=time.perf_counter() - self.began)


def eager_weights(weights: Weights) -> tuple[Weights, ...]:
    """The eager searches' weights: `weights` and three variations on it. Which ordering finds a long solution
    soon differs from deal to deal (a slow deal for one is often quick for another), so they take turns."""
    return (
        weights,
        replace(weights, buried=weights.buried * 0.5),
        replace(weights, path=weights.path * 2),
        replace(weights, cells_used=weights.cells_used * 2.5),
    )


def _certified(board: Board, found: SearchResult) -> SolveResult:
    if found.status is not Status.SOLVED:
        detail = f"the {found.out_of} budget ran out" if found.status is Status.UNKNOWN else "search space exhausted"
        return SolveResult(found.status, None, found.nodes, found.seconds, detail)
    try:
        solution = certify(board, found.path)
    except CertificationError as error:
        return SolveResult(Status.UNKNOWN, None, found.nodes, found.seconds, f"solver bug: {error}")
    return SolveResult(Status.SOLVED, solution, found.nodes, found.seconds)

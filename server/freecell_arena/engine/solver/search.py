"""Best-first search (weighted A*) over `State`s with a transposition table on canonical keys.

Each expansion generates every move up to symmetry, plays the safe autoplay after it as part of the same step (a
macro move: it never costs the player anything, and the engine's replay emits it explicitly), and drops children
whose canonical position was already reached. The frontier is ordered by `estimate + path weight x moves made`.

Only sound pruning is used (symmetry, transpositions, safe autoplay), so a frontier that runs dry before the
budget does is a proof that no solution exists. The clock is read every `CLOCK_EVERY` expansions.

The eager search (`eager=True`) also sends up every card a foundation takes, safe or not, after each move. It is
incomplete (a dry frontier proves nothing) and much faster on long games, so `solve` runs it beside the complete
search. With `keep_runs` (several copies of each card) it also never lifts cards off a card they build on unless
the card uncovered goes up: such moves mostly swap one parent for an equal one.
"""

from __future__ import annotations

import gc
import heapq
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from freecell_arena.engine import CELL, FOUNDATION, TABLEAU
from freecell_arena.engine.solver.heuristic import DEFAULT_WEIGHTS, Estimator, Weights
from freecell_arena.engine.solver.state import (
    PlainMove,
    Rules,
    SolverMove,
    State,
    apply_move,
    canonical_key,
    foundation_tables,
    generate_moves,
    is_won,
    reveals_unknown,
    safe_autoplay,
)

CLOCK_EVERY: Final = 32


class Status(StrEnum):
    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"
    UNKNOWN = "unknown"


@dataclass(slots=True)
class SearchResult:
    status: Status
    path: list[SolverMove] = field(default_factory=list)
    """SOLVED: the moves to the win. Otherwise: the moves to the most promising position seen (hints use it)."""
    nodes: int = 0
    expanded: int = 0
    seconds: float = 0.0
    out_of: str = ""
    """UNKNOWN: what ran out ("time" or "nodes")."""


NO_MOVE: Final[PlainMove] = (-1, -1, -1, -1, -1)
"""The root's move: it has none."""


@dataclass(slots=True)
class _Tree:
    """Parent pointers: node i was reached from `parent[i]` by `move[i]`, then (eager search) the foundation moves
    `after[i]`, if any."""

    parent: list[int] = field(default_factory=lambda: [-1])
    move: list[PlainMove] = field(default_factory=lambda: [NO_MOVE])
    after: dict[int, tuple[PlainMove, ...]] = field(default_factory=dict)
    depth: list[int] = field(default_factory=lambda: [0])
    prefix: list[PlainMove] = field(default_factory=list)
    """Moves played before the root (eager search: the foundation moves at the start)."""

    def add(self, parent: int, move: PlainMove, after: tuple[PlainMove, ...] = ()) -> int:
        node = len(self.parent)
        self.parent.append(parent)
        self.move.append(move)
        if after:
            self.after[node] = after
        self.depth.append(self.depth[parent] + 1 + len(after))
        return node

    def path_to(self, node: int) -> list[SolverMove]:
        moves: list[PlainMove] = []
        while node > 0:
            after = self.after.get(node)
            if after is not None:
                moves.extend(reversed(after))
            moves.append(self.move[node])
            node = self.parent[node]
        moves.reverse()
        return [SolverMove(*move) for move in self.prefix + moves]


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector (unless it already is): a search makes no cycles, but it makes tuples by
    the hundred thousand and keeps most of them, so the collector would walk the whole growing tree again and
    again to free nothing (a sixth of a compiled search's time). `solve` pauses it for its whole run, so that
    it does not walk the searches' trees between their slices either; the trees are freed by reference
    counting when the searches are dropped."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def best_first(
    rules: Rules,
    start: State,
    *,
    atomic: bool,
    seconds: float,
    max_nodes: int | None = None,
    weights: Weights = DEFAULT_WEIGHTS,
    stop_at_reveal: bool = False,
    eager: bool = False,
) -> SearchResult:
    """Search from `start` (autoplay is applied to it first): `BestFirst(...).run(seconds, max_nodes)`."""
    search = BestFirst(rules, start, atomic=atomic, weights=weights, stop_at_reveal=stop_at_reveal, eager=eager)
    return search.run(seconds, max_nodes)


class BestFirst:
    """One best-first search, which can be run in slices: `run` stops at its budget and a later `run` goes on
    from where it stopped (frontier, transposition table and tree kept), so a search can be interleaved with
    another.

    With `stop_at_reveal`, a position where a face-down card turns up is a leaf (the player sees something new
    there and must replan): when a leaf is the best position on the frontier, the search stops with status
    UNKNOWN, `out_of` "reveal" and the path to that leaf. The frontier running dry with no leaf and no win means
    no card can ever be revealed and the visible cards cannot win: the position is lost.

    With `eager`, every card a foundation takes goes up at once after each move, safe or not (each is a move of
    the path). That prunes positions a solution may need, so an eager search that runs dry proves nothing: its
    status is then UNKNOWN with `out_of` "eager". What it finds is a solution like any other (and certified
    like any other).

    With `keep_runs` (eager only; not with `atomic`, where a run moves one card at a time) the search never
    lifts cards off a card they build on (into a cell, onto another card or into an empty column), unless the
    card uncovered goes to a foundation (see `generate_moves`). With several copies of each card most such
    moves only swap a parent for an equal one, and a search with every cell full spends most of its nodes on
    them.
    """

    def __init__(
        self,
        rules: Rules,
        start: State,
        *,
        atomic: bool,
        weights: Weights = DEFAULT_WEIGHTS,
        stop_at_reveal: bool = False,
        eager: bool = False,
        keep_runs: bool = False,
    ) -> None:
        if keep_runs and not eager:
            raise ValueError("keep_runs prunes positions a solution may need: only for an eager search")
        self.rules = rules
        self.atomic = atomic
        self.weights = weights
        self.stop_at_reveal = stop_at_reveal
        self.eager = eager
        self.keep_runs = keep_runs and not atomic
        self.tree = _Tree()
        self.seconds = 0.0
        self.expanded = 0
        self.finished: SearchResult | None = None
        """The final result (solved, or the frontier ran dry / stopped at a reveal), once there is one."""
        start = safe_autoplay(rules, start)
        if eager:
            start, first = eager_foundation_moves(rules, start)
            self.tree.prefix = list(first)
        self.estimator = Estimator(rules, weights)
        self.seen: set[bytes] = {canonical_key(start)}
        start_estimate = self.estimator.estimate(start)
        self.frontier: list[tuple[float, int, State, bool]] = [(start_estimate, 0, start, False)]
        self.best_node, self.best_score = 0, start_estimate
        if is_won(rules, start):
            self.finished = SearchResult(Status.SOLVED, self.tree.path_to(0), 1, 0, 0.0)

    @property
    def nodes(self) -> int:
        return len(self.tree.parent)

    def run(self, seconds: float, max_nodes: int | None = None) -> SearchResult:
        """Search on for at most `seconds` (read every `CLOCK_EVERY` expansions) or until the tree holds
        `max_nodes` nodes. The result's `seconds` and `nodes` are totals over every slice so far."""
        if self.finished is not None:
            return self.finished
        with collector_paused():
            return self._run(seconds, max_nodes)

    def _run(self, seconds: float, max_nodes: int | None) -> SearchResult:
        began = time.perf_counter()
        deadline = began + seconds
        rules, atomic, eager, stop_at_reveal = self.rules, self.atomic, self.eager, self.stop_at_reveal
        keep_runs = self.keep_runs
        tree, seen, frontier, estimator = self.tree, self.seen, self.frontier, self.estimator
        path_weight = self.weights.path
        push, pop = heapq.heappush, heapq.heappop  # compiled, `heapq.heappush` is a module look-up at every call
        expanded = self.expanded
        slice_expanded = 0
        out_of = ""
        result: SearchResult | None = None
        while frontier:
            if slice_expanded % CLOCK_EVERY == 0 and slice_expanded and time.perf_counter() > deadline:
                out_of = "time"
                break
            if max_nodes is not None and len(tree.parent) >= max_nodes:
                out_of = "nodes"
                break
            _, node, state, is_leaf = pop(frontier)
            if is_leaf:
                # the most promising position is one where a card turns up: plan up to there, then look again
                result = SearchResult(Status.UNKNOWN, tree.path_to(node), len(tree.parent), expanded, 0.0, "reveal")
                break
            expanded += 1
            slice_expanded += 1
            child_depth = tree.depth[node] + 1
            # Every position on the frontier has had its autoplay (eager: every foundation move): after a move
            # that leaves the foundations alone, only the source column's new top card is new to them.
            playable, safe = foundation_tables(rules, state.foundations)
            watched = playable if eager else safe
            shares = estimator.shares(state)
            for move in generate_moves(rules, state, atomic=atomic, keep_runs=keep_runs):
                from_zone, source, to_zone, _, _ = move
                child = apply_move(rules, state, move)
                after: tuple[PlainMove, ...] = ()
                if to_zone == FOUNDATION or (
                    from_zone == TABLEAU and (uncovered := child.columns[source]) and uncovered[-1] in watched
                ):
                    child = safe_autoplay(rules, child)
                    if eager:
                        child, after = eager_foundation_moves(rules, child)
                known = len(seen)
                seen.add(canonical_key(child))  # one hash of the key, where `in` then `add` took two
                if len(seen) == known:
                    continue
                child_node = tree.add(node, move, after)
                # the position expanded is not won: nor is a child whose foundations are the same tuple
                if child.foundations is not state.foundations and is_won(rules, child):
                    result = SearchResult(Status.SOLVED, tree.path_to(child_node), len(tree.parent), expanded)
                    break
                value = estimator.estimate(child, state, shares)
                leaf = stop_at_reveal and reveals_unknown(child)
                if value < self.best_score and not leaf:
                    self.best_node, self.best_score = child_node, value
                push(frontier, (value + path_weight * child_depth, child_node, child, leaf))
            if result is not None:
                break
        self.expanded = expanded
        self.seconds += time.perf_counter() - began
        if result is None:
            if out_of:
                return SearchResult(
                    Status.UNKNOWN, tree.path_to(self.best_node), len(tree.parent), expanded, self.seconds, out_of
                )
            if eager:
                result = SearchResult(Status.UNKNOWN, tree.path_to(self.best_node), len(tree.parent), expanded,
                                      out_of="eager")  # fmt: skip
            else:
                result = SearchResult(Status.UNSOLVABLE, [], len(tree.parent), expanded)
        result.seconds = self.seconds
        self.finished = result
        return result


def eager_foundation_moves(rules: Rules, state: State) -> tuple[State, tuple[PlainMove, ...]]:
    """Play every foundation move there is (then safe autoplay) until none is left: (the position, the
    foundation moves in order). Cells first, then columns left to right, one at a time."""
    played: list[PlainMove] = []
    while True:
        playable = foundation_tables(rules, state.foundations)[0]
        if not playable:
            break
        found: PlainMove | None = None
        for card in state.cells:
            slot = playable.get(card)
            if slot is not None:
                found = (CELL, card, FOUNDATION, slot, 1)
                break
        if found is None:
            for index, column in enumerate(state.columns):
                if column:
                    slot = playable.get(column[-1])
                    if slot is not None:
                        found = (TABLEAU, index, FOUNDATION, slot, 1)
                        break
        if found is None:
            break
        played.append(found)
        state = safe_autoplay(rules, apply_move(rules, state, found))
    return state, tuple(played)

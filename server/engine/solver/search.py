"""Best-first search (weighted A*) over `State`s with a transposition table on canonical keys.

Each expansion generates every move up to symmetry, plays the safe autoplay after it as part of the same step (a
macro move: it never costs the player anything, and the engine's replay emits it explicitly), and drops children
whose canonical position was already reached. The frontier is ordered by `estimate + path weight x moves made`.

Only sound pruning is used (symmetry, transpositions, safe autoplay), so a frontier that runs dry before the
budget does is a proof that no solution exists. The clock is read every `CLOCK_EVERY` expansions.
"""

from __future__ import annotations

import heapq
import time
from dataclasses import dataclass, field
from enum import StrEnum

from server.engine.solver.heuristic import DEFAULT_WEIGHTS, Estimator, Weights
from server.engine.solver.state import (
    Rules,
    SolverMove,
    State,
    apply_move,
    canonical_key,
    generate_moves,
    is_won,
    reveals_unknown,
    safe_autoplay,
)

CLOCK_EVERY = 256


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


@dataclass(slots=True)
class _Tree:
    """Parent pointers: node i was reached from `parent[i]` by `move[i]`."""

    parent: list[int] = field(default_factory=lambda: [-1])
    move: list[SolverMove | None] = field(default_factory=lambda: [None])
    depth: list[int] = field(default_factory=lambda: [0])

    def add(self, parent: int, move: SolverMove) -> int:
        self.parent.append(parent)
        self.move.append(move)
        self.depth.append(self.depth[parent] + 1)
        return len(self.parent) - 1

    def path_to(self, node: int) -> list[SolverMove]:
        moves: list[SolverMove] = []
        while node > 0:
            move = self.move[node]
            assert move is not None
            moves.append(move)
            node = self.parent[node]
        moves.reverse()
        return moves


def best_first(
    rules: Rules,
    start: State,
    *,
    atomic: bool,
    seconds: float,
    max_nodes: int | None = None,
    weights: Weights = DEFAULT_WEIGHTS,
    stop_at_reveal: bool = False,
) -> SearchResult:
    """Search from `start` (autoplay is applied to it first).

    With `stop_at_reveal`, a position where a face-down card turns up is a leaf (the player sees something new
    there and must replan): when a leaf is the best position on the frontier, the search stops with status
    UNKNOWN, `out_of` "reveal" and the path to that leaf. The frontier running dry with no leaf and no win means
    no card can ever be revealed and the visible cards cannot win: the position is lost.
    """
    began = time.perf_counter()
    deadline = began + seconds
    start = safe_autoplay(rules, start)
    tree = _Tree()
    if is_won(rules, start):
        return SearchResult(Status.SOLVED, [], 1, 0, time.perf_counter() - began)
    path_weight = weights.path
    estimate = Estimator(rules, weights)
    seen: set[tuple[object, ...]] = {canonical_key(start)}
    start_estimate = estimate(start)
    frontier: list[tuple[float, int, State, bool]] = [(start_estimate, 0, start, False)]
    best_node, best_score = 0, start_estimate
    expanded = 0
    out_of = ""
    while frontier:
        if expanded % CLOCK_EVERY == 0 and expanded and time.perf_counter() > deadline:
            out_of = "time"
            break
        if max_nodes is not None and len(tree.parent) >= max_nodes:
            out_of = "nodes"
            break
        _, node, state, is_leaf = heapq.heappop(frontier)
        if is_leaf:
            # the most promising position is one where a card turns up: plan up to there, then look again
            nodes = len(tree.parent)
            return SearchResult(
                Status.UNKNOWN, tree.path_to(node), nodes, expanded, time.perf_counter() - began, "reveal"
            )
        expanded += 1
        child_depth = tree.depth[node] + 1
        for move in generate_moves(rules, state, atomic=atomic):
            child = safe_autoplay(rules, apply_move(rules, state, move))
            key = canonical_key(child)
            if key in seen:
                continue
            seen.add(key)
            child_node = tree.add(node, move)
            if is_won(rules, child):
                return SearchResult(
                    Status.SOLVED, tree.path_to(child_node), len(tree.parent), expanded, time.perf_counter() - began
                )
            value = estimate(child)
            leaf = stop_at_reveal and reveals_unknown(child)
            if value < best_score and not leaf:
                best_node, best_score = child_node, value
            heapq.heappush(frontier, (value + path_weight * child_depth, child_node, child, leaf))
    elapsed = time.perf_counter() - began
    nodes = len(tree.parent)
    if not out_of:
        return SearchResult(Status.UNSOLVABLE, [], nodes, expanded, elapsed)
    return SearchResult(Status.UNKNOWN, tree.path_to(best_node), nodes, expanded, elapsed, out_of)

"""How far a position looks from won: the estimate that orders the best-first search.

Lower is better. The terms are the classic ones: cards still to go up, cards sitting above a lower card (each
must move before that card can go up), how deep the next cards the foundations want are buried, and the working
space left (free cells and empty columns). It is an estimate, not a bound: it only decides what the search
looks at first, never what it may skip, so it cannot make an answer wrong.
"""

from __future__ import annotations

from dataclasses import dataclass

from server.engine.solver.state import UNKNOWN, Rules, State


@dataclass(frozen=True, slots=True)
class Weights:
    cards_left: float = 1.0
    buried: float = 1.5
    next_depth: float = 0.6
    cells_used: float = 0.8
    empty_column: float = 1.5
    path: float = 0.5
    """How much each move already made counts: higher gives shorter solutions, lower finds them sooner."""


DEFAULT_WEIGHTS = Weights()


def estimate(rules: Rules, state: State, weights: Weights = DEFAULT_WEIGHTS) -> float:
    columns, cells, foundations = state
    capacity = rules.capacity
    wanted = set()
    for slot, suit in enumerate(rules.variant.foundation_suits):
        on = foundations[slot]
        if on < capacity:
            wanted.add((on % 13 + 1) << 2 | suit)
    buried = 0
    next_depth = 0
    empty = 0
    for column in columns:
        size = len(column)
        if not size:
            empty += 1
            continue
        lowest = 99
        for position, card in enumerate(column):
            if card == UNKNOWN:
                buried += 1
                continue
            rank = card >> 2
            if rank > lowest:
                buried += 1
            else:
                lowest = rank
            if card in wanted:
                next_depth += size - 1 - position
    cards_left = rules.total_cards - sum(foundations)
    return (
        weights.cards_left * cards_left
        + weights.buried * buried
        + weights.next_depth * next_depth
        + weights.cells_used * len(cells)
        - weights.empty_column * empty
    )

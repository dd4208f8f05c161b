"""How far a position looks from won: the estimate that orders the best-first search.

Lower is better. The terms are the classic ones: cards still to go up; cards that block a lower card beneath
them and are not riding on a proper run (each must move before that lower card can go up); how deep the next
cards the foundations want are buried; and the working space (free cells, empty columns). It is an estimate,
not a bound: it only decides what the search looks at first, never what it may skip, so it cannot make an answer
wrong. A column's share of the estimate depends only on the column and on which cards the foundations want,
so it is memoised: a move changes one or two columns.
"""

from __future__ import annotations

from dataclasses import dataclass

from freecell_arena.engine.solver.state import UNKNOWN, Rules, State

MEMO_LIMIT = 400_000
NOWHERE = 1 << 20


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


class Estimator:
    """`estimate(state)` for one variant and one set of weights, with the per-column memo.

    The depth term counts, for each card value the foundations take next, the cards above its shallowest copy:
    with several decks the nearest copy is the one worth digging for, and the gradient stays steep.
    """

    def __init__(self, rules: Rules, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.rules = rules
        self.weights = weights
        self._columns: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[float, tuple[int, ...]]] = {}
        self._wanted: dict[tuple[int, ...], tuple[int, ...]] = {}
        self._suits = rules.variant.foundation_suits

    def wanted(self, foundations: tuple[int, ...]) -> tuple[int, ...]:
        """The card values the foundations take next, sorted."""
        found = self._wanted.get(foundations)
        if found is None:
            capacity = self.rules.capacity
            found = tuple(
                sorted(
                    {
                        (on % 13 + 1) << 2 | suit
                        for on, suit in zip(foundations, self._suits, strict=True)
                        if on < capacity
                    }
                )
            )
            self._wanted[foundations] = found
        return found

    def column_share(self, column: tuple[int, ...], wanted: tuple[int, ...]) -> tuple[float, tuple[int, ...]]:
        """(weighted blockers of this column, depth of the shallowest copy of each wanted card or NOWHERE)."""
        builds_on = self.rules.builds_on
        buried = 0
        size = len(column)
        lowest = 99
        below = 0
        depths = dict.fromkeys(wanted, NOWHERE)
        for position, card in enumerate(column):
            if card == UNKNOWN:
                buried += 1
                below = card
                continue
            rank = card >> 2
            if rank > lowest:
                if not (below and builds_on[card][below]):
                    buried += 1
            else:
                lowest = rank
            if card in depths:
                depths[card] = size - 1 - position
            below = card
        return self.weights.buried * buried, tuple(depths.values())

    def __call__(self, state: State) -> float:
        columns, cells, foundations = state
        wanted = self.wanted(foundations)
        memo = self._columns
        if len(memo) > MEMO_LIMIT:
            memo.clear()
        weights = self.weights
        total: float = 0.0
        empty = 0
        depth_rows = []
        for column in columns:
            if not column:
                empty += 1
                continue
            key = (column, wanted)
            share = memo.get(key)
            if share is None:
                share = memo[key] = self.column_share(column, wanted)
            total += share[0]
            depth_rows.append(share[1])
        # the shallowest copy of each wanted card over all columns
        next_depth = sum(depth for depth in map(min, zip(*depth_rows, strict=True)) if depth != NOWHERE)
        cards_left = self.rules.total_cards - sum(foundations)
        estimate: float = (
            total
            + weights.next_depth * next_depth
            + weights.cards_left * cards_left
            + weights.cells_used * len(cells)
            - weights.empty_column * empty
        )
        return estimate

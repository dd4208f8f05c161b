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
from typing import Final

from freecell_arena.engine.solver.state import UNKNOWN, Columns, Rules, State

MEMO_LIMIT: Final = 400_000
NOWHERE: Final = 1 << 20


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


ColumnShare = tuple[float, tuple[int, ...]]
"""A column's part of the estimate: (its weighted blockers, (index in `wanted`, depth of its shallowest copy in
the column) flattened, for the wanted cards the column holds: most columns hold none or one)."""


class Estimator:
    """`estimate(state)` for one variant and one set of weights, with the per-column memo.

    The depth term counts, for each card value the foundations take next, the cards above its shallowest copy:
    with several decks the nearest copy is the one worth digging for, and the gradient stays steep.
    """

    def __init__(self, rules: Rules, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.rules = rules
        self.weights = weights
        self._columns: dict[tuple[int, ...], dict[bytes, ColumnShare]] = {}
        """The memo: {wanted cards: {column: its share}}."""
        self._memo_size = 0
        self._wanted: dict[tuple[int, ...], tuple[tuple[int, ...], dict[bytes, ColumnShare]]] = {}
        """{foundation heights: (the cards they take next, the memo of column shares for those)}."""
        self._last_foundations: tuple[int, ...] = ()
        self._last_found: tuple[tuple[int, ...], dict[bytes, ColumnShare]] = ((), {})
        """The last answer of `_wanted_and_memo` and the tuple it was for (a look-up without hashing)."""
        self._suits = rules.variant.foundation_suits

    def _wanted_and_memo(
        self, foundations: tuple[int, ...]
    ) -> tuple[tuple[int, ...], dict[bytes, ColumnShare]]:
        """(The card values the foundations take next, sorted; the memo of column shares for those.)"""
        if foundations is self._last_foundations:  # most children keep their parent's foundations tuple
            return self._last_found
        found = self._wanted.get(foundations)
        if found is None:
            capacity = self.rules.capacity
            wanted = tuple(
                sorted(
                    {
                        (on % 13 + 1) << 2 | suit
                        for on, suit in zip(foundations, self._suits, strict=True)
                        if on < capacity
                    }
                )
            )
            memo = self._columns.get(wanted)
            if memo is None:
                memo = self._columns[wanted] = {}
            found = self._wanted[foundations] = (wanted, memo)
        self._last_foundations, self._last_found = foundations, found
        return found

    def _share(self, memo: dict[bytes, ColumnShare], column: bytes, wanted: tuple[int, ...]) -> ColumnShare:
        share = memo.get(column)
        if share is None:
            share = memo[column] = self.column_share(column, wanted)
            self._memo_size += 1
        return share

    def column_share(self, column: bytes, wanted: tuple[int, ...]) -> ColumnShare:
        """(weighted blockers of this column, (index in `wanted`, depth of its shallowest copy) of each wanted card
        the column holds, flattened)."""
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
        held: list[int] = []
        for index, depth in enumerate(depths.values()):
            if depth != NOWHERE:
                held.append(index)
                held.append(depth)
        return self.weights.buried * buried, tuple(held)

    def shares(self, state: State) -> list[ColumnShare | None]:
        """Each column's share (None for an empty column), for `estimate` to reuse in the children."""
        wanted, memo = self._wanted_and_memo(state.foundations)
        return [self._share(memo, column, wanted) if column else None for column in state.columns]

    def estimate(
        self, state: State, parent: State | None = None, parent_shares: list[ColumnShare | None] | None = None
    ) -> float:
        """With the `parent` position and its `shares`, a column that is the parent's own (the same object, and the
        foundations the same tuple) takes the parent's share without a look-up: a move changes one or two."""
        columns, cells, foundations = state.columns, state.cells, state.foundations
        if self._memo_size > MEMO_LIMIT:
            self._memo_size = 0
            self._wanted.clear()
            self._columns.clear()
            self._last_foundations = ()
        wanted, memo = self._wanted_and_memo(foundations)
        known: list[ColumnShare | None] = []
        parent_columns: Columns = ()
        if parent is not None and parent_shares is not None and parent.foundations is foundations:
            known, parent_columns = parent_shares, parent.columns
        weights = self.weights
        total: float = 0.0
        empty = 0
        # the shallowest copy of each wanted card over all columns
        nearest = [NOWHERE] * len(wanted)
        for position, column in enumerate(columns):
            if not column:
                empty += 1
                continue
            share = known[position] if parent_columns and column is parent_columns[position] else None
            if share is None:
                share = self._share(memo, column, wanted)
            total += share[0]
            held = share[1]
            for at in range(0, len(held), 2):
                index, depth = held[at], held[at + 1]
                if depth < nearest[index]:
                    nearest[index] = depth
        next_depth = 0
        for depth in nearest:
            if depth != NOWHERE:
                next_depth += depth
        cards_left = self.rules.total_cards
        for on in foundations:  # a loop, not sum(): compiled, sum() is a call through the builtins module
            cards_left -= on
        cells_used = len(cells)  # an int variable: compiled, float * len(...) is a generic multiply
        estimate: float = (
            total
            + weights.next_depth * next_depth
            + weights.cards_left * cards_left
            + weights.cells_used * cells_used
            - weights.empty_column * empty
        )
        return estimate

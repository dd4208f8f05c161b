"""Move generation: every legal move of a position, and the quick yes/no questions the server asks after each move.

Free functions over a `Board` (its public lists), apart from the board itself so that the board stays the
position and its validated changes (python-chess keeps its generator on the board; here it is its own room, and
`Board.generate_legal_moves`, `has_legal_move` and `has_foundation_move` call in). The generator lists one move
per interchangeable target (the first empty cell, the first empty column, the first accepting foundation);
`Board.is_legal` and `Board.play` accept the others too.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from freecell_arena.engine.cards import rank_of
from freecell_arena.engine.moves import CELL, FOUNDATION, TABLEAU, Move
from freecell_arena.engine.variants import Variant


class Position(Protocol):
    """What the generator reads of a board (`Board` is one): the lists of its position, and its own generator
    (`any_legal_move` ends by asking it, so a board that counts or filters its moves is asked, not bypassed)."""

    variant: Variant
    tableau: list[list[int]]
    hidden: list[int]
    cells: list[int]
    foundations: list[int]

    def generate_legal_moves(self) -> Iterator[Move]: ...


def legal_moves(board: Position) -> Iterator[Move]:
    """Every legal move, with one representative for interchangeable targets.

    Moving a card to cell a or cell b, or a run to one empty column or another, leads to the same position
    up to symmetry, so only the first empty cell, the first empty column and the first accepting foundation
    are listed. `is_legal` and `play` accept the others too.
    """
    variant = board.variant
    tableau = board.tableau
    cells = board.cells
    foundations = board.foundations
    builds_on = variant.builds_on
    may_fill = variant.may_fill_empty
    capacity = 13 * variant.foundation_laps
    slots_of = variant.foundation_slots
    hidden = board.hidden

    def foundation_slot(card: int) -> int | None:
        rank = card >> 2
        for slot in slots_of[card & 3]:
            on = foundations[slot]
            if on < capacity and on % 13 + 1 == rank:
                return slot
        return None

    for index, card in enumerate(cells):
        if card:
            slot = foundation_slot(card)
            if slot is not None:
                yield Move(CELL, index, FOUNDATION, slot, 1)
    for index, column in enumerate(tableau):
        if column:
            slot = foundation_slot(column[-1])
            if slot is not None:
                yield Move(TABLEAU, index, FOUNDATION, slot, 1)

    empty_columns = tableau.count([])
    first_empty_column = tableau.index([]) if empty_columns else -1
    empty_cells = cells.count(0)
    limit_onto_card = variant.run_limit.compute(empty_cells, empty_columns)
    limit_into_empty = variant.run_limit.compute(empty_cells, empty_columns - 1) if empty_columns else 0

    for source, column in enumerate(tableau):
        size = len(column)
        if not size:
            continue
        run = 1
        lowest_movable = hidden[source]
        while size - run > lowest_movable and builds_on[column[size - run]][column[size - run - 1]]:
            run += 1
        for target, destination in enumerate(tableau):
            if target == source:
                continue
            if destination:
                onto = destination[-1]
                depth = rank_of(onto) - rank_of(column[-1])
                if 1 <= depth <= run and depth <= limit_onto_card and builds_on[column[-depth]][onto]:
                    yield Move(TABLEAU, source, TABLEAU, target, depth)
            elif target == first_empty_column and size > 0:
                longest = min(run, limit_into_empty)
                for count in range(1, longest + 1):
                    if count == size and size == run and not hidden[source]:
                        continue  # the whole column into an empty one: the same position
                    if may_fill[column[-count]]:
                        yield Move(TABLEAU, source, TABLEAU, target, count)

    for index, card in enumerate(cells):
        if not card:
            continue
        for target, destination in enumerate(tableau):
            if destination:
                if builds_on[card][destination[-1]]:
                    yield Move(CELL, index, TABLEAU, target, 1)
            elif target == first_empty_column and may_fill[card]:
                yield Move(CELL, index, TABLEAU, target, 1)

    if empty_cells:
        free = cells.index(0)
        for index, column in enumerate(tableau):
            if column:
                yield Move(TABLEAU, index, CELL, free, 1)


def any_legal_move(board: Position) -> bool:
    """Whether any legal move is left (`bool(legal_moves)`). The server asks after every move, so the usual
    answers come from a few set lookups, each of which names a legal move: a free cell and a card to put
    there (a top card is never face down), a card a foundation takes, a card that builds on a column's top
    card, a card that may fill an empty column. Only when none applies does the move generator decide."""
    cells = board.cells
    tableau = board.tableau
    tops = {column[-1] for column in tableau if column}
    if tops and 0 in cells:
        return True
    movable = tops.union(cells)
    movable.discard(0)
    if foundation_takes_any(board, movable):
        return True
    variant = board.variant
    builders = variant.builders
    for onto in tops:
        if not movable.isdisjoint(builders[onto]):
            return True
    if [] in tableau:
        may_fill = variant.may_fill_empty
        if any(may_fill[card] for card in cells if card):
            return True
        if any(len(column) > 1 and may_fill[column[-1]] for column in tableau):
            return True
    return any(True for _ in board.generate_legal_moves())


def any_foundation_move(board: Position) -> bool:
    """Whether a foundation takes a cell card or a column's top card now (autoplay has nothing to look at
    otherwise: the game asks before running it after every move)."""
    movable = {column[-1] for column in board.tableau if column}
    movable.update(board.cells)
    movable.discard(0)
    return foundation_takes_any(board, movable)


def foundation_takes_any(board: Position, cards: set[int]) -> bool:
    """Whether a foundation takes one of `cards` now (a set lookup per foundation)."""
    variant = board.variant
    capacity = 13 * variant.foundation_laps
    suits = variant.foundation_suits
    for slot, on in enumerate(board.foundations):  # noqa: SIM110 (a loop: any() over a generator is slower here)
        if on < capacity and (on % 13 + 1) << 2 | suits[slot] in cards:
            return True
    return False

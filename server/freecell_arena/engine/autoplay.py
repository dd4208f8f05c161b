"""Safe autoplay to the foundations (RULINGS): a card goes up on its own only when nothing still needs it.

A card is safe when every card that could legally be built on it in the tableau is already on a foundation, so
sending it up can never cost the player a move. Aces and Twos always qualify. The scan order (cells, then
columns, left to right) is fixed, so replaying a log reproduces the same autoplay moves.
"""

from __future__ import annotations

from freecell_arena.engine.board import Board
from freecell_arena.engine.moves import CELL, FOUNDATION, TABLEAU, Move


def is_safe(board: Board, card: int) -> bool:
    if card >> 2 <= 2:
        return True
    copies = board.variant.copies
    return all(board.copies_on_foundations(builder) == copies for builder in board.variant.builders[card])


def next_safe_move(board: Board) -> Move | None:
    variant = board.variant
    capacity = 13 * variant.foundation_laps
    foundations = board.foundations

    def slot_for(card: int) -> int | None:
        rank = card >> 2
        for slot in variant.foundation_slots[card & 3]:
            on = foundations[slot]
            if on < capacity and on % 13 + 1 == rank:
                return slot
        return None

    for index, card in enumerate(board.cells):
        if card:
            slot = slot_for(card)
            if slot is not None and is_safe(board, card):
                return Move(CELL, index, FOUNDATION, slot, 1)
    for index, column in enumerate(board.tableau):
        if column:
            slot = slot_for(column[-1])
            if slot is not None and is_safe(board, column[-1]):
                return Move(TABLEAU, index, FOUNDATION, slot, 1)
    return None


def safe_autoplay(board: Board) -> list[Move]:
    """Push every safe foundation move, one at a time until none is left, and return them in order."""
    made: list[Move] = []
    while (move := next_safe_move(board)) is not None:
        board.push(move)
        made.append(move)
    return made

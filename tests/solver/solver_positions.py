"""Hand-made positions for the solver tests: a dealt board whose cards are then laid out by hand."""

from __future__ import annotations

from freecell_arena.engine import Board, card_from_text, variant_by_id


def position(
    variant_id: str, columns: list[str], cells: list[str], foundations: list[int], seed: int = 1
) -> Board:
    """A board of `variant_id` with these columns (deepest card first), cells and foundation heights.

    The cards are checked to be exactly the deck, so a typo cannot make a test pass for the wrong reason.
    """
    variant = variant_by_id(variant_id)
    board = Board.deal(variant, seed)
    board.tableau = [[card_from_text(word) for word in column.split()] for column in columns]
    board.tableau += [[] for _ in range(variant.columns - len(board.tableau))]
    board.hidden = [0] * variant.columns
    board.cells = [card_from_text(word) for word in cells] + [0] * (variant.cells - len(cells))
    board.foundations = list(foundations)
    laid_out = [card for column in board.tableau for card in column] + [card for card in board.cells if card]
    on_foundations = [card for slot in range(len(foundations)) for card in _foundation_cards(board, slot)]
    assert sorted(laid_out + on_foundations) == sorted(variant.deck()), "not exactly the deck"
    return board


def _foundation_cards(board: Board, slot: int) -> list[int]:
    suit = board.variant.foundation_suits[slot]
    return [(step % 13 + 1) << 2 | suit for step in range(board.foundations[slot])]

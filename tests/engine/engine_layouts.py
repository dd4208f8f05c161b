"""Hand-laid positions and card bookkeeping for the engine tests.

`layout` starts from a real deal and then lays cards out by hand. It does not insist on the whole deck: the rules
only ever look at what is on the table, and a limit or refusal test reads best with a handful of cards. The
property tests, which do check conservation, only ever play from real deals.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from freecell_arena.engine import Board, card_from_text, card_text, variant_by_id
from freecell_arena.engine.cards import make_card


def cards(text: str) -> list[int]:
    """`"KS QH JS"` -> the card ints, deepest first."""
    return [card_from_text(word) for word in text.split()]


def layout(
    variant_id: str,
    columns: list[str],
    *,
    cells: Sequence[str] = (),
    foundations: list[int] | None = None,
    hidden: list[int] | None = None,
) -> Board:
    """A board of `variant_id` with these columns (deepest card first; missing columns are empty), these cards in
    the first cells (`-` leaves a cell empty), these foundation heights and these face-down counts."""
    variant = variant_by_id(variant_id)
    board = Board.deal(variant, variant.seed_range[0])
    assert len(columns) <= variant.columns, "more columns than the variant has"
    board.tableau = [cards(column) for column in columns] + [[] for _ in range(variant.columns - len(columns))]
    board.hidden = list(hidden) if hidden is not None else [0] * variant.columns
    board.hidden += [0] * (variant.columns - len(board.hidden))
    laid = [0 if word == "-" else card_from_text(word) for word in cells]
    board.cells = laid + [0] * (variant.cells - len(laid))
    board.foundations = list(foundations) if foundations is not None else [0] * len(variant.foundation_suits)
    return board


def foundation_cards(board: Board) -> list[int]:
    """Every card on the foundations, spelled out lap by lap (a Three Deck foundation of 14 is A..K then A)."""
    spelled = []
    for slot, suit in enumerate(board.variant.foundation_suits):
        spelled += [make_card(step % 13 + 1, suit) for step in range(board.foundations[slot])]
    return spelled


def all_cards(board: Board) -> Counter[int]:
    """The multiset of every card on the table: columns, cells and foundations."""
    on_table = [card for column in board.tableau for card in column] + [card for card in board.cells if card]
    return Counter(on_table + foundation_cards(board))


def column_text(board: Board, index: int) -> str:
    return " ".join(card_text(card) for card in board.tableau[index])

"""A second, independent reading of the rule documents, used to check `Board.is_legal` on random moves.

Written from /work/shared/rules/*.txt and RULINGS.md, not from the engine: it has its own table of the variants, reads
cards through their text (`card_text`) instead of the engine's int encoding and lookup tables, and shares nothing with
`board.py` or `variants.py` but the visible position (columns, face-down counts, cells, foundation heights). Two
conventions are the engine's own, documented in docs/rules.md, and copied here on purpose: foundations are numbered
suit by suit in the order clubs, diamonds, hearts, spades; and a card may not move from one cell to another (it would
change nothing).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise

from freecell_arena.engine import CELL, FOUNDATION, TABLEAU, Board, card_text

RANKS = "A23456789TJQK"


@dataclass(frozen=True)
class Rules:
    columns: int
    cells: int
    foundation_suits: str  # one letter per foundation, in the engine's numbering
    laps: int  # how many times a foundation runs Ace to King
    build: str  # "alternate colours" or "any other suit"
    empty_column: str  # "any card" or "king"
    limit: Callable[[int, int], int]  # (empty cells, empty columns other than the destination) -> longest move


RULES = {
    "freecell": Rules(
        8, 4, "CDHS", 1, "alternate colours", "any card", lambda cells, others: (1 + cells) * (1 + others)
    ),
    "chinese-freecell": Rules(11, 4, "DDHHSS", 1, "any other suit", "king", lambda cells, others: cells + 1),
    "freecell-four-deck": Rules(
        14, 14, "CCCCDDDDHHHHSSSS", 1, "alternate colours", "any card", lambda cells, others: cells + 1
    ),
    "cell-eleven": Rules(7, 11, "CDHS", 1, "alternate colours", "any card", lambda cells, others: 1),
    "freecell-three-deck": Rules(
        12, 6, "CDHS", 3, "alternate colours", "any card", lambda cells, others: (cells + 1) * 2**others
    ),
}


def rank(card: int) -> int:
    return RANKS.index(card_text(card)[0]) + 1


def suit(card: int) -> str:
    return card_text(card)[1]


def red(card: int) -> bool:
    return suit(card) in "DH"


def goes_on(rules: Rules, upper: int, lower: int) -> bool:
    """May `upper` be built on `lower` in the tableau?"""
    if rank(upper) != rank(lower) - 1:
        return False
    if rules.build == "alternate colours":
        return red(upper) != red(lower)
    return suit(upper) != suit(lower)


def valid_index(index: object, size: int) -> bool:
    return type(index) is int and 0 <= index < size


def foundation_takes(rules: Rules, board: Board, slot: int, card: int) -> bool:
    if rules.foundation_suits[slot] != suit(card):
        return False
    height = board.foundations[slot]
    if height == 13 * rules.laps:
        return False
    top_rank = (height - 1) % 13 + 1 if height else None
    wanted = 1 if top_rank in (None, 13) else top_rank + 1  # an Ace starts a foundation and follows a King
    return rank(card) == wanted


def is_legal(board: Board, move: object) -> bool:
    """Whether the rules allow `move` (a 5-tuple: from zone, from index, to zone, to index, count) on `board`."""
    if not isinstance(move, tuple) or len(move) != 5:
        return False
    from_zone, from_index, to_zone, to_index, count = move
    rules = RULES[board.variant.id]
    if type(count) is not int or count < 1:
        return False
    if from_zone == TABLEAU:
        if not valid_index(from_index, rules.columns):
            return False
        column = board.tableau[from_index]
        face_up = len(column) - board.hidden[from_index]
        if count > face_up:
            return False  # also: an empty column, and a run that reaches a face-down card
        moving = column[-count:]
        if not all(goes_on(rules, upper, lower) for lower, upper in pairwise(moving)):
            return False
    elif from_zone == CELL:
        if not valid_index(from_index, rules.cells) or not board.cells[from_index] or count != 1:
            return False
        moving = [board.cells[from_index]]
    else:
        return False  # nothing leaves a foundation; anything else is not a place
    deepest = moving[0]

    if to_zone == TABLEAU:
        if not valid_index(to_index, rules.columns) or (from_zone == TABLEAU and to_index == from_index):
            return False
        destination = board.tableau[to_index]
        if destination:
            if not goes_on(rules, deepest, destination[-1]):
                return False
        elif rules.empty_column == "king" and rank(deepest) != 13:
            return False
        if count == 1:
            return True  # a single card needs no helpers
        empty_cells = sum(1 for card in board.cells if not card)
        other_empty = sum(1 for index, column in enumerate(board.tableau) if not column and index != to_index)
        return count <= rules.limit(empty_cells, other_empty)
    if count != 1:
        return False
    if to_zone == CELL:
        if from_zone == CELL:
            return False
        if to_index is None:
            return any(not card for card in board.cells)
        return valid_index(to_index, rules.cells) and not board.cells[to_index]
    if to_zone == FOUNDATION:
        if to_index is None:
            slots = range(len(rules.foundation_suits))
        elif valid_index(to_index, len(rules.foundation_suits)):
            slots = range(to_index, to_index + 1)
        else:
            return False
        return any(foundation_takes(rules, board, slot, deepest) for slot in slots)
    return False


def representative(board: Board, move: tuple) -> tuple | None:
    """The move `legal_moves` lists for this legal move: the first empty cell, the first empty column, the first
    foundation that takes the card. None for the one legal move it leaves out: a whole column into an empty one."""
    from_zone, from_index, to_zone, to_index, count = move
    if to_zone == CELL:
        return (from_zone, from_index, CELL, board.cells.index(0), 1)
    if to_zone == FOUNDATION:
        card = board.tableau[from_index][-1] if from_zone == TABLEAU else board.cells[from_index]
        rules = RULES[board.variant.id]
        slot = next(slot for slot in range(len(rules.foundation_suits)) if foundation_takes(rules, board, slot, card))
        return (from_zone, from_index, FOUNDATION, slot, 1)
    if board.tableau[to_index]:
        return move
    if from_zone == TABLEAU and count == len(board.tableau[from_index]):
        return None
    return (from_zone, from_index, TABLEAU, board.tableau.index([]), count)


def every_candidate_move(board: Board) -> list[tuple]:
    """Every well-formed move on this board that could be legal: each source and count (up to 13, the longest run
    there can be) onto each target."""
    rules = RULES[board.variant.id]
    sources = [(TABLEAU, index, count) for index, column in enumerate(board.tableau)
               for count in range(1, min(len(column), 13) + 1)]  # fmt: skip
    sources += [(CELL, index, 1) for index in range(rules.cells)]
    targets = [(TABLEAU, index) for index in range(rules.columns)]
    targets += [(CELL, index) for index in [None, *range(rules.cells)]]
    targets += [(FOUNDATION, index) for index in [None, *range(len(rules.foundation_suits))]]
    return [(zone, index, to_zone, to_index, count) for zone, index, count in sources for to_zone, to_index in targets]

"""`board_from_view`: the board a client rebuilds from the player view plays exactly like the server's board, and
face-down cards stay unknown placeholders that never move."""

from __future__ import annotations

import random

import pytest

from freecell_arena.engine import TABLEAU, VARIANTS, Board, IllegalMoveError, Move, variant_by_id
from freecell_arena.engine.view import UNKNOWN_CARD, ViewError, board_from_view, player_view


def played(variant_id: str, seed: int, moves: int) -> Board:
    board = Board.deal(variant_by_id(variant_id), seed)
    rng = random.Random(seed)
    for _ in range(moves):
        legal = list(board.legal_moves)
        if not legal:
            break
        board.push(rng.choice(legal))
    return board


@pytest.mark.parametrize("variant_id", sorted(VARIANTS))
@pytest.mark.parametrize("moves", [0, 25, 120])
def test_the_view_board_shows_and_plays_like_the_real_one(variant_id: str, moves: int) -> None:
    real = played(variant_id, 7, moves)
    rebuilt = board_from_view(real.variant, player_view(real))
    assert player_view(rebuilt) == player_view(real)
    assert list(rebuilt.legal_moves) == list(real.legal_moves)
    assert rebuilt.outcome() == real.outcome()
    assert rebuilt.move_stack == []
    if not real.variant.face_down:
        assert rebuilt.key() == real.key()


def test_face_down_cards_are_placeholders_that_never_move() -> None:
    real = Board.deal(variant_by_id("cell-eleven"), 3)
    rebuilt = board_from_view(real.variant, player_view(real))
    assert rebuilt.hidden == real.hidden and any(rebuilt.hidden)
    for column, hidden in zip(rebuilt.tableau, rebuilt.hidden, strict=True):
        assert column[:hidden] == [UNKNOWN_CARD] * hidden
    assert all(move.count <= len(rebuilt.tableau[move.from_index]) - rebuilt.hidden[move.from_index]
               for move in rebuilt.legal_moves if move.from_zone == 0)
    deep = next(index for index, hidden in enumerate(rebuilt.hidden) if hidden)
    with pytest.raises(IllegalMoveError) as refused:
        rebuilt.check(Move.tableau_to_tableau(deep, (deep + 1) % 7, len(rebuilt.tableau[deep])))
    assert refused.value.code == "face_down"
    single_card_only = Move.to_cell(TABLEAU, deep)
    assert rebuilt.is_legal(single_card_only)  # the face-up top card moves; what is under it does not


def test_the_seed_is_kept_only_when_given() -> None:
    real = Board.deal(variant_by_id("freecell"), 1)
    assert board_from_view(real.variant, player_view(real), seed=1).seed == 1
    assert board_from_view(real.variant, player_view(real)).seed == -1


def view_with(variant_id: str, **changes: object) -> dict[str, object]:
    view = player_view(Board.deal(variant_by_id(variant_id), 1))
    view.update(changes)
    return view


@pytest.mark.parametrize(
    ("variant_id", "changes", "complaint"),
    [
        ("freecell", {"variant": "cell-eleven"}, "variant"),
        ("freecell", {"tableau": [[]] * 7}, "8 entries"),
        ("freecell", {"cells": ["AS", None, None]}, "4 entries"),
        ("freecell", {"cells": ["XX", None, None, None]}, "cell 1"),
        ("freecell", {"cells": ["JD", None, None, None]}, "appears 2 times"),
        ("chinese-freecell", {"cells": ["AC", None, None, None]}, "not in the"),
        ("freecell", {"tableau": [[None, "AS"]] + [[]] * 7}, "no face-down cards"),
        ("cell-eleven", {"tableau": [["AS", None]] + [[]] * 6}, "lies on a face-up one"),
        ("cell-eleven", {"tableau": [[None]] + [[]] * 6}, "top card would be face down"),
        ("freecell", {"foundations": [{"suit": "C", "cards": 14}] * 4}, "foundation 1"),
        ("freecell", {"foundations": [{"suit": "S", "cards": 0}] * 4}, "holds C"),
        ("freecell", {"tableau": "nope"}, "must be a list"),
    ],
)
def test_a_view_that_is_no_position_is_refused(variant_id: str, changes: dict[str, object], complaint: str) -> None:
    with pytest.raises(ViewError, match=complaint):
        board_from_view(variant_by_id(variant_id), view_with(variant_id, **changes))

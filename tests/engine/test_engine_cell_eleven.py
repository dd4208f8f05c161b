"""Cell Eleven (cell-eleven.txt, RULINGS.md): piles of 1, 6, 7, 8, 9, 10, 11 with only the top card face up, a
face-down card turning up when it becomes the top card, no undo of such a move, one card at a time, eleven cells,
and no face-down card's identity ever in what a player is shown."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from engine_layouts import cards, layout

from freecell_arena.engine import (
    CELL,
    FOUNDATION,
    TABLEAU,
    Board,
    Game,
    IllegalMoveError,
    Move,
    card_text,
    variant_by_id,
)
from freecell_arena.engine.view import board_text, player_view

CELL_ELEVEN = variant_by_id("cell-eleven")


def face_down_cards(board: Board) -> list[str]:
    return [card_text(card) for index, column in enumerate(board.tableau) for card in column[: board.hidden[index]]]


def test_the_piles_hold_1_6_7_8_9_10_11_with_only_the_top_card_face_up() -> None:
    board = Board.deal(CELL_ELEVEN, 8)
    assert [len(column) for column in board.tableau] == [1, 6, 7, 8, 9, 10, 11]
    assert board.hidden == [0, 5, 6, 7, 8, 9, 10]
    assert Counter(card for column in board.tableau for card in column) == Counter(CELL_ELEVEN.deck())
    assert board.cells == [0] * 11
    assert board.foundations == [0] * 4


def test_the_deal_is_the_klondike_triangle_then_four_rounds_onto_piles_two_to_seven() -> None:
    order = CELL_ELEVEN.deal_order(8)
    board = Board.deal(CELL_ELEVEN, 8)
    triangle_first_row = order[:7]
    assert [column[0] for column in board.tableau] == triangle_first_row
    assert [column[1] for column in board.tableau[1:]] == order[7:13]
    assert [column[-1] for column in board.tableau[1:]] == order[-6:]
    assert board.tableau[6] == [order[index] for index in (6, 12, 17, 21, 24, 26, 27, 33, 39, 45, 51)]


def test_the_player_view_never_names_a_face_down_card() -> None:
    board = Board.deal(CELL_ELEVEN, 8)
    view = player_view(board)
    shown = json.dumps(view)
    secret = face_down_cards(board)
    assert len(secret) == 45
    assert not [card for card in secret if card in shown]
    assert [column.count(None) for column in view["tableau"]] == board.hidden
    assert [column[-1] for column in view["tableau"]] == [card_text(column[-1]) for column in board.tableau]
    assert not [card for card in secret if card in board_text(board)]


def test_a_face_down_card_turns_up_when_it_becomes_the_top_card_and_pop_turns_it_down_again() -> None:
    board = Board.deal(CELL_ELEVEN, 8)
    under = board.tableau[1][-2]
    board.play(Move(TABLEAU, 1, CELL, None, 1))
    assert board.hidden[1] == 4
    assert board.last_move_revealed()
    assert player_view(board)["tableau"][1][-1] == card_text(under)
    board.pop()
    assert board.hidden[1] == 5
    assert card_text(under) not in json.dumps(player_view(board))


def test_a_move_that_turned_a_card_up_cannot_be_undone() -> None:
    game = Game(CELL_ELEVEN, 8)
    assert game.undo_allowed
    game.play(Move(TABLEAU, 1, CELL, None, 1))
    moves, before = game.player_moves, game.board.key()
    with pytest.raises(IllegalMoveError) as refused:
        game.undo()
    assert refused.value.code == "irreversible"
    assert game.board.key() == before and game.player_moves == moves


def test_a_move_that_turned_nothing_up_can_be_undone() -> None:
    game = Game(CELL_ELEVEN, 8)
    turn = game.play(Move(TABLEAU, 0, CELL, None, 1))  # pile 1 holds one card: nothing under it
    assert not turn.revealed
    game.undo()
    assert game.board.key() == Board.deal(CELL_ELEVEN, 8).key()


def test_a_turn_whose_autoplay_turned_a_card_up_cannot_be_undone() -> None:
    game = Game(CELL_ELEVEN, 8, autoplay=True)
    game.board = layout("cell-eleven", ["9C AH", "KD"], hidden=[1])
    turn = game.play(Move(TABLEAU, 1, CELL, None, 1))  # reveals nothing itself
    assert turn.autoplay == [Move(TABLEAU, 0, FOUNDATION, 2, 1)]  # AH went up and turned 9C over
    assert turn.revealed
    with pytest.raises(IllegalMoveError) as refused:
        game.undo()
    assert refused.value.code == "irreversible"


def test_only_one_card_moves_at_a_time_even_with_eleven_empty_cells() -> None:
    board = layout("cell-eleven", ["2D 9H 8S", "TS", ""])
    with pytest.raises(IllegalMoveError) as refused:
        board.check(Move(TABLEAU, 0, TABLEAU, 1, 2))
    assert refused.value.code == "run_too_long"
    assert board.cells.count(0) == 11
    assert not board.is_legal(Move(TABLEAU, 0, TABLEAU, 2, 2))
    assert board.is_legal(Move(TABLEAU, 0, TABLEAU, 2, 1))
    assert all(move.count == 1 for move in board.legal_moves)


def test_a_run_reaching_a_face_down_card_is_refused_without_naming_it() -> None:
    board = Board.deal(CELL_ELEVEN, 8)
    secret = face_down_cards(board)
    with pytest.raises(IllegalMoveError) as refused:
        board.check(Move(TABLEAU, 3, TABLEAU, 4, 2))
    assert refused.value.code == "face_down"
    assert not [card for card in secret if card in refused.value.message]


def test_any_card_fills_an_empty_pile_from_a_pile_or_a_cell() -> None:
    board = layout("cell-eleven", ["2D 5H", "", ""], cells=["7C"], hidden=[1])
    assert board.play(Move(TABLEAU, 0, TABLEAU, 1, 1)) == Move(TABLEAU, 0, TABLEAU, 1, 1)
    assert board.hidden[0] == 0  # 2D turned up
    assert board.play(Move(CELL, 0, TABLEAU, 2, 1)) == Move(CELL, 0, TABLEAU, 2, 1)
    assert board.tableau[:3] == [cards("2D"), cards("5H"), cards("7C")]


def test_all_52_cards_on_four_foundations_win() -> None:
    board = layout("cell-eleven", [], cells=["KD"], foundations=[13, 12, 13, 13])
    board.play(Move(CELL, 0, FOUNDATION, None, 1))
    assert board.outcome() == "won"

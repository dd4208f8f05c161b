"""Hints: a legal next move; following them wins; and in Cell Eleven they never depend on face-down cards."""

from __future__ import annotations

from solver_positions import position

from freecell_arena.engine import Board, Game, variant_by_id
from freecell_arena.engine.solver import Status, hint, solve
from freecell_arena.engine.view import player_view


def test_following_hints_wins_microsoft_deal_one() -> None:
    game = Game(variant_by_id("freecell"), 1, autoplay=True)
    for _ in range(200):
        if game.board.is_won():
            break
        move = hint(game, budget=10)
        assert move is not None
        game.play(move)
    assert game.board.is_won()


def test_hint_is_the_first_move_of_the_solution() -> None:
    board = Board.deal(variant_by_id("chinese-freecell"), 3)
    solved = solve(board, budget=10)
    assert solved.status is Status.SOLVED
    assert hint(board, budget=10) == solved.moves[0]


def test_no_hint_on_a_won_or_lost_position() -> None:
    lost = position(
        "freecell",
        ["AC 2C 3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC"],
        ["JC", "QC", "KC"],
        [0, 13, 13, 13],
    )
    assert hint(lost, budget=5) is None
    won = position("freecell", [], [], [13, 13, 13, 13])
    assert hint(won, budget=5) is None


def swap_face_down(board: Board, first: tuple[int, int], second: tuple[int, int]) -> Board:
    """The same position as the player sees it, with two face-down cards exchanged."""
    other = board.copy(stack=False)
    (column_a, depth_a), (column_b, depth_b) = first, second
    assert depth_a < board.hidden[column_a] and depth_b < board.hidden[column_b]
    tableau = other.tableau
    tableau[column_a][depth_a], tableau[column_b][depth_b] = tableau[column_b][depth_b], tableau[column_a][depth_a]
    assert player_view(other) == player_view(board)
    return other


def test_cell_eleven_hints_do_not_depend_on_face_down_cards() -> None:
    variant = variant_by_id("cell-eleven")
    for seed in (1, 2, 3, 4):
        board = Board.deal(variant, seed)
        twins = [
            swap_face_down(board, (6, 0), (5, 4)),
            swap_face_down(board, (6, 9), (1, 0)),
            swap_face_down(board, (3, 2), (4, 7)),
        ]
        # the swaps really change which cards are hidden where, so a leak would show
        assert all(twin.tableau != board.tableau for twin in twins)
        expected = hint(board, budget=3)
        assert expected is not None and board.is_legal(expected)
        assert all(hint(twin, budget=3) == expected for twin in twins)


def test_cell_eleven_hints_after_some_play_stay_blind_and_legal() -> None:
    game = Game(variant_by_id("cell-eleven"), 5, autoplay=True)
    for _ in range(40):
        if game.board.is_won():
            break
        move = hint(game, budget=2)
        assert move is not None and game.board.is_legal(move)
        game.play(move)
    assert game.board.cards_on_foundations > 0

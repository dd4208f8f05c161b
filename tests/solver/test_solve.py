"""The solver on real deals and hand-made positions: every solution replays to a win on the engine."""

from __future__ import annotations

import pytest
from solver_positions import position

from freecell_arena.engine import Board, Game, variant_by_id
from freecell_arena.engine.solver import Status, solve

FREECELL = variant_by_id("freecell")


def replays_to_a_win(variant_id: str, seed: int, notation: tuple[str, ...]) -> bool:
    """Exactly what `freecell-arena replay` does: the written moves, no autoplay."""
    game = Game.replay(variant_by_id(variant_id), seed, notation, autoplay=False)
    return game.board.is_won()


@pytest.mark.parametrize("deal", [1, 2, 3, 617, 1941])
def test_microsoft_deals_are_solved_and_replay(deal: int) -> None:
    result = solve(Board.deal(FREECELL, deal), budget=20)
    assert result.status is Status.SOLVED, result.detail
    assert result.solution is not None
    assert replays_to_a_win("freecell", deal, result.notation)
    assert result.solution.player_moves + result.solution.autoplay_moves == len(result.notation)


@pytest.mark.parametrize(("variant_id", "seed"), [("chinese-freecell", 1), ("cell-eleven", 1), ("cell-eleven", 2)])
def test_other_variants_are_solved_and_replay(variant_id: str, seed: int) -> None:
    result = solve(Board.deal(variant_by_id(variant_id), seed), budget=20)
    assert result.status is Status.SOLVED, result.detail
    assert replays_to_a_win(variant_id, seed, result.notation)


def test_atomic_mode_moves_one_card_at_a_time() -> None:
    result = solve(Board.deal(FREECELL, 1), atomic=True, budget=20)
    assert result.status is Status.SOLVED and result.solution is not None
    assert all(move.count == 1 for move in result.moves)
    assert result.solution.single_card_moves == result.solution.player_moves
    assert replays_to_a_win("freecell", 1, result.notation)


def test_multi_card_moves_count_one_and_the_single_card_count_adds_them_up() -> None:
    result = solve(Board.deal(FREECELL, 1), budget=20)
    assert result.solution is not None
    runs = [move for move in result.moves if move.count > 1]
    assert runs, "deal 1 is expected to use at least one multi-card move"
    assert result.solution.single_card_moves > result.solution.player_moves


def test_deal_11982_is_not_reported_solvable() -> None:
    result = solve(Board.deal(FREECELL, 11982), budget=3)
    assert result.status in (Status.UNKNOWN, Status.UNSOLVABLE)
    assert result.solution is None


def test_a_position_one_place_short_is_unsolvable() -> None:
    # Ace of clubs under two clubs; clubs never build on clubs; one free cell and no empty column, and every
    # card moved to make room takes the room it makes. Nothing can ever reach the ace.
    board = position(
        "freecell",
        ["AC 2C 3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC"],
        ["JC", "QC", "KC"],
        [0, 13, 13, 13],
    )
    result = solve(board, budget=20)
    assert result.status is Status.UNSOLVABLE


def test_the_same_position_with_one_more_free_cell_is_solved() -> None:
    board = position(
        "freecell",
        ["AC 2C 3C", "4C", "5C", "6C", "7C", "8C", "9C TC", "KC"],
        ["JC", "QC"],
        [0, 13, 13, 13],
    )
    result = solve(board, budget=20)
    assert result.status is Status.SOLVED
    replay = board.copy(stack=False)
    for move in result.moves:
        replay.play(move)
    assert replay.is_won()


def test_chinese_freecell_empty_columns_take_only_kings() -> None:
    # Three empty columns, but only the King of spades may use them: the 2S over the ace stays put.
    board = position(
        "chinese-freecell",
        ["AS 2S", "3S", "4S", "5S", "6S", "7S", "8S", "KS"],
        ["9S", "TS", "JS", "QS"],
        [13, 13, 13, 13, 13, 0],
    )
    assert solve(board, budget=20).status is Status.UNSOLVABLE


def test_cell_eleven_one_place_short_is_unsolvable() -> None:
    # Only black cards are left (they never build on each other), one of eleven cells is free and every pile
    # holds at least two cards: reaching an ace takes two places.
    board = position(
        "cell-eleven",
        ["AC 2C 3C", "AS 2S 3S", "4C 5C", "4S 5S", "6C 7C", "6S 7S", "8C 8S"],
        ["9C", "TC", "JC", "QC", "KC", "9S", "TS", "JS", "QS", "KS"],
        [0, 13, 13, 0],
    )
    assert solve(board, budget=20).status is Status.UNSOLVABLE


def test_the_budget_is_respected() -> None:
    board = Board.deal(variant_by_id("freecell-four-deck"), 1)
    by_nodes = solve(board, budget=60, max_nodes=300)
    assert by_nodes.status is Status.UNKNOWN
    assert by_nodes.nodes <= 300 + 500  # the last expansion may add a few hundred children
    by_time = solve(Board.deal(FREECELL, 11982), budget=0.5)
    assert by_time.status is Status.UNKNOWN
    assert by_time.seconds < 30  # generous: the clock is read every few hundred nodes

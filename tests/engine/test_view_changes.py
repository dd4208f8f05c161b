"""`view_changes` + `apply_view_changes`: the last view with each action's changes put in is, after every
action of a game (moves, autoplay, undo, Cell Eleven's face-down cards turning up), exactly the player view, and
the changes name only what moved. A wrong or foreign patch is refused with a `ViewError`."""

from __future__ import annotations

import random

import pytest

from freecell_arena.engine import TABLEAU, VARIANTS, Game, IllegalMoveError, Move, variant_by_id
from freecell_arena.engine.view import ViewError, apply_view_changes, player_view, replay_steps, view_changes


def random_game_views(variant_id: str, seed: int, actions: int) -> int:
    """Play `actions` random actions (one in five an undo where allowed), checking the patched view after each;
    return how many actions were checked."""
    game = Game(variant_by_id(variant_id), seed, autoplay=seed % 2 == 0, undo_allowed=True)
    rng = random.Random(seed)
    view = player_view(game.board)
    checked = 0
    for _ in range(actions):
        legal = list(game.board.legal_moves)
        if not legal and not game.can_undo():
            break
        undo = game.can_undo() and (not legal or rng.random() < 0.2)
        try:
            turn = game.undo() if undo else game.play(rng.choice(legal))
        except IllegalMoveError:
            continue
        changes = view_changes(game.board, turn.moves)
        touched = {index for move in turn.moves for index in (move.from_index, move.to_index)}
        assert {int(key) for key in changes["tableau"]} <= touched
        view = apply_view_changes(view, changes)
        assert view == player_view(game.board), (variant_id, seed, game.actions)
        checked += 1
        if game.board.is_won():
            break
    return checked


@pytest.mark.parametrize("variant_id", sorted(VARIANTS))
def test_the_patched_view_is_the_player_view_after_every_action(variant_id: str) -> None:
    checked = sum(random_game_views(variant_id, seed, 150) for seed in range(1, 7))
    assert checked >= 300


def test_a_move_between_columns_changes_only_those_two() -> None:
    def between_columns(game: Game) -> Move | None:
        return next((m for m in game.board.legal_moves if m.from_zone == m.to_zone == TABLEAU), None)

    deals = (Game(variant_by_id("freecell"), seed) for seed in range(1, 50))
    game = next(game for game in deals if between_columns(game))
    move = between_columns(game)
    assert move is not None
    before = player_view(game.board)
    changes = view_changes(game.board, game.play(move).moves)
    assert set(changes) == {"tableau", "cards_on_foundations"}
    assert set(changes["tableau"]) == {str(move.from_index), str(move.to_index)}
    assert apply_view_changes(before, changes)["cells"] == before["cells"]


@pytest.mark.parametrize(
    ("changes", "complaint"),
    [
        ({"tableau": {"8": []}}, "names column '8'"),
        ({"tableau": {"-1": []}}, "names column '-1'"),
        ({"tableau": {"first": []}}, "names column 'first'"),
        ({"tableau": {"0": "KS"}}, "must be a list"),
        ({"tableau": [["KS"]]}, "object of columns by index"),
    ],
)
def test_a_wrong_patch_is_refused_and_the_view_is_untouched(changes: dict[str, object], complaint: str) -> None:
    view = player_view(Game(variant_by_id("freecell"), 1).board)
    kept = repr(view)
    with pytest.raises(ViewError, match=complaint):
        apply_view_changes(view, changes)
    assert repr(view) == kept


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_replay_steps_rebuild_every_board_of_a_game(variant_id: str) -> None:
    """A replay viewer's steps: the opening view with the first n steps put in is the board after n actions,
    undos and (Cell Eleven) cards turned up included."""
    variant = variant_by_id(variant_id)
    game = Game(variant, 7, autoplay=True, undo_allowed=True)
    rng = random.Random(7)
    boards = [player_view(game.board)]
    for number in range(30):
        legal = list(game.board.legal_moves)
        if not legal:
            break
        if number % 6 == 5 and game.can_undo():
            game.undo()
        else:
            game.play(rng.choice(legal))
        boards.append(player_view(game.board))
    start, steps = replay_steps(variant, 7, game.actions, autoplay=True)
    assert len(steps) == len(game.actions) >= 10
    view = start
    assert view == boards[0]
    for step, expected in zip(steps, boards[1:], strict=True):
        view = apply_view_changes(view, step)
        assert view == expected

"""One action taken and everything its reply says, in one call into the engine (`take_turn`).

A server's move used to go into the engine once for each thing it asked: the board to parse against, the move,
the verdict, the counts, each played move's notation and structured form, the view's changes; seven entries a move
(bench/move_road.py, issue 50). `take_turn` reads the action, plays it and reads all of that back as one value,
`TurnReport`, which the caller turns into its reply without calling back. A refused action raises before the game
changes (`NotationError`, `IllegalMoveError`), as `Game.play` and `Game.undo` do.
"""

from __future__ import annotations

from typing import Any

from freecell_arena.engine.game import Counts, Game, GameOutcome, Turn
from freecell_arena.engine.moves import Move
from freecell_arena.engine.notation import format_move, move_from_fields, move_to_json, parse_move
from freecell_arena.engine.variants import Variant
from freecell_arena.engine.view import view_changes

MoveFields = tuple[object, object, object, object, object]
"""A move's structured form as its fields (from, from_index, to, to_index, count; None: absent), as a request
already read them (`move_from_fields` checks them)."""


class TurnReport:
    """An accepted action, read back whole: the turn, its index in the log, how the game stands after it
    (`Game.verdict`), its counts at the caller's `time_ms`, the moves as played (each `{"notation", "move"}`, the
    protocol's `PlayedMove`) and the player view's changes."""

    __slots__ = ("autoplay", "changes", "counts", "index", "move", "only_undo_left", "outcome", "turn", "undone")

    def __init__(self, turn: Turn, index: int, outcome: GameOutcome | None, only_undo_left: bool, counts: Counts,
                 move: dict[str, Any] | None, autoplay: list[dict[str, Any]], undone: list[dict[str, Any]],
                 changes: dict[str, Any]) -> None:  # fmt: skip
        self.turn = turn
        self.index = index
        self.outcome = outcome
        self.only_undo_left = only_undo_left
        self.counts = counts
        self.move = move
        self.autoplay = autoplay
        self.undone = undone
        self.changes = changes


def played(variant: Variant, move: Move, notation: str | None = None) -> dict[str, Any]:
    """A move as played: its notation in the variant (`notation` when the caller has it) and its structured form."""
    return {"notation": notation or format_move(variant, move), "move": move_to_json(move)}


def take_turn(game: Game, action: str | MoveFields | None, time_ms: int) -> TurnReport:
    """Play `action` (a move in the variant's notation, a move's fields, or None: an undo) on `game`, and read back
    what its reply says; `time_ms`: the playing time at the action, which the counts carry (the engine keeps no
    clock)."""
    if action is None:
        turn = game.undo()
    elif isinstance(action, str):
        turn = game.play(parse_move(game.variant, action, game.board))
    else:
        turn = game.play(move_from_fields(*action))
    outcome, only_undo_left = game.verdict()
    variant = game.variant
    return TurnReport(
        turn,
        len(game.actions) - 1,
        outcome,
        only_undo_left,
        game.counts(time_ms),
        None if turn.move is None else played(variant, turn.move, turn.action),
        [played(variant, move) for move in turn.autoplay],
        [played(variant, move) for move in turn.undone],
        view_changes(game.board, turn.moves),
    )

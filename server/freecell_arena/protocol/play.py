"""Playing one's game: moves, undo, resign, the whole state again, replays and hints.

The move path's messages: `move` (in notation or the structured `MoveJson`) answered by `move_accepted` once the
move is durable, `undo`, `resign`, and `game_over` when the game ends. Then what one may ask of a game: the whole
state (`get_state`: room and game), a finished game's replay, and a hint in casual play.
"""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field

from freecell_arena.protocol.board import GameView, PlayedMove, PlayerView, ViewChanges
from freecell_arena.protocol.rooms import RoomView
from freecell_arena.protocol.vocabulary import Outcome, PlayerStatus
from freecell_arena.protocol.wire import MAX_SAFE_INTEGER, STRICT, Message, Request, RequestId, Seed, VariantId


class MoveJson(Message):
    """The structured form of a move. Indices are 0-based; `to_index` null = the first cell/foundation that fits
    (required for a column). A malformed one is refused as `bad_notation`, like unreadable text."""

    from_: Literal["tableau", "cell"] = Field(alias="from")
    from_index: int = Field(ge=0, le=MAX_SAFE_INTEGER)
    to: Literal["tableau", "cell", "foundation"]
    to_index: int | None = Field(default=None, ge=0, le=MAX_SAFE_INTEGER)
    count: int = Field(default=1, ge=1, le=MAX_SAFE_INTEGER)

    model_config = ConfigDict(**STRICT, populate_by_name=True)


class MoveRequest(Request):
    """A move in the variant's text notation (`"3a"`, `"t3-c1"`) or the structured form."""

    type: Literal["move"] = "move"
    id: RequestId = None
    game_id: str | None = None
    move: str | MoveJson


class UndoRequest(Request):
    """Take back your last move and the autoplay after it (costs a move; room option)."""

    type: Literal["undo"] = "undo"
    id: RequestId = None
    game_id: str | None = None


class ResignRequest(Request):
    """Give up your game; it ranks by cards on foundations."""

    type: Literal["resign"] = "resign"
    id: RequestId = None
    game_id: str | None = None


class StateRequest(Request):
    """Ask again for the full state: your room and your current game."""

    type: Literal["get_state"] = "get_state"
    id: RequestId = None


class ReplayRequest(Request):
    """A game's seed and move list: anyone's once its race is over, your own any time (not in Cell Eleven, a daily
    before its day closes or a cup's heat before the cup is over: their seeds are secret until then)."""

    type: Literal["get_replay"] = "get_replay"
    id: RequestId = None
    game_id: str


class HintRequest(Request):
    """The next move of a plan for your running game, and the moves that finish it when it is decided (auto-finish).
    Only in practice and casual play (an unranked room): refused with `no_hints` in a ranked race or a daily."""

    type: Literal["get_hint"] = "get_hint"
    id: RequestId = None
    game_id: str = Field(max_length=64)


class MoveAcceptedMessage(Message):
    """Sent only once the move is durable. `autoplay` lists the moves the server made after it (not counted).
    `changes` is what the action changed in your player view; the whole view comes with `race_started`,
    `daily_started` and `game_state` (`get_state` any time)."""

    type: Literal["move_accepted"] = "move_accepted"
    id: RequestId = None
    game_id: str
    index: int = Field(description="0-based index of this action in the game's action log.")
    action: str = Field(description="The action as stored: the move's notation, or `undo`.")
    move: PlayedMove | None = Field(description="The concrete move; null for an undo.")
    autoplay: list[PlayedMove]
    undone: list[PlayedMove] = Field(default_factory=list, description="For `undo`: the moves taken back.")
    player_moves: int
    single_card_moves: int
    cards_on_foundations: int
    time_ms: int
    status: PlayerStatus
    only_undo_left: bool = Field(
        default=False,
        description="No legal move is left, but an undo can still rescue the game: undo (it costs a move) or "
        "resign. A game with no legal move ends as `stuck` only when undo cannot help.",
    )
    changes: ViewChanges = Field(
        description="The parts of your player view this action changed (its move, autoplay, or what an undo took "
        "back), as they are now: `tableau` maps each changed column's index (a string) to the whole column, "
        "deepest card first, face-down cards null; `cells` and `foundations` are the whole row, present only "
        "when changed; `cards_on_foundations` is always there. Put them into your last view in the order they "
        "come (`freecell_arena.engine.view.apply_view_changes`)."
    )


class GameOverMessage(Message):
    """Your game ended: won, resigned, stuck (no legal move is left), or timeout (the race's time limit, or the
    close of a daily's day)."""

    type: Literal["game_over"] = "game_over"
    id: RequestId = None
    game_id: str
    outcome: Outcome
    message: str
    player_moves: int
    single_card_moves: int
    cards_on_foundations: int
    time_ms: int


class GameStateMessage(Message):
    """Your full state: sent after a resumed `welcome` and in reply to `get_state`."""

    type: Literal["game_state"] = "game_state"
    id: RequestId = None
    room: RoomView | None
    game: GameView | None


class ReplayMessage(Message):
    """A game's seed and action log; `final_view` is its last board (face-down cards null); `start_view` and
    `steps` let a viewer step through it without rules of its own."""

    type: Literal["replay"] = "replay"
    id: RequestId = None
    game_id: str
    player_id: str
    variant: VariantId
    seed: Seed
    autoplay: bool
    actions: list[str]
    outcome: Outcome | None
    final_view: PlayerView
    start_view: PlayerView = Field(description="The opening board, after the deal's autoplay (face-down cards null).")
    steps: list[ViewChanges] = Field(
        description="Per action, what it changed in the view, as its `move_accepted` `changes` did: `start_view` "
        "with the first n steps put in is the board after n actions (`freecell_arena.engine.view.replay_steps`).",
    )


class HintMessage(Message):
    """A hint, worked out from what you see (never from a face-down card). Play its moves like any other: each is
    counted."""

    type: Literal["hint"] = "hint"
    id: RequestId = None
    game_id: str
    move: str | None = Field(description="The next move in the generic notation (`t3-c1`, `c2-f`, `t1-t4x3`); null "
                             "when the game is won or provably lost.")
    finish: list[str] = Field(description="The moves that win by sending cards home alone, in order (empty: the "
                              "game is not decided yet).")

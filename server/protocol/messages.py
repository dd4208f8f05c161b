"""The wire contract: every message a client or the server may send, as pydantic models.

This module is the single source of truth. `docs/schema/protocol.json` and the message table in
`docs/protocol.md` are generated from it (`python -m server.protocol.generate`); a test fails when they drift.

Frames are JSON text. Every message has `type`; a request may carry `id` (string or integer), echoed in its
reply. Every error is an `ErrorMessage` with a stable snake_case `code` (listed in `ErrorCode`).
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

PROTOCOL_VERSION = 1

RequestId = Annotated[str | int | None, Field(description="Chosen by the client; echoed in the reply.")]


class ErrorCode(StrEnum):
    """Stable error codes. Programs switch on these; the message beside them is for people."""

    invalid_json = "invalid_json"
    invalid_message = "invalid_message"
    unknown_type = "unknown_type"
    message_too_large = "message_too_large"
    rate_limited = "rate_limited"
    hello_required = "hello_required"
    already_greeted = "already_greeted"
    unknown_token = "unknown_token"
    unknown_variant = "unknown_variant"
    bad_seed = "bad_seed"
    unknown_room = "unknown_room"
    room_full = "room_full"
    room_started = "room_started"
    already_in_room = "already_in_room"
    not_in_room = "not_in_room"
    not_host = "not_host"
    not_enough_players = "not_enough_players"
    no_game = "no_game"
    not_your_game = "not_your_game"
    game_not_running = "game_not_running"
    bad_notation = "bad_notation"
    illegal_move = "illegal_move"
    undo_not_allowed = "undo_not_allowed"
    unknown_game = "unknown_game"
    replay_not_available = "replay_not_available"
    storage_failed = "storage_failed"
    internal_error = "internal_error"
    shutting_down = "shutting_down"


class Message(BaseModel):
    """Base of every message: unknown fields are refused so typos surface as errors."""

    model_config = ConfigDict(extra="forbid")


# ---------------------------------------------------------------- shared shapes


class MoveJson(Message):
    """The structured form of a move. Indices are 0-based; `to_index` null = the first cell/foundation that fits."""

    from_: Literal["tableau", "cell"] = Field(alias="from")
    from_index: int = Field(ge=0)
    to: Literal["tableau", "cell", "foundation"]
    to_index: int | None = Field(default=None, ge=0)
    count: int = Field(default=1, ge=1)

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class PlayedMove(Message):
    """A move as the server applied it: its notation in the variant and its structured form."""

    notation: str
    move: dict[str, Any] = Field(description="The structured form (see MoveJson).")


class RoomOptions(Message):
    """What the host chose for the room. `undo_allowed` null = the variant's default."""

    autoplay: bool = Field(default=True, description="Safe cards go to the foundations on their own.")
    undo_allowed: bool | None = None
    max_players: int = Field(default=16, ge=1, le=64)
    time_limit_s: int | None = Field(default=None, ge=5, le=86_400, description="Race ends after this long.")
    ranking: Literal["moves", "speed"] = Field(
        default="moves", description="Winners ordered by moves then time, or (speed) by time then moves."
    )
    countdown_s: float = Field(default=3.0, ge=0, le=30)
    ranked: bool = Field(default=False, description="Kept on games for the later leaderboards.")


PlayerStatus = Literal["waiting", "playing", "won", "resigned", "stuck", "timeout"]


class Progress(Message):
    """What a room may see of one player's game: counts only, never moves or cards."""

    player_id: str
    name: str
    status: PlayerStatus
    cards_on_foundations: int
    moves: int
    time_ms: int | None = Field(description="Playing time so far, or final time once done.")


class RoomMember(Message):
    """A member of a room; `connected` is false while their connection is down."""

    player_id: str
    name: str
    bot: bool
    role: Literal["player", "spectator"]
    connected: bool


class RoomView(Message):
    """A room as everyone in it sees it. `seed` stays null for Cell Eleven until the race is over."""

    code: str
    variant: str
    seed: int | None
    host_id: str
    options: RoomOptions
    status: Literal["lobby", "countdown", "running", "finished"]
    members: list[RoomMember]
    starts_at: datetime | None = None
    ends_at: datetime | None = None
    progress: list[Progress] = Field(default_factory=list)


class GameView(Message):
    """One player's own game: the full player view (face-down cards are null)."""

    game_id: str
    room_code: str | None
    variant: str
    seed: int | None
    autoplay: bool
    undo_allowed: bool
    started_at: datetime
    status: PlayerStatus
    player_moves: int
    single_card_moves: int
    cards_on_foundations: int
    time_ms: int
    actions: list[str] = Field(description="Every accepted action of this game, in notation or `undo`.")
    view: dict[str, Any]


class Standing(Message):
    """One row of the final standings; equal results share a rank."""

    rank: int
    player_id: str
    name: str
    game_id: str
    outcome: Literal["won", "resigned", "stuck", "timeout"]
    moves: int
    single_card_moves: int
    cards_on_foundations: int
    time_ms: int


# ---------------------------------------------------------------- client -> server


class HelloRequest(Message):
    """First message of every connection. With `token`, resume that identity (and its running game)."""

    type: Literal["hello"] = "hello"
    id: RequestId = None
    name: str = Field(min_length=1, max_length=32)
    token: str | None = Field(default=None, max_length=128)
    bot: bool = False


class CreateRoomRequest(Message):
    """Create a room and become its host. No `seed`/`deal`: a fresh random seed. `deal` is a deal number."""

    type: Literal["create_room"] = "create_room"
    id: RequestId = None
    variant: str
    seed: int | None = Field(default=None, ge=0)
    deal: int | None = Field(default=None, ge=1)
    options: RoomOptions = Field(default_factory=RoomOptions)


class JoinRoomRequest(Message):
    """Join a room by its code, as a player (lobby only) or as a spectator (any time)."""

    type: Literal["join_room"] = "join_room"
    id: RequestId = None
    code: str = Field(min_length=1, max_length=32)
    spectator: bool = False


class LeaveRoomRequest(Message):
    """Leave the room; leaving during a race resigns the game."""

    type: Literal["leave_room"] = "leave_room"
    id: RequestId = None


class StartRaceRequest(Message):
    """Host only: start the countdown; every player gets the same deal at the same instant."""

    type: Literal["start_race"] = "start_race"
    id: RequestId = None


class MoveRequest(Message):
    """A move in the variant's text notation (`"3a"`, `"t3-c1"`) or the structured form."""

    type: Literal["move"] = "move"
    id: RequestId = None
    game_id: str | None = None
    move: str | MoveJson


class UndoRequest(Message):
    """Take back your last move and the autoplay after it (costs a move; room option)."""

    type: Literal["undo"] = "undo"
    id: RequestId = None
    game_id: str | None = None


class ResignRequest(Message):
    """Give up your game; it ranks by cards on foundations."""

    type: Literal["resign"] = "resign"
    id: RequestId = None
    game_id: str | None = None


class StateRequest(Message):
    """Ask again for the full state: your room and your current game."""

    type: Literal["get_state"] = "get_state"
    id: RequestId = None


class ReplayRequest(Message):
    """A finished race's game: its seed and move list. Refused while the race is still running."""

    type: Literal["get_replay"] = "get_replay"
    id: RequestId = None
    game_id: str


ClientMessage = Annotated[
    HelloRequest
    | CreateRoomRequest
    | JoinRoomRequest
    | LeaveRoomRequest
    | StartRaceRequest
    | MoveRequest
    | UndoRequest
    | ResignRequest
    | StateRequest
    | ReplayRequest,
    Field(discriminator="type"),
]


# ---------------------------------------------------------------- server -> client


class WelcomeMessage(Message):
    """Reply to hello. Keep `token`: it is the only way back to this identity (the server keeps only its hash)."""

    type: Literal["welcome"] = "welcome"
    id: RequestId = None
    player_id: str
    name: str
    token: str
    protocol: Literal[1] = PROTOCOL_VERSION
    resumed: bool


class ErrorMessage(Message):
    """Every refusal. `reason` carries the engine's own code for `illegal_move`."""

    type: Literal["error"] = "error"
    id: RequestId = None
    code: ErrorCode
    message: str
    reason: str | None = None


class RoomMessage(Message):
    """The room's full state: the reply to create/join and an event whenever membership or status changes."""

    type: Literal["room"] = "room"
    id: RequestId = None
    room: RoomView


class LeftRoomMessage(Message):
    """Reply to `leave_room`."""

    type: Literal["left_room"] = "left_room"
    id: RequestId = None
    code: str


class CountdownMessage(Message):
    """The race starts at `starts_at` (server time) for everyone."""

    type: Literal["countdown"] = "countdown"
    id: RequestId = None
    code: str
    starts_at: datetime
    seconds: float


class RaceStartedMessage(Message):
    """Your copy of the deal. Every player's game starts at the same server instant."""

    type: Literal["race_started"] = "race_started"
    code: str
    game: GameView


class MoveAcceptedMessage(Message):
    """Sent only once the move is durable. `autoplay` lists the moves the server made after it (not counted)."""

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
    view: dict[str, Any]


class GameOverMessage(Message):
    """Your game ended: won, resigned, stuck (no legal move is left), or timeout (the race's time limit)."""

    type: Literal["game_over"] = "game_over"
    id: RequestId = None
    game_id: str
    outcome: Literal["won", "resigned", "stuck", "timeout"]
    message: str
    player_moves: int
    single_card_moves: int
    cards_on_foundations: int
    time_ms: int


class ProgressMessage(Message):
    """One player's progress, to the others in the room (the player has it in its reply). Counts only."""

    type: Literal["progress"] = "progress"
    code: str
    progress: Progress


class RaceOverMessage(Message):
    """Final standings. `seed` is now public for every variant; replays are available."""

    type: Literal["race_over"] = "race_over"
    code: str
    seed: int
    standings: list[Standing]


class GameStateMessage(Message):
    """Your full state: sent after a resumed `welcome` and in reply to `get_state`."""

    type: Literal["game_state"] = "game_state"
    id: RequestId = None
    room: RoomView | None
    game: GameView | None


class ReplayMessage(Message):
    """A game's seed and action log; `final_view` is its last board (face-down cards null)."""

    type: Literal["replay"] = "replay"
    id: RequestId = None
    game_id: str
    player_id: str
    variant: str
    seed: int
    autoplay: bool
    actions: list[str]
    outcome: str | None
    final_view: dict[str, Any]


ServerMessage = Annotated[
    WelcomeMessage
    | ErrorMessage
    | RoomMessage
    | LeftRoomMessage
    | CountdownMessage
    | RaceStartedMessage
    | MoveAcceptedMessage
    | GameOverMessage
    | ProgressMessage
    | RaceOverMessage
    | GameStateMessage
    | ReplayMessage,
    Field(discriminator="type"),
]

CLIENT_MESSAGES: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
SERVER_MESSAGES: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)


def encode(message: Message) -> str:
    """The JSON text of a server message (aliases on, so `MoveJson.from_` is spelled `from`)."""
    return message.model_dump_json(by_alias=True)

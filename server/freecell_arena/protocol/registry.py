"""The one place a message is registered: the client's and the server's messages, as discriminated unions.

A new message is written in its topic's module and added here, to `ClientMessage` or `ServerMessage`; the codec
decodes by `CLIENT_MESSAGES`, and the JSON Schema, AsyncAPI and OpenAPI documents and `docs/protocol.md` are
generated from these unions in their order (`python -m freecell_arena.protocol.generate`; a test fails when
they drift). What each request may get back is `contract.py`'s table.
"""

from __future__ import annotations

from typing import Annotated, get_args

from pydantic import BaseModel, Field, TypeAdapter

from freecell_arena.protocol.accounts import (
    AccountMessage,
    AccountRequest,
    BotTokenMessage,
    CreateBotRequest,
    NewBotTokenRequest,
    PasskeyBeginRequest,
    PasskeyFinishRequest,
    PasskeyOptionsMessage,
    RemovePasskeyRequest,
    RenamePasskeyRequest,
    RevokeTokenRequest,
    SignedInMessage,
    SignedOutMessage,
    SignOutRequest,
)
from freecell_arena.protocol.errors import ErrorMessage
from freecell_arena.protocol.leaderboards import (
    DailyMessage,
    DailyRequest,
    DailyStartedMessage,
    HistoryMessage,
    HistoryRequest,
    LeaderboardMessage,
    LeaderboardRequest,
    PlayDailyRequest,
    SeasonMessage,
    SeasonRequest,
)
from freecell_arena.protocol.moderation import (
    ChooseNameRequest,
    ModActionMessage,
    ModActionRequest,
    ModEvidenceMessage,
    ModEvidenceRequest,
    ModLogMessage,
    ModLogRequest,
    ModQueueMessage,
    ModQueueRequest,
    ModSearchMessage,
    ModSearchRequest,
    MyReportsMessage,
    MyReportsRequest,
    NameChosenMessage,
    NameReplacedMessage,
    ReportReceivedMessage,
    ReportRequest,
)
from freecell_arena.protocol.play import (
    GameOverMessage,
    GameStateMessage,
    HintMessage,
    HintRequest,
    MoveAcceptedMessage,
    MoveRequest,
    ReplayMessage,
    ReplayRequest,
    ResignRequest,
    StateRequest,
    UndoRequest,
)
from freecell_arena.protocol.profiles import (
    PlayerMessage,
    PlayerRequest,
    RaceRatingsMessage,
    RatingsMessage,
    RatingsRequest,
    ReviewMessage,
    ReviewRequest,
    ShareMessage,
    ShareRequest,
    StreakMessage,
    StreakRequest,
)
from freecell_arena.protocol.rooms import (
    CountdownMessage,
    CreateRoomRequest,
    JoinRoomRequest,
    LeaveRoomRequest,
    LeftRoomMessage,
    MemberConnectionMessage,
    MemberJoinedMessage,
    MemberLeftMessage,
    ProgressMessage,
    QuickRaceRequest,
    QuickRacesMessage,
    QuickRacesRequest,
    RaceAgainRequest,
    RaceBotMessage,
    RaceBotRequest,
    RaceOverMessage,
    RaceStartedMessage,
    RoomMessage,
    SeriesInviteMessage,
    StartRaceRequest,
)
from freecell_arena.protocol.session import HelloRequest, WelcomeMessage
from freecell_arena.protocol.tournaments import (
    BerserkRequest,
    CreateTournamentRequest,
    EnterTournamentRequest,
    PauseTournamentRequest,
    TournamentEntryMessage,
    TournamentListMessage,
    TournamentMessage,
    TournamentRaceMessage,
    TournamentRequest,
    TournamentsRequest,
    WithdrawTournamentRequest,
)

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
    | ReplayRequest
    | LeaderboardRequest
    | SeasonRequest
    | HistoryRequest
    | DailyRequest
    | PlayDailyRequest
    | RaceAgainRequest
    | QuickRaceRequest
    | PasskeyBeginRequest
    | PasskeyFinishRequest
    | AccountRequest
    | RenamePasskeyRequest
    | RemovePasskeyRequest
    | RevokeTokenRequest
    | SignOutRequest
    | CreateBotRequest
    | NewBotTokenRequest
    | RatingsRequest
    | PlayerRequest
    | StreakRequest
    | ReviewRequest
    | ShareRequest
    | TournamentsRequest
    | TournamentRequest
    | CreateTournamentRequest
    | EnterTournamentRequest
    | WithdrawTournamentRequest
    | PauseTournamentRequest
    | BerserkRequest
    | ReportRequest
    | MyReportsRequest
    | ChooseNameRequest
    | ModQueueRequest
    | ModEvidenceRequest
    | ModActionRequest
    | ModLogRequest
    | ModSearchRequest
    | HintRequest
    | QuickRacesRequest
    | RaceBotRequest,
    Field(discriminator="type"),
]


ServerMessage = Annotated[
    WelcomeMessage
    | ErrorMessage
    | RoomMessage
    | LeftRoomMessage
    | MemberJoinedMessage
    | MemberLeftMessage
    | MemberConnectionMessage
    | CountdownMessage
    | RaceStartedMessage
    | MoveAcceptedMessage
    | GameOverMessage
    | ProgressMessage
    | RaceOverMessage
    | GameStateMessage
    | ReplayMessage
    | LeaderboardMessage
    | SeasonMessage
    | HistoryMessage
    | DailyMessage
    | DailyStartedMessage
    | SeriesInviteMessage
    | PasskeyOptionsMessage
    | SignedInMessage
    | AccountMessage
    | BotTokenMessage
    | SignedOutMessage
    | RaceRatingsMessage
    | RatingsMessage
    | StreakMessage
    | PlayerMessage
    | ReviewMessage
    | ShareMessage
    | TournamentListMessage
    | TournamentMessage
    | TournamentEntryMessage
    | TournamentRaceMessage
    | ReportReceivedMessage
    | MyReportsMessage
    | NameReplacedMessage
    | NameChosenMessage
    | ModQueueMessage
    | ModEvidenceMessage
    | ModLogMessage
    | ModActionMessage
    | ModSearchMessage
    | HintMessage
    | QuickRacesMessage
    | RaceBotMessage,
    Field(discriminator="type"),
]


CLIENT_MESSAGES: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
SERVER_MESSAGES: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)


def _models(union: object) -> list[type[BaseModel]]:
    """The members of an `Annotated[A | B | ..., Field(discriminator=...)]` union, in its order."""
    return list(get_args(get_args(union)[0]))


CLIENT_MODELS = _models(ClientMessage)
"""Every message a client may send, in the union's order (the order of the generated documents)."""
SERVER_MODELS = _models(ServerMessage)
"""Every message the server may send, in the union's order."""
CLIENT_TYPES = frozenset(str(model.model_fields["type"].default) for model in CLIENT_MODELS)
"""The `type` of every client message (an unknown one is refused `unknown_type`, naming these)."""

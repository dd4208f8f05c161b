"""The one place a message is registered: the client's and the server's messages, as discriminated unions.

A new message is written in its topic's module and added here, to `ClientMessage` or `ServerMessage`; the codec
decodes by `CLIENT_MESSAGES`, and the JSON Schema, AsyncAPI and OpenAPI documents and `docs/protocol.md` are
generated from these unions in their order (`python -m freecell_arena.protocol.generate`; a test fails when
they drift). What each request may get back is `contract.py`'s table.
"""

from __future__ import annotations

from typing import Annotated, get_args

from pydantic import BaseModel, Field, TypeAdapter

from freecell_arena.protocol import (
    accounts,
    errors,
    leaderboards,
    moderation,
    play,
    profiles,
    rooms,
    session,
    tournaments,
)

ClientMessage = Annotated[
    session.HelloRequest
    | rooms.CreateRoomRequest
    | rooms.JoinRoomRequest
    | rooms.LeaveRoomRequest
    | rooms.StartRaceRequest
    | play.MoveRequest
    | play.UndoRequest
    | play.ResignRequest
    | play.StateRequest
    | play.ReplayRequest
    | leaderboards.LeaderboardRequest
    | leaderboards.SeasonRequest
    | leaderboards.HistoryRequest
    | leaderboards.DailyRequest
    | leaderboards.PlayDailyRequest
    | rooms.RaceAgainRequest
    | rooms.QuickRaceRequest
    | accounts.PasskeyBeginRequest
    | accounts.PasskeyFinishRequest
    | accounts.AccountRequest
    | accounts.RenamePasskeyRequest
    | accounts.RemovePasskeyRequest
    | accounts.RevokeTokenRequest
    | accounts.SignOutRequest
    | accounts.CreateBotRequest
    | accounts.NewBotTokenRequest
    | profiles.RatingsRequest
    | profiles.PlayerRequest
    | profiles.StreakRequest
    | profiles.ReviewRequest
    | profiles.ShareRequest
    | tournaments.TournamentsRequest
    | tournaments.TournamentRequest
    | tournaments.CreateTournamentRequest
    | tournaments.EnterTournamentRequest
    | tournaments.WithdrawTournamentRequest
    | tournaments.PauseTournamentRequest
    | tournaments.BerserkRequest
    | moderation.ReportRequest
    | moderation.MyReportsRequest
    | moderation.ChooseNameRequest
    | moderation.ModQueueRequest
    | moderation.ModEvidenceRequest
    | moderation.ModActionRequest
    | moderation.ModLogRequest
    | moderation.ModSearchRequest
    | play.HintRequest
    | rooms.QuickRacesRequest
    | rooms.RaceBotRequest,
    Field(discriminator="type"),
]


ServerMessage = Annotated[
    session.WelcomeMessage
    | errors.ErrorMessage
    | rooms.RoomMessage
    | rooms.LeftRoomMessage
    | rooms.MemberJoinedMessage
    | rooms.MemberLeftMessage
    | rooms.MemberConnectionMessage
    | rooms.CountdownMessage
    | rooms.RaceStartedMessage
    | play.MoveAcceptedMessage
    | play.GameOverMessage
    | rooms.ProgressMessage
    | rooms.RaceOverMessage
    | play.GameStateMessage
    | play.ReplayMessage
    | leaderboards.LeaderboardMessage
    | leaderboards.SeasonMessage
    | leaderboards.HistoryMessage
    | leaderboards.DailyMessage
    | leaderboards.DailyStartedMessage
    | rooms.SeriesInviteMessage
    | accounts.PasskeyOptionsMessage
    | accounts.SignedInMessage
    | accounts.AccountMessage
    | accounts.BotTokenMessage
    | accounts.SignedOutMessage
    | profiles.RaceRatingsMessage
    | profiles.RatingsMessage
    | profiles.StreakMessage
    | profiles.PlayerMessage
    | profiles.ReviewMessage
    | profiles.ShareMessage
    | tournaments.TournamentListMessage
    | tournaments.TournamentMessage
    | tournaments.TournamentEntryMessage
    | tournaments.TournamentRaceMessage
    | moderation.ReportReceivedMessage
    | moderation.MyReportsMessage
    | moderation.NameReplacedMessage
    | moderation.NameChosenMessage
    | moderation.ModQueueMessage
    | moderation.ModEvidenceMessage
    | moderation.ModLogMessage
    | moderation.ModActionMessage
    | moderation.ModLoggedMessage
    | moderation.ModSearchMessage
    | play.HintMessage
    | rooms.QuickRacesMessage
    | rooms.RaceBotMessage,
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

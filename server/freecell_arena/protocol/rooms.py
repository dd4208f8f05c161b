"""Rooms and races: making and joining a room, its members and their progress, the race's start and its end.

A room as its members see it (`RoomView`, `RoomOptions`, `RoomMember`, `Progress`), the requests that change who
is in it and when it starts (`create_room`, `join_room`, `race_again`, `quick_race`, ...), and the events a room
sends its members (`member_joined`, `countdown`, `race_started`, `progress`, `race_over`, ...). A player's moves
within the race are `play`'s.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import Field

from freecell_arena.protocol.board import GameView
from freecell_arena.protocol.vocabulary import MemberRole, Outcome, PlayerStatus, RoomStatus
from freecell_arena.protocol.wire import STRICT, Message, Request, RequestId, Seed, VariantId


class RoomOptions(Message):
    """What the host chose for the room. `undo_allowed` null = the variant's default."""

    model_config = STRICT

    autoplay: bool = Field(default=True, description="Safe cards go to the foundations on their own.")
    undo_allowed: bool | None = None
    max_players: int = Field(default=16, ge=1, le=64)
    time_limit_s: int | None = Field(default=None, ge=5, le=86_400, description="Race ends after this long.")
    ranking: Literal["moves", "speed"] = Field(
        default="moves", description="Winners ordered by moves then time, or (speed) by time then moves."
    )
    countdown_s: float = Field(default=3.0, ge=0, le=30)
    ranked: bool | None = Field(
        default=None,
        description="Winners go on the deal's leaderboard. Null: ranked when autoplay is on and undo is the "
        "variant's rule (the room then shows true or false); true with other options is refused.",
    )


class RoomMember(Message):
    """A member of a room; `connected` is false while their connection is down."""

    player_id: str
    name: str
    bot: bool
    role: MemberRole
    connected: bool


class Progress(Message):
    """What a room may see of one player's game: counts only, never moves or cards."""

    player_id: str
    name: str
    status: PlayerStatus
    cards_on_foundations: int
    moves: int
    time_ms: int | None = Field(description="Playing time so far, or final time once done.")


class SeriesScore(Message):
    """One player's wins so far in a race-again series."""

    player_id: str
    name: str
    wins: int


class SeriesView(Message):
    """A race-again series: which race of it this room is, and the wins per player of the races before it (and of
    this one, once it is over)."""

    race: int = Field(ge=1)
    tally: list[SeriesScore]


class RoomView(Message):
    """A room as everyone in it sees it. `seed` stays null for Cell Eleven until the race is over, and always for a
    cup's heat (the cup reveals its deals once over)."""

    code: str
    variant: VariantId
    seed: Seed | None
    host_id: str
    options: RoomOptions
    status: RoomStatus
    members: list[RoomMember]
    starts_at: datetime | None = None
    ends_at: datetime | None = None
    progress: list[Progress] = Field(default_factory=list)
    host_chose_deal: bool = Field(
        default=False, description="The host picked the deal (a seed or deal number): the host may know it."
    )
    next_code: str | None = Field(default=None, description="After `race_again`: the series' next room.")
    series: SeriesView | None = Field(default=None, description="The race-again series this room belongs to.")
    quick: bool = Field(default=False, description="A public quick-race room: it starts by itself.")


class Standing(Message):
    """One row of the final standings; equal results share a rank."""

    rank: int
    player_id: str
    name: str
    game_id: str
    outcome: Outcome
    moves: int
    single_card_moves: int
    cards_on_foundations: int
    time_ms: int


class CreateRoomRequest(Request):
    """Create a room and become its host. No `seed`/`deal`: a fresh random seed. `deal` is a deal number."""

    type: Literal["create_room"] = "create_room"
    id: RequestId = None
    variant: VariantId
    seed: Seed | None = None
    deal: Annotated[Seed, Field(ge=1)] | None = None
    options: RoomOptions = Field(default_factory=RoomOptions)


class JoinRoomRequest(Request):
    """Join a room by its code, as a player (lobby only) or as a spectator (any time)."""

    type: Literal["join_room"] = "join_room"
    id: RequestId = None
    code: str = Field(min_length=1, max_length=32)
    spectator: bool = False


class LeaveRoomRequest(Request):
    """Leave the room; leaving during a race resigns the game."""

    type: Literal["leave_room"] = "leave_room"
    id: RequestId = None


class StartRaceRequest(Request):
    """Host only: start the countdown; every player gets the same deal at the same instant."""

    type: Literal["start_race"] = "start_race"
    id: RequestId = None


class RaceAgainRequest(Request):
    """After `race_over`: open the series' next room (same options, a fresh server-drawn deal) or, when a member
    opened it already, join it. Everyone of the finished room is invited (`series_invite`)."""

    type: Literal["race_again"] = "race_again"
    id: RequestId = None


class QuickRaceRequest(Request):
    """Join the variant's public room that is filling (one is opened when none is); it starts by itself, ranked,
    on a server-drawn deal."""

    type: Literal["quick_race"] = "quick_race"
    id: RequestId = None
    variant: VariantId


class QuickRacesRequest(Request):
    """The quick races filling now, per variant (the landing page's "who is waiting"), and the server's offer of a
    bot to race when nobody comes."""

    type: Literal["get_quick_races"] = "get_quick_races"
    id: RequestId = None


class RaceBotRequest(Request):
    """In a quick race's lobby where you wait alone: the server's own bot (a client of this protocol, on the bots'
    ladder) joins it, and the race starts by itself as with any second player."""

    type: Literal["race_bot"] = "race_bot"
    id: RequestId = None


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


class MemberJoinedMessage(Message):
    """To the others in the room: someone joined (the whole room goes only to the one who joined)."""

    type: Literal["member_joined"] = "member_joined"
    code: str
    member: RoomMember


class MemberLeftMessage(Message):
    """To the others in the room: someone left; `host_id` names the host now (it moves when the host leaves)."""

    type: Literal["member_left"] = "member_left"
    code: str
    player_id: str
    host_id: str


class MemberConnectionMessage(Message):
    """To the others in the room: a member's connection went down or came back."""

    type: Literal["member_connection"] = "member_connection"
    code: str
    player_id: str
    connected: bool


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


class ProgressMessage(Message):
    """One player's progress, to the others in the room (the player has it in its reply). Counts only."""

    type: Literal["progress"] = "progress"
    code: str
    progress: Progress


class RaceOverMessage(Message):
    """Final standings. `seed` is now public for every variant; replays are available (a cup's heat: `seed` null,
    replays closed, until the cup is over). Sent again after `game_state` to a member of the finished room (a
    resumed `welcome`, `get_state`)."""

    type: Literal["race_over"] = "race_over"
    code: str
    seed: Seed | None
    standings: list[Standing]


class SeriesInviteMessage(Message):
    """To the members of a finished room: the series' next room is open (`race_again` or `join_room` joins it)."""

    type: Literal["series_invite"] = "series_invite"
    code: str = Field(description="The finished room.")
    next_code: str
    by: str = Field(description="The name of who opened it.")


class QuickRaceView(Message):
    variant: VariantId
    code: str | None = Field(description="The room filling now (null: none; `quick_race` opens one).")
    players: int = Field(description="Players waiting in it.")
    starts_at: datetime | None = Field(description="When its countdown ends (null: waiting for players).")


class QuickRacesMessage(Message):
    type: Literal["quick_races"] = "quick_races"
    id: RequestId = None
    races: list[QuickRaceView]
    bot_after_s: float | None = Field(description="A player waiting alone this long is offered a bot (`race_bot`); "
                                      "null: this server has no house bot.")


class RaceBotMessage(Message):
    """The house bot is on its way to your quick race (it joins like any player: `member_joined`)."""

    type: Literal["race_bot"] = "race_bot"
    id: RequestId = None
    code: str
    name: str

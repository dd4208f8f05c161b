"""What each request may cause: the frames you get back, in order, what the others in your room get, and the error
codes it may be refused with. Written once here; `docs/protocol.md` and the AsyncAPI document are generated from it
(`freecell_arena.protocol.generate`), and the tests' client checks every error it meets against it.

A frame that "answers" carries the request's `id`; the others are events (no `id`) that the request set off. Every
request may also get the errors of `COMMON_ERRORS` (the frame itself is at fault, or the server is).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import get_args

from freecell_arena.protocol import (
    accounts,
    export,
    leaderboards,
    moderation,
    play,
    profiles,
    registry,
    rooms,
    session,
    tournaments,
    wire,
)
from freecell_arena.protocol.errors import ErrorCode as E


@dataclass(frozen=True)
class Frame:
    """A frame a request causes. `answers`: it carries the request's `id`. `when`: the condition (empty: always)."""

    message: type[wire.Message]
    answers: bool = False
    when: str = ""

    @property
    def type_name(self) -> str:
        return str(self.message.model_fields["type"].default)


@dataclass(frozen=True)
class Exchange:
    """One request: the frames to the sender, in order, the frames to the others in the room, and its errors."""

    request: type[wire.Request]
    to_you: tuple[Frame, ...]
    errors: tuple[E, ...] = ()
    to_others: tuple[Frame, ...] = ()
    note: str = ""
    before_hello: bool = False
    """Allowed before `hello` (else refused `hello_required`)."""

    @property
    def type_name(self) -> str:
        return str(self.request.model_fields["type"].default)

    @property
    def replies(self) -> tuple[type[wire.Message], ...]:
        return tuple(frame.message for frame in self.to_you if frame.answers)

    def may_fail_with(self) -> frozenset[E]:
        extra = () if self.before_hello else (E.hello_required,)
        return frozenset((*COMMON_ERRORS, *extra, *self.errors))


COMMON_ERRORS = (E.invalid_json, E.invalid_message, E.unknown_type, E.message_too_large, E.rate_limited,
                 E.shutting_down, E.internal_error)  # fmt: skip
"""Any request may get these: the frame is not JSON, not a known message, malformed or too large; the connection
sent too fast; the server is stopping or failed (nothing changed)."""

STORES = (E.storage_failed,)
"""A request that stores something may find the database away for a moment (nothing changed: send it again)."""
GAME = (E.no_game, E.unknown_game, E.not_your_game, E.game_not_running)
"""What a request about your running game may get (`game_id` names another game, none is running, it is over)."""
BUSY = (E.already_in_room, E.game_in_progress)
"""Refused while you sit in an unfinished room or play a game (leave it, finish it or resign first)."""
ACCOUNT = (E.not_saved, E.not_yours, E.passkey_refused, *STORES)
MODERATOR = (E.not_allowed, *STORES)
"""A moderator's request: anyone else is refused `not_allowed` (the role is read from the store on every request);
`storage_failed` when the database cannot answer (nothing changed)."""

RACE_END_TO_YOU = (
    Frame(rooms.RaceOverMessage, when="the last racer finished"),
    Frame(rooms.RoomMessage, when="the last racer finished: the room, finished"),
    Frame(profiles.RaceRatingsMessage, when="the race was rated"),
)
RACE_END_TO_OTHERS = (Frame(rooms.ProgressMessage), *RACE_END_TO_YOU)

CONTRACT: tuple[Exchange, ...] = (
    Exchange(
        session.HelloRequest,
        (
            Frame(session.WelcomeMessage, answers=True),
            Frame(play.GameStateMessage, when="you resumed (said hello with a token): your room and game"),
            Frame(rooms.RaceOverMessage, when="you resumed into a finished race"),
            Frame(profiles.RaceRatingsMessage, when="you resumed into a finished rated race"),
            Frame(
                moderation.NameReplacedMessage, when="you resumed and a moderator replaced your name: choose another"
            ),
        ),
        (E.already_greeted, E.unknown_token, E.revoked_token, E.name_taken, E.banned, *STORES),
        (Frame(rooms.MemberConnectionMessage, when="you resumed into a room"),),
        note="Once per connection. `rate_limited` also when one address makes too many new players. `banned`: a "
        "moderator banned you (the message gives their public reason) and the connection closes (4002).",
        before_hello=True,
    ),
    Exchange(
        rooms.CreateRoomRequest,
        (Frame(rooms.RoomMessage, answers=True),),
        (E.unknown_variant, E.bad_seed, E.unranked_options, *BUSY, *STORES),
        note="You leave a finished room you were in.",
    ),
    Exchange(
        rooms.JoinRoomRequest,
        (
            Frame(rooms.RoomMessage, answers=True),
            Frame(rooms.RaceOverMessage, when="the room's race is over"),
        ),
        (E.unknown_room, E.room_started, E.room_full, *BUSY, *STORES),
        (Frame(rooms.MemberJoinedMessage),),
        note="A player joins a lobby; a spectator any room. `room_started`: a player cannot join a running race.",
    ),
    Exchange(
        rooms.LeaveRoomRequest,
        (
            Frame(play.GameOverMessage, when="you left mid-race: your game is resigned (no id)"),
            Frame(rooms.LeftRoomMessage, answers=True),
            Frame(rooms.MemberLeftMessage, when="others are in the room: your leave, as they see it"),
        ),
        (E.not_in_room, *STORES),
        (Frame(rooms.ProgressMessage, when="you left mid-race"), Frame(rooms.MemberLeftMessage), *RACE_END_TO_YOU),
    ),
    Exchange(
        rooms.StartRaceRequest,
        (
            Frame(rooms.CountdownMessage, answers=True),
            Frame(rooms.RoomMessage, when="the countdown begins: the room, counting down"),
            Frame(rooms.RaceStartedMessage, when="the countdown ends (`starts_at`): your copy of the deal"),
            Frame(rooms.RoomMessage, when="the countdown ends: the room, running"),
        ),
        (E.not_in_room, E.not_host, E.room_started, E.not_enough_players, *STORES),
        (
            Frame(rooms.CountdownMessage),
            Frame(rooms.RoomMessage),
            Frame(rooms.RaceStartedMessage, when="to each player (not to spectators)"),
            Frame(rooms.RoomMessage),
        ),
        note="Host only (a quick race starts by itself).",
    ),
    Exchange(
        play.MoveRequest,
        (
            Frame(play.MoveAcceptedMessage, answers=True),
            Frame(play.GameOverMessage, when="the move won, or left no legal move (no id)"),
            *RACE_END_TO_YOU,
        ),
        (*GAME, E.bad_notation, E.illegal_move, *STORES),
        RACE_END_TO_OTHERS,
        note="`move_accepted` goes out once the move is durable; `illegal_move` carries the engine's `reason`.",
    ),
    Exchange(
        play.UndoRequest,
        (Frame(play.MoveAcceptedMessage, answers=True),),
        (*GAME, E.undo_not_allowed, *STORES),
        (Frame(rooms.ProgressMessage),),
    ),
    Exchange(
        play.ResignRequest,
        (Frame(play.GameOverMessage, answers=True), *RACE_END_TO_YOU),
        (*GAME, *STORES),
        RACE_END_TO_OTHERS,
    ),
    Exchange(
        play.StateRequest,
        (
            Frame(play.GameStateMessage, answers=True),
            Frame(rooms.RaceOverMessage, when="your room's race is over"),
        ),
    ),
    Exchange(
        play.ReplayRequest,
        (Frame(play.ReplayMessage, answers=True),),
        (E.unknown_game, E.replay_not_available),
        note="Anyone's game once its race is over (a daily's once its day closes, a cup heat's once the cup is "
        "over); your own any time, except a Cell Eleven game (its seed would show the face-down cards), a daily and "
        "a cup's heat (their seeds are revealed at the close).",
    ),
    Exchange(
        leaderboards.LeaderboardRequest,
        (Frame(leaderboards.LeaderboardMessage, answers=True),),
        (E.unknown_variant, E.unknown_daily, E.bad_seed, E.unknown_seed, E.bad_cursor, E.not_on_board),
        note="`unknown_seed`: no ranked game was ever dealt from that seed (an empty board is a deal nobody won).",
    ),
    Exchange(
        leaderboards.SeasonRequest,
        (Frame(leaderboards.SeasonMessage, answers=True),),
        (E.unknown_variant, E.bad_cursor, E.not_on_board),
    ),
    Exchange(
        leaderboards.HistoryRequest,
        (Frame(leaderboards.HistoryMessage, answers=True),),
        (E.unknown_player, E.bad_cursor),
    ),
    Exchange(
        leaderboards.DailyRequest,
        (Frame(leaderboards.DailyMessage, answers=True),),
        (E.unknown_variant, E.unknown_daily),
    ),
    Exchange(
        leaderboards.PlayDailyRequest,
        (Frame(leaderboards.DailyStartedMessage, answers=True),),
        (E.unknown_variant, E.unknown_daily, E.daily_not_ready, *BUSY, *STORES),
    ),
    Exchange(
        rooms.RaceAgainRequest,
        (
            Frame(rooms.RoomMessage, answers=True),
            Frame(rooms.MemberLeftMessage, when="others are in the finished room: your leave of it, as they see it"),
        ),
        (E.not_in_room, E.race_not_over, E.room_started, E.room_full, *BUSY, *STORES),
        (
            Frame(rooms.MemberLeftMessage, when="to the finished room's members: you left it"),
            Frame(rooms.SeriesInviteMessage, when="you opened the next room (to the finished room's members)"),
            Frame(rooms.MemberJoinedMessage, when="you joined it (to the next room's members)"),
        ),
    ),
    Exchange(
        rooms.QuickRaceRequest,
        (
            Frame(rooms.RoomMessage, answers=True),
            Frame(
                rooms.RoomMessage, when="`quick_race.min_players` are in (at once when full): the room, counting down"
            ),
            Frame(rooms.CountdownMessage, when="`quick_race.min_players` are in"),
            Frame(rooms.RaceStartedMessage, when="the countdown ends"),
            Frame(rooms.RoomMessage, when="the countdown ends: the room, running"),
        ),
        (E.unknown_variant, *BUSY, *STORES),
        (
            Frame(rooms.MemberJoinedMessage),
            Frame(rooms.CountdownMessage, when="enough players are in"),
            Frame(rooms.RoomMessage, when="enough players are in"),
        ),
    ),
    Exchange(
        accounts.PasskeyBeginRequest,
        (Frame(accounts.PasskeyOptionsMessage, answers=True),),
        (*ACCOUNT, E.hello_required, E.name_taken),
        note="`sign_in` may come before `hello`; `save` needs it (and a name nobody saved first: `name_taken`).",
        before_hello=True,
    ),
    Exchange(
        accounts.PasskeyFinishRequest,
        (
            Frame(accounts.AccountMessage, answers=True, when="the ceremony is `save`"),
            Frame(accounts.SignedInMessage, answers=True, when="the ceremony is `sign_in`"),
        ),
        (*ACCOUNT, E.name_taken, E.hello_required, E.banned),
        note="`banned`: the passkey's player is banned (the message gives the moderator's public reason); no session "
        "is issued.",
        before_hello=True,
    ),
    Exchange(accounts.AccountRequest, (Frame(accounts.AccountMessage, answers=True),), ACCOUNT),
    Exchange(accounts.RenamePasskeyRequest, (Frame(accounts.AccountMessage, answers=True),), ACCOUNT),
    Exchange(
        accounts.RemovePasskeyRequest, (Frame(accounts.AccountMessage, answers=True),), (*ACCOUNT, E.last_passkey)
    ),
    Exchange(
        accounts.RevokeTokenRequest,
        (Frame(accounts.AccountMessage, answers=True),),
        ACCOUNT,
        note="The revoked token's connections close (4001).",
    ),
    Exchange(
        accounts.SignOutRequest,
        (Frame(accounts.SignedOutMessage, answers=True),),
        ACCOUNT,
        note="This connection closes (4001) after the reply.",
    ),
    Exchange(accounts.CreateBotRequest, (Frame(accounts.BotTokenMessage, answers=True),), (*ACCOUNT, E.name_taken)),
    Exchange(accounts.NewBotTokenRequest, (Frame(accounts.BotTokenMessage, answers=True),), ACCOUNT),
    Exchange(profiles.RatingsRequest, (Frame(profiles.RatingsMessage, answers=True),), (E.unknown_variant,)),
    Exchange(profiles.PlayerRequest, (Frame(profiles.PlayerMessage, answers=True),), (E.unknown_player,)),
    Exchange(
        profiles.StreakRequest, (Frame(profiles.StreakMessage, answers=True),), (E.unknown_variant, E.unknown_player)
    ),
    Exchange(
        profiles.ReviewRequest,
        (Frame(profiles.ReviewMessage, answers=True),),
        (E.unknown_room, E.unknown_variant, E.unknown_daily, E.race_not_over),
    ),
    Exchange(
        profiles.ShareRequest,
        (Frame(profiles.ShareMessage, answers=True),),
        (E.unknown_game, E.race_not_over, E.game_not_running),
    ),
    Exchange(tournaments.TournamentsRequest, (Frame(tournaments.TournamentListMessage, answers=True),)),
    Exchange(
        tournaments.TournamentRequest, (Frame(tournaments.TournamentMessage, answers=True),), (E.unknown_tournament,)
    ),
    Exchange(
        tournaments.CreateTournamentRequest,
        (Frame(tournaments.TournamentMessage, answers=True),),
        (E.not_saved, E.unknown_variant, E.bad_seed, *STORES),
        note="A saved player's, a few a day (`rate_limited` past them); entered by the reply's `link_code`. A cup's "
        "rounds are at least its time limit and 30 s apart (`invalid_message`).",
    ),
    Exchange(
        tournaments.EnterTournamentRequest,
        (Frame(tournaments.TournamentEntryMessage, answers=True),),
        (E.unknown_tournament, E.tournament_over, E.already_entered, E.entry_closed, E.bots_only, E.humans_only,
         E.tournament_full, *STORES),
        note="`entry_closed` also for a private tournament without its `link_code`. Then `tournament_race` (an "
        "event) each time you are seated in a race.",
    ),
    Exchange(
        tournaments.WithdrawTournamentRequest,
        (Frame(tournaments.TournamentEntryMessage, answers=True),),
        (E.unknown_tournament, E.tournament_over, E.not_entered, *STORES),
        note="A race you sit in goes on (leave it to forfeit it); your points stay in the table.",
    ),
    Exchange(
        tournaments.PauseTournamentRequest,
        (Frame(tournaments.TournamentEntryMessage, answers=True),),
        (E.unknown_tournament, E.tournament_over, E.not_entered, *STORES),
    ),
    Exchange(
        tournaments.BerserkRequest,
        (Frame(tournaments.TournamentEntryMessage, answers=True),),
        (E.unknown_tournament, E.tournament_over, E.not_entered, E.berserk_refused, *STORES),
        note="Only in your arena race's countdown, once (`berserk_refused` otherwise).",
    ),
    Exchange(
        moderation.ReportRequest,
        (Frame(moderation.ReportReceivedMessage, answers=True),),
        (E.not_saved, E.unknown_player, E.already_reported, *STORES),
        note="Saved players only. `already_reported`: your report of that player is open; `rate_limited` past "
        "your reports of the day or your address's. You cannot report yourself (`invalid_message`).",
    ),
    Exchange(moderation.MyReportsRequest, (Frame(moderation.MyReportsMessage, answers=True),), STORES),
    Exchange(
        moderation.ChooseNameRequest,
        (Frame(moderation.NameChosenMessage, answers=True),),
        (E.not_allowed, E.name_taken, *STORES),
        note="Only after `name_replaced` (else `not_allowed`).",
    ),
    Exchange(moderation.ModQueueRequest, (Frame(moderation.ModQueueMessage, answers=True),), MODERATOR),
    Exchange(
        moderation.ModEvidenceRequest,
        (Frame(moderation.ModEvidenceMessage, answers=True),),
        (*MODERATOR, E.unknown_player),
    ),
    Exchange(
        moderation.ModActionRequest,
        (Frame(moderation.ModActionMessage, answers=True),),
        (*MODERATOR, E.unknown_player, E.unknown_game, E.not_found),
        note="`not_allowed` also for yourself or another moderator as the target; `unknown_game`: `void` names no "
        "finished ranked game of the player; `not_found`: `lift` names no sanction of theirs in force. A ban closes "
        "the player's connections on every process (4002).",
    ),
    Exchange(moderation.ModLogRequest, (Frame(moderation.ModLogMessage, answers=True),), MODERATOR),
    Exchange(moderation.ModSearchRequest, (Frame(moderation.ModSearchMessage, answers=True),), MODERATOR),
    Exchange(
        play.HintRequest,
        (Frame(play.HintMessage, answers=True),),
        (E.unknown_game, E.not_your_game, E.game_not_running, E.no_hints),
        note="Your own running game of an unranked room only (`no_hints` in a ranked race or a daily). "
        "`rate_limited` while your previous hint is worked out.",
    ),
    Exchange(rooms.QuickRacesRequest, (Frame(rooms.QuickRacesMessage, answers=True),)),
    Exchange(
        rooms.RaceBotRequest,
        (Frame(rooms.RaceBotMessage, answers=True),),
        (E.not_in_room, E.room_started, E.invalid_message),
        note="Alone in a quick race's lobby: the house bot joins it (`member_joined`, then the countdown, as for any "
        "second player). `invalid_message`: this server has no house bot, the room is no quick race, or someone "
        "else is in it.",
    ),
)

EXCHANGES = {exchange.type_name: exchange for exchange in CONTRACT}


@dataclass(frozen=True)
class ServerEvent:
    """A frame the server sends on its own (no request of yours set it off): when it comes."""

    message: type[wire.Message]
    when: str


SERVER_EVENTS = (
    ServerEvent(rooms.CountdownMessage, "a quick race you sit in has enough players"),
    ServerEvent(rooms.RaceStartedMessage, "the countdown reached `starts_at`"),
    ServerEvent(rooms.RoomMessage, "your room's status changed (countdown, start, finish)"),
    ServerEvent(play.GameOverMessage, "the race's time limit passed, or your daily's day closed (`timeout`)"),
    ServerEvent(rooms.RaceOverMessage, "the race ended (everyone done, or its time limit)"),
    ServerEvent(profiles.RaceRatingsMessage, "after `race_over` of a rated race"),
    ServerEvent(rooms.MemberConnectionMessage, "a member's connection went down or came back"),
    ServerEvent(rooms.MemberLeftMessage, "a lobby member's connection closed: a lobby seat is given up"),
    ServerEvent(tournaments.TournamentRaceMessage, "a tournament seated you in its next race (an arena's pairing, a "
                "cup's round): the room's `room` and `countdown` follow"),
    ServerEvent(moderation.ModLoggedMessage, "you are a moderator and asked for `mod_queue` on this connection: the "
                "mod log gained an action (from any console, any process or the command line)"),
)


# ---------------------------------------------------------------------------- HTTP


@dataclass(frozen=True)
class HttpRoute:
    """`GET path` answers like the websocket `request`: the path's `{names}` and the `query` parameters are its
    fields; `fixed` ones are set by the route."""

    path: str
    request: type[wire.Request]
    query: tuple[str, ...] = ()
    fixed: dict[str, str] = field(default_factory=dict)
    summary: str = ""
    max_age_s: int = 2
    """How long an answer may be reused (`Cache-Control: public, max-age`), by this process's read cache, HAProxy's
    and a browser's: a live table may be this old; what changes rarely, or only by a moderator's act, longer."""

    @property
    def path_fields(self) -> list[str]:
        return [part[1:-1] for part in self.path.split("/") if part.startswith("{")]


PAGE = ("bots", "limit", "cursor", "around")
DAILY_BOARD = {"board": "daily"}
HTTP_ROUTES = (
    HttpRoute("/api/leaderboards/{variant}/daily", leaderboards.LeaderboardRequest, ("day", *PAGE), DAILY_BOARD,
              "A daily board (default: today's)", max_age_s=5),
    HttpRoute("/api/leaderboards/{variant}/daily/{day}", leaderboards.LeaderboardRequest, PAGE, DAILY_BOARD,
              "A day's board", max_age_s=5),
    HttpRoute("/api/leaderboards/{variant}/deal/{seed}", leaderboards.LeaderboardRequest, PAGE, {"board": "deal"},
              "A deal's board", max_age_s=10),
    HttpRoute("/api/leaderboards/{variant}/season", leaderboards.SeasonRequest, ("days", *PAGE),
              summary="A season table", max_age_s=30),
    HttpRoute("/api/players/{player_id}/history", leaderboards.HistoryRequest, ("limit", "cursor"),
              summary="A player's finished games", max_age_s=10),
    HttpRoute("/api/daily/{variant}/{day}/review", profiles.ReviewRequest, summary="A closed daily beside par",
              max_age_s=300),
    HttpRoute("/api/daily/{variant}", leaderboards.DailyRequest, ("day",), summary="A variant's daily deals",
              max_age_s=60),
    HttpRoute("/api/daily/{variant}/{day}", leaderboards.DailyRequest, summary="One day's daily deal", max_age_s=60),
    HttpRoute("/api/ratings/{variant}", profiles.RatingsRequest, ("bots", "limit", "around"), summary="A rating board",
              max_age_s=10),
    HttpRoute("/api/players/{player_id}", profiles.PlayerRequest, summary="A player's page", max_age_s=10),
    HttpRoute("/api/players/{player_id}/streak/{variant}", profiles.StreakRequest, ("month",),
              summary="A daily streak and a month", max_age_s=30),
    HttpRoute("/api/races/{code}/review", profiles.ReviewRequest, summary="A finished race beside par", max_age_s=60),
    HttpRoute("/api/games/{game_id}/share", profiles.ShareRequest, ("origin",), summary="A finished game's share text",
              max_age_s=300),
    HttpRoute("/api/tournaments", tournaments.TournamentsRequest, ("bots", "player_id"),
              summary="Tournaments: upcoming, running, finished", max_age_s=5),
    HttpRoute("/api/tournaments/{tournament_id}", tournaments.TournamentRequest, ("around",),
              summary="A tournament, its table and podium", max_age_s=2),
    HttpRoute("/api/quick-races", rooms.QuickRacesRequest, summary="The quick races filling now", max_age_s=1),
)  # fmt: skip
"""Every route of `/api/` (net/http_api.py serves them, the OpenAPI document describes them)."""

@dataclass(frozen=True)
class StreamRoute:
    """`GET path` streams `item`s as NDJSON (`protocol.export.NDJSON`), no websocket twin: the path's `{names}` and the
    `query` parameters are the fields of `request` (validated like a route's request); refused with `errors` (and
    `HTTP_COMMON_ERRORS`) as the JSON `error` message."""

    path: str
    request: type[export.PlayerGamesQuery]
    item: type[export.ExportGame]
    query: tuple[str, ...] = ()
    errors: tuple[E, ...] = ()
    summary: str = ""

    @property
    def path_fields(self) -> list[str]:
        return [part[1:-1] for part in self.path.split("/") if part.startswith("{")]


STREAM_ROUTES = (
    StreamRoute("/api/players/{player_id}/games", export.PlayerGamesQuery, export.ExportGame,
                ("before", "before_id", "limit"), (E.unknown_player,),
                "A player's public finished games as NDJSON, newest first (open data)"),
)  # fmt: skip
"""The routes of `/api/` that answer NDJSON (net/open_data.py serves them; the OpenAPI document describes them)."""

HTTP_STATUS_OF_CODE: dict[E, int] = {
    E.unknown_player: 404,
    E.not_on_board: 404,
    E.unknown_daily: 404,
    E.unknown_seed: 404,
    E.not_found: 404,
    E.unknown_room: 404,
    E.unknown_game: 404,
    E.unknown_tournament: 404,
    E.race_not_over: 409,
    E.method_not_allowed: 405,
    E.rate_limited: 429,
    E.internal_error: 500,
    E.shutting_down: 503,
    E.not_ready: 503,
}
"""The HTTP status of a refusal; any other code is 400 (bad parameters)."""
HTTP_COMMON_ERRORS = (E.invalid_message, E.not_found, E.method_not_allowed, E.rate_limited, E.shutting_down,
                      E.internal_error)  # fmt: skip
"""Any `/api/` answer may be one of these: bad parameters, no such route, not GET, too fast, stopping, failed."""


def http_status(code: E) -> int:
    return HTTP_STATUS_OF_CODE.get(code, 400)


def _check() -> None:
    """Every request has exactly one exchange, every route a request the websocket knows too."""
    union = get_args(registry.ClientMessage)[0]
    requests = set(get_args(union))
    described = [exchange.request for exchange in CONTRACT]
    if set(described) != requests or len(described) != len(requests):
        raise RuntimeError(f"the contract and ClientMessage differ: {sorted(map(str, requests ^ set(described)))}")


_check()

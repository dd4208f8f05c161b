"""`ArenaClient`: one websocket connection to a FreeCell Arena server, typed with the server's own models.

Requests and events share one connection. A background reader decodes every frame into one of the server's
messages (`freecell_arena.protocol.registry.SERVER_MESSAGES`); a frame whose `id` answers a pending request
resolves that request, anything else (room events, progress, `race_started`, `game_over`, ...) goes to the event
queue, read with `next_event`.

Every request is `await client.request(model, ReplyModel)`: it fills in a fresh `id`, sends, and returns the
reply, or raises `ArenaError` when the server answered `error`. The typed methods below are one line each,
so a new request type added to the protocol is one new line here.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections import deque
from collections.abc import AsyncIterator
from datetime import date
from typing import Any, Literal, TypeVar, overload

from pydantic import ValidationError
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from freecell_arena.engine import Move, move_to_json
from freecell_arena.protocol.errors import ErrorCode, ErrorMessage
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
from freecell_arena.protocol.play import (
    GameOverMessage,
    GameStateMessage,
    MoveAcceptedMessage,
    MoveJson,
    MoveRequest,
    ReplayMessage,
    ReplayRequest,
    ResignRequest,
    StateRequest,
    UndoRequest,
)
from freecell_arena.protocol.registry import SERVER_MESSAGES, ServerMessage
from freecell_arena.protocol.rooms import (
    CountdownMessage,
    CreateRoomRequest,
    JoinRoomRequest,
    LeaveRoomRequest,
    LeftRoomMessage,
    QuickRaceRequest,
    RaceAgainRequest,
    RoomMessage,
    RoomOptions,
    StartRaceRequest,
)
from freecell_arena.protocol.session import CloseCode, HelloRequest, WelcomeMessage
from freecell_arena.protocol.wire import PROTOCOL_VERSION, Message
from freecell_arena_client.compression import connect_options
from freecell_arena_client.errors import ArenaError, ConnectionLost, ProtocolError, ProtocolMismatch
from freecell_arena_client.pacing import Pacer

log = logging.getLogger(__name__)

ReplyT = TypeVar("ReplyT", bound=Message)
EventT = TypeVar("EventT", bound=Message)

DEFAULT_REQUEST_TIMEOUT_S = 30.0
DEFAULT_OPEN_TIMEOUT_S = 10.0
RATE_LIMIT_RETRIES = 8
CLOSE_REPLACED = CloseCode.replaced  # the server closed this connection because the same identity connected again
CLOSE_REVOKED = CloseCode.revoked  # the token this connection said hello with was revoked (on its owner's page)
CLOSE_SERVICE_RESTART = CloseCode.service_restart  # the server process is stopping: reconnect at once (any process)
_CLOSED = object()


class ArenaClient:
    """A connection; open it with `ArenaClient.connect(url, name=...)` (connect + hello) or `open` + `hello`."""

    def __init__(
        self,
        websocket: ClientConnection,
        *,
        request_timeout_s: float = DEFAULT_REQUEST_TIMEOUT_S,
        max_rate_per_s: float | None = None,
    ) -> None:
        self.websocket = websocket
        self.request_timeout_s = request_timeout_s
        self.welcome: WelcomeMessage | None = None
        self._pacer = Pacer(max_rate_per_s) if max_rate_per_s else None
        self._ids = itertools.count(1)
        self._waiting: dict[int, tuple[asyncio.Future[Message], str]] = {}
        self._events: asyncio.Queue[Any] = asyncio.Queue()
        self._skipped: deque[ServerMessage] = deque()
        self._closed: ConnectionLost | None = None
        self._reader = asyncio.create_task(self._read_loop(), name="arena-client-reader")

    # ------------------------------------------------------------------ opening and closing

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        open_timeout_s: float = DEFAULT_OPEN_TIMEOUT_S,
        request_timeout_s: float = DEFAULT_REQUEST_TIMEOUT_S,
        max_rate_per_s: float | None = None,
        **options: Any,
    ) -> ArenaClient:
        """Open the websocket (no hello yet). Raises `ConnectionLost` when the server cannot be reached."""
        try:
            async with asyncio.timeout(open_timeout_s):
                websocket = await connect(url, open_timeout=None, proxy=None, max_queue=None, **_with_policy(options))
        except InvalidURI:
            raise
        except (OSError, TimeoutError, InvalidHandshake) as error:
            raise ConnectionLost(f"cannot connect to {url}: {_describe(error)}") from error
        return cls(websocket, request_timeout_s=request_timeout_s, max_rate_per_s=max_rate_per_s)

    @classmethod
    async def connect(
        cls, url: str, *, name: str, token: str | None = None, bot: bool = False, **options: Any
    ) -> ArenaClient:
        """Open and say hello. With `token`, resume that identity: `client.welcome.resumed` is then true and a
        `GameStateMessage` is the next event."""
        client = await cls.open(url, **options)
        try:
            await client.hello(name, token=token, bot=bot)
        except BaseException:
            await client.close()
            raise
        return client

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            async with asyncio.timeout(5):
                await self.websocket.close()
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._reader

    async def __aenter__(self) -> ArenaClient:
        return self

    async def __aexit__(self, *_exc_info: object) -> None:
        await self.close()

    @property
    def player_id(self) -> str | None:
        return self.welcome.player_id if self.welcome else None

    @property
    def token(self) -> str | None:
        return self.welcome.token if self.welcome else None

    @property
    def closed(self) -> ConnectionLost | None:
        """Why the connection is closed, or None while it is open."""
        return self._closed

    # ------------------------------------------------------------------ requests

    @overload
    async def request(self, message: Message, reply: type[ReplyT], *, timeout_s: float | None = None) -> ReplyT: ...

    @overload
    async def request(self, message: Message, reply: None = None, *, timeout_s: float | None = None) -> Message: ...

    async def request(
        self, message: Message, reply: type[Message] | None = None, *, timeout_s: float | None = None
    ) -> Message:
        """Send `message` with a fresh id and return the reply that carries it.

        Raises `ArenaError` for an `error` reply (after retrying `rate_limited` ones with a pause),
        `ProtocolError` when the reply is not a `reply` model, `ConnectionLost` when the connection drops first,
        and `TimeoutError` when no reply comes within `timeout_s` (default: the client's request timeout).
        """
        kind = str(getattr(message, "type", type(message).__name__))
        for attempt in range(RATE_LIMIT_RETRIES + 1):
            answer = await self._exchange(message, timeout_s or self.request_timeout_s)
            if isinstance(answer, ErrorMessage):
                if answer.code == ErrorCode.rate_limited and attempt < RATE_LIMIT_RETRIES:
                    await asyncio.sleep(0.05 * 2**attempt)
                    continue
                raise ArenaError.from_message(answer, kind)
            if reply is not None and not isinstance(answer, reply):
                raise ProtocolError(f"{kind}: expected {reply.__name__}, got {type(answer).__name__}")
            return answer
        raise AssertionError("unreachable")

    async def _exchange(self, message: Message, timeout_s: float) -> Message:
        if self._closed is not None:
            raise self._closed
        request_id = next(self._ids)
        future: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = (future, str(getattr(message, "type", "")))
        try:
            await self.send(message.model_copy(update={"id": request_id}))
            async with asyncio.timeout(timeout_s):
                return await future
        finally:
            self._waiting.pop(request_id, None)
            if future.done() and not future.cancelled():
                future.exception()  # a send that failed raised the loss already: its copy here is seen, not lost

    async def send(self, message: Message) -> None:
        """Send without waiting for a reply (paced when the client has a rate)."""
        if self._pacer is not None:
            await self._pacer.wait()
        try:
            await self.websocket.send(message.model_dump_json(by_alias=True, exclude_none=False))
        except ConnectionClosed as error:
            raise self._lost(error) from error

    # ------------------------------------------------------------------ the protocol, one line per request

    async def hello(self, name: str, *, token: str | None = None, bot: bool = False) -> WelcomeMessage:
        self.welcome = await self.request(HelloRequest(name=name, token=token, bot=bot), WelcomeMessage)
        return self.welcome

    async def create_room(
        self, variant: str, *, seed: int | None = None, deal: int | None = None, options: RoomOptions | None = None
    ) -> RoomMessage:
        request = CreateRoomRequest(variant=variant, seed=seed, deal=deal, options=options or RoomOptions())
        return await self.request(request, RoomMessage)

    async def join_room(self, code: str, *, spectator: bool = False) -> RoomMessage:
        return await self.request(JoinRoomRequest(code=code, spectator=spectator), RoomMessage)

    async def leave_room(self) -> LeftRoomMessage:
        return await self.request(LeaveRoomRequest(), LeftRoomMessage)

    async def start_race(self) -> CountdownMessage:
        return await self.request(StartRaceRequest(), CountdownMessage)

    async def move(self, move: Move | str, *, game_id: str | None = None) -> MoveAcceptedMessage:
        """A move as an engine `Move` (sent in the structured form) or as notation text (`"3a"`, `"t3-c1"`)."""
        return await self.request(MoveRequest(game_id=game_id, move=wire_move(move)), MoveAcceptedMessage)

    async def undo(self, *, game_id: str | None = None) -> MoveAcceptedMessage:
        return await self.request(UndoRequest(game_id=game_id), MoveAcceptedMessage)

    async def resign(self, *, game_id: str | None = None) -> GameOverMessage:
        return await self.request(ResignRequest(game_id=game_id), GameOverMessage)

    async def get_state(self) -> GameStateMessage:
        return await self.request(StateRequest(), GameStateMessage)

    async def get_replay(self, game_id: str) -> ReplayMessage:
        return await self.request(ReplayRequest(game_id=game_id), ReplayMessage)

    async def race_again(self) -> RoomMessage:
        """After `race_over`: the series' next room (opened, or joined when a member opened it already)."""
        return await self.request(RaceAgainRequest(), RoomMessage)

    async def quick_race(self, variant: str) -> RoomMessage:
        """The variant's filling public room; it starts by itself (watch for `countdown` and `race_started`)."""
        return await self.request(QuickRaceRequest(variant=variant), RoomMessage)

    # the daily challenge and the leaderboards (docs/leaderboards.md)

    async def play_daily(self, variant: str) -> DailyStartedMessage:
        """Start (or, while it runs, get back) your game of today's deal; only the first attempt is ranked."""
        return await self.request(PlayDailyRequest(variant=variant), DailyStartedMessage)

    async def get_daily(self, variant: str, *, day: date | None = None) -> DailyMessage:
        return await self.request(DailyRequest(variant=variant, day=day), DailyMessage)

    async def get_leaderboard(self, variant: str, board: Literal["daily", "deal"], **query: Any) -> LeaderboardMessage:
        """A page of a board: `day=` (daily) or `seed=` (deal), `limit=`, `cursor=`, `around=player_id`, `bots=`."""
        return await self.request(LeaderboardRequest(variant=variant, board=board, **query), LeaderboardMessage)

    async def get_season(self, variant: str, **query: Any) -> SeasonMessage:
        """The season table: `days=7|30`, `limit=`, `cursor=`, `around=player_id`, `bots=`."""
        return await self.request(SeasonRequest(variant=variant, **query), SeasonMessage)

    async def get_history(self, player_id: str | None = None, **query: Any) -> HistoryMessage:
        """A player's finished games, newest first (default: yours): `limit=`, `cursor=`."""
        return await self.request(HistoryRequest(player_id=player_id, **query), HistoryMessage)

    # ------------------------------------------------------------------ events

    async def next_event(self, timeout_s: float | None = None) -> ServerMessage:
        """The next message that is not a reply; raises `ConnectionLost` once the connection has closed."""
        if self._skipped:
            return self._skipped.popleft()
        async with asyncio.timeout(timeout_s):
            event = await self._events.get()
        if event is _CLOSED:
            self._events.put_nowait(_CLOSED)  # every later call fails the same way
            assert self._closed is not None
            raise self._closed
        return event  # type: ignore[no-any-return]  # the queue holds events and the _CLOSED marker handled above

    def pending_events(self) -> list[ServerMessage]:
        """Every event already received, without waiting."""
        events = list(self._skipped)
        self._skipped.clear()
        while not self._events.empty():
            event = self._events.get_nowait()
            if event is _CLOSED:
                self._events.put_nowait(_CLOSED)
                break
            events.append(event)
        return events

    async def wait_for(self, kind: type[EventT], timeout_s: float | None = None) -> EventT:
        """The first event of type `kind`; the events before it stay queued for `next_event`."""
        passed: list[ServerMessage] = []
        try:
            async with asyncio.timeout(timeout_s):
                while True:
                    event = await self.next_event()
                    if isinstance(event, kind):
                        return event
                    passed.append(event)
        finally:
            self._skipped.extendleft(reversed(passed))

    async def events(self) -> AsyncIterator[ServerMessage]:
        """Iterate over events until the connection closes."""
        while True:
            try:
                yield await self.next_event()
            except ConnectionLost:
                return

    # ------------------------------------------------------------------ the reader

    async def _read_loop(self) -> None:
        try:
            async for frame in self.websocket:
                self._dispatch(frame)
            self._lost(None)
        except ConnectionClosed as error:
            self._lost(error)
        except Exception as error:  # a bug in dispatch must not leave requests waiting forever
            log.exception("the client's reader failed")
            self._lost(None, f"the client's reader failed: {error!r}")

    def _dispatch(self, frame: str | bytes) -> None:
        try:
            message = SERVER_MESSAGES.validate_json(frame)
        except ValidationError as error:
            request_id = _request_id(frame)
            waiting = self._waiting.get(request_id) if isinstance(request_id, int) else None
            if waiting is not None and not waiting[0].done():
                announced = _announced_protocol(frame)
                waiting[0].set_exception(ProtocolError(f"undecodable reply to {waiting[1]}: {error}")
                                         if announced is None else ProtocolMismatch(announced))
            else:
                log.warning("ignoring a frame this client does not understand: %.200s", frame)
            return
        request_id = getattr(message, "id", None)
        waiting = self._waiting.get(request_id) if isinstance(request_id, int) else None
        if waiting is not None and not waiting[0].done():
            waiting[0].set_result(message)
        else:
            self._events.put_nowait(message)

    def _lost(self, error: ConnectionClosed | None, why: str | None = None) -> ConnectionLost:
        if self._closed is None:
            close = error.rcvd if error is not None else None
            code = close.code if close is not None else self.websocket.close_code
            reason = (close.reason if close is not None else self.websocket.close_reason) or ""
            text = why or f"the connection closed ({code or 'no close frame'}{': ' + reason if reason else ''})"
            self._closed = ConnectionLost(text, code, reason)
            for future, _ in self._waiting.values():
                if not future.done():
                    future.set_exception(self._closed)
            self._events.put_nowait(_CLOSED)
        return self._closed


def wire_move(move: Move | str) -> str | MoveJson:
    """The wire form of a move: notation text as given, an engine `Move` in the structured form."""
    if isinstance(move, str):
        return move
    if isinstance(move, tuple):
        return MoveJson.model_validate(move_to_json(Move(*move)))
    raise TypeError(f"a move is an engine Move or notation text, not {type(move).__name__}")


def _with_policy(options: dict[str, Any]) -> dict[str, Any]:
    """websockets' `connect` options under the SDK's compression policy (`large`: permessage-deflate offered, so
    large frames arrive compressed, and this client's own small frames sent as they are), unless the caller chose
    `compression` or `extensions` itself."""
    if "compression" in options or "extensions" in options:
        return options
    return {**connect_options("large"), **options}


def _announced_protocol(frame: str | bytes) -> object | None:
    """The `protocol` of a `welcome` this SDK could not read when it is not the version the SDK speaks (a newer or
    older server), else None."""
    import json

    try:
        data = json.loads(frame)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("type") != "welcome" or data.get("protocol") == PROTOCOL_VERSION:
        return None
    return data.get("protocol")


def _request_id(frame: str | bytes) -> object:
    import json

    try:
        data = json.loads(frame)
    except ValueError:
        return None
    return data.get("id") if isinstance(data, dict) else None


def _describe(error: BaseException) -> str:
    if isinstance(error, TimeoutError):
        return "timed out"
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error) or type(error).__name__

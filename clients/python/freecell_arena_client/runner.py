"""Everything around a bot's `choose_move`: connect, say hello, create or join the room, start it when hosting,
play the race to the end (or play today's daily deal), and come back after a dropped connection or a server
restart.

The runner keeps no game logic of its own: after every accepted move it rebuilds the board from the player view
as the server says it now is (the last whole view with the move's `changes` put in), and after a reconnect from
the `game_state` the server sends on a resumed `welcome`. So a move lost in flight (sent, then the connection
dropped) is never guessed at: the server's state says whether it counted, and the bot is asked again on the
board as it really is.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from freecell_arena.engine import Board, Move, variant_by_id
from freecell_arena.engine.view import UNKNOWN_SEED, apply_view_changes, board_from_view
from freecell_arena.protocol.board import GameView
from freecell_arena.protocol.errors import ErrorCode, ErrorMessage
from freecell_arena.protocol.leaderboards import DailyStartedMessage
from freecell_arena.protocol.play import GameOverMessage, GameStateMessage
from freecell_arena.protocol.registry import ServerMessage
from freecell_arena.protocol.rooms import (
    MemberConnectionMessage,
    MemberJoinedMessage,
    MemberLeftMessage,
    RaceOverMessage,
    RaceStartedMessage,
    RoomMessage,
    RoomOptions,
    RoomView,
    Standing,
)
from freecell_arena_client.bot import Bot
from freecell_arena_client.client import CLOSE_REPLACED, CLOSE_REVOKED, CLOSE_SERVICE_RESTART, ArenaClient
from freecell_arena_client.errors import ArenaClientError, ArenaError, BotError, ConnectionLost
from freecell_arena_client.tokens import TokenFile, is_bot_token

log = logging.getLogger("freecell_arena_client")
T = TypeVar("T")

REFUSALS_BEFORE_GIVING_UP = 3
MOVE_REFUSALS = (ErrorCode.illegal_move, ErrorCode.bad_notation)
GAME_ENDED = (ErrorCode.game_not_running, ErrorCode.no_game)


@dataclass
class NewRoom:
    """The room to create when the bot hosts: a variant, optionally a seed or a deal number, the options."""

    variant: str
    seed: int | None = None
    deal: int | None = None
    options: RoomOptions = field(default_factory=RoomOptions)


HELLO_AGAIN = frozenset({ErrorCode.storage_failed, ErrorCode.shutting_down, ErrorCode.internal_error})
"""Answers to a hello that say "not now" rather than "no": the server cannot reach its database for the moment, is
shutting down (another process, or its restart, takes the bot), or failed. The runner says hello again with the
reconnect's backoff, as after a lost connection, and gives up after `Reconnect.give_up_after_s` of them."""


@dataclass
class Reconnect:
    """Backoff between attempts: `first_delay_s`, doubling up to `max_delay_s` (with jitter); the runner gives
    up after `give_up_after_s` of attempts failing in a row."""

    first_delay_s: float = 0.25
    max_delay_s: float = 5.0
    give_up_after_s: float = 60.0

    def delay(self, attempt: int) -> float:
        delay: float = min(self.max_delay_s, self.first_delay_s * 2 ** max(0, attempt - 1))
        return delay * random.uniform(0.5, 1.0)

    def restart_delay(self) -> float:
        """After a 1012 close (the server process is stopping, and another takes the game): at once, but a random
        0 to `first_delay_s`, so that a process's bots do not all come back in the same instant."""
        return random.uniform(0.0, self.first_delay_s)


@dataclass
class RunConfig:
    server: str
    name: str = "bot"
    room: str | None = None
    """Join the room with this code (as a player)."""
    create: NewRoom | None = None
    """Or create this room and host it."""
    daily: str | None = None
    """Or play today's daily deal of this variant (no room: the clock starts when the deal is sent)."""
    players: int = 1
    """Host: start the race once this many players (the host included) sit in the room."""
    start_timeout_s: float = 300.0
    token: str | None = None
    token_file: Path | None = None
    """Keep the identity's token here (and read it back), so a restarted bot resumes its game."""
    max_moves: int | None = None
    """Resign once this many moves are played (a bot that might never finish, like the random one)."""
    max_rate_per_s: float | None = 25.0
    """Pace requests under the server's per-connection rate limit (None: as fast as the server answers)."""
    request_timeout_s: float = 30.0
    wait_for_race_over: bool = True
    """After the bot's game ends, wait for the whole race's standings."""
    reconnect: Reconnect = field(default_factory=Reconnect)

    def __post_init__(self) -> None:
        if sum(choice is not None for choice in (self.room, self.create, self.daily)) != 1:
            raise ValueError("give one of: a room code to join, a room to create, a daily to play")
        if self.players < 1:
            raise ValueError("a race needs at least one player")


@dataclass
class RaceResult:
    room_code: str | None
    """None for a daily game."""
    player_id: str
    game_id: str | None
    outcome: str | None
    """won, resigned, stuck, timeout (None: the race ended without a game for this bot)."""
    player_moves: int
    time_ms: int | None
    standings: list[Standing] | None
    """The final standings (None when the race ended while the bot was away, or it did not wait)."""
    reconnects: int
    daily: DailyStartedMessage | None = None
    """A daily game: its day, whether it was ranked, the par."""

    @property
    def won(self) -> bool:
        return self.outcome == "won"

    @property
    def rank(self) -> int | None:
        for row in self.standings or ():
            if row.player_id == self.player_id:
                return row.rank
        return None


class RaceNotStarted(ArenaClientError):
    """The race did not start in time (the host waited for players who did not come, or no host started it)."""


class BotRunner:
    """Plays one race for `bot`; `on_room` is called with the room once the bot sits in it (e.g. to share the
    code of a created room)."""

    def __init__(self, bot: Bot, config: RunConfig, *, on_room: Callable[[RoomView], None] | None = None) -> None:
        self.bot = bot
        self.config = config
        self.on_room = on_room
        self.token_file = TokenFile(config.token_file) if config.token_file else None
        self.token = config.token
        self.player_id: str | None = None
        self.code: str | None = config.room
        self.room: RoomView | None = None
        self.game: GameView | None = None
        self.board: Board | None = None
        self.view: dict[str, Any] = {}
        """The last player view from the server: each `move_accepted` carries only its changes to it."""
        self.player_moves = 0
        self.time_ms: int | None = None
        self.outcome: str | None = None
        self.game_over: GameOverMessage | None = None
        self.race_over: RaceOverMessage | None = None
        self.daily: DailyStartedMessage | None = None
        self.reconnects = 0
        self._announced = False

    # ------------------------------------------------------------------ connections

    async def run(self) -> RaceResult:
        """Play until the race is over; reconnect (with backoff) whenever the connection is lost."""
        return await self._reconnecting(self._session)

    async def _reconnecting(self, session: Callable[[ArenaClient], Awaitable[T]]) -> T:
        """`session`'s answer on a new connection, and on another whenever that one is lost (with the backoff of
        `RunConfig.reconnect`, giving up after `give_up_after_s` of failed attempts in a row). `session` picks up
        from what the runner knows and the server's resumed state: it is called once for each connection."""
        loop = asyncio.get_running_loop()
        failing_since: float | None = None
        unstored_since: float | None = None  # the first of the requests in a row the store could not take,
        unstored_at_moves = 0  # with no move played since
        attempt = 0
        while True:
            try:
                client = await self._connect()
            except (ConnectionLost, ArenaError) as error:
                if isinstance(error, ArenaError) and error.code not in HELLO_AGAIN:
                    raise
                failing_since = failing_since if failing_since is not None else loop.time()
                waited = loop.time() - failing_since
                if waited >= self.config.reconnect.give_up_after_s:
                    raise ConnectionLost(f"{error}; gave up after {waited:.0f} s of attempts") from error
                attempt += 1
                log.info("%s; retrying", error)
                await asyncio.sleep(self.config.reconnect.delay(attempt))
                continue
            try:
                return await session(client)
            except ArenaError as error:
                if error.code == ErrorCode.shutting_down:
                    # a request that reached the process as it began to stop (nothing was done): the 1012 close
                    # follows; go to another process at once rather than wait for it
                    await self._pause_before_reconnecting(ConnectionLost(str(error), CLOSE_SERVICE_RESTART))
                elif error.code == ErrorCode.storage_failed:
                    # the database could not take it (nothing was done): as a hello answered so, again after the
                    # backoff on a new connection, which resumes from the stored state; given up in the end
                    if unstored_since is None or self.player_moves != unstored_at_moves:  # a new run of them
                        unstored_since, unstored_at_moves = loop.time(), self.player_moves
                    if loop.time() - unstored_since >= self.config.reconnect.give_up_after_s:
                        raise
                    await self._pause_before_reconnecting(ConnectionLost(str(error)))
                else:
                    raise
            except (ConnectionLost, TimeoutError) as error:
                if isinstance(error, ConnectionLost) and error.code == CLOSE_REPLACED:
                    raise ConnectionLost("another connection took over this player's identity", error.code) from error
                if isinstance(error, ConnectionLost) and error.code == CLOSE_REVOKED:
                    raise ConnectionLost("this bot's token was revoked", error.code) from error
                await self._pause_before_reconnecting(error)
            finally:
                await client.close()
            failing_since, attempt = loop.time(), 1

    async def _pause_before_reconnecting(self, lost: ConnectionLost | TimeoutError) -> None:
        """At once (a random 0-250 ms) when the server is restarting, else the backoff's first delay."""
        self.reconnects += 1
        reconnect = self.config.reconnect
        if isinstance(lost, ConnectionLost) and lost.code == CLOSE_SERVICE_RESTART:
            log.info("the server is restarting; reconnecting at once")
            await asyncio.sleep(reconnect.restart_delay())
        else:
            log.warning("connection lost (%s); reconnecting", lost or "no reply in time")
            await asyncio.sleep(reconnect.delay(1))

    async def _connect(self) -> ArenaClient:
        config = self.config
        client = await ArenaClient.open(
            config.server, request_timeout_s=config.request_timeout_s, max_rate_per_s=config.max_rate_per_s
        )
        try:
            token = self.token or (self.token_file.load(config.server) if self.token_file else None)
            try:
                welcome = await client.hello(config.name, token=token, bot=True)
            except ArenaError as error:
                if error.code != ErrorCode.unknown_token or self.game is not None or is_bot_token(token):
                    raise  # a bot account's token refused (revoked, unknown) is never swapped for a new player
                log.warning("the server does not know the saved token; playing as a new player")
                welcome = await client.hello(config.name, bot=True)
        except BaseException:
            await client.close()
            raise
        self.token = welcome.token
        self.player_id = welcome.player_id
        if self.token_file is not None:
            self.token_file.save(config.server, welcome.token, welcome.player_id)
        return client

    # ------------------------------------------------------------------ one connection's life

    async def _session(self, client: ArenaClient) -> RaceResult:
        assert client.welcome is not None
        if client.welcome.resumed:
            self._adopt(await client.wait_for(GameStateMessage, self.config.request_timeout_s))
        if self.outcome is None and self.config.daily is not None:
            await self._enter_daily(client, self.config.daily)
        elif self.outcome is None:
            await self._enter_room(client)
            await self._wait_for_start(client)
        if self.outcome is None:
            await self._play(client)
        return await self._finish(client)

    async def _enter_daily(self, client: ArenaClient, variant: str) -> None:
        """Start today's game. After a reconnect the game is the one the resumed state named; if that state did
        not name it, ask again: `play_daily` returns a game that still runs, but starts a new, unranked one after
        a finish, which this runner must never do behind the bot's back."""
        if self.game is None:
            self.daily = await client.play_daily(variant)
            self._start_game(self.daily.game)
            return
        self._adopt(await client.get_state())
        if self.outcome is None and (self.board is None or self.game.status != "playing"):
            raise ArenaClientError(f"the daily game {self.game.game_id} is no longer this player's game")

    async def _enter_room(self, client: ArenaClient) -> None:
        if self.room is not None and self.room.code == self.code and self._sits_in(self.room):
            return
        reply = None
        if self.code is not None:  # also a seat given up when the connection dropped in the lobby
            try:
                reply = await client.join_room(self.code)
            except ArenaError as error:
                # the bot's own lobby emptied and vanished while it was away: host a new one
                if error.code != ErrorCode.unknown_room or self.config.create is None or self.game is not None:
                    raise
                log.warning("room %s is gone; creating a new one", self.code)
                self._announced = False
        if reply is None:
            assert self.config.create is not None
            new = self.config.create
            reply = await client.create_room(new.variant, seed=new.seed, deal=new.deal, options=new.options)
        self.code = reply.room.code
        self.room = reply.room
        if not self._announced and self.on_room is not None:
            self.on_room(reply.room)
        self._announced = True

    async def _wait_for_start(self, client: ArenaClient) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.config.start_timeout_s
        start_sent = False
        while self.game is None:
            room = self.room
            assert room is not None
            if not start_sent and room.status == "lobby" and room.host_id == self.player_id:
                seated = sum(1 for member in room.members if member.role == "player")
                if seated >= self.config.players:
                    await client.start_race()
                    start_sent = True
            remaining = deadline - loop.time()
            try:
                if remaining <= 0:
                    raise TimeoutError
                event = await client.next_event(remaining)
            except TimeoutError:
                seated = sum(1 for member in room.members if member.role == "player")
                raise RaceNotStarted(
                    f"room {room.code}: the race did not start within {self.config.start_timeout_s:g} s "
                    f"({seated} of {self.config.players} players seated, status {room.status})"
                ) from None
            self._observe(event)

    async def _play(self, client: ArenaClient) -> None:
        refusals = 0
        while self.outcome is None:
            for event in client.pending_events():
                self._observe(event)
            if self.outcome is not None or self.race_over is not None:
                break
            assert self.game is not None and self.board is not None
            if self.config.max_moves is not None and self.player_moves >= self.config.max_moves:
                log.info("resigning: the move cap of %d is reached", self.config.max_moves)
                await self._resign(client)
                break
            choice = await self._choose(client, self.board.copy(stack=False))
            if choice is None:
                await self._resign(client)
                break
            try:
                accepted = await client.move(choice, game_id=self.game.game_id)
            except ArenaError as error:
                if error.code in GAME_ENDED:  # the time limit passed: game_over says how it ended
                    await self._await_game_over(client)
                    break
                if error.code not in MOVE_REFUSALS:
                    raise
                refusals += 1
                log.warning("the server refused the bot's move %r: %s", choice, error)
                if refusals >= REFUSALS_BEFORE_GIVING_UP:
                    await self._resign(client)
                    raise BotError(f"the server refused {refusals} moves in a row; last: {error}") from error
                self._adopt(await client.get_state())  # play on the server's board, whatever we believed
                continue
            refusals = 0
            self.view = apply_view_changes(self.view, accepted.changes)
            self.board = board_from_view(self.board.variant, self.view, seed=self.board.seed)
            self.player_moves = accepted.player_moves
            self.time_ms = accepted.time_ms
            if accepted.status != "playing":
                await self._await_game_over(client)

    async def _choose(self, client: ArenaClient, board: Board) -> Move | str | None:
        """Ask the bot in a worker thread, so pings and events keep flowing while it thinks."""
        try:
            choice = await asyncio.to_thread(self.bot.choose_move, board)
        except Exception as error:
            log.exception("the bot raised")
            await self._resign(client)
            raise BotError(f"the bot raised {type(error).__name__}: {error}") from error
        if choice is not None and not isinstance(choice, str | tuple):
            await self._resign(client)
            raise BotError(f"choose_move must return a Move, notation text or None, not {type(choice).__name__}")
        return choice

    async def _resign(self, client: ArenaClient) -> None:
        assert self.game is not None
        try:
            self._observe(await client.resign(game_id=self.game.game_id))
        except ArenaError as error:
            if error.code not in GAME_ENDED:
                raise
            await self._await_game_over(client)

    async def _await_game_over(self, client: ArenaClient) -> None:
        while self.outcome is None:
            self._observe(await client.next_event(self.config.request_timeout_s))

    async def _finish(self, client: ArenaClient) -> RaceResult:
        if self.config.wait_for_race_over and self.config.daily is None:
            while self.race_over is None and not (self.room is not None and self.room.status == "finished"):
                self._observe(await client.next_event())
        return self._result()

    def _result(self) -> RaceResult:
        """The race as the runner saw it end (no standings when it ended while the bot was away)."""
        assert self.player_id is not None
        return RaceResult(
            room_code=self.code,
            player_id=self.player_id,
            game_id=self.game.game_id if self.game else None,
            outcome=self.outcome,
            player_moves=self.player_moves,
            time_ms=self.time_ms,
            standings=self.race_over.standings if self.race_over else None,
            reconnects=self.reconnects,
            daily=self.daily,
        )

    # ------------------------------------------------------------------ what the server says

    def _observe(self, event: ServerMessage) -> None:
        if isinstance(event, RoomMessage):
            if event.room.code == self.code:
                self.room = event.room
        elif isinstance(event, MemberJoinedMessage | MemberLeftMessage | MemberConnectionMessage):
            if self.room is not None and event.code == self.room.code:
                self.room = apply_membership(self.room, event)
        elif isinstance(event, RaceStartedMessage):
            if event.code == self.code:
                self._start_game(event.game)
        elif isinstance(event, GameOverMessage):
            if self.game is not None and event.game_id == self.game.game_id and self.game_over is None:
                self.game_over = event
                self.outcome = event.outcome
                self.player_moves = event.player_moves
                self.time_ms = event.time_ms
                self.bot.on_game_over(event)
        elif isinstance(event, RaceOverMessage):
            if event.code == self.code and self.race_over is None:
                self.race_over = event
                self.bot.on_race_over(event)
        elif isinstance(event, GameStateMessage):
            self._adopt(event)
        elif isinstance(event, ErrorMessage):
            log.warning("the server reported: %s: %s", event.code, event.message)

    def _adopt(self, state: GameStateMessage) -> None:
        """Take the server's word for where this player is: after a resumed hello, or after a refusal."""
        room, game = state.room, state.game
        running_elsewhere = self.code is None and game is not None and game.status == "playing"
        if room is not None and (
            room.code == self.code or (running_elsewhere and game is not None and game.room_code == room.code)
        ):
            self.code = room.code
            self.room = room
        elif room is None or room.code != self.code:
            self.room = None  # the seat was given up (a lobby left by a dropped connection)
        if game is not None and game.room_code is not None and game.room_code == self.code:
            self._start_game(game)
        elif game is not None and game.room_code is None and game.variant == self.config.daily:
            ours = self.game is not None and self.game.game_id == game.game_id
            if ours or game.status == "playing":  # not a finished attempt of an earlier run: that one is over
                self._start_game(game)

    def _start_game(self, game: GameView) -> None:
        variant = variant_by_id(game.variant)
        self.game = game
        self.view = dict(game.view)
        self.board = board_from_view(variant, game.view, seed=UNKNOWN_SEED if game.seed is None else game.seed)
        self.player_moves = game.player_moves
        self.time_ms = game.time_ms
        if game.status != "playing" and self.outcome is None:
            self.outcome = game.status
        self.bot.on_game_start(game)

    def _sits_in(self, room: RoomView) -> bool:
        return any(member.player_id == self.player_id for member in room.members)


async def run_bot(bot: Bot, server: str, **settings: object) -> RaceResult:
    """Play one race: `await run_bot(MyBot(), "ws://127.0.0.1:8765/", room="ABCD2345")` (see `RunConfig`)."""
    return await BotRunner(bot, RunConfig(server=server, **settings)).run()  # type: ignore[arg-type]  # keyword settings pass through to the RunConfig dataclass as given


def apply_membership(room: RoomView, event: MemberJoinedMessage | MemberLeftMessage | MemberConnectionMessage
                     ) -> RoomView:  # fmt: skip
    """The room after a small membership event (protocol 3 sends these instead of the whole room)."""
    if isinstance(event, MemberJoinedMessage):
        members = [member for member in room.members if member.player_id != event.member.player_id]
        return room.model_copy(update={"members": [*members, event.member]})
    if isinstance(event, MemberLeftMessage):
        members = [member for member in room.members if member.player_id != event.player_id]
        return room.model_copy(update={"members": members, "host_id": event.host_id})
    members = [member.model_copy(update={"connected": event.connected}) if member.player_id == event.player_id
               else member for member in room.members]  # fmt: skip
    return room.model_copy(update={"members": members})

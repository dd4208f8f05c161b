"""The server process: websockets on one port (game protocol, `GET /healthz`, the JSON API under `/api/`, the
browser app at `/`), the arena, the writer, and the daily challenge's background work.

This module is net's composition root: it builds the arena and hands its parts to the rest of net as the
protocols of `core.seams`; the work is done by `EffectRunner` (net/effects.py: store, then send),
`ConnectionHolder` (net/connections.py), `HttpFront` (net/http_front.py) and each `Connection`.

The path of one move: a connection's reader decodes the frame, core validates and applies it and returns
an `Effect`; the effect runner hands its records to the group-commit writer (one transaction for the moves of
many players every few milliseconds) and, only once they are durable, queues the replies and publishes the
room events (memory adopts the effect's changes first). If the write fails, memory adopts nothing and the player
gets `storage_failed`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from freecell_arena.core.accounts.steps import Revocation
from freecell_arena.core.arena import Arena
from freecell_arena.core.clock import Clock, SystemClock
from freecell_arena.core.competition.quick_race import QuickRaceRules
from freecell_arena.core.effects import Effect, Refusal
from freecell_arena.core.events import InProcessPublisher
from freecell_arena.core.live.races import RaceFinish
from freecell_arena.core.ports.records import RecordWriter, ResultRecord, RoomStatusRecord
from freecell_arena.core.seams import NextRooms, Sessions, SharedRooms, StoredCopies
from freecell_arena.core.server_store import ServerStore
from freecell_arena.net.account_requests import AccountRequests
from freecell_arena.net.accounts import AccountService
from freecell_arena.net.background import BackgroundTasks, cancel_quietly, every
from freecell_arena.net.coalesce import CoalescingPublisher
from freecell_arena.net.compression import extensions, plain_below
from freecell_arena.net.connection import Connection, ConnectionDeps
from freecell_arena.net.connections import ConnectionHolder
from freecell_arena.net.daily_service import LOADS_FOR, DailyService
from freecell_arena.net.effects import AfterStored, EffectRunner
from freecell_arena.net.game_socket import GameListener, GameSocket, SocketTerms
from freecell_arena.net.house_bots import HouseBots
from freecell_arena.net.http_api import HttpApi
from freecell_arena.net.http_front import HttpFront, ProcessStatus
from freecell_arena.net.metrics import ServerMetrics
from freecell_arena.net.moderation import (
    CLOSE_BANNED,
    MODERATION_TYPES,
    Enforcer,
    LogFollower,
    ModerationRequests,
    WinScreen,
)
from freecell_arena.net.next_rooms import NEXT_ROOM_REQUESTS, prepare_next_room
from freecell_arena.net.par_service import ParService
from freecell_arena.net.queries import QUERY_TYPES, Queries
from freecell_arena.net.race_end import RaceEndService
from freecell_arena.net.ratelimit import PerAddress
from freecell_arena.net.rating_sweep import RatingSweeper
from freecell_arena.net.restore import RESTORES_FOR, adopt_room, restore_for
from freecell_arena.net.throttled_log import ThrottledLog, one_line
from freecell_arena.net.tournaments import TOURNAMENT_QUERIES, TOURNAMENT_REQUESTS, TournamentService
from freecell_arena.net.watch import ConnectionWatch, watch_period
from freecell_arena.net.web import WebApp
from freecell_arena.protocol.play import ReplayRequest
from freecell_arena.protocol.session import CloseCode
from freecell_arena.protocol.wire import Message
from freecell_arena.settings import Settings

if TYPE_CHECKING:
    from freecell_arena.net.cluster import ClusterBridge, ClusterPublisher

log = logging.getLogger(__name__)

PREPARED_TYPES = frozenset((*QUERY_TYPES, *LOADS_FOR, *RESTORES_FOR, *NEXT_ROOM_REQUESTS, *TOURNAMENT_REQUESTS,
                            *TOURNAMENT_QUERIES, *MODERATION_TYPES))  # fmt: skip
"""Requests that `answer_or_prepare` answers or loads something for; every other one (a move above all) goes
straight to core, without a further await on its path."""

CLOSE_TIMEOUT_S = 2.0
"""How long a closing connection's client has to close its end before the server aborts it."""
SWEEP_INTERVAL_S = 60.0
"""How often expired passkey challenges (nobody answered) leave the database, and idle attempt counts memory."""


class ArenaServer:
    def __init__(self, settings: Settings, store: ServerStore, writer: RecordWriter, clock: Clock | None = None) -> (
        None
    ):
        self.settings = settings
        self.store = store
        self.writer = writer
        self.clock = clock or SystemClock()
        self.draining = asyncio.Event()
        """Set once a shutdown begins: `/readyz` answers 503 (the balancer sends nothing new) while the process serves
        on for `drain_grace_s`."""
        self.stopping = asyncio.Event()
        """Set once the grace is over: what the connections and the HTTP answers ask (`is_set`, not a call into
        this module on every request)."""
        quick = QuickRaceRules(
            settings.quick_race.min_players, settings.quick_race.max_players, settings.quick_race.wait_s
        )
        rooms = settings.rooms
        self.arena = Arena(self.clock, rooms.max_spectators, shared=settings.cluster.redis_url is not None, quick=quick,
                           return_grace=timedelta(seconds=rooms.lobby_return_grace_s))  # fmt: skip
        self.daily = DailyService(settings, store, self.arena.dailies, self.clock)
        self.pars = ParService(store.pars, self.clock, settings.par.budget_s, settings.par.solver_nodes)
        house_bots = HouseBots(store, self.clock, self.arena.room_code_of, self.loopback_url,
                               after_s=settings.house_bot.after_s if settings.house_bot.enabled else None,
                               moves_per_s=settings.house_bot.moves_per_s)  # fmt: skip
        self.queries = Queries(
            store, self.clock, self.daily, self.pars,
            lambda: settings.process.public_url or f"http://localhost:{self.port}", house_bots,
        )  # fmt: skip
        self.tournaments = TournamentService(settings, store, self.arena.tournaments, self.arena.rebuild, self.clock,
                                             self.daily.secret, self.run_timer_effect)  # fmt: skip
        self.queries.tournaments = self.tournaments
        self.cluster: ClusterBridge | None = None
        shared: InProcessPublisher | ClusterPublisher = InProcessPublisher()
        if settings.cluster.redis_url is not None:  # processes share rooms: their events cross through Redis
            from freecell_arena.net.cluster import ClusterBridge, ClusterDeps

            deps = ClusterDeps(rooms=self.arena.replica, store=store, run_timer_effect=self.run_timer_effect,
                               drop_connection=self.drop_connection, close_tokens=self.close_tokens)  # fmt: skip
            self.cluster = ClusterBridge(deps, settings.cluster.redis_url)
            shared = self.cluster.publisher
        self.publisher = CoalescingPublisher(shared, settings.rooms.progress_window_ms / 1000)
        self._background = BackgroundTasks()
        self.holder = ConnectionHolder(self._background.spawn)
        service = AccountService(store.accounts, settings.process.relying_party(), self.clock)
        self.accounts = AccountRequests(service, store)
        self.connections = self.holder.by_player
        connection = settings.connection
        self.limits = PerAddress(connection.max_connections_per_address, connection.new_players_per_minute)
        self.metrics = ServerMetrics(self.arena.rooms_by_status, self.connection_count,
                                     lambda: self.cluster.resyncs if self.cluster is not None else 0)  # fmt: skip
        writer.on_commit = self.metrics.observe_commit
        enforcer = Enforcer(banned=self.banned, renamed=self.arena.rename)
        self.moderation = ModerationRequests(store.moderation, store.ratings, self.pars, self.clock, enforcer)
        self.follower = LogFollower(store.moderation, enforcer, self.moderation.consoles)
        self.win_screen = WinScreen(store.moderation, self.clock)
        # what waits for a kind of record once it is durable: nothing for a move
        after_stored: AfterStored = {RoomStatusRecord: self.metrics.room_status_stored,
                                     ResultRecord: self.win_screen.result_stored}  # fmt: skip
        self.runner = EffectRunner(writer, self.publisher, after_stored)
        self.runner.rereader = self.cluster
        self.sessions: Sessions = self.arena
        self.execute = self.runner.execute
        self.race_end = RaceEndService(store.ratings, self.pars, self.publisher, par_at_end=settings.par.at_race_end)
        self.rating_sweep = RatingSweeper(store.ratings, self.publisher, self.clock, settings.ratings.sweep_interval_s)
        web = WebApp.load(Path(settings.process.web_root) if settings.process.web_root else None)
        api = HttpApi(self.queries, self.stopping.is_set, clock=lambda: self.clock.now().timestamp())
        status = ProcessStatus(shutting_down=self.stopping.is_set, draining=self.draining.is_set,
                               rooms_held=self.rooms_held, connections=self.connection_count)  # fmt: skip
        self.http = HttpFront(settings, store, writer, self.metrics, web, api, status)
        self.tick_failures = ThrottledLog(log)
        self.listener = GameListener(SocketTerms(
            answer_http=self.http.process_request, handle=self._handle,
            extensions=extensions(connection.compression, connection.compression_min_bytes),  # net/compression.py
            plain_below=plain_below(connection.compression, connection.compression_min_bytes),
            max_size=connection.limits.max_frame_bytes,  # beyond, websockets closes (1009): FRAME_SIZE_FACTOR
            trusted=tuple(settings.process.trusted_proxy_networks),  # the client behind a balancer: client_address.py
            close_timeout_s=CLOSE_TIMEOUT_S,
        ))  # fmt: skip
        self._ticker: asyncio.Task[None] | None = None
        self._loop_lag: asyncio.Task[None] | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self.watch = ConnectionWatch(watch_period(
            connection.hello_timeout_s, connection.idle_timeout_s, connection.ping_interval_s, connection.ping_timeout_s
        ))  # fmt: skip
        self.connection_deps = ConnectionDeps(
            settings=settings, sessions=self.arena, copies=self.arena.rebuild, store=store, publisher=self.publisher,
            effects=self.runner, metrics=self.metrics, watch=self.watch, limits=self.limits, accounts=self.accounts,
            roster=self.holder, consoles=self.moderation.consoles, prepared_types=PREPARED_TYPES,
            answer_or_prepare=self.answer_or_prepare, bans=self.moderation.on_hello, take_over=self.take_over,
            resumed=self.resumed, close_revoked=self.close_revoked, shutting_down=self.stopping.is_set,
        )  # fmt: skip
        """What each connection is handed (net/connection.py): the parts it uses, not this server."""

    # ------------------------------------------------------------------ core, as the rest of net sees it

    @property
    def copies(self) -> StoredCopies:
        return self.arena.rebuild

    @property
    def next_rooms(self) -> NextRooms:
        return self.arena

    @property
    def rooms(self) -> SharedRooms:
        return self.arena.replica

    def rooms_held(self) -> int:
        return len(self.arena.rooms)

    def connection_count(self) -> int:
        return len(self.holder)

    # ------------------------------------------------------------------ what a connection asks (`ConnectionDeps`)

    async def run_timer_effect(self, effect: Effect) -> bool:
        """A timer's change (a countdown's end, a race's finish): stored, then sent; a finished race this process
        stored is then rated and its par worked out, in the background (never on a move's path)."""
        stored = bool(await self.execute(effect, None))
        if stored and isinstance(effect, RaceFinish) and effect.race_end is not None:
            self.race_end.ended(effect.race_end)
        return stored

    async def resumed(self, connection: Connection) -> None:
        """A player back (a reloaded page): their finished race's rating changes once more, after the standings
        that came with their state (`Play.race_result`)."""
        race = self.sessions.finished_race(connection.player_id or "")
        if race is not None and (message := await self.race_end.ratings_again(race)) is not None:
            connection.send(message)

    async def answer_or_prepare(self, connection: Connection, request: Message) -> bool:
        """For a request of `PREPARED_TYPES` only. Read-only queries are answered here, outside core: True. For
        the others, load what core cannot wait for (today's daily deal and the player's ranked attempt; a game or
        room this process does not hold; the stored next room of a series or quick race) and return False: core
        handles the request."""
        if type(request) in MODERATION_TYPES:
            try:
                connection.send(await self.moderation.answer(request, connection))
            except Refusal as refusal:
                connection.send(refusal.to_message(getattr(request, "id", None)))
            return True
        if isinstance(request, (*QUERY_TYPES, *TOURNAMENT_QUERIES)):
            answer = self.tournaments.answer if isinstance(request, TOURNAMENT_QUERIES) else self.queries.answer
            try:
                connection.send(await answer(request, connection.player_id))
            except Refusal as refusal:
                connection.send(refusal.to_message(request.id))
            return True
        assert connection.player_id is not None
        await self.tournaments.prepare(request)
        await self.daily.load_for(connection.player_id, request)
        await restore_for(self.copies, self.store, request)
        room_code = self.sessions.room_code_of(connection.player_id)
        await prepare_next_room(self.next_rooms, self.copies, self.store, room_code, request)
        if self.cluster is not None and isinstance(request, ReplayRequest):
            await self.cluster.refresh_game(request.game_id)  # another process may have played it
        return False

    async def take_over(self, player_id: str, connection: Connection) -> None:
        """A player resumed on a new connection: the old one is closed, one seat per identity (in a cluster, on
        every process); what another process played of theirs since this one last saw them is read back."""
        self.holder.drop(player_id, "replaced by a newer connection of the same player", keep=connection)
        if self.cluster is not None:
            self.cluster.took_over(player_id)
            await self.cluster.refresh_player(player_id)

    def drop_connection(self, player_id: str, reason: str) -> None:
        """The player resumed on another process (told by the cluster bridge)."""
        self.holder.drop(player_id, reason)

    def close_revoked(self, revocation: Revocation) -> None:
        """Revoked tokens: their connections close here and, in a cluster, on the process that holds them."""
        player_id = revocation.record.player_id
        self.close_tokens(player_id, revocation.token_hashes)
        if self.cluster is not None and revocation.token_hashes:
            self.cluster.revoked(player_id, revocation.token_hashes)

    def close_tokens(self, player_id: str, token_hashes: list[str]) -> None:
        """Close the player's connection here if it said hello with one of these (revoked) tokens."""
        self.holder.close_tokens(player_id, frozenset(token_hashes))

    def banned(self, player_id: str, public_reason: str) -> None:
        """A moderator banned the player (here, or on another process, or from the command line): their connection
        here closes, and they leave live play here (running game resigned, seat given up: the room goes on)."""
        self.holder.close_player(player_id, CLOSE_BANNED, f"banned: {public_reason}"[:120])
        self._background.spawn(self._remove(player_id))

    async def _remove(self, player_id: str) -> None:
        try:
            effect = await self.runner.when_free(lambda: self.arena.remove_player(player_id))
            await self.runner.execute(effect, None)
        except Exception as error:  # the room goes on; the player's seat is given up when they are forgotten
            self.tick_failures.warning("ban", f"taking a banned player out of play failed: {one_line(error)}")

    def renamed(self, player_id: str, name: str) -> None:
        self.arena.rename(player_id, name)

    async def sweep_accounts(self) -> int:
        """Expired challenges leave the store, idle attempt counts leave memory; how many challenges went."""
        service = self.accounts.service
        service.limiter.sweep()
        return await service.store.forget_expired_challenges(self.clock.now())

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        settings = self.settings
        for stored_room in await self.store.live_rooms():  # before the first tick: their timers fire on it
            await adopt_room(self.copies, self.store, stored_room)
        if self.cluster is not None:
            self.cluster.start()
        await self.listener.start(settings.process.host, settings.process.port, reuse_port=settings.cluster.reuse_port)
        self.accounts.service.rp = settings.process.relying_party(self.port)  # the port bound (settings may say 0)
        # a bug in one room's timers must not stop every other room's
        self._ticker = asyncio.create_task(every(self.settings.process.tick_interval_s, self._tick, self.tick_failures,
                                                 "a tick", bug=True), name="tick")
        self._sweeper = asyncio.create_task(every(SWEEP_INTERVAL_S, self.sweep_accounts, self.tick_failures,
                                                  "sweeping expired passkey challenges"), name="account-sweep")
        self.watch.start()
        self._loop_lag = asyncio.create_task(self.metrics.watch_loop_lag())
        self.daily.start()
        self.tournaments.start()
        await self.follower.start()
        self.rating_sweep.start()  # races a process left unrated (it died before rating them), in the background

    @property
    def shutting_down(self) -> bool:
        return self.stopping.is_set()

    @shutting_down.setter
    def shutting_down(self, stopping: bool) -> None:
        if stopping:
            self.stopping.set()
        else:
            self.stopping.clear()

    @property
    def port(self) -> int:
        return self.listener.port

    def loopback_url(self) -> str:
        """This process's own websocket address, for the house bot (net/house_bots.py) it sends to a player."""
        host = self.settings.process.host
        host = "127.0.0.1" if host in ("", "0.0.0.0") else "[::1]" if host == "::" else host
        return f"ws://{host}:{self.port}/"

    def _handle(self, websocket: GameSocket) -> Coroutine[Any, Any, None] | None:
        """An open connection's life (its task's coroutine, nothing of this module's around it), or None when its
        address holds its share already (the connection is closed)."""
        connection = Connection(self.connection_deps, websocket)
        return connection.run() if connection.admitted() else None

    async def _tick(self) -> None:
        """The rooms' timers (countdowns, time limits, closing): each effect due is stored on its own."""
        for effect in self.arena.tick():
            self._background.spawn(self.run_timer_effect(effect))
        if self.cluster is not None:
            self.cluster.settle_due()
            self.cluster.call_rolls()

    async def shutdown(self) -> None:
        """SIGTERM: drain (`/readyz` fails at once; serve on for `drain_grace_s`, so the balancer takes the process
        out before it refuses anything), then stop accepting, flush pending writes, and close every connection with
        1012: its players reconnect at once, to whichever process the balancer picks, which takes their rooms from
        the store. All of it within `shutdown_timeout_s`."""
        process = self.settings.process
        self.draining.set()
        if self.settings.cluster.reuse_port:
            # one of several listeners on a shared port (`serve --workers`): the kernel hands new connections to
            # the others once this one stops listening; no balancer has to notice first
            self.listener.stop_accepting()
        if process.drain_grace_s > 0:
            await asyncio.sleep(process.drain_grace_s)
        self.stopping.set()
        self.listener.stop_accepting()
        await self.pars.close()  # first: a review waiting for a solve is answered (par unknown), not waited for
        await self.queries.close()  # so is a hint (refused), and the house bots stop
        await cancel_quietly(self._ticker)
        await cancel_quietly(self._sweeper)
        await self.watch.close()
        await cancel_quietly(self._loop_lag)
        await self.rating_sweep.close()
        await self.follower.close()
        await self.win_screen.close()
        await self.daily.close()
        await self.tournaments.close()
        self.publisher.close()
        if self.cluster is not None:
            await self.cluster.close()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(process.shutdown_timeout_s - process.drain_grace_s):
                await self._background.settle()
                await self.writer.flush()
                await self.race_end.close()
                await self.holder.close_all(CloseCode.service_restart, "server restarting")
                await self.listener.close(CloseCode.service_restart, "server restarting")
        await self.writer.close()
        await self.store.close()

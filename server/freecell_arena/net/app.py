"""The server process: websockets on one port (game protocol, `GET /healthz`, the JSON API under `/api/`, the
browser app at `/`), the arena, the writer, and the daily challenge's background work.

The path of one move: a connection's reader decodes the frame, core validates and applies it and returns
an `Effect`; `execute` hands its records to the group-commit writer (one transaction for the moves of many
players every few milliseconds) and, only once they are durable, queues the replies and publishes the room
events. If the write fails, the effect's rollback restores memory and the player gets `storage_failed`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
from collections.abc import Sequence
from http import HTTPStatus
from pathlib import Path
from typing import TYPE_CHECKING, Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.http11 import Request, Response

from freecell_arena.core.arena import Arena
from freecell_arena.core.clock import Clock, SystemClock
from freecell_arena.core.effects import Effect, Refusal
from freecell_arena.core.events import InProcessPublisher
from freecell_arena.core.ports import Record, changes_room
from freecell_arena.core.reads import ServerStore
from freecell_arena.net.client_address import connection_class
from freecell_arena.net.coalesce import CoalescingPublisher
from freecell_arena.net.connection import CLOSE_GOING_AWAY, CLOSE_POLICY, CLOSE_REPLACED, Connection, client_address
from freecell_arena.net.daily_service import LOADS_FOR, DailyService
from freecell_arena.net.http_api import HttpApi, method_not_allowed, response
from freecell_arena.net.metrics import CONTENT_TYPE as METRICS_CONTENT_TYPE
from freecell_arena.net.metrics import ServerMetrics, cancel_quietly
from freecell_arena.net.queries import QUERY_TYPES, Queries
from freecell_arena.net.ratelimit import PerAddress
from freecell_arena.net.restore import RESTORES_FOR, adopt_room, restore_for
from freecell_arena.net.throttled_log import ThrottledLog, one_line
from freecell_arena.net.web import WebApp
from freecell_arena.protocol.messages import ErrorCode, ErrorMessage, Message, ReplayRequest, RequestId
from freecell_arena.settings import Settings
from freecell_arena.store.errors import RecordRefusedError

if TYPE_CHECKING:
    from freecell_arena.net.cluster import ClusterBridge, ClusterPublisher

log = logging.getLogger(__name__)

PREPARED_TYPES = frozenset((*QUERY_TYPES, *LOADS_FOR, *RESTORES_FOR))
"""Requests that `answer_or_prepare` answers or loads something for; every other one (a move above all) goes
straight to core, without a further await on its path."""

HARD_SIZE_FACTOR = 4  # frames up to 4x the soft limit get an error reply; beyond, websockets closes (1009)


class ArenaServer:
    prepared_types = PREPARED_TYPES

    def __init__(self, settings: Settings, store: ServerStore, writer: Any, clock: Clock | None = None) -> None:
        self.settings = settings
        self.store = store
        self.writer = writer
        self.clock = clock or SystemClock()
        self.arena = Arena(self.clock, settings.max_spectators)
        self.daily = DailyService(settings, store, self.arena, self.clock)
        self.queries = Queries(store, self.clock, self.daily)
        self.http_api = HttpApi(self.queries, lambda: self.shutting_down)
        self.web = WebApp.load(Path(settings.web_root) if settings.web_root else None)
        self.cluster: ClusterBridge | None = None
        shared: InProcessPublisher | ClusterPublisher = InProcessPublisher()
        if settings.redis_url is not None:  # processes share rooms: their events cross through Redis
            from freecell_arena.net.cluster import ClusterBridge

            self.cluster = ClusterBridge(self, settings.redis_url)
            shared = self.cluster.publisher
        self.publisher = CoalescingPublisher(shared, settings.progress_window_ms / 1000)
        self.connections: dict[str, Connection] = {}
        self.limits = PerAddress(settings.max_connections_per_address, settings.new_players_per_minute)
        self.metrics = ServerMetrics(self.arena.rooms_by_status, lambda: len(self.connections),
                                     lambda: self.cluster.resyncs if self.cluster is not None else 0)  # fmt: skip
        if hasattr(writer, "on_commit"):
            writer.on_commit = self.metrics.observe_commit
        self.shutting_down = False
        self.write_failures = ThrottledLog(log)
        self.tick_failures = ThrottledLog(log)
        self.limit_log = ThrottledLog(log)  # refusals by the per-address limits, naming an address
        self._server: Server | None = None
        self._ticker: asyncio.Task[None] | None = None
        self._loop_lag: asyncio.Task[None] | None = None
        self._background: set[asyncio.Task[Any]] = set()

    # ------------------------------------------------------------------ the path of every request

    async def persist(self, records: Sequence[Record]) -> None:
        """Durable before return: one atomic submission to the group-commit writer (in order, never split)."""
        if records:
            await self.writer.submit_many(list(records))

    async def execute(
        self, effect: Effect, connection: Connection | None, request_id: RequestId = None, *, may_retry: bool = False
    ) -> bool | None:
        """Store the effect's records, then send its replies and publications: True. False when the store refused
        (memory rolled back, the requester told). None, only with `may_retry`, when another process changed the
        room first: this process's copy has been re-read, and the request should be handled again."""
        try:
            await self.persist(effect.records)
        except Exception as error:
            if effect.rollback is not None:
                effect.rollback()
            if self.cluster is not None and isinstance(error, RecordRefusedError):
                await self.cluster.after_refusal(effect.records)  # another process changed it first: read it back
                if any(map(changes_room, effect.records)):
                    if may_retry:
                        return None
                    if connection is None:  # a timer's change another process made first: a cluster's normal race
                        log.info("another process changed room first, this copy re-read it: %s", one_line(error))
                        return False
            self.write_failures.warning(type(error).__name__, f"a write failed, nothing changed: {one_line(error)}")
            if connection is not None:
                connection.send(
                    ErrorMessage(
                        id=request_id,
                        code=ErrorCode.storage_failed,
                        message=f"the server could not store this, nothing changed ({type(error).__name__})",
                    )
                )
            return False
        self.metrics.count_records(effect.records)
        direct = connection.begin_replies(effect.replies) if connection is not None else []
        for publication in effect.publications:
            self.publisher.publish(publication.topic, publication.message, publication.skip, publication.version)
        if direct:
            assert connection is not None
            await connection.finish_replies(direct)
        return True

    async def answer_or_prepare(self, connection: Connection, request: Message) -> bool:
        """For a request of `PREPARED_TYPES` only. Read-only queries are answered here, outside core: True. For
        the others, load what core cannot wait for (today's daily deal and the player's ranked attempt; a game or
        room this process does not hold) and return False: core handles the request."""
        if isinstance(request, QUERY_TYPES):
            try:
                connection.send(await self.queries.answer(request, connection.player_id))
            except Refusal as refusal:
                connection.send(refusal.to_message(request.id))
            return True
        assert connection.player_id is not None
        await self.daily.load_for(connection.player_id, request)
        await restore_for(self.arena, self.store, request)
        if self.cluster is not None and isinstance(request, ReplayRequest):
            await self.cluster.refresh_game(request.game_id)  # another process may have played it
        return False

    # ------------------------------------------------------------------ identities and connections

    def player_by_token_hash(self, token_hash: str) -> str | None:
        return self.arena.player_by_token_hash(token_hash)

    def remember_connection(self, connection: Connection) -> None:
        assert connection.player_id is not None
        self.connections[connection.player_id] = connection

    def forget_connection(self, connection: Connection) -> None:
        if connection.player_id and self.connections.get(connection.player_id) is connection:
            del self.connections[connection.player_id]

    async def take_over(self, player_id: str, connection: Connection) -> None:
        """A player resumed on a new connection: the old one is closed, one seat per identity (in a cluster, on
        every process); what another process played of theirs since this one last saw them is read back."""
        self.drop_connection(player_id, "replaced by a newer connection of the same player", keep=connection)
        if self.cluster is not None:
            self.cluster.took_over(player_id)
            await self.cluster.refresh_player(player_id)

    def drop_connection(self, player_id: str, reason: str, keep: Connection | None = None) -> None:
        old = self.connections.get(player_id)
        if old is not None and old is not keep:
            self._spawn(old.close(CLOSE_REPLACED, reason))

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        settings = self.settings
        for stored_room in await self.store.live_rooms():  # before the first tick: their timers fire on it
            await adopt_room(self.arena, self.store, stored_room)
        if self.cluster is not None:
            self.cluster.start()
        self._server = await serve(
            self._handle,
            settings.host,
            settings.port,
            process_request=self._process_request,
            max_size=settings.max_message_bytes * HARD_SIZE_FACTOR,
            compression=None if settings.compression == "none" else "deflate",
            ping_interval=settings.ping_interval_s,
            ping_timeout=settings.ping_timeout_s,
            close_timeout=2,
            reuse_port=settings.reuse_port,
            create_connection=connection_class(settings.trusted_proxy_networks),  # the client behind a balancer
        )
        self._ticker = asyncio.create_task(self._tick_loop())
        self._loop_lag = asyncio.create_task(self.metrics.watch_loop_lag())
        self.daily.start()

    @property
    def port(self) -> int:
        assert self._server is not None
        port: int = self._server.sockets[0].getsockname()[1]
        return port

    async def _handle(self, websocket: ServerConnection) -> None:
        address = client_address(websocket)
        if not self.limits.connect(address):
            self.metrics.limit_refusals["connections_per_address"] += 1
            cap = self.settings.max_connections_per_address
            self.limit_log.warning("connections", f"closed a connection from {address}: it holds {cap} already")
            await websocket.close(CLOSE_POLICY, f"too many connections from your address (at most {cap})")
            return
        try:
            await Connection(self, websocket, address).run()
        finally:
            self.limits.disconnect(address)

    async def _process_request(self, connection: ServerConnection, request: Request) -> Response | None:
        answer = await self._answer_http(request)
        if answer is not None:  # websockets closes the connection after a plain HTTP answer: say so, or a browser
            answer.headers["Connection"] = "close"  # keeps it for its next file, finds it dead and asks again
        return answer

    async def _answer_http(self, request: Request) -> Response | None:
        """A plain HTTP request's answer; None for a websocket handshake (websockets goes on with it)."""
        if request.method != "GET":
            return method_not_allowed(request.method)
        path = request.path.split("?")[0]
        if path == "/metrics":
            self.metrics.ready = await self.not_ready_because() is None
            return response(HTTPStatus.OK, self.metrics.render(), METRICS_CONTENT_TYPE)
        if path == "/healthz":
            return self._health(HTTPStatus.SERVICE_UNAVAILABLE if self.shutting_down else HTTPStatus.OK, None)
        if path == "/readyz":
            reason = await self.not_ready_because()
            return self._health(HTTPStatus.OK if reason is None else HTTPStatus.SERVICE_UNAVAILABLE, reason)
        page = self.web.respond(request)
        if page is not None:
            return page
        return await self.http_api.respond(request)

    def _health(self, status: HTTPStatus, reason: str | None) -> Response:
        body: dict[str, object] = {
            "status": "shutting_down" if self.shutting_down else ("ok" if status == HTTPStatus.OK else "not_ready"),
            "rooms": len(self.arena.rooms),
            "connections": len(self.connections),
            "pid": os.getpid(),
        }
        if reason is not None:
            body["reason"] = reason
        return response(status, (json.dumps(body) + "\n").encode(), "application/json")

    async def not_ready_because(self) -> str | None:
        """Readiness (`GET /readyz`): None when this process can take players, else why not. Liveness
        (`/healthz`) only says the process answers; a load balancer should send players by readiness, so a
        server that cannot store a move (database down, disk full) gets none."""
        if self.shutting_down:
            return "shutting down"
        failed_at = getattr(self.writer, "last_failure_at", None)
        if failed_at is not None and time.monotonic() - failed_at < self.settings.readiness_failure_window_s:
            return "the last write to the database failed"
        try:
            async with asyncio.timeout(self.settings.readiness_timeout_s):
                await self.store.ping()
        except Exception as error:  # any failure to answer is the answer
            return f"the database does not answer ({type(error).__name__})"
        return None

    async def _tick_loop(self) -> None:
        while True:
            await asyncio.sleep(self.settings.tick_interval_s)
            try:
                effects = self.arena.tick()
            except Exception as error:  # a bug in one room's timers must not stop every other room's
                self.tick_failures.exception(type(error).__name__, f"a tick failed: {one_line(error)}")
                continue
            for effect in effects:
                self._spawn(self.execute(effect, None))
            if self.cluster is not None:
                self.cluster.settle_due()

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.ensure_future(coroutine)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def shutdown(self) -> None:
        """SIGTERM: stop accepting, flush pending writes, close every connection with a reason."""
        self.shutting_down = True
        if self._server is not None:
            self._server.close(close_connections=False)
        await cancel_quietly(self._ticker)
        await cancel_quietly(self._loop_lag)
        await self.daily.close()
        self.publisher.close()
        if self.cluster is not None:
            await self.cluster.close()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(self.settings.shutdown_timeout_s):
                if self._background:
                    await asyncio.gather(*self._background, return_exceptions=True)
                await self.writer.flush()
                await asyncio.gather(
                    *(connection.close(CLOSE_GOING_AWAY, "server shutting down") for connection in
                      list(self.connections.values())),
                    return_exceptions=True,
                )
                if self._server is not None:
                    self._server.close(close_connections=True)
                    await self._server.wait_closed()
        await self.writer.close()
        await self.store.close()

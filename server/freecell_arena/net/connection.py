"""One client connection: a reader loop (decode -> core -> commit -> send) and its outbox.

Requests of one connection are handled one at a time: the next frame is read only after the previous
request's records are durable and its replies sent or queued. So nothing of this player runs ahead of a write
that could fail, while the moves of many connections still share one commit.

Frames for a connection go out in the order they were produced, through its `Outbox` (net/outbox.py): published
messages are queued and written on the loop's next turn (a sender task only while the client's socket must
wait), so a publisher never waits for a slow client, and the reader writes the replies to its own request
itself when nothing is queued before them.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from websockets.exceptions import ConnectionClosed

from freecell_arena.core.accounts.steps import Revocation
from freecell_arena.core.effects import Effect, Refusal
from freecell_arena.core.events import Subscriber, player_topic, room_topic
from freecell_arena.core.identity import hash_token
from freecell_arena.core.moderation.sanctions import InForce
from freecell_arena.core.seams import Busy, Sessions, StoredCopies
from freecell_arena.core.server_store import ServerStore
from freecell_arena.net.account_requests import ACCOUNT_TYPES, AccountRequests, RevokedToken
from freecell_arena.net.effects import Replier
from freecell_arena.net.game_socket import GameSocket
from freecell_arena.net.metrics import ServerMetrics
from freecell_arena.net.moderation import CLOSE_BANNED, ban_message
from freecell_arena.net.outbox import Outbox
from freecell_arena.net.ratelimit import PerAddress, TokenBucket
from freecell_arena.net.restore import restore_player
from freecell_arena.net.throttled_log import ThrottledLog, one_line
from freecell_arena.net.watch import ConnectionWatch
from freecell_arena.protocol.codec import decode, request_id_of
from freecell_arena.protocol.errors import ErrorCode, ErrorMessage
from freecell_arena.protocol.moderation import NameReplacedMessage
from freecell_arena.protocol.play import MoveRequest
from freecell_arena.protocol.session import CloseCode, HelloRequest, WelcomeMessage
from freecell_arena.protocol.trusted import Reply
from freecell_arena.protocol.wire import Message, RequestId
from freecell_arena.settings import Settings

log = logging.getLogger(__name__)
failures = ThrottledLog(log)
"""Unexpected failures while handling a frame, logged once per kind and interval for the whole process."""
refusals = ThrottledLog(log)
"""Connections and new players refused by the per-address limits, one line per interval (and kind) naming an
address."""
unreachable = ThrottledLog(log)
"""Returning players whose hello could not read the store (the database is down), one line per kind and interval."""

CLOSE_REPLACED = CloseCode.replaced
"""A private close code (4000-4999): the same identity connected again (the SDK knows it)."""
CLOSE_REVOKED = CloseCode.revoked
"""The token this connection said hello with was revoked (signed out, or revoked on the account page)."""



class Subscriptions(Protocol):
    def subscribe(self, topic: str, subscriber: Subscriber, owner: str | None = None) -> Callable[[], None]:
        """Receive every message published on `topic`; call the result to stop."""
        ...


class Effects(Protocol):
    """What runs core's effects (net/effects.py's `EffectRunner`)."""

    async def when_free(self, handle: Callable[[], Effect]) -> Effect:
        """`handle()`'s effect, handled again while a room it changes has a change in flight (core says `Busy`)."""
        ...

    async def execute(
        self, effect: Effect, replier: Replier | None, request_id: RequestId = None, *, may_retry: bool = False
    ) -> bool | None:
        """Store the effect's records, then write its replies and publish: False when it was refused, None (only
        with `may_retry`) when the request should be handled again (another process changed the room first, and
        this process has read it back)."""
        ...


class Roster(Protocol):
    """Every greeted connection of the process (net/connections.py's `ConnectionHolder`)."""

    def remember(self, connection: Connection) -> None: ...

    def forget(self, connection: Connection) -> None: ...


class Consoles(Protocol):
    """The moderators' consoles open on this process (net/moderation.py's): a connection that ends, or says hello
    as someone else, is one no more."""

    def forget(self, console: Connection) -> None: ...


@dataclass(frozen=True)
class ConnectionDeps:
    """What every connection of a server is handed, built once by net/app.py (lila-ws's `Deps`): the parts a
    connection uses, as values and callables; never the server process itself (its listener, ticker, daily
    service, shutdown), and this module does not import the app module."""

    settings: Settings
    sessions: Sessions
    """Core, as a connection sees it."""
    copies: StoredCopies
    """Where a returning player's identity, rooms and games are brought back to (core's `Rebuild`)."""
    store: ServerStore
    publisher: Subscriptions
    effects: Effects
    metrics: ServerMetrics
    watch: ConnectionWatch
    """Every connection's hello deadline, idle timeout and keepalive ping, in one task."""
    limits: PerAddress
    accounts: AccountRequests
    """Passkey ceremonies, the account page, and who a hello's session or bot token is."""
    roster: Roster
    consoles: Consoles
    prepared_types: frozenset[type]
    """The request types that go through `answer_or_prepare` before core."""
    answer_or_prepare: Callable[[Connection, Message], Awaitable[bool]]
    """Answer a query outside core (True), or load what core needs for the request (False)."""
    bans: Callable[[str], Awaitable[tuple[InForce | None, str | None]]]
    """A returning player's ban in force, and the name a moderator gave them (net/moderation.py's `on_hello`)."""
    take_over: Callable[[str, Connection], Awaitable[None]]
    """The player said hello with their token on this connection: an older connection of theirs (here or on
    another process) is closed, and what another process played of theirs is read back."""
    resumed: Callable[[Connection], Awaitable[None]]
    """The player said hello with their token and has their state: what the store adds to it."""
    close_revoked: Callable[[Revocation], None]
    """Close the connections of the revoked tokens, on every process."""
    shutting_down: Callable[[], bool]


TOURNAMENT_RACE = "tournament_race"


class Connection:
    def __init__(self, deps: ConnectionDeps, websocket: GameSocket) -> None:
        self.deps = deps
        self.websocket = websocket
        self.address = websocket.address
        limits = deps.settings.connection
        self.bucket = TokenBucket(limits.rate_limit_per_s, limits.rate_limit_burst)
        self.outbox = Outbox(websocket, limits.outbox_limit_bytes, deps.metrics)
        self.player_id: str | None = None
        self.token_hash: str | None = None
        """The hash of the token the hello carried: the session (or bot token) a revocation closes."""
        self._unsubscribe_player: Callable[[], None] | None = None
        self._unsubscribe_room: Callable[[], None] | None = None
        self._room_code: str | None = None
        self._waiting_since: float | None = None  # the reader waits for a frame since (loop time); None: handling
        self._opened_at = self._pinged_at = 0.0  # loop time (set by `run`): the hello deadline, the next ping
        self._pong: asyncio.Future[float] | None = None  # the answer to the keepalive ping in flight
        self._hanging_up: asyncio.Task[None] | None = None  # a deadline passed: the close under way

    # ------------------------------------------------------------------ lifecycle

    def admitted(self) -> bool:
        """Whether the client's address may hold one more connection (the per-address limit, counted until `run`
        ends); if not, the connection is closed (1008) and never run."""
        if self.deps.limits.connect(self.address):
            return True
        self.deps.metrics.limit_refusals["connections_per_address"] += 1
        cap = self.deps.settings.connection.max_connections_per_address
        refusals.warning("connections", f"closed a connection from {self.address}: it holds {cap} already")
        self.websocket.close_now(CloseCode.policy_violation, f"too many connections from your address (at most {cap})")
        return False

    async def run(self) -> None:
        """The connection's life, once `admitted`: its task reads and handles its frames until it closes."""
        metrics = self.deps.metrics
        metrics.connections += 1
        self._opened_at = self._pinged_at = asyncio.get_running_loop().time()
        self.deps.watch.add(self)
        ending: BaseException | None = None
        try:
            await self._read_frames(asyncio.get_running_loop())
        except ConnectionClosed:
            pass
        except BaseException as error:  # cancelled, or a bug: raised again after the cleanup, as `finally` would
            ending = error  # not awaited in a `finally` block (build.py's `suspends_while_handling`)
        self.deps.watch.discard(self)
        self.deps.limits.disconnect(self.address)
        metrics.connections -= 1
        self._unsubscribe()
        if self.player_id is not None:
            self.deps.roster.forget(self)
            self.deps.consoles.forget(self)
            if not self.deps.shutting_down():
                # a stop closes every connection (1012) and its players come back, here or to another process:
                # their lobby seats stay in the store for them (a lobby picked up gives its members a while)
                await self.deps.effects.execute(self.deps.sessions.disconnect(self.player_id), None)
        await self.outbox.close()
        if ending is not None:
            raise ending

    # ------------------------------------------------------------------ clocks (net/watch.py looks at them)

    def check_clocks(self, now: float) -> bool:
        """A connection must say who it is soon (an anonymous socket holds a seat and costs memory for nothing),
        must not stay silent past the idle timeout, and must answer the keepalive ping in time: past a deadline
        the connection is closed (its reader then sees the close and ends it). True when a ping is due."""
        if self._hanging_up is not None:
            return False
        limits = self.deps.settings.connection
        if self.player_id is None and now - self._opened_at >= limits.hello_timeout_s:
            self._hang_up(CloseCode.policy_violation, f"no hello within {limits.hello_timeout_s:g} s")
            return False
        since = self._waiting_since
        if since is not None and now - since >= limits.idle_timeout_s:
            self._hang_up(CloseCode.policy_violation, f"idle timeout: no message for {limits.idle_timeout_s:g} s")
            return False
        pong = self._pong
        if pong is not None and not pong.done():
            if now - self._pinged_at >= limits.ping_timeout_s:
                self._hang_up(CloseCode.internal_error, "keepalive ping timeout")
            return False
        return now - self._pinged_at >= limits.ping_interval_s

    def ping(self, now: float) -> None:
        """The keepalive ping (the socket measures the latency on its answer). A client whose socket must wait is
        not pinged now: its outbox's limit or the idle timeout ends it if it is gone, and it is pinged once its
        socket takes frames again."""
        if self.websocket.paused:
            return
        self._pinged_at = now
        self._pong = self.websocket.ping()

    def _hang_up(self, code: int, reason: str) -> None:
        self._hanging_up = asyncio.create_task(self.close(code, reason))

    async def _read_frames(self, loop: asyncio.AbstractEventLoop) -> None:
        websocket = self.websocket
        inbox = websocket.inbox
        while True:
            self._waiting_since = loop.time()
            frame = inbox.pop()
            if frame is None:
                frame = await inbox.next()
            if frame is None:
                raise await websocket.closed()
            self._waiting_since = None
            try:
                await self._handle_frame(frame)
            except ConnectionClosed:
                raise
            except Exception as error:  # a bug or a broken database must not take the connection down
                failures.exception(type(error).__name__, f"request failed: {one_line(error)}")
                reason = f"the server failed to handle this message ({type(error).__name__}); nothing changed"
                self.send(ErrorMessage(id=request_id_of(frame), code=ErrorCode.internal_error, message=reason))

    async def _handle_frame(self, frame: str | bytes) -> None:
        received_at = time.perf_counter()
        limits = self.deps.settings.connection
        if not self.bucket.allow():
            self.deps.metrics.rate_limited += 1
            request_id = request_id_of(frame) if len(frame) <= limits.max_message_bytes else None
            message = f"rate limit: {self.bucket.describe()}; this message was dropped"
            self.send(ErrorMessage(id=request_id, code=ErrorCode.rate_limited, message=message))
            return
        size = len(frame)
        if size > limits.max_message_bytes // 4 and isinstance(frame, str):  # UTF-8: at most 4 bytes a character
            size = len(frame.encode())
        if size > limits.max_message_bytes:
            self.send(
                ErrorMessage(
                    code=ErrorCode.message_too_large,
                    message=f"messages are limited to {limits.max_message_bytes} bytes, this one has {size}",
                )
            )
            return
        request = decode(frame)
        if isinstance(request, ErrorMessage):
            self.send(request)
            return
        if self.deps.shutting_down():
            self.send(self._error(request.id, Refusal(ErrorCode.shutting_down, "the server is shutting down")))
            return
        if type(request) in ACCOUNT_TYPES and (
            self.player_id is not None or self.deps.accounts.allowed_before_hello(request)
        ):
            await self._account_request(request)
            return
        if self.player_id is None:
            if not isinstance(request, HelloRequest):
                self.send(self._error(request.id, Refusal(ErrorCode.hello_required, "say hello first")))
                return
            await self._hello(request)
            return
        if type(request) in self.deps.prepared_types and await self.deps.answer_or_prepare(self, request):
            return  # a query, answered
        is_move = type(request) is MoveRequest
        sessions, player_id = self.deps.sessions, self.player_id
        variant = sessions.variant_of(player_id) if is_move else ""
        stored: bool | None = None
        for may_retry in (True, False):  # once more if another process changed the room first (a cluster)
            if not may_retry and type(request) in self.deps.prepared_types:
                await self.deps.answer_or_prepare(self, request)  # what it loaded may have moved on meanwhile
            try:
                effect: Effect | None
                try:
                    effect = sessions.handle(player_id, request)
                except Busy:  # a room it changes has a change in flight: handled again once that one is done
                    effect = None  # awaited outside the handler (build.py's `suspends_while_handling`)
                if effect is None:
                    effect = await self.deps.effects.when_free(functools.partial(sessions.handle, player_id, request))
            except Refusal as refusal:
                if is_move:
                    self.deps.metrics.moves_refused[(variant, refusal.code.value)] += 1
                self.send(self._error(request.id, refusal))
                return
            stored = await self.deps.effects.execute(effect, self.outbox, request.id, may_retry=may_retry)
            if stored is not None:
                break
        if is_move:
            metrics = self.deps.metrics
            if stored:
                metrics.moves_accepted[variant] += 1
                metrics.move_round_trip.observe(time.perf_counter() - received_at)
            else:
                metrics.moves_refused[(variant, ErrorCode.storage_failed.value)] += 1
        self._sync_room_subscription()

    async def _account_request(self, request: Message) -> None:
        try:
            answer = await self.deps.accounts.answer(request, self)
        except Refusal as refusal:
            self.send(self._error(getattr(request, "id", None), refusal))
            return
        self.send(answer.reply)
        if answer.revocation is not None:  # after the reply: closing drains the outbox first
            self.deps.close_revoked(answer.revocation)

    async def _register(self, request: HelloRequest) -> None:
        if not self.deps.limits.allow_new_identity(self.address):
            self.deps.metrics.limit_refusals["new_players_per_minute"] += 1
            limit = self.deps.limits.describe_identities()
            refusals.warning("new players", f"refused a new player from {self.address}: {limit}")
            self.send(self._error(request.id, Refusal(ErrorCode.rate_limited, f"too many new players: {limit}")))
            return
        try:
            await self.deps.accounts.check_name_free(request.name)
        except Refusal as refusal:
            self.send(self._error(request.id, refusal))
            return
        player_id, effect = self.deps.sessions.register(request)
        welcome = self._announce(effect)
        self._become(player_id, hash_token(welcome.token))
        if not await self.deps.effects.execute(effect, self.outbox, request.id):
            self._forget_identity()

    async def _player_of_token(self, request_id: RequestId, token: str, token_hash: str) -> str | None:
        """The player a hello's token names: a session or a bot's token (the account store's word, revoked ones
        refused), else an unsaved player's own token; None (the error sent) when it names nobody."""
        revoked: RevokedToken | None = None
        try:
            identity = await self.deps.accounts.resolve_hello(token, self.address)
        except RevokedToken as revocation:  # answered below: no await while an exception is handled (build.py)
            revoked = revocation
        except Refusal as refusal:
            self.send(self._error(request_id, refusal))
            return None
        if revoked is not None:  # a ban revoked it: the hello says the ban and its reason, not "sign in again"
            if (await self._allowed_back(request_id, revoked.player_id, revoked.refusal.reason))[0]:
                self.send(self._error(request_id, revoked.refusal))
            return None
        known = identity.player_id if identity is not None else self.deps.sessions.player_by_token_hash(token_hash)
        if known is not None and self.deps.copies.knows(known):
            return known
        store = self.deps.store
        record = await (store.player(known) if known is not None else store.player_by_token_hash(token_hash))
        if record is None:
            self.send(self._error(request_id, Refusal(ErrorCode.unknown_token, "no player has this token")))
            return None
        if not self.deps.copies.knows(record.player_id):
            await restore_player(self.deps.copies, self.deps.store, record)
        return record.player_id

    async def _hello(self, request: HelloRequest) -> None:
        sessions = self.deps.sessions
        if request.token is None:
            await self._register(request)
            return
        token_hash = hash_token(request.token)
        try:
            player_id = await self._player_of_token(request.id, request.token, token_hash)
        except Exception as error:  # the database cannot say who the token is: nothing changed, try again later
            unreachable.warning(type(error).__name__, f"a returning player's hello could not read the store: "
                                                      f"{one_line(error)}")  # fmt: skip
            message = "the server cannot reach its database right now, nothing changed: say hello again in a moment"
            self.send(ErrorMessage(id=request.id, code=ErrorCode.storage_failed, message=message))
            return
        if player_id is None:
            return
        allowed, replaced = await self._allowed_back(request.id, player_id)
        if not allowed:
            return
        await self.deps.take_over(player_id, self)
        self._become(player_id, token_hash)
        effect = sessions.resume(player_id, request)
        self._announce(effect)
        if await self.deps.effects.execute(effect, self.outbox, request.id):
            await self.deps.resumed(self)
            if replaced is not None:
                self.send(NameReplacedMessage(name=replaced))
        self._sync_room_subscription()

    async def _allowed_back(self, request_id: RequestId, player_id: str,
                            revoked: str | None = None) -> tuple[bool, str | None]:  # fmt: skip
        """A banned player's hello is refused (`banned`, with the moderator's public reason, and `revoked`, the
        hello's `revoked_token` when the ban ended its session) and the connection closed; a renamed one is asked
        for a new name after the welcome."""
        try:
            ban, replaced = await self.deps.bans(player_id)
        except Exception as error:  # the database cannot say: as for any hello that cannot read the store
            unreachable.warning(type(error).__name__, f"a hello could not read the bans: {one_line(error)}")
            message = "the server cannot reach its database right now, nothing changed: say hello again in a moment"
            self.send(ErrorMessage(id=request_id, code=ErrorCode.storage_failed, message=message))
            return False, None
        if ban is not None:
            self.send(self._error(request_id, Refusal(ErrorCode.banned, ban_message(ban), revoked)))
            await self.close(CLOSE_BANNED, "banned")
            return False, None
        return True, replaced

    def _announce(self, effect: Effect) -> WelcomeMessage:
        """The welcome core made, with what this process's settings say a client lives within (core knows no
        sockets): the limits of a connection and the sizes of a quick race."""
        welcome = effect.replies[0]
        assert isinstance(welcome, WelcomeMessage)
        welcome.limits = self.deps.settings.connection.limits
        welcome.quick_race = self.deps.settings.quick_race.sizes
        return welcome

    def _become(self, player_id: str, token_hash: str) -> None:
        self.player_id = player_id
        self.token_hash = token_hash
        self.deps.roster.remember(self)
        self._unsubscribe_player = self.deps.publisher.subscribe(player_topic(player_id), self._own, player_id)

    def _own(self, message: Reply) -> None:
        """A message to this player alone. A tournament race formed for them (they sit in it already): the
        connection follows that room from now on, before its own events go out (`core.competition.tournaments`)."""
        self.send(message)
        if getattr(message, "type", None) == TOURNAMENT_RACE:
            self._sync_room_subscription()

    def _forget_identity(self) -> None:
        self.deps.roster.forget(self)
        self.deps.consoles.forget(self)
        self._unsubscribe()
        self.player_id = self.token_hash = None

    # ------------------------------------------------------------------ room events

    def _sync_room_subscription(self) -> None:
        """Follow the player's room: subscribe to its events after joining, drop them after leaving."""
        code = self.deps.sessions.room_code_of(self.player_id) if self.player_id else None
        if code == self._room_code:
            return
        if self._unsubscribe_room is not None:
            self._unsubscribe_room()
            self._unsubscribe_room = None
        self._room_code = code
        if code is not None:
            self._unsubscribe_room = self.deps.publisher.subscribe(room_topic(code), self.send, self.player_id)

    def _unsubscribe(self) -> None:
        for unsubscribe in (self._unsubscribe_player, self._unsubscribe_room):
            if unsubscribe is not None:
                unsubscribe()
        self._unsubscribe_player = self._unsubscribe_room = None
        self._room_code = None

    # ------------------------------------------------------------------ sending

    def send(self, message: Reply) -> None:
        """Queue a frame (`Outbox`); a client that stops reading is cut off instead of growing the queue forever."""
        self.outbox.put(message)

    async def close(self, code: int, reason: str) -> None:
        await self.outbox.drain()
        await self.websocket.close(code, reason)

    @staticmethod
    def _error(request_id: RequestId, refusal: Refusal) -> ErrorMessage:
        return refusal.to_message(request_id)

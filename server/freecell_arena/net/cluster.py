"""Several processes, one room: room events cross processes through Redis pub/sub; the room's truth stays in
the database.

Each process validates and stores the moves of the players connected to it (no move crosses processes); what
crosses is what a room's members see of each other: membership, countdown, start, progress, results. Every
process keeps a copy of the rooms it has members in (and of every live room after its start), changed in three
ways only:

- by its own players' requests, written to the database as a compare-and-set on the room's version
  (`MemberRecord.seq`), so two processes can never both take a room's last seat or both start a race; the loser's
  write is refused and its copy re-read (`resync`);
- by the events of other processes (`SharedRooms.apply_remote`), which carry the version they bring the room to;
- by re-reading the room from the database (`resync`) when an event is missing (a version skipped: Redis
  pub/sub delivers at most once), when Redis comes back after an outage, and when a race may be over (`settle`:
  the games of the other processes' players are read from the store, which has every acknowledged move).

The envelope on the wire is one header line (origin process, message type, skip, version) and the message's
own JSON, which is sent on to local connections as is (never re-encoded). A process subscribes to every room
and player channel of the cluster (`PSUBSCRIBE`): simple, and cheap at the scale of a few processes, since
progress is coalesced per room. Redis down: moves go on (they need only the database); events wait in no
queue (they are dropped, at most once); when the subscription comes back every live room is re-read.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import random
import secrets
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from freecell_arena.core.events import InProcessPublisher, Subscriber, player_topic, room_topic
from freecell_arena.core.ports.records import Record, RoomVersion
from freecell_arena.core.seams import SharedRooms
from freecell_arena.net.background import BackgroundTasks, every, stop_tasks
from freecell_arena.net.restore import load_room
from freecell_arena.net.throttled_log import ThrottledLog, one_line
from freecell_arena.protocol.registry import SERVER_MESSAGES
from freecell_arena.protocol.rooms import RaceStartedMessage
from freecell_arena.protocol.tournaments import TournamentRaceMessage
from freecell_arena.protocol.trusted import Encoded, Reply, wire_text
from freecell_arena.protocol.vocabulary import RUNNING

if TYPE_CHECKING:
    from freecell_arena.core.effects import Effect
    from freecell_arena.core.server_store import ServerStore

log = logging.getLogger(__name__)

CHANNEL_PREFIX = "freecell-arena:"
TAKEOVER = "takeover"
"""The envelope type saying a player resumed on another process: the old connection here is closed."""
REVOKED = "revoked"
"""The envelope type saying tokens of a player were revoked (its text: their hashes as a JSON list): a connection
here that said hello with one of them is closed."""
ROLL_CALL = "roll_call"
"""The envelope type asking the processes for the members of a room connected to them (a `member_connection`
each, `SharedRooms.answer_roll_call`): the room was just picked up from the store by the asking process."""
ROOM_EVENTS = frozenset(
    ("member_joined", "member_left", "member_connection", "countdown", "room", "race_over", "progress", "series_invite")
)
"""The room events a copy of the room applies (`SharedRooms.apply_remote`); other messages only pass through."""
_STILL_PLAYING = '"status":"playing"'
"""How a progress event of a game that goes on reads on the wire (compact JSON): no need to parse it."""
BACKOFF_FIRST_S = 0.1
BACKOFF_MAX_S = 5.0
STATUS_CHECK_INTERVAL_S = 5.0
"""How often a shared running race's status is compared with the store's (a race whose last event was lost)."""
CLOSE_TIMEOUT_S = 5.0
"""How long closing the bridge waits for its loops (a shutdown must never hang on Redis)."""


@dataclass(frozen=True)
class ClusterDeps:
    """What the bridge uses of its process, and nothing more (not the server: `ArenaServer` hands over these
    parts, the cluster model its own)."""

    rooms: SharedRooms
    """This process's copies of shared rooms (core's `Replica`)."""
    store: ServerStore
    run_timer_effect: Callable[[Effect], Awaitable[bool]]
    """A timer's change (no requester); a race it finishes is rated once stored."""
    drop_connection: Callable[[str, str], None]
    """Close the player's connection on this process, with the reason (they resumed on another one)."""
    close_tokens: Callable[[str, list[str]], None]
    """Close the player's connection on this process if it said hello with one of these revoked tokens."""


class ClusterPublisher:
    """Local fan-out at once (the connections of this process), and the same event to the other processes."""

    def __init__(self, origin: str) -> None:
        self.origin = origin
        self.local = InProcessPublisher()
        self.outgoing: deque[tuple[str, str]] = deque()
        self.wakeup = asyncio.Event()

    def subscribe(self, topic: str, subscriber: Subscriber, owner: str | None = None) -> Callable[[], None]:
        return self.local.subscribe(topic, subscriber, owner)

    def publish(self, topic: str, message: Reply, skip: str | None = None, version: RoomVersion | None = None) -> None:
        message = encoded(message)  # encoded once, for the local connections and for Redis
        self.local.publish(topic, message, skip)
        self.send(topic, message.type, message.text, skip, version)

    def send(
        self, topic: str, kind: str, text: str, skip: str | None = None, version: RoomVersion | None = None
    ) -> None:
        stamp = None if version is None else [version.seq, version.tag, version.previous]
        header = json.dumps([self.origin, kind, skip, stamp])
        self.outgoing.append((CHANNEL_PREFIX + topic, f"{header}\n{text}"))
        self.wakeup.set()


def encoded(message: Reply) -> Encoded:
    return message if isinstance(message, Encoded) else Encoded(str(getattr(message, "type", "")), wire_text(message))


class ClusterBridge:
    """The Redis side: publishes what `ClusterPublisher` queued, applies what other processes published."""

    def __init__(self, deps: ClusterDeps, redis_url: str) -> None:
        self.deps = deps
        self.redis_url = redis_url
        self.publisher = ClusterPublisher(f"{os.getpid()}-{secrets.token_hex(4)}")
        self._own_prefix = json.dumps([self.publisher.origin]).encode()[:-1] + b","
        self.failures = ThrottledLog(log)
        self.connected = asyncio.Event()
        self.events_received = 0
        self.resyncs = 0
        self._tasks: list[asyncio.Task[None]] = []
        self._settling: set[str] = set()
        self._background = BackgroundTasks()

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> None:
        self._tasks = [
            asyncio.create_task(self._receive_forever()),
            asyncio.create_task(self._send_forever()),
            asyncio.create_task(every(STATUS_CHECK_INTERVAL_S, self.check_rooms, self.failures, "room check"),
                                name="cluster-room-check"),
        ]

    async def close(self) -> None:
        if not await stop_tasks(self._tasks, CLOSE_TIMEOUT_S):
            log.warning("the Redis bridge's loops did not stop within %s s; left behind", CLOSE_TIMEOUT_S)

    # ------------------------------------------------------------------ what this process tells the others

    def took_over(self, player_id: str) -> None:
        """A player said hello here with their token: their connection on any other process is closed."""
        self.publisher.send(player_topic(player_id), TAKEOVER, "")

    def revoked(self, player_id: str, token_hashes: list[str]) -> None:
        """Tokens of the player's were revoked here: their connections on any other process are closed."""
        self.publisher.send(player_topic(player_id), REVOKED, json.dumps(token_hashes))

    def call_rolls(self) -> None:
        """Lobbies picked up from the store here: the other processes say which of their members are connected
        to them (they keep their seats past the lobby's grace). Asked once subscribed, so no answer is missed."""
        if self.connected.is_set():
            for code in self.deps.rooms.take_roll_calls():
                self.publisher.send(room_topic(code), ROLL_CALL, "")

    async def _send_forever(self) -> None:
        from redis.asyncio import Redis

        backoff = BACKOFF_FIRST_S
        while True:
            client = Redis.from_url(self.redis_url)
            try:
                while True:
                    if not self.publisher.outgoing:
                        self.publisher.wakeup.clear()
                        await self.publisher.wakeup.wait()
                    batch: list[tuple[str, str]] = []
                    while self.publisher.outgoing and len(batch) < 500:
                        batch.append(self.publisher.outgoing.popleft())
                    async with client.pipeline(transaction=False) as pipe:
                        for channel, payload in batch:
                            pipe.publish(channel, payload)
                        await pipe.execute()
                    backoff = BACKOFF_FIRST_S
            except asyncio.CancelledError:
                raise
            except Exception as error:  # Redis is down: events are dropped (at most once); copies resync later
                raise_if_cancelling()
                self.publisher.outgoing.clear()
                self.failures.warning("publish", f"Redis publish failed, events dropped: {one_line(error)}")
                backoff = await _pause(backoff)
            finally:
                with contextlib.suppress(Exception):
                    await client.aclose()

    # ------------------------------------------------------------------ what the others tell this process

    async def _receive_forever(self) -> None:
        from redis.asyncio import Redis

        backoff = BACKOFF_FIRST_S
        first = True
        while True:
            client = Redis.from_url(self.redis_url)
            pubsub = client.pubsub()
            try:
                await pubsub.psubscribe(CHANNEL_PREFIX + "*")
                await pubsub.get_message(timeout=1.0)  # the subscription's confirmation
                self.connected.set()
                if not first:  # events were lost while the subscription was down
                    await self.resync_all()
                first, backoff = False, BACKOFF_FIRST_S
                while True:
                    raise_if_cancelling()
                    message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                    if message is not None and message.get("type") == "pmessage":
                        await self._on_message(message["channel"], message["data"])
            except asyncio.CancelledError:
                raise
            except Exception as error:
                raise_if_cancelling()
                self.connected.clear()
                self.failures.warning("subscribe", f"Redis subscription lost, retrying: {one_line(error)}")
                backoff = await _pause(backoff)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]  # redis-py leaves PubSub.aclose untyped
                    await client.aclose()

    async def _on_message(self, channel: bytes, data: bytes) -> None:
        if data.startswith(self._own_prefix):  # this process's own event, back from Redis: already delivered
            return
        header, _, text = data.decode().partition("\n")
        _origin, kind, skip, stamp = json.loads(header)
        self.events_received += 1
        log.debug("event %s on %s at version %s", kind, channel, stamp)
        topic = channel.decode()[len(CHANNEL_PREFIX) :]
        if kind == TAKEOVER:
            self.deps.drop_connection(topic.partition(":")[2], "resumed on another connection")
            return
        if kind == REVOKED:
            self.deps.close_tokens(topic.partition(":")[2], [str(token_hash) for token_hash in json.loads(text)])
            return
        if kind == ROLL_CALL:  # to the other processes only: this process's members know who is here
            for answer in self.deps.rooms.answer_roll_call(topic.partition(":")[2]):
                message = encoded(answer.message)
                self.publisher.send(answer.topic, message.type, message.text, answer.skip)
            return
        try:
            await self._apply(topic, kind, text, None if stamp is None else RoomVersion(*stamp))
        except Exception as error:  # one bad event must not stop the subscription
            self.failures.warning("apply", f"a room event could not be applied: {one_line(error)}")
        self.publisher.local.publish(topic, Encoded(kind, text), skip)

    async def _apply(self, topic: str, kind: str, text: str, version: RoomVersion | None) -> None:
        rooms = self.deps.rooms
        if kind == "progress" and _STILL_PLAYING in text:
            return  # the common case, a move of a game that goes on: nothing for this copy to change
        if topic.startswith("room:") and kind in ROOM_EVENTS:
            if not rooms.holds_room(topic.partition(":")[2]):
                return  # a room with nobody here: no copy to change (parsing it would cost every process)
            message = SERVER_MESSAGES.validate_json(text)
            if rooms.apply_remote(message, version) == "gap":
                await self.resync(topic.partition(":")[2])
        elif kind == "tournament_race" and rooms.is_connected(topic.partition(":")[2]):
            # a tournament seated a player connected here in a room another process opened: the room is read here
            # (and the player seated in it) before the message reaches their connection, which then follows it
            formed = SERVER_MESSAGES.validate_json(text)
            assert isinstance(formed, TournamentRaceMessage)
            await self.resync(formed.code, announce=False)
        elif kind == "race_started" and rooms.is_connected(topic.partition(":")[2]):
            # the game of a player connected here was dealt elsewhere: it must be here before their first move
            # (every process hears every player's channel; the others have no use for the game)
            started = SERVER_MESSAGES.validate_json(text)
            assert isinstance(started, RaceStartedMessage)
            if not rooms.holds_game(started.game.game_id):
                await self.resync(started.code, announce=False)

    # ------------------------------------------------------------------ re-reading rooms from the store

    async def resync(self, code: str, *, announce: bool = True) -> None:
        """Replace this process's copy of the room with the store's; tell its members here what changed (core
        says what: the effect's publications, for this process's connections only)."""
        store = self.deps.store
        self.resyncs += 1
        stored = await store.room_by_code(code)
        if stored is None:
            return
        games, players = await load_room(store, stored)
        effect = self.deps.rooms.resync(stored, games, players)
        log.debug("resync %s: version %s (%s)", code, stored.seq, stored.status)
        if announce:
            for publication in effect.publications:
                self.publisher.local.publish(publication.topic, publication.message, publication.skip)

    async def after_refusal(self, records: Sequence[Record]) -> None:
        """A write of ours was refused: another process changed the room (or played the game) first."""
        for code in self.deps.rooms.rooms_touched_by(records):
            await self._quietly(self.resync(code))

    async def refresh_player(self, player_id: str) -> None:
        """A player resumed here: their rooms are re-read (another process may have played their moves, or moved
        them to another room), and the room they sit in here too (they may have left it there)."""
        codes = [stored.room.code for stored in await self.deps.store.live_rooms_of(player_id)]
        seated = self.deps.rooms.seated_in(player_id)
        for code in [*codes, *([seated] if seated is not None and seated not in codes else [])]:
            await self._quietly(self.resync(code, announce=False))
        store = self.deps.store
        for stored_game in await store.unfinished_games(player_id):
            room_id = stored_game.game.room_id
            stored_room = await store.room(room_id) if room_id else None
            if stored_room is not None:
                await self._quietly(self.resync(stored_room.room.code, announce=False))
            else:
                self.deps.rooms.refresh_game(stored_game)

    async def refresh_game(self, game_id: str) -> None:
        """A game this process may hold only a stale copy of (a racer on another process): read it back."""
        stored = await self.deps.store.game(game_id)
        if stored is not None:
            self.deps.rooms.refresh_game(stored)

    async def resync_all(self) -> None:
        for copy in self.deps.rooms.live_copies():
            await self._quietly(self.resync(copy.code))

    def settle_due(self) -> None:
        """The races that may be over (`SharedRooms.take_due`): each is settled from the store, one at a time per
        room; one already being settled is handed back for a later tick."""
        rooms = self.deps.rooms
        for code in rooms.take_due():
            if code in self._settling:
                rooms.settle_later(code)
            else:
                self._settling.add(code)
                self._background.spawn(self._settle(code))

    async def _settle(self, code: str) -> None:
        try:
            if await self._settle_from_store(code):
                await self._finish(code)
        except Exception as error:
            self.failures.warning("settle", f"a race could not be settled, retrying later: {one_line(error)}")
            self.deps.rooms.settle_later(code)
        finally:
            self._settling.discard(code)

    async def _settle_from_store(self, code: str) -> bool:
        """Bring the copies of the room's games up to date before it is settled: False when there is nothing to
        settle now (the race ended here meanwhile, or the copy was behind and has been re-read). A change of ours
        still being written is not in the copy yet (memory adopts it once stored): `SharedRooms.settle` hands such
        a room back for a later tick."""
        rooms = self.deps.rooms
        copy = rooms.copy_of(code)
        if copy is None or copy.status != RUNNING:  # it ended here meanwhile
            return False
        if rooms.plays_every_game_here(code):  # every game is played here: no copy to refresh (a finish is still
            return True  # a compare-and-set on the room's version)
        stored = await self.deps.store.room(copy.room_id)
        if stored is None:
            return False
        if (stored.seq, stored.tag, stored.status) != (copy.seq, copy.tag, copy.status):
            log.debug("settle %s: the store has version %s, this copy %s", code, stored.seq, copy.seq)
            await self.resync(code)  # behind (or a change of ours adopted since this read: the re-read is older)
            return False
        games, players = await load_room(self.deps.store, stored)
        rooms.refresh_games(code, games, players)
        return True

    async def _finish(self, code: str) -> None:
        """Finish the race if it is over; a finish another process wrote first is read back instead."""
        effect = self.deps.rooms.settle(code)
        log.debug("settle %s: %s", code, "finishing" if effect is not None else "goes on")
        if effect is not None and not await self.deps.run_timer_effect(effect):
            await self.resync(code)

    async def check_rooms(self) -> None:
        """A safety net for lost events: a live room here whose stored version moved past this copy's is re-read
        (one query for every room, every `STATUS_CHECK_INTERVAL_S`)."""
        live = {copy.room_id: copy for copy in self.deps.rooms.live_copies()}
        stored = await self.deps.store.room_versions(list(live))
        for room_id, (seq, tag) in stored.items():
            room = self.deps.rooms.copy_of(live[room_id].code)  # as it is now, after the query's wait
            if room is None:
                continue
            if seq > room.seq or (seq == room.seq and tag != room.tag):  # behind (memory is never ahead)
                await self._quietly(self.resync(room.code))

    async def _quietly(self, work: Awaitable[None]) -> None:
        try:
            await work
        except Exception as error:
            self.failures.warning("resync", f"a room could not be re-read: {one_line(error)}")


def raise_if_cancelling() -> None:
    """Raise the cancellation a library swallowed. redis-py reads under its own timeout: a cancellation that lands
    as that timeout fires comes out as the timeout, which redis-py handles (a read that found nothing), and the loop
    would go on for ever with its task marked as being cancelled (`Task.cancelling`)."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError


async def _pause(backoff: float) -> float:
    """Sleep with jitter (a cluster's processes must not retry in step); the next pause is longer."""
    await asyncio.sleep(backoff * random.uniform(0.5, 1.5))
    return min(backoff * 2, BACKOFF_MAX_S)

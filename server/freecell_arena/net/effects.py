"""What runs core's effects: store the records, then send the replies and publish the room events.

The path of one move ends here: `execute` hands the effect's records to the group-commit writer (one transaction
for the moves of many players every few milliseconds) and, only once they are durable, has memory adopt the
effect's changes, runs what waits for a kind of record once it is stored (`after_stored`: a race started or
finished counted, a human's win screened; nothing for a move), writes the replies and publishes the events. If the
write fails, memory adopts nothing (a player's own move is taken back by the engine) and the player gets
`storage_failed`; in a cluster, a write refused because another process changed the room first has the room
re-read instead.

A request that would change a room with a change in flight is refused by core with `Busy`; `when_free` waits
until a change is stored or refused and has core handle it again, so a room's changes are made one at a time.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import Any, Protocol

from freecell_arena.core.effects import Effect, Refusal
from freecell_arena.core.events import Publisher
from freecell_arena.core.ports.records import Record, RecordWriter, changes_room
from freecell_arena.core.seams import Busy
from freecell_arena.net.throttled_log import ThrottledLog, one_line
from freecell_arena.protocol.errors import ErrorCode, ErrorMessage
from freecell_arena.protocol.trusted import Reply
from freecell_arena.protocol.wire import RequestId
from freecell_arena.store.errors import RecordRefusedError

log = logging.getLogger(__name__)

BUSY_TIMEOUT_S = 10.0
"""How long a request waits for the rooms it changes to be free (their changes in flight stored or refused)."""


class Replier(Protocol):
    """Where the requester's frames go: its connection's outbox (net/outbox.py)."""

    def reply(self, replies: Sequence[Reply]) -> Coroutine[Any, Any, None] | None:
        """Write the replies ahead of anything published after this call: None once written, else what writes
        them (awaited after the publications)."""
        ...

    def put(self, message: Reply) -> bool:
        """Queue a frame."""
        ...


AfterStored = Mapping[type, Callable[[Any], None]]
"""What runs once a record of a kind is durable, by the record's type (given the record)."""


class Rereader(Protocol):
    """The cluster bridge: after a refused write, re-read what another process changed first."""

    async def after_refusal(self, records: Sequence[Record]) -> None: ...


class EffectRunner:
    def __init__(self, writer: RecordWriter, publisher: Publisher, after_stored: AfterStored) -> None:
        self.writer = writer
        self.publisher = publisher
        self.after_stored = after_stored
        self.rereader: Rereader | None = None
        """Set in a cluster (`ClusterBridge`)."""
        self.write_failures = ThrottledLog(log)
        self._settled = asyncio.Event()
        """Set (and replaced) whenever an effect with changes of rooms is stored or refused: `when_free` waits on it."""

    async def when_free(self, handle: Callable[[], Effect]) -> Effect:
        """`handle()`'s effect; while core says a room it changes has a change in flight (`Busy`), wait for a change
        to be stored or refused and handle it again. Refused (`storage_failed`) if the rooms stay busy for
        `BUSY_TIMEOUT_S` (the store is that slow: nothing changed)."""
        deadline = asyncio.get_running_loop().time() + BUSY_TIMEOUT_S
        while True:
            try:
                return handle()
            except Busy:
                pass  # waited for below, outside the handler (build.py's `suspends_while_handling`)
            settled = self._settled
            remaining = deadline - asyncio.get_running_loop().time()
            try:
                async with asyncio.timeout(max(0.0, remaining)):
                    await settled.wait()
            except TimeoutError:
                message = "the room is busy and the server could not store its changes in time: nothing changed"
                raise Refusal(ErrorCode.storage_failed, message) from None

    def _settle(self, effect: Effect, *, stored: bool) -> None:
        if stored:
            effect.stored()
        else:
            effect.refused()
        if effect.changes is not None:
            self._settled.set()
            self._settled = asyncio.Event()

    async def persist(self, records: Sequence[Record]) -> None:
        """Durable before return: one atomic submission to the group-commit writer (in order, never split)."""
        if records:
            await self.writer.submit_many(list(records))

    async def execute(
        self, effect: Effect, replier: Replier | None, request_id: RequestId = None, *, may_retry: bool = False
    ) -> bool | None:
        """Store the effect's records, then send its replies and publications: True. False when the store refused
        (memory rolled back, the requester told). None, only with `may_retry`, when another process changed the
        room first: this process's copy has been re-read, and the request should be handled again."""
        failure: Exception | None = None
        try:
            await self.persist(effect.records)
        except BaseException as error:
            self._settle(effect, stored=False)
            if not isinstance(error, Exception):
                raise  # cancelled: nothing more to say to anyone
            failure = error  # answered below, outside the handler (build.py's `suspends_while_handling`)
        if failure is not None:
            return await self._refused(effect, failure, replier, request_id, may_retry=may_retry)
        self._settle(effect, stored=True)
        after_stored = self.after_stored
        for record in effect.records:
            then = after_stored.get(type(record))
            if then is not None:
                then(record)
        writing = replier.reply(effect.replies) if replier is not None and effect.replies else None
        for publication in effect.publications:
            self.publisher.publish(publication.topic, publication.message, publication.skip, publication.version)
        if writing is not None:
            await writing
        return True

    async def _refused(
        self, effect: Effect, error: Exception, replier: Replier | None, request_id: RequestId, *, may_retry: bool
    ) -> bool | None:
        if self.rereader is not None and isinstance(error, RecordRefusedError):
            await self.rereader.after_refusal(effect.records)  # another process changed it first: read it back
            if any(map(changes_room, effect.records)):
                if may_retry:
                    return None
                if replier is None:  # a timer's change another process made first: a cluster's normal race
                    log.info("another process changed room first, this copy re-read it: %s", one_line(error))
                    return False
        self.write_failures.warning(type(error).__name__, f"a write failed, nothing changed: {one_line(error)}")
        if replier is not None:
            replier.put(
                ErrorMessage(
                    id=request_id,
                    code=ErrorCode.storage_failed,
                    message=f"the server could not store this, nothing changed ({type(error).__name__})",
                )
            )
        return False

"""What runs core's effects: store the records, then send the replies and publish the room events.

The path of one move ends here: `execute` hands the effect's records to the group-commit writer (one transaction
for the moves of many players every few milliseconds) and, only once they are durable, queues the replies and
publishes the events. If the write fails, the effect's rollback restores memory and the player gets
`storage_failed`; in a cluster, a write refused because another process changed the room first has the room
re-read instead.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Protocol

from freecell_arena.core.effects import Effect
from freecell_arena.core.events import Publisher
from freecell_arena.core.ports.records import Record, RecordWriter, changes_room
from freecell_arena.net.metrics import ServerMetrics
from freecell_arena.net.throttled_log import ThrottledLog, one_line
from freecell_arena.protocol.messages import ErrorCode, ErrorMessage, RequestId
from freecell_arena.protocol.trusted import Reply
from freecell_arena.store.errors import RecordRefusedError

log = logging.getLogger(__name__)


class Replier(Protocol):
    """The connection of the requester (`net.connection.Connection`), as the runner sees it."""

    def send(self, message: Reply) -> None: ...

    def begin_replies(self, replies: Sequence[Reply]) -> list[str]: ...

    async def finish_replies(self, texts: list[str]) -> None: ...


class Rereader(Protocol):
    """The cluster bridge: after a refused write, re-read what another process changed first."""

    async def after_refusal(self, records: Sequence[Record]) -> None: ...


class EffectRunner:
    def __init__(self, writer: RecordWriter, publisher: Publisher, metrics: ServerMetrics) -> None:
        self.writer = writer
        self.publisher = publisher
        self.metrics = metrics
        self.rereader: Rereader | None = None
        """Set in a cluster (`ClusterBridge`)."""
        self.write_failures = ThrottledLog(log)

    async def persist(self, records: Sequence[Record]) -> None:
        """Durable before return: one atomic submission to the group-commit writer (in order, never split)."""
        if records:
            await self.writer.submit_many(list(records))

    async def execute(
        self, effect: Effect, connection: Replier | None, request_id: RequestId = None, *, may_retry: bool = False
    ) -> bool | None:
        """Store the effect's records, then send its replies and publications: True. False when the store refused
        (memory rolled back, the requester told). None, only with `may_retry`, when another process changed the
        room first: this process's copy has been re-read, and the request should be handled again."""
        try:
            await self.persist(effect.records)
        except Exception as error:
            return await self._refused(effect, error, connection, request_id, may_retry=may_retry)
        self.metrics.count_records(effect.records)
        direct = connection.begin_replies(effect.replies) if connection is not None else []
        for publication in effect.publications:
            self.publisher.publish(publication.topic, publication.message, publication.skip, publication.version)
        if direct:
            assert connection is not None
            await connection.finish_replies(direct)
        return True

    async def _refused(
        self, effect: Effect, error: Exception, connection: Replier | None, request_id: RequestId, *, may_retry: bool
    ) -> bool | None:
        if effect.rollback is not None:
            effect.rollback()
        if self.rereader is not None and isinstance(error, RecordRefusedError):
            await self.rereader.after_refusal(effect.records)  # another process changed it first: read it back
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

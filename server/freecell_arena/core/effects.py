"""What a core handler asks the adapter to do: persist these records, then deliver these messages."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from freecell_arena.core.competition.race_ratings import RaceEnd
from freecell_arena.core.ports.records import Record, RoomVersion
from freecell_arena.protocol.messages import ErrorCode, ErrorMessage, Message, RequestId
from freecell_arena.protocol.trusted import Reply


@dataclass(frozen=True)
class Publication:
    """A message for a topic; `skip` names a player who already got it as a reply. `version` is the room's
    version the message brings its receivers to (a room event that changes the room), so a process that shares
    the room's events with others can tell a missed event (a gap) from a repeated one."""

    topic: str
    message: Message
    skip: str | None = None
    version: RoomVersion | None = None


@dataclass
class Effect:
    """`replies` go to the requester, `publications` to topics; both only after `records` are durable.

    `rollback` undoes the in-memory change when the commit fails, so memory never runs ahead of the store.
    """

    records: list[Record] = field(default_factory=list)
    replies: list[Reply] = field(default_factory=list)
    publications: list[Publication] = field(default_factory=list)
    rollback: Callable[[], None] | None = None

    def merge(self, other: Effect) -> Effect:
        previous, later = self.rollback, other.rollback

        def both() -> None:
            if later:
                later()
            if previous:
                previous()

        return Effect(
            self.records + other.records,
            self.replies + other.replies,
            self.publications + other.publications,
            both if (previous or later) else None,
        )


@dataclass
class RaceFinish(Effect):
    """A timer's finish of a race: once it is durable, the adapter rates the race (`core.competition.race_ratings`)
    and works
    out its par, in the background. A kind of its own rather than a field of every `Effect`, so a move's effect
    carries nothing more for it."""

    race_end: RaceEnd | None = None


class Refusal(Exception):
    """A request that changes nothing: becomes one `error` reply with a stable code."""

    def __init__(self, code: ErrorCode, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason

    def to_message(self, request_id: RequestId) -> ErrorMessage:
        return ErrorMessage(id=request_id, code=self.code, message=self.message, reason=self.reason)

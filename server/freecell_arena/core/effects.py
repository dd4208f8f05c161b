"""What a core handler asks the adapter to do: persist these records, then deliver these messages, and what memory
takes once the store has them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from freecell_arena.core.ports.records import Record, RoomVersion
from freecell_arena.protocol.errors import ErrorCode, ErrorMessage
from freecell_arena.protocol.trusted import Reply
from freecell_arena.protocol.wire import Message, RequestId


@dataclass(frozen=True)
class Publication:
    """A message for a topic; `skip` names a player who already got it as a reply. `version` is the room's
    version the message brings its receivers to (a room event that changes the room), so a process that shares
    the room's events with others can tell a missed event (a gap) from a repeated one."""

    topic: str
    message: Message
    skip: str | None = None
    version: RoomVersion | None = None


class Adoption(Protocol):
    """A request's changes of rooms, seats and games as values (`core.live.changes.Changes`)."""

    def claim(self) -> None:
        """Mark the rooms it changes as in flight, or raise `Busy` (one of them has a change in flight)."""
        ...

    def stored(self) -> None:
        """The store has the records: memory takes the change."""
        ...

    def refused(self) -> None:
        """The store refused the records: memory takes nothing."""
        ...


class Undo(Protocol):
    """A game before its player's action (`core.live.player_game.GameMark`): the engine's own undo."""

    def take_back(self) -> None: ...


@dataclass
class Effect:
    """`replies` go to the requester, `publications` to topics; both only after `records` are durable.

    Memory changes only once the records are durable: `changes` are adopted then (`stored`) and never otherwise.
    The one exception is a player's own action on their game (a move, an undo, a resignation), applied by the
    engine at once and taken back by `undo` if the store refuses it, as python-chess's push/pop.
    """

    records: list[Record] = field(default_factory=list)
    replies: list[Reply] = field(default_factory=list)
    publications: list[Publication] = field(default_factory=list)
    changes: Adoption | None = None
    undo: tuple[Undo, ...] = ()

    def __init__(
        self,
        records: list[Record] | None = None,
        replies: list[Reply] | None = None,
        publications: list[Publication] | None = None,
        changes: Adoption | None = None,
        undo: tuple[Undo, ...] = (),
    ) -> None:
        """Spelled out, so the compiled build compiles it: one is made every action (`engine.game.Turn` says why).
        None stands for a field's default factory: a list of its own."""
        self.records = [] if records is None else records
        self.replies = [] if replies is None else replies
        self.publications = [] if publications is None else publications
        self.changes = changes
        self.undo = undo

    def merge(self, other: Effect) -> Effect:
        assert self.changes is None or other.changes is None, "one request's changes are one draft's"
        return Effect(
            self.records + other.records,
            self.replies + other.replies,
            self.publications + other.publications,
            self.changes or other.changes,
            self.undo + other.undo,
        )

    def claim(self) -> None:
        """Before the records go to the store: its rooms in flight. On `Busy` the player's action on their game is
        taken back (the request will be handled again once the rooms are free)."""
        if self.changes is not None:
            try:
                self.changes.claim()
            except Exception:
                self.take_back()
                raise

    def stored(self) -> None:
        if self.changes is not None:
            self.changes.stored()

    def refused(self) -> None:
        self.take_back()
        if self.changes is not None:
            self.changes.refused()

    def take_back(self) -> None:
        for undo in reversed(self.undo):
            undo.take_back()


class Refusal(Exception):
    """A request that changes nothing: becomes one `error` reply with a stable code."""

    def __init__(self, code: ErrorCode, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason

    def to_message(self, request_id: RequestId) -> ErrorMessage:
        return ErrorMessage(id=request_id, code=self.code, message=self.message, reason=self.reason)

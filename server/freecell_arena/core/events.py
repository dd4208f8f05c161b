"""Where messages go after a commit: a small publish/subscribe interface.

Topics are `room:<code>` (everyone in a room: progress, membership, countdown, results) and
`player:<id>` (one player's own messages, e.g. their copy of the deal). `InProcessPublisher` fans out to the
connections of this process; several processes sharing PostgreSQL put Redis pub/sub behind the same interface
without touching core (`freecell_arena.net.cluster.ClusterPublisher`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Protocol

from freecell_arena.core.ports.records import RoomVersion
from freecell_arena.protocol.trusted import Reply

Subscriber = Callable[[Reply], None]


def room_topic(code: str) -> str:
    return f"room:{code}"


def player_topic(player_id: str) -> str:
    return f"player:{player_id}"


class Publisher(Protocol):
    def publish(self, topic: str, message: Reply, skip: str | None = None, version: RoomVersion | None = None) -> None:
        """Deliver to every subscriber of `topic` except those subscribed on behalf of player `skip`; `version`
        is the room version a room event brings (`Publication.version`), for processes that share rooms."""


class InProcessPublisher:
    """Synchronous fan-out; a subscriber must not block (the net adapter only queues the frame)."""

    def __init__(self) -> None:
        self._subscribers: defaultdict[str, list[tuple[str | None, Subscriber]]] = defaultdict(list)

    def subscribe(self, topic: str, subscriber: Subscriber, owner: str | None = None) -> Callable[[], None]:
        entry = (owner, subscriber)
        self._subscribers[topic].append(entry)

        def unsubscribe() -> None:
            listeners = self._subscribers.get(topic)
            if listeners and entry in listeners:
                listeners.remove(entry)
                if not listeners:
                    del self._subscribers[topic]

        return unsubscribe

    def publish(self, topic: str, message: Reply, skip: str | None = None, version: RoomVersion | None = None) -> None:
        for owner, subscriber in list(self._subscribers.get(topic, ())):
            if skip is None or owner != skip:
                subscriber(message)

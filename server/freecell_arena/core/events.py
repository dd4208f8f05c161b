"""Where messages go after a commit: a small publish/subscribe interface.

Topics are `room:<code>` (everyone in a room: progress, membership, countdown, results) and
`player:<id>` (one player's own messages, e.g. their copy of the deal). Today `InProcessPublisher` fans out
to the connections of this process; several processes sharing PostgreSQL would put Redis pub/sub behind the
same interface without touching core.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Protocol

from freecell_arena.protocol.messages import Message

Subscriber = Callable[[Message], None]


def room_topic(code: str) -> str:
    return f"room:{code}"


def player_topic(player_id: str) -> str:
    return f"player:{player_id}"


class Publisher(Protocol):
    def publish(self, topic: str, message: Message, skip: str | None = None) -> None:
        """Deliver to every subscriber of `topic` except those subscribed on behalf of player `skip`."""


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

    def publish(self, topic: str, message: Message, skip: str | None = None) -> None:
        for owner, subscriber in list(self._subscribers.get(topic, ())):
            if skip is None or owner != skip:
                subscriber(message)

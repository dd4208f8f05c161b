"""Progress coalescing: a room's progress goes out at most once per player per window, not once per move.

Every accepted move of a racer is a `progress` event for everyone else in the room, so a 64-player room played
flat out would cost moves x members frames (and, across processes, as many Redis messages). Racers watch counts,
not every step, so within a short window only each player's latest progress matters.

Leading edge, then trailing edge: the first progress of a room when nothing was sent for it within the window
goes out at once (a quiet room sees no added delay); later ones wait until the window closes, when the latest of
each player goes out, and a new window opens only if something was sent. Any other event of the room (a result,
`race_over`, a member leaving) first flushes what is waiting, so the order members see is the order it happened.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from freecell_arena.core.events import Subscriber
from freecell_arena.core.ports.records import RoomVersion
from freecell_arena.protocol.rooms import ProgressMessage
from freecell_arena.protocol.trusted import Reply


class Publishes(Protocol):
    """What this wraps: a publisher that also takes subscriptions (`InProcessPublisher`, `ClusterPublisher`)."""

    def subscribe(self, topic: str, subscriber: Subscriber, owner: str | None = None) -> Callable[[], None]: ...

    def publish(
        self, topic: str, message: Reply, skip: str | None = None, version: RoomVersion | None = None
    ) -> None: ...


@dataclass
class _Window:
    pending: dict[str, tuple[Reply, str | None]] = field(default_factory=dict)
    timer: asyncio.TimerHandle | None = None


class CoalescingPublisher:
    def __init__(self, inner: Publishes, window_s: float) -> None:
        self.inner = inner
        self.window_s = window_s
        self.sent = 0
        """Progress events passed on (the rest were replaced by a later one of the same player in its window)."""
        self.replaced = 0
        self._windows: dict[str, _Window] = {}

    def subscribe(self, topic: str, subscriber: Subscriber, owner: str | None = None) -> Callable[[], None]:
        return self.inner.subscribe(topic, subscriber, owner)

    def publish(self, topic: str, message: Reply, skip: str | None = None, version: RoomVersion | None = None) -> None:
        if not isinstance(message, ProgressMessage) or self.window_s <= 0:
            self.flush(topic)
            self.inner.publish(topic, message, skip, version)
            return
        window = self._windows.get(topic)
        if window is None:  # nothing sent for this room within the window: at once, and open one
            self._send(topic, message, skip)
            self._open(topic)
            return
        if message.progress.player_id in window.pending:
            self.replaced += 1
        window.pending[message.progress.player_id] = (message, skip)

    def flush(self, topic: str) -> None:
        """Send what waits for `topic` now (before another event of the room)."""
        window = self._windows.get(topic)
        if window is None or not window.pending:
            return
        self._send_pending(topic, window)

    def _send_pending(self, topic: str, window: _Window) -> None:
        pending, window.pending = window.pending, {}
        for message, skip in pending.values():
            self._send(topic, message, skip)

    def _send(self, topic: str, message: Reply, skip: str | None) -> None:
        self.sent += 1
        self.inner.publish(topic, message, skip)

    def _open(self, topic: str) -> None:
        window = _Window()
        window.timer = asyncio.get_running_loop().call_later(self.window_s, self._close, topic)
        self._windows[topic] = window

    def _close(self, topic: str) -> None:
        window = self._windows.pop(topic, None)
        if window is not None and window.pending:
            self._send_pending(topic, window)
            self._open(topic)  # still busy: the next window collects what comes meanwhile

    def close(self) -> None:
        """Send everything waiting and stop the timers (shutdown)."""
        for topic in list(self._windows):
            self.flush(topic)
            window = self._windows.pop(topic)
            if window.timer is not None:
                window.timer.cancel()

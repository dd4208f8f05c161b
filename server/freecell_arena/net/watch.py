"""Every connection's clocks in one task: the hello deadline, the idle timeout and the keepalive ping.

A connection used to carry three timers of its own: websockets' keepalive task (a coroutine asleep between
pings), an idle timer and a hello timer. They mostly never fire, and cost about 2 KiB of each idle connection's
memory (docs/performance.md, memory per idle connection). Here one task wakes a few times a second and asks
each open connection whether one of its deadlines has passed (`Watched.check_clocks`): a connection past its
hello deadline or idle timeout is closed with 1008, one whose keepalive ping went unanswered for
`ping_timeout_s` with 1011 (as websockets' own keepalive did), and one due a ping is pinged. A connection is
pinged `ping_interval_s` after it opened, then after each answer, so the pings of many connections spread out
as their openings do. How late a deadline is noticed: at most one period (a quarter of the shortest of the four
settings, at most a second).

Why not a timer wheel: at 10,000 connections one look at every connection costs a few milliseconds a second,
about what the timers it replaces cost to arm and cancel, and it keeps no state per deadline.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from freecell_arena.net.background import cancel_quietly, every
from freecell_arena.net.throttled_log import ThrottledLog

log = logging.getLogger(__name__)
failures = ThrottledLog(log)

LONGEST_PERIOD_S = 1.0
SHORTEST_PERIOD_S = 0.02


class Watched(Protocol):
    """What the watch needs of a connection (net/connection.py's `Connection`)."""

    def check_clocks(self, now: float) -> bool:
        """Close the connection if a deadline has passed; True when a keepalive ping is due."""
        ...

    def ping(self, now: float) -> None:
        """Send the keepalive ping (its answer is the connection's to wait for: `check_clocks`)."""
        ...


def watch_period(*deadlines_s: float) -> float:
    """A quarter of the shortest deadline, between `SHORTEST_PERIOD_S` and `LONGEST_PERIOD_S`."""
    return max(SHORTEST_PERIOD_S, min(LONGEST_PERIOD_S, *(deadline / 4 for deadline in deadlines_s)))


class ConnectionWatch:
    def __init__(self, period_s: float) -> None:
        self.period_s = period_s
        self._watched: set[Watched] = set()
        self._task: asyncio.Task[None] | None = None

    def __len__(self) -> int:
        return len(self._watched)

    def add(self, connection: Watched) -> None:
        self._watched.add(connection)

    def discard(self, connection: Watched) -> None:
        self._watched.discard(connection)

    def start(self) -> None:
        loop = asyncio.get_running_loop()  # a bug in one look must not stop every connection's clocks
        self._task = asyncio.create_task(every(self.period_s, lambda: self.look(loop.time()), failures,
                                               "watching the connections", bug=True), name="connection-watch")

    async def close(self) -> None:
        await cancel_quietly(self._task)

    async def look(self, now: float) -> None:
        """One look at every connection; the pings due are sent after it (each is written at once: a connection
        whose socket must wait is not pinged, see `Connection.ping`)."""
        due = [connection for connection in list(self._watched) if connection.check_clocks(now)]
        for connection in due:
            connection.ping(now)

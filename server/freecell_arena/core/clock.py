"""The injected clock: core never reads the time itself, so tests and replays can drive it."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime: ...


class SystemClock:
    """Wall-clock UTC time. `now` is `datetime.now(UTC)` itself, not a method around it: a move reads the clock
    twice, and a call straight into C costs it no Python frame (and no step into this module on a move's road)."""

    now = staticmethod(partial(datetime.now, UTC))


def elapsed_ms(start: datetime, end: datetime) -> int:
    return max(0, round((end - start).total_seconds() * 1000))

"""Log lines that repeat during an outage once per kind and interval, with a count, instead of once per event.

A database that is down fails every move of every player: one traceback each filled the log with hundreds of
identical lines a second and hid everything else. The first failure of a kind is logged at once (one line, no
traceback: the kind and the message say what happened); the same kind again within the interval is only
counted, and the count goes out with the next line of that kind. The metrics count every failure.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class _Kind:
    logged_at: float
    suppressed: int = 0


class ThrottledLog:
    def __init__(self, logger: logging.Logger, interval_s: float = 10.0,
                 clock: Callable[[], float] = time.monotonic) -> None:  # fmt: skip
        self.logger = logger
        self.interval_s = interval_s
        self.clock = clock
        self._kinds: dict[str, _Kind] = {}

    def warning(self, kind: str, message: str) -> None:
        """One line, no traceback: for failures whose kind says it all (the database is down)."""
        self._emit(kind, message, traceback=False)

    def exception(self, kind: str, message: str) -> None:
        """For the unexpected (a bug): the first of a kind with its traceback, the repeats counted."""
        self._emit(kind, message, traceback=True)

    def _emit(self, kind: str, message: str, *, traceback: bool) -> None:
        now = self.clock()
        seen = self._kinds.get(kind)
        if seen is not None and now - seen.logged_at < self.interval_s:
            seen.suppressed += 1
            return
        if seen is not None and seen.suppressed:
            message += f" ({seen.suppressed} more like it in the last {now - seen.logged_at:.0f} s)"
        self._kinds[kind] = _Kind(now)
        self.logger.log(logging.ERROR if traceback else logging.WARNING, message, exc_info=traceback)


def one_line(error: BaseException) -> str:
    """`Type: message` on one line (a database error's text can span many)."""
    cause = getattr(error, "orig", None) or error
    text = " ".join(str(cause).split())
    return f"{type(error).__name__}: {text[:300]}" if text else type(error).__name__

"""Rating the races left unrated (`core.competition.rating_recovery`), in the background: at start, then every interval.

One task a process; a sweep is a few reads and, per race found, the ledger's short transaction, never on a
move's path. What it rated is told to its room (`race_ratings`, as the live rater does: a member still there
sees the Rating column fill in). A failure is logged and never ends the task: a race that cannot be rated is
named once per process, a sweep that fails (the database is down) once per kind and interval, and the next
sweep tries again.
"""

from __future__ import annotations

import asyncio
import logging

from freecell_arena.core.clock import Clock
from freecell_arena.core.competition.rating_recovery import RatingRecovery, RecoveryStore, SweepReport
from freecell_arena.core.events import Publisher, room_topic
from freecell_arena.net.background import cancel_quietly, every
from freecell_arena.net.throttled_log import ThrottledLog, one_line

log = logging.getLogger(__name__)
NAMED_FAILURES_KEPT = 1000
"""Races whose failure was logged, remembered so that each is named once (beyond this many, the set starts over)."""


class RatingSweeper:
    def __init__(self, store: RecoveryStore, publisher: Publisher, clock: Clock, interval_s: float) -> None:
        self.recovery = RatingRecovery(store)
        self.publisher = publisher
        self.clock = clock
        self.interval_s = interval_s
        self.failures = ThrottledLog(log)
        self._named: set[str] = set()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Sweep now and then every interval (0: never)."""
        if self.interval_s > 0 and self._task is None:
            self._task = asyncio.create_task(every(self.interval_s, self.sweep, self.failures, "a rating sweep",
                                                   at_once=True, bug=True), name="rating-sweep")

    async def sweep(self) -> SweepReport | None:
        """One sweep; None when it could not read what to rate (logged)."""
        try:
            report = await self.recovery.sweep(self.clock.now())
        except Exception as error:  # the database may be down a while: the next sweep tries again
            self.failures.warning("sweep", f"looking for races left unrated failed: {one_line(error)}")
            return None
        for message in report.rated:
            self.publisher.publish(room_topic(message.code), message)
        if report.rated:
            log.info("rated %d race%s left unrated: %s", len(report.rated), "s" if len(report.rated) != 1 else "",
                     " ".join(message.code for message in report.rated))  # fmt: skip
        for code, failure in report.failed:
            if code not in self._named:
                if len(self._named) >= NAMED_FAILURES_KEPT:
                    self._named.clear()
                self._named.add(code)
                log.warning("race %s was left unrated and could not be rated yet: %s", code, one_line(failure))
        return report

    async def close(self) -> None:
        await cancel_quietly(self._task)

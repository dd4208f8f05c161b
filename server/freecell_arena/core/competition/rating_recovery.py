"""Races left unrated, rated late: each server's sweep for finished rateable races with no rating changes.

Why: a race is rated in the background once its finish is stored (`core.records.race_ratings`); a process that dies
between the two (kill -9), or a database that failed every retry, would leave the race unrated for good. So
every process sweeps now and then (at start, then every interval: `net.rating_sweep`) and rates each race it
finds over the same ledger (`core.records.ratings.settle_race`): still at most once, whichever processes sweep at
the
same time, and the live rater too (the ledger's compare-and-set and unique (room, player, ladder)).

What a late race is rated from, so that ratings stay recomputable (`freecell-arena audit`):

- its placements come from its stored results by the room's ranking (`LeftUnrated.race_end`), exactly what
  the audit recomputes them from;
- it is rated against its players' ratings as they are *now*, after every race rated before it, and dated by
  its finish. Ratings are applied in one order, `rating_changes.id`, which is the order the audit replays them
  in; a late race takes its place in that order when it is rated, not at its finish, so the audit agrees.
  (Slotting it in at its finish would rewrite every later race's ratings, already shown to the players.)

Which races: the audit's own rule, one query for both (`UnratedReads.left_unrated`): ranked, a deal the server
drew, two results on one ladder, no rating changes, finished since ratings went live. Bounds:

- a race finished less than `SETTLE_GRACE` ago is left to the process that finished it (rating it, retries
  included): the sweep does not race it for nothing;
- a process's first sweep looks back to when ratings went live; each later one only `LOOKBACK` before the end
  of its last sweep that went through without a failure (a finish stored late is dated at its time limit, and
  the processes' clocks differ a little), so a periodic sweep reads a short range of an index;
- `BATCH` rooms a read, one race rated at a time; a race that fails is reported and the sweep goes on to the
  next, up to `MAX_FAILURES` a sweep (a database that is down fails them all).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Protocol

from freecell_arena.core.records.race_ratings import RaceRatings, UnratedReads, ratings_message
from freecell_arena.core.records.ratings import settle_race
from freecell_arena.protocol.profiles import RaceRatingsMessage

SETTLE_GRACE = timedelta(minutes=1)
"""A race finished this recently is its finisher's to rate (its retries take seconds)."""
LOOKBACK = timedelta(hours=1)
"""How far before the end of its last complete sweep a process's next sweep starts."""
BATCH = 50
MAX_FAILURES = 3


class RecoveryStore(RaceRatings, UnratedReads, Protocol):
    """The ledger and the reads of races left unrated."""


@dataclass(slots=True)
class SweepReport:
    rated: list[RaceRatingsMessage] = field(default_factory=list)
    """The races this sweep rated, each as its `race_ratings` message (for the room)."""
    already_rated: int = 0
    """Races found unrated that someone else (another process's sweep, the live rater) rated first."""
    failed: list[tuple[str, Exception]] = field(default_factory=list)
    """(room code, error) of each race that could not be rated."""
    complete: bool = False
    """The sweep went through its whole window without a failure."""


class RatingRecovery:
    """One process's sweeps: where the last complete one ended, so the next reads only what is new."""

    def __init__(self, store: RecoveryStore, *, grace: timedelta = SETTLE_GRACE, lookback: timedelta = LOOKBACK,
                 batch: int = BATCH, max_failures: int = MAX_FAILURES) -> None:  # fmt: skip
        self.store = store
        self.grace = grace
        self.lookback = lookback
        self.batch = batch
        self.max_failures = max_failures
        self.covered_until: datetime | None = None
        """Every race finished before this had been rated when a sweep last went through without a failure."""
        self._live_since: datetime | None = None

    async def sweep(self, now: datetime) -> SweepReport:
        """Rate every race left unrated that finished since the window's start and before `now - grace`."""
        report = SweepReport()
        live_since = await self.live_since()
        if live_since is None:  # nothing rated yet: ratings are not live, nothing was left out
            report.complete = True
            return report
        before = now - self.grace
        since = live_since if self.covered_until is None else max(live_since, self.covered_until - self.lookback)
        after = None
        while True:
            batch = await self.store.left_unrated(since, before, after, self.batch)
            for race in batch.races:
                end = race.race_end()
                try:
                    changes = await settle_race(self.store, end.room_id, end.variant, end.placements, end.at)
                except Exception as error:  # this race stays unrated; the next sweep tries it again
                    report.failed.append((race.code, error))
                    if len(report.failed) >= self.max_failures:
                        return report
                    continue
                if changes is None:
                    report.already_rated += 1
                elif (message := ratings_message(end.code, end.variant, changes)) is not None:
                    report.rated.append(message)
            if batch.last is None:
                break
            after = batch.last
        if not report.failed:
            report.complete = True
            self.covered_until = before
        return report

    async def live_since(self) -> datetime | None:
        """When ratings went live, read until known and then kept (it does not move: a race rated since finished
        after it, the sweep's ones included)."""
        if self._live_since is None:
            self._live_since = await self.store.ratings_live_since()
        return self._live_since

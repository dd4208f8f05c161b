"""The daily challenge's background work: deals prepared ahead in a worker process, days closed on time.

- Every `daily_prepare_interval_s` (and at start) today's and tomorrow's deals of every daily variant are
  made sure of: a missing one is computed by `freecell_arena.core.records.daily.prepare_daily` in a separate process
  (the
  solver is pure Python: on the event loop it would stall every connection for seconds) and stored
  insert-if-absent, so processes that race agree on the first one stored. The first player of a day
  therefore never waits on the solver; if a deal is somehow missing, `play_daily` says so at once.
- A day whose close is `daily_finalize_delay_s` behind us gets its final ranks and season tables
  materialised (`DailyStore.finalize`; one process wins, the others see it done).
- Before `play_daily` reaches core, the deal and whether the player already made a ranked attempt (in any
  process: the database says) are loaded into the arena (`load_for`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from datetime import date, timedelta

from freecell_arena.core.clock import Clock
from freecell_arena.core.ports.records import DailyRecord
from freecell_arena.core.records import daily
from freecell_arena.core.seams import DailyDesk
from freecell_arena.core.server_store import ServerStore
from freecell_arena.net.background import cancel_quietly, every
from freecell_arena.net.solver_pool import SolverPool
from freecell_arena.net.throttled_log import ThrottledLog
from freecell_arena.protocol.leaderboards import PlayDailyRequest
from freecell_arena.protocol.wire import Message
from freecell_arena.settings import Settings

log = logging.getLogger(__name__)

LOADS_FOR = (PlayDailyRequest,)
"""The requests that need today's deal (and the player's ranked attempt) loaded before core sees them."""


class DailyService:
    def __init__(self, settings: Settings, store: ServerStore, desk: DailyDesk, clock: Clock) -> None:
        self.settings = settings
        self.store = store
        self.desk = desk
        self.clock = clock
        self._secret: bytes | None = None
        self._solver = SolverPool()
        self._task: asyncio.Task[None] | None = None
        self._deals: dict[tuple[str, date], DailyRecord] = {}
        self._preparing = asyncio.Lock()
        self.failures = ThrottledLog(log)
        desk.offered = set(settings.daily.variant_ids)

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> None:
        if self.settings.daily.prepare_interval_s > 0 and self.settings.daily.variant_ids:
            self._task = asyncio.create_task(every(self.settings.daily.prepare_interval_s, self.run_once,
                                                   self.failures, "daily preparation", at_once=True, bug=True),
                                             name="daily-service")  # fmt: skip

    async def close(self) -> None:
        await cancel_quietly(self._task)  # again and again: a solve's answer arriving as it lands can swallow one
        await self._solver.close()  # a solve in progress is abandoned; the next start prepares again

    async def run_once(self) -> None:
        """Prepare today's and tomorrow's deals, then close the days that are over."""
        today = daily.today(self.clock.now())
        await self.prepare([today, today + timedelta(days=1)])
        await self.finalize_closed_days()

    # ------------------------------------------------------------------ preparing

    async def secret(self) -> bytes:
        if self._secret is None:
            configured = self.settings.daily.secret
            value = configured or await self.store.dailies.shared_secret(self.clock.now())
            self._secret = value.encode()
        return self._secret

    async def prepare(self, days: Iterable[date]) -> list[DailyRecord]:
        """Make sure every daily variant has a deal for each day; compute missing ones in the worker."""
        prepared = []
        async with self._preparing:
            days = list(days)
            for variant in self.settings.daily.variant_ids:
                have = await self.store.dailies.prepared_days(variant, days)
                for day in days:
                    if day in have:
                        continue
                    record = await self._solve_in_worker(variant, day)
                    stored = await self.store.dailies.save(record)
                    log.info("daily %s %s prepared: par %s (candidate %s)", variant, day, stored.par, stored.candidate)
                    prepared.append(stored)
        return prepared

    async def _solve_in_worker(self, variant: str, day: date) -> DailyRecord:
        settings = self.settings
        secret = await self.secret()
        # A worker that died mid-task never answers: the wait is bounded by the most the solver may take, then a
        # new worker starts at the next interval.
        longest = settings.daily.solver_budget_s * settings.daily.candidates + 60
        return await self._solver.run(
            daily.prepare_daily,
            (secret, variant, day, self.clock.now()),
            {
                "max_nodes": settings.daily.solver_nodes,
                "budget_s": settings.daily.solver_budget_s,
                "max_candidates": settings.daily.candidates,
            },
            longest,
        )

    # ------------------------------------------------------------------ closing days

    async def finalize_closed_days(self) -> list[tuple[str, date]]:
        now = self.clock.now()
        delay = timedelta(seconds=self.settings.daily.finalize_delay_s)
        done = []
        for variant, day in await self.store.dailies.unfinalized(before=daily.today(now)):
            if now < daily.closes_at(day) + delay:
                continue
            if await self.store.dailies.finalize(variant, day, now):
                log.info("daily %s %s closed: final ranks and season tables written", variant, day)
                done.append((variant, day))
        return done

    # ------------------------------------------------------------------ reads for core and the queries

    async def deal(self, variant: str, day: date) -> DailyRecord | None:
        """A stored deal (cached: a deal never changes once stored)."""
        key = (variant, day)
        if key not in self._deals:
            found = await self.store.dailies.deal(variant, day)
            if found is None:
                return None
            self._deals[key] = found
        return self._deals[key]

    async def load_for(self, player_id: str, request: Message) -> None:
        """Before `play_daily` reaches core: today's deal, and whether this player already had a ranked try."""
        if not isinstance(request, LOADS_FOR):
            return
        day = self.desk.today()
        found = await self.deal(request.variant, day)
        if found is None:
            return  # core refuses with daily_not_ready (or unknown_variant)
        self.desk.know_deal(found)
        variant = found.variant
        if self.desk.may_be_ranked(player_id, variant, day) and await self.store.dailies.has_ranked_attempt(
            player_id, variant, day
        ):
            self.desk.know_attempt(player_id, variant, day)

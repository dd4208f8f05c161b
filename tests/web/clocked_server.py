"""A server whose clock the test moves (days pass in seconds) with the FreeCell daily on: the browser tests of the
daily challenge, streaks and ratings start one each."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

from arena_server import started_arena
from boards_helpers import ManualClock

from freecell_arena.net.app import ArenaServer


@contextlib.asynccontextmanager
async def clocked_daily_server(
    sqlite_url: str, *, days_ago: int, secret: str
) -> AsyncIterator[tuple[ArenaServer, ManualClock]]:
    """The server and its clock, set `days_ago` days back (players made then are older than today's deal)."""
    clock = ManualClock(datetime.now(UTC).replace(microsecond=0) - timedelta(days=days_ago))
    async with started_arena(
        sqlite_url, clock, daily_variants="freecell", daily_secret=secret, daily_solver_nodes=50_000,
        rate_limit_per_s=10_000.0, rate_limit_burst=10_000,
    ) as server:  # fmt: skip
        yield server, clock

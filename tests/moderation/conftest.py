"""Fixtures of the moderation tests: a server on a manual clock (wins paced like a person's, a daily to win), the
server tests' client and process helpers, and the account tests' software authenticator."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(TESTS / "server"), str(TESTS / "accounts")]
from arena_server import start_arena  # noqa: E402
from boards_helpers import ManualClock  # noqa: E402
from moderation_support import DAILY_SECRET, Site  # noqa: E402

START = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)


@pytest.fixture
async def site(database_url: str) -> AsyncIterator[Site]:
    clock = ManualClock(START)
    server = await start_arena(database_url, clock, daily_variants="freecell", daily_secret=DAILY_SECRET,
                               daily_finalize_delay_s=0, daily_solver_nodes=50_000)  # fmt: skip
    site = Site(server, clock, database_url)
    try:
        yield site
    finally:
        await site.close()
        await server.shutdown()

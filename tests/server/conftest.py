"""Fixtures for the server tests: a real ArenaServer on a free loopback port over a real database.

`database_url` comes from tests/conftest.py (the storage helper's): a fresh database at the head migration,
parametrized over SQLite and PostgreSQL, so every test that uses `arena` runs on both backends.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from arena_server import RunningArena, start_arena
from boards_helpers import ManualClock

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
async def arena(database_url: str) -> AsyncIterator[RunningArena]:
    server = await start_arena(database_url)
    try:
        yield RunningArena(server, f"ws://127.0.0.1:{server.port}/", database_url)
    finally:
        await server.shutdown()


@pytest.fixture
async def paced_arena(database_url: str) -> AsyncIterator[tuple[RunningArena, ManualClock]]:
    """A server whose clock moves only when the test says: wins paced like a person's, races started on cue."""
    clock = ManualClock(datetime(2026, 11, 25, 12, 0, tzinfo=UTC))
    server = await start_arena(database_url, clock)
    try:
        yield RunningArena(server, f"ws://127.0.0.1:{server.port}/", database_url), clock
    finally:
        await server.shutdown()


@pytest.fixture
async def strict_arena(database_url: str) -> AsyncIterator[RunningArena]:
    """Small limits, so the rate limit, the size limit and the idle timeout are reached in a few frames."""
    server = await start_arena(
        database_url, rate_limit_per_s=1.0, rate_limit_burst=5, max_message_bytes=1024, idle_timeout_s=1.0
    )
    try:
        yield RunningArena(server, f"ws://127.0.0.1:{server.port}/", database_url)
    finally:
        await server.shutdown()

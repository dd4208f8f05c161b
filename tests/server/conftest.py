"""Fixtures for the server tests: a real ArenaServer on a free loopback port over a real database.

`database_url` comes from tests/conftest.py (the storage helper's): a fresh database at the head migration,
parametrized over SQLite and PostgreSQL, so every test that uses `arena` runs on both backends.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from server.core.clock import Clock
from server.net.app import ArenaServer
from server.settings import Settings
from server.store import GroupCommitWriter, SqlStore

REPO = Path(__file__).resolve().parents[2]


@dataclass
class RunningArena:
    server: ArenaServer
    url: str
    database_url: str


async def start_arena(database_url: str, clock: Clock | None = None, **overrides: object) -> ArenaServer:
    """Daily deals are not prepared in the background unless a test asks (`daily_prepare_interval_s`)."""
    values: dict[str, object] = {
        "rate_limit_per_s": 1000.0,
        "rate_limit_burst": 1000,
        "daily_prepare_interval_s": 0,
        **overrides,
    }
    settings = Settings(host="127.0.0.1", port=0, database_url=database_url, tick_interval_s=0.02, **values)
    store = SqlStore(database_url)
    server = ArenaServer(settings, store, GroupCommitWriter(store), clock)
    await server.start()
    return server


@pytest.fixture
async def arena(database_url: str) -> AsyncIterator[RunningArena]:
    server = await start_arena(database_url)
    try:
        yield RunningArena(server, f"ws://127.0.0.1:{server.port}/", database_url)
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

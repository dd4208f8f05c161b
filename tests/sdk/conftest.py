"""Fixtures for the SDK tests: a real in-process server on SQLite or on the session's PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from .support import Arena, start_server


@pytest.fixture
async def sqlite_arena(tmp_path: Path, _sqlite_template: Path) -> AsyncIterator[Arena]:
    """SQLite (a copy of the session's migrated template)."""
    path = tmp_path / "arena.db"
    path.write_bytes(_sqlite_template.read_bytes())
    database_url = f"sqlite+aiosqlite:///{path}"
    server = await start_server(database_url)
    try:
        yield Arena(server, f"ws://127.0.0.1:{server.port}/", database_url)
    finally:
        await server.shutdown()


@pytest.fixture
async def postgres_arena(postgres_server: Any, _postgres_template: str) -> AsyncIterator[Arena]:
    """A fresh migrated database of the session's PostgreSQL (tests/conftest.py)."""
    name = postgres_server.create_database(template=_postgres_template)
    database_url = postgres_server.url(name)
    try:
        server = await start_server(database_url)
        try:
            yield Arena(server, f"ws://127.0.0.1:{server.port}/", database_url)
        finally:
            await server.shutdown()
    finally:
        postgres_server.drop_database(name)

"""Fixtures of the store tests (the backend-parametrized `database_url` is in tests/conftest.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from freecell_arena.store import SqlStore


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[SqlStore]:
    """A store on a fresh database, closed after the test."""
    store = SqlStore(database_url)
    yield store
    await store.close()

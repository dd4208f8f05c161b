"""Plain database URLs are mapped to the async drivers; anything else is refused with a clear message."""

from __future__ import annotations

import pytest

from freecell_arena.store import DatabaseUrlError, normalize_database_url
from freecell_arena.store.urls import display_url


@pytest.mark.parametrize(
    ("given", "used"),
    [
        ("sqlite:///arena.db", "sqlite+aiosqlite:///arena.db"),
        ("sqlite+aiosqlite:////var/lib/arena.db", "sqlite+aiosqlite:////var/lib/arena.db"),
        ("postgresql://u:p%40ss@db:5432/arena", "postgresql+asyncpg://u:p%40ss@db:5432/arena"),
        ("postgres://u@db/arena", "postgresql+asyncpg://u@db/arena"),
        ("postgresql+asyncpg://u@db/arena", "postgresql+asyncpg://u@db/arena"),
    ],
)
def test_plain_urls_get_the_async_driver(given: str, used: str) -> None:
    assert normalize_database_url(given) == used


@pytest.mark.parametrize(
    ("given", "complaint"),
    [
        ("mysql://db/arena", "unsupported database"),
        ("postgresql+psycopg://db/arena", "unsupported driver"),
        ("sqlite+pysqlite:///arena.db", "unsupported driver"),
        ("sqlite://", "in-memory"),
        ("sqlite:///:memory:", "in-memory"),
        ("not a url", "not a database URL"),
    ],
)
def test_unusable_urls_are_refused(given: str, complaint: str) -> None:
    with pytest.raises(DatabaseUrlError, match=complaint):
        normalize_database_url(given)


def test_display_url_hides_the_password() -> None:
    assert display_url("postgresql://arena:secret@db/arena") == "postgresql+asyncpg://arena:***@db/arena"

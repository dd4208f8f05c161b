"""Database URLs: the async driver of each backend is chosen here, so users may write plain URLs."""

from __future__ import annotations

import os

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from freecell_arena.store.errors import DatabaseUrlError

DATABASE_URL_ENV = "FREECELL_ARENA_DATABASE_URL"
DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///freecell-arena.db"

# backend name -> the only async driver the store supports for it
_ASYNC_DRIVERS = {"sqlite": "aiosqlite", "postgresql": "asyncpg"}
_BACKEND_ALIASES = {"postgres": "postgresql"}


def parse_database_url(url: str | URL) -> URL:
    """Parse `url` and map it to its async driver: `sqlite:///x.db` -> `sqlite+aiosqlite:///x.db`,
    `postgresql://...` and `postgres://...` -> `postgresql+asyncpg://...`."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise DatabaseUrlError(f"not a database URL: {str(url)!r}") from None
    backend, _, driver = parsed.drivername.partition("+")
    backend = _BACKEND_ALIASES.get(backend, backend)
    wanted = _ASYNC_DRIVERS.get(backend)
    if wanted is None:
        raise DatabaseUrlError(
            f"unsupported database {parsed.drivername!r}: use sqlite+aiosqlite:///FILE or postgresql+asyncpg://..."
        )
    if driver and driver != wanted:
        raise DatabaseUrlError(f"unsupported driver {parsed.drivername!r}: use {backend}+{wanted}")
    if backend == "sqlite" and parsed.database in (None, "", ":memory:"):
        raise DatabaseUrlError("an in-memory SQLite database cannot be shared or migrated: give a file path")
    return parsed.set(drivername=f"{backend}+{wanted}")


def normalize_database_url(url: str | URL) -> str:
    """The async URL as a string (password kept: it is used to connect)."""
    return parse_database_url(url).render_as_string(hide_password=False)


def display_url(url: str | URL) -> str:
    """The URL with its password hidden, for messages and logs."""
    try:
        return parse_database_url(url).render_as_string(hide_password=True)
    except DatabaseUrlError:
        return str(url)


def database_url_from_env() -> str:
    """`FREECELL_ARENA_DATABASE_URL`, else the embedded SQLite default."""
    return os.environ.get(DATABASE_URL_ENV) or DEFAULT_DATABASE_URL

"""Durable storage: the SQLAlchemy adapter behind `freecell_arena.core.ports.records.Store`.

- `SqlStore(url)`: the `Store` on SQLite (aiosqlite) or PostgreSQL (asyncpg); one transaction per `write`.
- `GroupCommitWriter(store)`: many concurrent `submit`s share one transaction; each returns once committed.
- `migrate(url)` / `check_migrated(url)`: Alembic upgrade to head / refuse a database that is not at head.

The names are exported lazily (PEP 562): `from freecell_arena.store import StoreError` loads only the module
that defines it, so a command that needs one error class does not pay for SQLAlchemy, Alembic and asyncpg.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# exported name -> the module of this package that defines it
_EXPORTS: dict[str, str] = {
    "DatabaseNotMigratedError": "errors",
    "DatabaseUrlError": "errors",
    "RecordRefusedError": "errors",
    "StoreError": "errors",
    "WriterClosedError": "errors",
    "GroupCommitWriter": "group_commit",
    "check_migrated": "migrations",
    "current_revision": "migrations",
    "head_revision": "migrations",
    "migrate": "migrations",
    "SqlStore": "sql_store",
    "DATABASE_URL_ENV": "urls",
    "DEFAULT_DATABASE_URL": "urls",
    "database_url_from_env": "urls",
    "normalize_database_url": "urls",
}

__all__ = [
    "DATABASE_URL_ENV",
    "DEFAULT_DATABASE_URL",
    "DatabaseNotMigratedError",
    "DatabaseUrlError",
    "GroupCommitWriter",
    "RecordRefusedError",
    "SqlStore",
    "StoreError",
    "WriterClosedError",
    "check_migrated",
    "current_revision",
    "database_url_from_env",
    "head_revision",
    "migrate",
    "normalize_database_url",
]

if TYPE_CHECKING:
    from freecell_arena.store.errors import (
        DatabaseNotMigratedError,
        DatabaseUrlError,
        RecordRefusedError,
        StoreError,
        WriterClosedError,
    )
    from freecell_arena.store.group_commit import GroupCommitWriter
    from freecell_arena.store.migrations import check_migrated, current_revision, head_revision, migrate
    from freecell_arena.store.sql_store import SqlStore
    from freecell_arena.store.urls import (
        DATABASE_URL_ENV,
        DEFAULT_DATABASE_URL,
        database_url_from_env,
        normalize_database_url,
    )


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])

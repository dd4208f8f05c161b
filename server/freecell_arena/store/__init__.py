"""Durable storage: the SQLAlchemy adapter behind `freecell_arena.core.ports.Store`.

- `SqlStore(url)`: the `Store` on SQLite (aiosqlite) or PostgreSQL (asyncpg); one transaction per `write`.
- `GroupCommitWriter(store)`: many concurrent `submit`s share one transaction; each returns once committed.
- `migrate(url)` / `check_migrated(url)`: Alembic upgrade to head / refuse a database that is not at head.
"""

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

"""Engines with the settings that make acknowledged writes durable and concurrent readers safe."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from freecell_arena.store.urls import parse_database_url

SQLITE_BUSY_TIMEOUT_MS = 10_000
WRITE_OPTION = "freecell_arena_write"  # execution option: this transaction will write (SQLite: BEGIN IMMEDIATE)


def create_engine(url: str, *, foreign_keys: bool = True, **engine_options: Any) -> AsyncEngine:
    """An async engine for `url` (plain URLs are mapped to aiosqlite/asyncpg). `foreign_keys=False` is for
    migrations only: SQLite's batch mode rebuilds a table (copy, drop, rename), and dropping a table that other
    rows reference fails while foreign keys are enforced; the migration checks every reference itself."""
    parsed = parse_database_url(url)
    engine = create_async_engine(parsed, **engine_options)
    if parsed.get_backend_name() == "sqlite":
        _configure_sqlite(engine, foreign_keys)
    return engine


def _configure_sqlite(engine: AsyncEngine, foreign_keys: bool) -> None:
    """WAL + synchronous=FULL + foreign keys + busy timeout, and real transactions.

    The Python sqlite3 driver by default opens a transaction only before a data change and never before a
    SELECT, so two SELECTs of one read could see different commits, and DDL is not transactional. The
    SQLAlchemy-documented fix: let the driver autocommit and emit BEGIN ourselves. Writing transactions use
    BEGIN IMMEDIATE, which takes the write lock up front, so they wait (busy timeout) instead of failing when
    another connection commits first.
    """

    @event.listens_for(engine.sync_engine, "connect")
    def on_connect(dbapi_connection: Any, _connection_record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
            cursor.execute("PRAGMA journal_mode = WAL")
            cursor.execute("PRAGMA synchronous = FULL")
            cursor.execute(f"PRAGMA foreign_keys = {'ON' if foreign_keys else 'OFF'}")
        finally:
            cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def on_begin(connection: Connection) -> None:
        writing = connection.get_execution_options().get(WRITE_OPTION, False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if writing else "BEGIN")

"""Engines with the settings that make acknowledged writes durable and concurrent readers safe."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from freecell_arena.store.urls import parse_database_url

SQLITE_BUSY_TIMEOUT_MS = 10_000
WRITE_OPTION = "freecell_arena_write"  # execution option: this transaction will write (SQLite: BEGIN IMMEDIATE)
SQLITE_WAL_AUTOCHECKPOINT_PAGES = 10_000
"""The WAL is copied back into the database once it holds this many pages (40 MB at 4 KiB; SQLite's default is
1,000). Every move adds a row to its game's leaf of the moves key, so a commit of a few hundred moves from as
many games writes about one page a move, and at the default the commit that crossed 1,000 pages (every fourth
or fifth under load) also copied them all back, reading each from the WAL first: most of the writer thread's
I/O. A leaf rewritten by many commits between two checkpoints is copied back once, so a larger WAL copies
fewer pages per move (under bench/load.py at 1,000 connections, 3.5 page writes and 2.4 page reads a move
became 2 and 0.25, with the writer thread's page cache: store/sqlite_writer.py). The WAL file keeps the size it
reached (40 MB of disk)."""


def sqlite_pragmas(*, foreign_keys: bool = True) -> tuple[str, ...]:
    """What every connection to a SQLite database runs first: the SQLAlchemy engine's and the writer thread's."""
    return (
        f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}",
        "PRAGMA journal_mode = WAL",
        "PRAGMA synchronous = FULL",
        f"PRAGMA foreign_keys = {'ON' if foreign_keys else 'OFF'}",
        f"PRAGMA wal_autocheckpoint = {SQLITE_WAL_AUTOCHECKPOINT_PAGES}",
    )


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
    """WAL + synchronous=FULL + foreign keys + busy timeout (`sqlite_pragmas`), and real transactions.

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
            for pragma in sqlite_pragmas(foreign_keys=foreign_keys):
                cursor.execute(pragma)
        finally:
            cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def on_begin(connection: Connection) -> None:
        writing = connection.get_execution_options().get(WRITE_OPTION, False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if writing else "BEGIN")

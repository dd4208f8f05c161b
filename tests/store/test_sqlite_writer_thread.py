"""The SQLite direct writer's own thread: every transaction runs on that one thread, in the order submitted,
its outcome (committed or the error) reaches the coroutine that waits for it, and the thread ends with `close`
or with the writer dropped unclosed. A real SQLite file; no stand-in for the thread or the queue."""

from __future__ import annotations

import asyncio
import gc
import sqlite3
import threading
from pathlib import Path

import pytest
from sqlalchemy.dialects import sqlite
from store_builders import game, move, player

from freecell_arena.core.ports.records import Record
from freecell_arena.store import RecordRefusedError
from freecell_arena.store.sqlite_writer import SqliteWriter


def writer_threads() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name == "sqlite-writer"]


def moves_in(path: Path) -> list[tuple[str, int]]:
    with sqlite3.connect(path) as connection:
        return connection.execute('SELECT game_id, "index" FROM moves ORDER BY rowid').fetchall()


async def migrated(tmp_path: Path) -> Path:
    from freecell_arena.store.migrations import migrate
    from freecell_arena.store.sql_store import SqlStore

    path = tmp_path / "arena.db"
    url = f"sqlite+aiosqlite:///{path}"
    await migrate(url)
    store = SqlStore(url)
    host = player(1)
    await store.write([host, game(1, host)])
    await store.close()
    return path


async def test_transactions_run_in_submission_order_on_one_thread_and_close_ends_it(tmp_path: Path) -> None:
    path = await migrated(tmp_path)
    before = set(writer_threads())
    writer = SqliteWriter(str(path), sqlite.dialect())
    first = game(1, player(1))
    batches: list[list[Record]] = [[move(first, index)] for index in range(20)]
    await asyncio.gather(*(writer.write(batch) for batch in batches))  # submitted together, in this order
    assert moves_in(path) == [(first.game_id, index) for index in range(20)]
    started = set(writer_threads()) - before
    assert len(started) == 1
    assert writer.commits == 20
    await writer.close()
    assert not any(thread.is_alive() for thread in started)
    with pytest.raises(RuntimeError, match="closed"):
        await writer.write([move(first, 20)])
    assert len(moves_in(path)) == 20  # refused, nothing written


async def test_a_refused_transaction_reaches_its_caller_and_the_next_one_commits(tmp_path: Path) -> None:
    path = await migrated(tmp_path)
    writer = SqliteWriter(str(path), sqlite.dialect())
    first = game(1, player(1))
    await writer.write([move(first, 0)])
    with pytest.raises(RecordRefusedError):
        await writer.write([move(first, 1), move(first, 0)])  # a stale writer's duplicate: all of it refused
    await writer.write([move(first, 1)])
    assert moves_in(path) == [(first.game_id, 0), (first.game_id, 1)]
    await writer.close()


async def test_a_writer_dropped_without_close_ends_its_thread(tmp_path: Path) -> None:
    path = await migrated(tmp_path)
    before = set(writer_threads())
    writer = SqliteWriter(str(path), sqlite.dialect())
    await writer.write([move(game(1, player(1)), 0)])
    started = set(writer_threads()) - before
    assert len(started) == 1
    del writer
    gc.collect()
    for thread in started:
        thread.join(5)
        assert not thread.is_alive()


async def test_closing_a_writer_that_never_wrote_starts_no_thread(tmp_path: Path) -> None:
    before = set(writer_threads())
    writer = SqliteWriter(str(tmp_path / "unused.db"), sqlite.dialect())
    await writer.close()
    assert set(writer_threads()) == before
    assert not (tmp_path / "unused.db").exists()


async def test_the_writer_and_the_engine_open_the_file_with_the_same_settings_and_the_writer_a_larger_cache(
    tmp_path: Path,
) -> None:
    """Both connections checkpoint the WAL at the same size (whichever commits past it copies it back), are
    durable and enforce foreign keys; the writer alone keeps the live games' leaves cached between commits."""
    from freecell_arena.store.engine import SQLITE_WAL_AUTOCHECKPOINT_PAGES, create_engine
    from freecell_arena.store.sqlite_writer import WRITER_CACHE_KIB

    path = await migrated(tmp_path)
    questions = ("wal_autocheckpoint", "synchronous", "foreign_keys", "journal_mode", "cache_size")
    engine = create_engine(f"sqlite+aiosqlite:///{path}")
    async with engine.connect() as connection:
        engines = [(await connection.exec_driver_sql(f"PRAGMA {name}")).scalar() for name in questions]
    await engine.dispose()
    writer = SqliteWriter(str(path), sqlite.dialect())
    await writer.write([move(game(1, player(1)), 0)])
    writers: list[object] = []
    connection = writer._connection
    assert connection is not None
    await writer._in_thread(lambda: writers.extend(connection.execute(f"PRAGMA {name}").fetchone()[0]
                                                   for name in questions))
    await writer.close()
    assert engines == [SQLITE_WAL_AUTOCHECKPOINT_PAGES, 2, 1, "wal", -2000]  # 2: FULL; -2000: SQLite's 2 MiB
    assert writers == [SQLITE_WAL_AUTOCHECKPOINT_PAGES, 2, 1, "wal", -WRITER_CACHE_KIB]

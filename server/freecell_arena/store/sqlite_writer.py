"""`SqliteWriter`: the group commit's transaction on SQLite in one hop to one dedicated thread.

Through SQLAlchemy's async engine a write transaction on SQLite costs about 1.3 ms of CPU beyond the database's
own work, however few records it carries: a pool checkout and the reset on return, BEGIN IMMEDIATE, each
statement's cursor, execute and close, COMMIT, each a hop to aiosqlite's thread and back through a greenlet. At
a few hundred transactions a second that is a large part of the server's one core. This writer keeps one
`sqlite3` connection of its own, opened with the same settings (WAL, synchronous=FULL, foreign keys, busy
timeout), and runs the whole transaction (BEGIN IMMEDIATE, one executemany per run of inserts, the updates,
COMMIT) as one call in its own thread.

The thread is the writer's own, fed by a `queue.SimpleQueue` (C), and it answers through
`call_soon_threadsafe`. Not `run_in_executor`: a `ThreadPoolExecutor` wraps every call in a work item, a
`concurrent.futures.Future` with its condition variable and an asyncio future chained to it by callbacks, all of
it interpreted Python, for a pool of one thread. The hop there and back costs 63 us of CPU a transaction instead
of 89 (medians, `bench/thread_hop.py`; most of either is waking the thread and then the loop).

It writes exactly what the SQLAlchemy path writes (`statements.StatementBuilder`: the statements are compiled
from the same tables and every value goes through the column type's own bind processor), so readers cannot tell
the paths apart. Durability is unchanged: `write` returns only after COMMIT, which under
synchronous=FULL has synced the WAL. A refused record (the unique (game, move index) key of a stale writer, a
naive datetime, an unknown room) rolls the whole transaction back and raises `RecordRefusedError`; any other
database error rolls back and is raised as SQLAlchemy's `DBAPIError`, as on the other path.

Records this writer does not take (a won ranked game's leaderboard claim, a pointer: `RECORD_WRITES.direct`)
send their batch through SQLAlchemy instead. Both paths are serialized by the group-commit writer, and SQLite's
write lock (BEGIN IMMEDIATE, busy timeout) orders any other writer.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sqlite3
import threading
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError

from freecell_arena.core.ports.records import Record
from freecell_arena.store.engine import sqlite_pragmas
from freecell_arena.store.errors import RecordRefusedError
from freecell_arena.store.statements import Statement, StatementBuilder, question_mark

Job = tuple[Callable[[], None], asyncio.AbstractEventLoop, "asyncio.Future[None]"]
"""What the writer's thread runs, and the loop and future its outcome goes back to."""
WRITER_CACHE_KIB = 32_768
"""The writer's page cache (SQLite's default is 2,000 KiB). Under load each commit touches a leaf of the moves key
for nearly every live game, about two pages a game: at the default those pages did not stay cached between
commits, and every move read one or two back from the file first (2.4 page reads a move at 1,000 connections,
0.25 with this, under bench/load.py). 32 MiB holds the leaves of some 4,000 live games; it is taken only as pages are
read, by this one connection."""
THREAD_JOIN_TIMEOUT_S = 5.0
"""`close` waits this long for the (by then idle) thread to end; it is a daemon, so it never holds up an exit."""


class SqliteWriter:
    def __init__(self, path: str, dialect: Dialect) -> None:
        self.path = path
        self._builder = StatementBuilder(dialect, question_mark)
        self._jobs: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self._worker: threading.Thread | None = None
        """The one thread that runs every transaction and the close, in the order queued: they never overlap."""
        self._closed = False
        self._connection: sqlite3.Connection | None = None
        self.commits = 0

    def __del__(self) -> None:
        """A writer dropped without `close` still ends its thread (which holds the queue, never the writer)."""
        self._jobs.put(None)

    def write(self, records: Sequence[Record]) -> asyncio.Future[None]:
        """One transaction, in order: the future the writer's thread settles once it is committed (durable). Not a
        coroutine: whoever awaits the write awaits the thread's answer, no frame of this module around it."""
        try:
            statements = self._builder.statements(records)  # values converted here: a bad one is refused before BEGIN
            return self._in_thread(lambda: self._run(statements))
        except Exception as error:  # a bad value, or a closed writer: raised where the write is awaited, as before
            refused: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            refused.set_exception(error)
            return refused

    async def close(self) -> None:
        """Close the connection in the thread, then end the thread; a write after this is refused."""
        if self._closed:
            return
        if self._worker is None:  # never written: no connection, no thread
            self._closed = True
            return
        closing = self._in_thread(self._close)
        self._closed = True
        self._jobs.put(None)  # after the close: the thread ends once the connection is closed
        await closing
        self._worker.join(THREAD_JOIN_TIMEOUT_S)  # at once: all it had left was to read the stop

    def _in_thread(self, call: Callable[[], None]) -> asyncio.Future[None]:
        if self._closed:
            raise RuntimeError("the SQLite writer is closed")
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        if self._worker is None:
            self._worker = threading.Thread(target=_serve, args=(self._jobs,), name="sqlite-writer", daemon=True)
            self._worker.start()
        self._jobs.put((call, loop, done))
        return done

    # --- in the writer thread ----------------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        if self._connection is None:
            connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            try:
                for pragma in (*sqlite_pragmas(), f"PRAGMA cache_size = -{WRITER_CACHE_KIB}"):
                    connection.execute(pragma)
            except BaseException:
                connection.close()
                raise
            self._connection = connection
        return self._connection

    def _run(self, statements: list[Statement]) -> None:
        sql = "BEGIN IMMEDIATE"
        parameters: Any = ()
        try:
            connection = self._connect()
            connection.execute(sql)
            try:
                for sql, parameters, refusal in statements:
                    if refusal is None:
                        connection.executemany(sql, parameters)
                    else:
                        for row in parameters:
                            if connection.execute(sql, row).rowcount != 1:
                                raise RecordRefusedError(refusal)
                sql, parameters = "COMMIT", ()
                connection.execute(sql)
            except BaseException:
                self._rollback(connection)
                raise
        except sqlite3.IntegrityError as error:
            raise RecordRefusedError(f"record refused by the database: {error}") from error
        except sqlite3.Error as error:
            raise DBAPIError.instance(sql, parameters, error, sqlite3.Error) from error
        self.commits += 1

    def _rollback(self, connection: sqlite3.Connection) -> None:
        try:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
        except sqlite3.Error:  # the connection is unusable: open a fresh one for the next transaction
            self._close()

    def _close(self) -> None:
        if self._connection is not None:
            connection, self._connection = self._connection, None
            connection.close()


def _serve(jobs: queue.SimpleQueue[Job | None]) -> None:
    """The writer's thread: run each job in turn and hand its outcome back to its loop, until told to stop."""
    while (job := jobs.get()) is not None:
        call, loop, done = job
        outcome: BaseException | None = None
        try:
            call()
        except BaseException as error:  # every outcome goes back to the waiting coroutine, which raises it
            outcome = error
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits for this answer any more
            loop.call_soon_threadsafe(_settle, done, outcome)
        del job, call, loop, done, outcome  # hold nothing of a finished job while waiting for the next


def _settle(done: asyncio.Future[None], outcome: BaseException | None) -> None:
    if done.done():
        return  # the caller was cancelled; the transaction ran (or failed) all the same, as with an executor
    if outcome is None:
        done.set_result(None)
    else:
        done.set_exception(outcome)


"""`PostgresWriter`: the group commit's transaction on PostgreSQL, on asyncpg directly, over one kept connection.

Through SQLAlchemy a write transaction cost this process 500-640 us of CPU however few records it carried
(`bench/store_write.py --database postgres`): a pool checkout and the reset on return, BEGIN, each statement
through the greenlet bridge and the DBAPI adapter, COMMIT. This writer checks one connection out of the store's
pool and keeps it (so it has the engine's connect arguments and the asyncpg dialect's codecs), and runs each
transaction on the asyncpg connection itself: BEGIN, one executemany per run of inserts, the updates, COMMIT.
A batch that is a single run of inserts (moves, the usual batch) is one executemany alone: asyncpg runs it as one
pipeline ending in a single Sync, which PostgreSQL executes as one implicit transaction (all rows or none, since
asyncpg 0.22), so it needs neither BEGIN nor COMMIT: one round trip instead of three.

It writes exactly what the SQLAlchemy path writes (`statements.StatementBuilder`: statements compiled from the
same tables by the asyncpg dialect, values through the columns' bind processors). Durability is unchanged:
`write` returns only after COMMIT, which PostgreSQL acknowledges once the WAL is flushed. A refused record (an
integrity violation: a stale writer's (game, move index), an unknown room or game, a second result; or a naive
datetime) rolls the whole transaction back and raises `RecordRefusedError`; any other database error rolls back
and is raised as SQLAlchemy's `DBAPIError`, as on the other path. A connection that broke is given back to the
pool as invalid, and the next write checks out a fresh one.

Records it does not take (a won ranked game's leaderboard claim, a pointer: `RECORD_WRITES.direct`) send their
batch through SQLAlchemy instead. The group-commit writer serializes both paths.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from typing import Any

import asyncpg
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from freecell_arena.core.ports.records import Record
from freecell_arena.store.errors import RecordRefusedError
from freecell_arena.store.statements import Statement, StatementBuilder, dollar_number


class PostgresWriter:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._builder = StatementBuilder(engine.dialect, dollar_number)
        self._connection: AsyncConnection | None = None  # checked out of the pool for as long as it works
        self._driver: Any = None  # its asyncpg connection
        self._stale: AsyncConnection | None = None  # cut off by a cancelled write, not yet given back
        self._lock = asyncio.Lock()  # one transaction at a time, even if two callers race
        self.commits = 0

    async def write(self, records: Sequence[Record]) -> None:
        """One transaction, in order; returns once committed (durable)."""
        statements = self._builder.statements(records)  # values are converted here: a bad one is refused before BEGIN
        async with self._lock:
            driver = await self._connect()
            current: list[Any] = ["BEGIN", []]  # the statement under way, for the error
            work = asyncio.ensure_future(_transaction(driver, statements, current))
            work.add_done_callback(_retrieve)
            try:
                # Shielded: asyncpg swallows a cancellation that arrives while an executemany waits to send more
                # rows (it then awaits the server's answer, which cannot come before the rest is sent), so a
                # cancelled write would hang. Here the cancellation reaches this coroutine at once, and cutting
                # the connection (below) ends the statement left behind.
                await asyncio.shield(work)
            except asyncpg.IntegrityConstraintViolationError as error:  # rolled back; the connection is sound
                raise RecordRefusedError(f"record refused by the database: {error}") from error
            except RecordRefusedError:  # an UPDATE that matched no row: rolled back likewise
                raise
            except Exception as error:
                sql, parameters = current
                # The database failed, or the connection did (a PostgresError, an InterfaceError, an OSError, or
                # asyncpg's InternalClientError when the server cut the connection between two batches): start the
                # next batch on a fresh connection rather than trust this one's state (failures are rare; a
                # reconnect is cheap beside them).
                closed = driver.is_closed()
                await self._drop()
                if closed:  # the server cut us off (a restart?): its pooled connections are likely gone too, and
                    await self._engine.dispose(close=False)  # SQLAlchemy itself renews the pool on a disconnect
                raise DBAPIError.instance(sql, parameters, error, Exception, connection_invalidated=closed) from error
            except BaseException:  # cancelled mid-transaction: the connection's state is unknown; cut it
                self._forget()
                raise
            self.commits += 1

    async def close(self) -> None:
        async with self._lock:
            await self._release_stale()
            if self._connection is not None:
                connection, self._connection, self._driver = self._connection, None, None
                await connection.close()

    async def _connect(self) -> Any:
        if self._driver is None:
            await self._release_stale()
            connection = await self._engine.connect()
            try:
                raw = await connection.get_raw_connection()
                self._driver = raw.driver_connection
            except BaseException:
                await connection.close()
                raise
            self._connection = connection
        return self._driver

    async def _drop(self) -> None:
        """Hand the connection back as invalid; the next write checks out another."""
        connection, self._connection, self._driver = self._connection, None, None
        await _give_back_invalid(connection)

    def _forget(self) -> None:
        """Without waiting (we are being cancelled): cut the connection now; it goes back to the pool, as invalid,
        at the next write or at close."""
        if self._driver is not None:
            self._driver.terminate()
        self._stale, self._connection, self._driver = self._connection, None, None

    async def _release_stale(self) -> None:
        connection, self._stale = self._stale, None
        await _give_back_invalid(connection)


async def _give_back_invalid(connection: AsyncConnection | None) -> None:
    """Back to the pool, which discards it. It may be broken already: the next write connects afresh either way."""
    if connection is not None:
        with contextlib.suppress(Exception):
            await connection.invalidate()
            await connection.close()


async def _transaction(driver: Any, statements: list[Statement], current: list[Any]) -> None:
    """The batch's statements in one transaction; `current` names the statement under way."""
    if len(statements) == 1 and statements[0][2] is None:  # the common batch: one run of inserts (moves)
        current[:] = statements[0][:2]
        await driver.executemany(*current)  # atomic alone: one round trip, not three
        return
    async with driver.transaction():
        for sql, parameters, refusal in statements:
            current[:] = [sql, parameters]
            await _execute(driver, sql, parameters, refusal)


def _retrieve(work: asyncio.Future[None]) -> None:
    """A statement cut off by a cancelled write fails when its connection is cut: nobody waits for it."""
    if not work.cancelled():
        work.exception()


async def _execute(driver: Any, sql: str, parameters: list[tuple[Any, ...]], refusal: str | None) -> None:
    if refusal is None:
        await driver.executemany(sql, parameters)
        return
    for row in parameters:
        status = await driver.execute(sql, *row)  # e.g. "UPDATE 1"
        if status.rsplit(" ", 1)[-1] != "1":
            raise RecordRefusedError(refusal)


"""`SqliteWriter`: the group commit's transaction on SQLite in one hop to one dedicated thread.

Through SQLAlchemy's async engine a write transaction on SQLite costs about 1.3 ms of CPU beyond the database's
own work, however few records it carries: a pool checkout and the reset on return, BEGIN IMMEDIATE, each
statement's cursor, execute and close, COMMIT, each a hop to aiosqlite's thread and back through a greenlet. At
a few hundred transactions a second that is a large part of the server's one core. This writer keeps one
`sqlite3` connection of its own, opened with the same settings (WAL, synchronous=FULL, foreign keys, busy
timeout), and runs the whole transaction (BEGIN IMMEDIATE, one executemany per run of inserts, the updates,
COMMIT) as one call in its own thread.

It writes exactly what the SQLAlchemy path writes: the statements are compiled from the same tables and every
value goes through the column type's own bind processor (a datetime is stored as SQLAlchemy stores it), so
readers cannot tell the paths apart. Durability is unchanged: `write` returns only after COMMIT, which under
synchronous=FULL has synced the WAL. A refused record (the unique (game, move index) key of a stale writer, a
naive datetime, an unknown room) rolls the whole transaction back and raises `RecordRefusedError`; any other
database error rolls back and is raised as SQLAlchemy's `DBAPIError`, as on the other path.

Records this writer does not handle (a won ranked game's leaderboard claim) make `handles` false: the store
then writes that batch through SQLAlchemy. Both paths are serialized by the group-commit writer, and SQLite's
write lock (BEGIN IMMEDIATE, busy timeout) orders any other writer.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta, timezone
from itertools import groupby
from typing import Any

from sqlalchemy import Table, insert
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError

from server.core.ports import (
    Record,
    ResultRecord,
    RoomStatusRecord,
)
from server.store.engine import SQLITE_BUSY_TIMEOUT_MS
from server.store.errors import RecordRefusedError
from server.store.row_updates import RowUpdate, result_update, room_status_update
from server.store.types import UtcDateTime

Processor = Callable[[Any], Any] | None
_Statement = tuple[str, list[tuple[Any, ...]], str | None]
_UNSEEN = object()


class _Insert:
    """One table's INSERT, compiled once for the keys a record's row has, with each key's bind processor."""

    def __init__(self, table: Table, keys: Sequence[str], dialect: Dialect) -> None:
        compiled = insert(table).compile(dialect=dialect, column_keys=list(keys))
        self.sql = str(compiled)
        assert compiled.positiontup is not None
        self.keys = tuple(compiled.positiontup)
        self.processors: tuple[Processor, ...] = tuple(_processor(table.c[key].type, dialect) for key in self.keys)

    def rows(self, rows: Sequence[dict[str, Any]]) -> list[tuple[Any, ...]]:
        keys, processors = self.keys, self.processors
        return [
            tuple(value if processor is None else processor(value)
                  for value, processor in zip([row[key] for key in keys], processors, strict=True))
            for row in rows
        ]


class SqliteWriter:
    def __init__(self, path: str, dialect: Dialect, tables: dict[str, Table], inserted: dict[type, Table],
                 row: Callable[[Record], dict[str, Any]]) -> None:
        """`tables` by name (for the updates), `inserted`: the store's table for each record type it inserts."""
        self.path = path
        self.dialect = dialect
        self.tables = tables
        self._inserted = inserted
        self._row = row
        self._inserts: dict[tuple[type, tuple[str, ...]], _Insert] = {}
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-writer")
        self._connection: sqlite3.Connection | None = None
        self._lock = threading.Lock()  # one transaction at a time, even if two callers race
        self.commits = 0
        self._processors: dict[tuple[str, str], Processor | object] = {}

    @staticmethod
    def handles(records: Sequence[Record]) -> bool:
        """Whether every record is one this writer stores (everything but a leaderboard claim)."""
        return not any(type(record) is ResultRecord and record.claim is not None for record in records)

    async def write(self, records: Sequence[Record]) -> None:
        """One transaction, in order; returns once committed (durable)."""
        statements = self._statements(records)  # values are converted here: a bad one is refused before BEGIN
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._executor, self._run, statements)

    async def close(self) -> None:
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._executor, self._close)
        self._executor.shutdown(wait=True)

    # --- in the caller's thread: records -> statements ----------------------------------------------------

    def _statements(self, records: Sequence[Record]) -> list[_Statement]:
        """(sql, parameter rows, why a row that changes no row is refused; None for inserts) in order."""
        statements: list[_Statement] = []
        try:
            for record_type, run in groupby(records, key=type):
                batch = list(run)
                if record_type in self._inserted:
                    rows = [self._row(record) for record in batch]
                    for keys, same in groupby(rows, key=lambda row: tuple(row)):
                        chunk = list(same)
                        statement = self._insert(record_type, keys)
                        statements.append((statement.sql, statement.rows(chunk), None))
                elif record_type is RoomStatusRecord:
                    for status in batch:
                        statements.append(self._update(room_status_update(status)))  # type: ignore[arg-type]
                elif record_type is ResultRecord:
                    for result in batch:
                        statements.append(self._update(result_update(result)))  # type: ignore[arg-type]
                else:
                    raise RecordRefusedError(f"not a storable record: {record_type.__name__}")
        except (ValueError, TypeError) as error:
            raise RecordRefusedError(f"record refused: {error}") from error  # a value that cannot be stored
        return statements

    def _insert(self, record_type: type, keys: tuple[str, ...]) -> _Insert:
        statement = self._inserts.get((record_type, keys))
        if statement is None:
            statement = _Insert(self._inserted[record_type], keys, self.dialect)
            self._inserts[(record_type, keys)] = statement
        return statement

    def _update(self, change: RowUpdate) -> _Statement:
        """The UPDATE of `change`, its values through their columns' bind processors."""
        table = self.tables[change.table]
        assignments = ", ".join(f"{key} = ?" for key in change.values)
        conditions = " AND ".join(f"{key} IS NULL" if value is None else f"{key} = ?"
                                  for key, value in change.where.items())
        parameters = [self._bind(table, key, value) for key, value in change.values.items()]
        parameters += [value for value in change.where.values() if value is not None]
        return f"UPDATE {table.name} SET {assignments} WHERE {conditions}", [tuple(parameters)], change.refusal

    def _bind(self, table: Table, key: str, value: Any) -> Any:
        processor = self._processors.get((table.name, key), _UNSEEN)
        if processor is _UNSEEN:
            processor = self._processors[(table.name, key)] = _processor(table.c[key].type, self.dialect)
        return value if processor is None else processor(value)

    # --- in the writer thread ----------------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        if self._connection is None:
            connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            try:
                connection.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
                connection.execute("PRAGMA journal_mode = WAL")
                connection.execute("PRAGMA synchronous = FULL")
                connection.execute("PRAGMA foreign_keys = ON")
            except BaseException:
                connection.close()
                raise
            self._connection = connection
        return self._connection

    def _run(self, statements: list[_Statement]) -> None:
        with self._lock:
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


def _processor(column_type: Any, dialect: Dialect) -> Processor:
    """The column type's bind processor; for `UtcDateTime` a direct one that gives the same text (checked
    against SQLAlchemy's on sample values here, else SQLAlchemy's is used): it runs once per stored move."""
    processor = column_type._cached_bind_processor(dialect)
    if isinstance(column_type, UtcDateTime) and processor is not None:
        samples = (datetime(2026, 1, 2, 3, 4, 5, 6, UTC), datetime(2026, 1, 2, 3, 4, 5, 0, UTC),
                   datetime(999, 12, 31, 23, 59, 59, 999_999, timezone(timedelta(hours=-5))))
        if all(_utc_text(sample) == processor(sample) for sample in samples):
            return _utc_text
    return processor


def _utc_text(value: datetime | None) -> str | None:
    """`UtcDateTime` on SQLite: an aware datetime as naive UTC text, as SQLAlchemy's DATETIME stores it."""
    if value is None:
        return None
    offset = value.utcoffset()
    if offset is None:
        raise ValueError(f"naive datetime {value.isoformat()} given to the store: pass an aware UTC datetime")
    if offset:
        value = value.astimezone(UTC)
    return value.replace(tzinfo=None).isoformat(" ", "microseconds")


"""Records to SQL statements for the store's direct write paths: SQLite through `sqlite3` in a thread
(`SqliteWriter`) and PostgreSQL through asyncpg on one kept connection (`PostgresWriter`).

Both write exactly what the SQLAlchemy path writes: the INSERTs are compiled from the same tables by the
backend's dialect, every value goes through the column type's own bind processor, and the two UPDATEs a batch
may carry come from `row_updates`, stated once for every path. Only the parameter marker differs (`?` on
SQLite, `$1` on PostgreSQL). A value that cannot be stored (a naive datetime) is refused here, before the
transaction begins.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta, timezone
from itertools import groupby
from typing import Any

from sqlalchemy import Table, insert
from sqlalchemy.engine import Dialect

from freecell_arena.core.ports.records import (
    POINTER_RECORDS,
    MemberLeftRecord,
    MemberRecord,
    Record,
    ResultRecord,
    RoomStatusRecord,
)
from freecell_arena.store.errors import RecordRefusedError
from freecell_arena.store.row_updates import RowUpdate, result_update, room_status_update, room_version_update
from freecell_arena.store.types import UtcDateTime

Processor = Callable[[Any], Any] | None
Statement = tuple[str, list[tuple[Any, ...]], str | None]
"""(sql, one parameter row per execution, why a row that changes no row is refused; None for inserts)"""
_UNSEEN = object()


def question_mark(_position: int) -> str:
    return "?"


def dollar_number(position: int) -> str:
    return f"${position}"


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


class StatementBuilder:
    def __init__(self, dialect: Dialect, tables: dict[str, Table], inserted: dict[type, Table],
                 row: Callable[[Record], dict[str, Any]], marker: Callable[[int], str]) -> None:
        """`tables` by name (for the updates), `inserted`: the store's table for each record type it inserts,
        `row`: a record's column values, `marker`: the parameter marker at a 1-based position."""
        self.dialect = dialect
        self.tables = tables
        self._inserted = inserted
        self._row = row
        self._marker = marker
        self._inserts: dict[tuple[type, tuple[str, ...]], _Insert] = {}
        self._processors: dict[tuple[str, str], Processor | object] = {}

    @staticmethod
    def handles(records: Sequence[Record]) -> bool:
        """Whether every record is one the direct paths store: everything but a leaderboard claim (written
        through SQLAlchemy with its bucket counts) and the pointers of series and quick races (rare)."""
        return not any(
            (type(record) is ResultRecord and record.claim is not None) or type(record) in _POINTERS
            for record in records
        )

    def statements(self, records: Sequence[Record]) -> list[Statement]:
        """The statements of one transaction, in order: one executemany per run of inserts of one shape."""
        statements: list[Statement] = []
        try:
            for record_type, run in groupby(records, key=type):
                batch = list(run)
                if record_type in self._inserted:
                    rows = [self._row(record) for record in batch]
                    for keys, same in groupby(rows, key=_column_names):
                        chunk = list(same)
                        statement = self._insert(record_type, keys)
                        statements.append((statement.sql, statement.rows(chunk), None))
                elif record_type is RoomStatusRecord:
                    for status in batch:
                        statements.append(self._update(room_status_update(status)))  # type: ignore[arg-type]  # groupby by type: this batch holds only RoomStatusRecord
                elif record_type is MemberRecord or record_type is MemberLeftRecord:
                    for change in batch:
                        statements.extend(self._membership(change))  # type: ignore[arg-type]  # groupby by type: only membership records here
                elif record_type is ResultRecord:
                    for result in batch:
                        statements.append(self._update(result_update(result)))  # type: ignore[arg-type]  # groupby by type: this batch holds only ResultRecord
                else:
                    raise RecordRefusedError(f"not a storable record: {record_type.__name__}")
        except (ValueError, TypeError) as error:
            raise RecordRefusedError(f"record refused: {error}") from error  # a value that cannot be stored
        return statements

    def _membership(self, change: MemberRecord | MemberLeftRecord) -> list[Statement]:
        """A join or a leave: the room's version moves (compare-and-set, `row_updates`), then the member row."""
        if isinstance(change, MemberRecord):
            row = {"room_id": change.room_id, "player_id": change.player_id, "role": change.role,
                   "joined_at": change.at}  # fmt: skip
            keys = tuple(row)
            member = self._inserts.get((MemberRecord, keys))
            if member is None:
                member = self._inserts[(MemberRecord, keys)] = _Insert(self.tables["room_members"], keys, self.dialect)
            version = self._update(room_version_update(change.room_id, change.version, {}, "a join"))
            return [version, (member.sql, member.rows([row]), None)]
        version = self._update(
            room_version_update(change.room_id, change.version, {"host_id": change.host_id}, "a leave")
        )
        delete = f"DELETE FROM room_members WHERE room_id = {self._marker(1)} AND player_id = {self._marker(2)}"
        return [version, (delete, [(change.room_id, change.player_id)], None)]

    def _insert(self, record_type: type, keys: tuple[str, ...]) -> _Insert:
        statement = self._inserts.get((record_type, keys))
        if statement is None:
            statement = _Insert(self._inserted[record_type], keys, self.dialect)
            self._inserts[(record_type, keys)] = statement
        return statement

    def _update(self, change: RowUpdate) -> Statement:
        """The UPDATE of `change`, its values through their columns' bind processors."""
        table = self.tables[change.table]
        parameters = [self._bind(table, key, value) for key, value in change.values.items()]
        parameters += [value for value in change.where.values() if value is not None]
        positions = iter(range(1, len(parameters) + 1))
        assignments = ", ".join(f"{key} = {self._marker(next(positions))}" for key in change.values)
        conditions = " AND ".join(f"{key} IS NULL" if value is None else f"{key} = {self._marker(next(positions))}"
                                  for key, value in change.where.items())
        return f"UPDATE {table.name} SET {assignments} WHERE {conditions}", [tuple(parameters)], change.refusal

    def _bind(self, table: Table, key: str, value: Any) -> Any:
        processor = self._processors.get((table.name, key), _UNSEEN)
        if processor is _UNSEEN:
            processor = self._processors[(table.name, key)] = _processor(table.c[key].type, self.dialect)
        return value if processor is None else processor(value)  # type: ignore[operator]  # the cache holds processors once _UNSEEN is replaced above


_POINTERS = frozenset(POINTER_RECORDS)


def _column_names(row: dict[str, Any]) -> tuple[str, ...]:
    return tuple(row)


def _processor(column_type: Any, dialect: Dialect) -> Processor:
    """The column type's bind processor; for `UtcDateTime` a direct one that gives the same text (checked
    against SQLAlchemy's on sample values here, else SQLAlchemy's is used): it runs once per stored move."""
    processor: Processor | None = column_type._cached_bind_processor(dialect)
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


"""Records to SQL statements for the store's direct write paths: SQLite through `sqlite3` in a thread
(`SqliteWriter`) and PostgreSQL through asyncpg on one kept connection (`PostgresWriter`).

Both write exactly what the SQLAlchemy path writes: what each record becomes is stated once in
`record_writes.RECORD_WRITES` for every path, the INSERTs are compiled from the same tables by the backend's
dialect, and every value goes through the column type's own bind processor. Only the parameter marker differs
(`?` on SQLite, `$1` on PostgreSQL). A value that cannot be stored (a naive datetime) is refused here, before the
transaction begins.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta, timezone
from operator import itemgetter
from typing import Any, assert_never

from sqlalchemy import Table, insert
from sqlalchemy.engine import Dialect

from freecell_arena.core.ports.records import Record
from freecell_arena.store.errors import RecordRefusedError
from freecell_arena.store.record_writes import RECORD_WRITES, Inserts, LeaderboardClaim, RowDelete
from freecell_arena.store.row_updates import CountUp, RowUpdate
from freecell_arena.store.types import UtcDateTime

Processor = Callable[[Any], Any] | None
Statement = tuple[str, list[tuple[Any, ...]], str | None]
"""(sql, one parameter row per execution, why a row that changes no row is refused; None for inserts)"""


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
        processors = [_processor(table.c[key].type, dialect) for key in self.keys]
        self._values: Callable[[dict[str, Any]], tuple[Any, ...]] = itemgetter(*self.keys) if len(self.keys) > 1 \
            else (lambda row: (row[self.keys[0]],))
        """A row's values in the statement's order, as a tuple (one C call for the lot)."""
        self._processed = tuple((position, processor) for position, processor in enumerate(processors)
                                if processor is not None)  # fmt: skip
        """The positions whose value goes through its column's bind processor (a move's row: only `at`)."""

    def rows(self, rows: Sequence[dict[str, Any]]) -> list[tuple[Any, ...]]:
        values_of, processed = self._values, self._processed
        if not processed:
            return [values_of(row) for row in rows]
        parameters: list[tuple[Any, ...]] = []
        for row in rows:
            values = list(values_of(row))
            for position, processor in processed:
                values[position] = processor(values[position])
            parameters.append(tuple(values))
        return parameters


class StatementBuilder:
    def __init__(self, dialect: Dialect, marker: Callable[[int], str]) -> None:
        """`marker`: the parameter marker at a 1-based position."""
        self.dialect = dialect
        self._marker = marker
        self._inserts: dict[tuple[str, tuple[str, ...]], _Insert] = {}
        self._processors: dict[tuple[str, str], Processor] = {}

    def statements(self, records: Sequence[Record]) -> list[Statement]:
        """The statements of one transaction, in order: one executemany per run of inserts of one type."""
        statements: list[Statement] = []
        try:
            for write in RECORD_WRITES.writes(records):
                match write:
                    case Inserts():  # nearly every write: a run of moves
                        statement = self._insert(write.table, tuple(write.rows[0]))
                        statements.append((statement.sql, statement.rows(write.rows), None))
                    case RowUpdate():
                        statements.append(self._update(write))
                    case RowDelete():
                        statements.append(self._delete(write))
                    case LeaderboardClaim() | CountUp():  # RECORD_WRITES.direct sends its batch through SQLAlchemy
                        raise AssertionError(f"{type(write).__name__} is written through SQLAlchemy only")
                    case _:
                        assert_never(write)
        except (ValueError, TypeError) as error:
            raise RecordRefusedError(f"record refused: {error}") from error  # a value that cannot be stored
        return statements

    def _insert(self, table: Table, keys: tuple[str, ...]) -> _Insert:
        statement = self._inserts.get((table.name, keys))
        if statement is None:
            statement = self._inserts[(table.name, keys)] = _Insert(table, keys, self.dialect)
        return statement

    def _update(self, change: RowUpdate) -> Statement:
        """The UPDATE of `change`, its values through their columns' bind processors."""
        table = change.table
        parameters = [self._bind(table, key, value) for key, value in change.values.items()]
        positions = iter(range(1, len(parameters) + 1))
        assignments = ", ".join(f"{key} = {self._marker(next(positions))}" for key in change.values)
        conditions, where = self._where(change.where, len(parameters) + 1)
        return f"UPDATE {table.name} SET {assignments} WHERE {conditions}", [(*parameters, *where)], change.refusal

    def _delete(self, change: RowDelete) -> Statement:
        conditions, where = self._where(change.where, 1)
        return f"DELETE FROM {change.table.name} WHERE {conditions}", [where], None

    def _where(self, where: dict[str, Any], first: int) -> tuple[str, tuple[Any, ...]]:
        """The conditions `column = marker` (IS NULL for a None), their markers numbered from `first`, and their
        parameters as given (the keys a write matches on are ids, codes and version tags: strings, which no bind
        processor changes)."""
        parameters = tuple(value for value in where.values() if value is not None)
        positions = iter(range(first, first + len(parameters)))
        conditions = " AND ".join(f"{key} IS NULL" if value is None else f"{key} = {self._marker(next(positions))}"
                                  for key, value in where.items())
        return conditions, parameters

    def _bind(self, table: Table, key: str, value: Any) -> Any:
        column = (table.name, key)
        if column not in self._processors:
            self._processors[column] = _processor(table.c[key].type, self.dialect)
        processor = self._processors[column]
        return value if processor is None else processor(value)


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
    return value.isoformat(" ", "microseconds")[:-6]  # without its "+00:00": a copy without tzinfo costs more


"""Leaderboard SQL: the best-entry upsert (inside the result's transaction) and the reads of a board.

Every read is an index range scan of bounded size, never a scan of the board:

- a page: `ix_leaderboard_entries_order` from the start or from the cursor, `LIMIT n + 1`;
- a rank: at most nine ranges of `leaderboard_counts`' primary key (at most 63 rows each) plus the entries
  of one 1.024 s bucket at equal moves (`server.core.leaderboard.rank_plan`);
- neighbours: the same entry index, walked both ways from the player's entry (found by primary key).

Writes: an entry is inserted, or updated only when the new game is strictly better (moves, time, finish);
the count rows of the old and new scores change in the same transaction, applied at its end in key order
so that concurrent writers (several processes on PostgreSQL) take row locks in the same order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Select, func, literal, select, tuple_, union_all, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from server.core.leaderboard import TOP_LEVEL, count_deltas, number_rows, rank_plan, score
from server.core.ports import ResultRecord
from server.store.models import LeaderboardCount, LeaderboardEntry, Player

entries = LeaderboardEntry.__table__
counts = LeaderboardCount.__table__
players = Player.__table__

CountDeltas = dict[tuple[str, int, int], int]
"""(board, level, bucket) -> change in entries, gathered over one transaction."""

ORDER = (entries.c.score, entries.c.finished_at, entries.c.player_id)


@dataclass(frozen=True, slots=True)
class EntryRow:
    """An entry as read, with the player's display name."""

    player_id: str
    name: str
    game_id: str
    player_moves: int
    time_ms: int
    finished_at: datetime
    score: int

    @property
    def key(self) -> tuple[int, datetime, str]:
        """The board's total order (the player id only makes it total, for cursors)."""
        return (self.score, self.finished_at, self.player_id)

    @property
    def tie(self) -> tuple[int, datetime]:
        """Rows equal on this share a rank."""
        return (self.score, self.finished_at)


@dataclass(frozen=True, slots=True)
class NumberedRow:
    rank: int
    position: int
    entry: EntryRow


@dataclass(frozen=True, slots=True)
class BoardPage:
    rows: list[NumberedRow]
    total: int
    more: bool
    """More rows follow the last one (there is a next page)."""


# ---------------------------------------------------------------- writing (inside the result's transaction)


def _insert(connection: AsyncConnection, table: Any) -> Any:
    dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
    return dialect.insert(table)


async def claim(connection: AsyncConnection, result: ResultRecord, deltas: CountDeltas) -> None:
    """Make the result the player's entry on its board if it is their first or strictly better."""
    assert result.claim is not None
    board, player_id = result.claim.board, result.claim.player_id
    new_score = score(result.player_moves, result.time_ms)
    values = {
        "board": board,
        "player_id": player_id,
        "game_id": result.game_id,
        "player_moves": result.player_moves,
        "time_ms": result.time_ms,
        "finished_at": result.finished_at,
        "score": new_score,
    }
    inserted = await connection.execute(
        _insert(connection, entries).values(values).on_conflict_do_nothing().returning(entries.c.score)
    )
    old_score: int | None = None
    if inserted.first() is None:
        where = (entries.c.board == board, entries.c.player_id == player_id)
        current = (
            await connection.execute(select(entries.c.score, entries.c.finished_at).where(*where).with_for_update())
        ).one()
        if (new_score, result.finished_at) >= (current.score, current.finished_at):
            return  # not better: the board keeps the player's best
        old_score = current.score
        await connection.execute(update(entries).where(*where).values(values))
    for (level, bucket), delta in count_deltas(old_score, new_score).items():
        key = (board, level, bucket)
        deltas[key] = deltas.get(key, 0) + delta


async def apply_counts(connection: AsyncConnection, deltas: CountDeltas) -> None:
    rows = [
        {"board": board, "level": level, "bucket": bucket, "entries": delta}
        for (board, level, bucket), delta in sorted(deltas.items())
        if delta
    ]
    if not rows:
        return
    statement = _insert(connection, counts)
    statement = statement.on_conflict_do_update(
        index_elements=[counts.c.board, counts.c.level, counts.c.bucket],
        set_={"entries": counts.c.entries + statement.excluded.entries},
    )
    await connection.execute(statement, rows)


# ---------------------------------------------------------------- reading


def _rows(board: str) -> Select[Any]:
    return (
        select(
            entries.c.player_id,
            players.c.display_name,
            entries.c.game_id,
            entries.c.player_moves,
            entries.c.time_ms,
            entries.c.finished_at,
            entries.c.score,
        )
        .join(players, players.c.id == entries.c.player_id)
        .where(entries.c.board == board)
    )


def _entry(row: Any) -> EntryRow:
    return EntryRow(*row)


def _after(key: tuple[int, datetime, str]) -> ColumnElement[bool]:
    return tuple_(*ORDER) > tuple_(*key)


def _before(key: tuple[int, datetime, str]) -> ColumnElement[bool]:
    return tuple_(*ORDER) < tuple_(*key)


async def _total(connection: AsyncConnection, board: str) -> int:
    query = select(func.coalesce(func.sum(counts.c.entries), 0)).where(
        counts.c.board == board, counts.c.level == TOP_LEVEL
    )
    return int((await connection.execute(query)).scalar_one())


async def rank_at(connection: AsyncConnection, board: str, key: tuple[int, datetime, str]) -> tuple[int, int]:
    """(rank, position) a row with this key has (or would have) on the board. Bounded work: see module doc."""
    entry_score, finished_at, player_id = key
    plan = rank_plan(entry_score)
    parts = [
        select(counts.c.entries).where(
            counts.c.board == board, counts.c.level == span.level, counts.c.bucket.between(span.low, span.high)
        )
        for span in plan.ranges
    ]
    if parts:
        bucketed: Any = union_all(*parts).subquery()
        bucket_sum: Any = select(func.coalesce(func.sum(bucketed.c.entries), 0)).scalar_subquery()
    else:
        bucket_sum = literal(0)
    same_board = entries.c.board == board
    below = select(func.count()).where(same_board, entries.c.score >= plan.exact_from, entries.c.score < entry_score)
    earlier = select(func.count()).where(
        same_board, entries.c.score == entry_score, entries.c.finished_at < finished_at
    )
    tied_before = select(func.count()).where(
        same_board,
        entries.c.score == entry_score,
        entries.c.finished_at == finished_at,
        entries.c.player_id < player_id,
    )
    query = select(bucket_sum, below.scalar_subquery(), earlier.scalar_subquery(), tied_before.scalar_subquery())
    bucketed_count, below_count, earlier_count, tied_count = (await connection.execute(query)).one()
    better = int(bucketed_count) + int(below_count) + int(earlier_count)
    return better + 1, better + int(tied_count) + 1


def _numbered(rows: Sequence[EntryRow], first_rank: int, first_position: int) -> list[NumberedRow]:
    numbers = number_rows(rows, lambda row: row.tie, first_position, first_rank)
    return [NumberedRow(rank, position, row) for row, (rank, position) in zip(rows, numbers, strict=True)]


class LeaderboardReads:
    """The board queries of the protocol, each in one read transaction (one consistent snapshot)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def page(self, board: str, limit: int, after: tuple[int, datetime, str] | None = None) -> BoardPage:
        """The `limit` entries after `after` (a cursor's last row), or from the top."""
        async with self.engine.connect() as connection:
            query = _rows(board)
            if after is not None:
                query = query.where(_after(after))
            query = query.order_by(*ORDER).limit(limit + 1)
            found = [_entry(row) for row in await connection.execute(query)]
            rows, more = found[:limit], len(found) > limit
            total = await _total(connection, board)
            if not rows:
                return BoardPage([], total, False)
            if after is None:
                first_rank, first_position = 1, 1
            else:
                after_rank, after_position = await rank_at(connection, board, after)
                first_position = after_position + 1
                first_rank = after_rank if rows[0].tie == after[:2] else first_position
            return BoardPage(_numbered(rows, first_rank, first_position), total, more)

    async def entry(self, board: str, player_id: str) -> EntryRow | None:
        async with self.engine.connect() as connection:
            return await self._entry(connection, board, player_id)

    @staticmethod
    async def _entry(connection: AsyncConnection, board: str, player_id: str) -> EntryRow | None:
        row = (await connection.execute(_rows(board).where(entries.c.player_id == player_id))).first()
        return _entry(row) if row else None

    async def around(self, board: str, player_id: str, above: int, below: int) -> BoardPage | None:
        """The player's entry with up to `above` better and `below` worse neighbours; None if not on the board."""
        async with self.engine.connect() as connection:
            mine = await self._entry(connection, board, player_id)
            if mine is None:
                return None
            rank, position = await rank_at(connection, board, mine.key)
            # one row more above than shown: it tells whether the first row shown shares its rank with it
            better = _rows(board).where(_before(mine.key)).order_by(*(column.desc() for column in ORDER))
            worse = _rows(board).where(_after(mine.key)).order_by(*ORDER).limit(below)
            both = union_all(better.limit(above + 1).subquery().select(), worse.subquery().select())
            found = [_entry(row) for row in await connection.execute(both)]
            total = await _total(connection, board)
        higher = sorted((row for row in found if row.key < mine.key), key=lambda row: row.key)
        lower = sorted((row for row in found if row.key > mine.key), key=lambda row: row.key)
        shown_higher = higher[-above:] if above else []
        before_window = higher[: len(higher) - len(shown_higher)]
        window = [*shown_higher, mine, *lower]
        first_position = position - len(shown_higher)
        if not shown_higher:
            first_rank = rank
        elif before_window and before_window[-1].tie == window[0].tie:
            async with self.engine.connect() as connection:  # rare: the window starts inside a tie
                first_rank, _ = await rank_at(connection, board, window[0].key)
        else:
            first_rank = rank if window[0].tie == mine.tie else first_position
        numbered = _numbered(window, first_rank, first_position)
        more = len(lower) == below and position + len(lower) < total
        return BoardPage(numbered, total, more)

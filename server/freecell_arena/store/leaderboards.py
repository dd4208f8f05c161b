"""Leaderboard SQL: the best-entry upsert (inside the result's transaction) and the reads of a board.

Every read is an index range scan of bounded size, never a scan of the board:

- a page: `ix_leaderboard_entries_order` from the start or from the cursor, `LIMIT n + 1`;
- a rank: at most nine ranges of `leaderboard_counts`' primary key (at most 63 rows each) plus the entries
  of one 1.024 s bucket at equal moves (`freecell_arena.core.records.leaderboard.level_ranges`, written out in SQL);
- neighbours: the same entry index, walked both ways from the player's entry (found by primary key).

Writes: an entry is inserted, or updated only when the new game is strictly better (moves, time, finish);
the count rows of the old and new scores change in the same transaction, applied at its end in key order
so that concurrent writers (several processes on PostgreSQL) take row locks in the same order.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, Integer, String, bindparam, select, text, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from sqlalchemy.types import TypeEngine

from freecell_arena.core.ports.reads import BoardPage, EntryRow, NumberedRow
from freecell_arena.core.ports.records import ResultRecord
from freecell_arena.core.records.leaderboard import (
    LEVEL_SHIFTS,
    TOP_LEVEL,
    count_deltas,
    level_ranges,
    number_rows,
    score,
)
from freecell_arena.store.models import Game, LeaderboardCount, LeaderboardEntry, table_of
from freecell_arena.store.types import UtcDateTime

entries = table_of(LeaderboardEntry)
counts = table_of(LeaderboardCount)
games = table_of(Game)

CountDeltas = dict[tuple[str, int, int], int]
"""(board, level, bucket) -> change in entries, gathered over one transaction."""


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
#
# Each read is ONE statement, fixed at import (bound parameters only): a statement costs a round trip to the
# database plus the driver's and SQLAlchemy's per-statement work, which at these sizes costs more than the
# index reads themselves. The rank is computed by scalar subqueries inside the same statement, following
# `freecell_arena.core.records.leaderboard.level_ranges` bucket for bucket.

ENTRY = "e.player_id, p.display_name, e.game_id, e.player_moves, e.time_ms, e.finished_at, e.score"
TOTAL = (
    "(SELECT COALESCE(SUM(c.entries), 0) FROM leaderboard_counts c "
    f"WHERE c.board = :board AND c.level = {TOP_LEVEL})"
)


def _rank_sql(entry_score: str, finished_at: str, player_id: str) -> str:
    """Two columns, `better` (entries strictly before in (score, finish)) and `tied_before` (equal, but
    before in player id) for the row (entry_score, finished_at, player_id), given as SQL expressions."""
    buckets = []
    for level, shift, parent in level_ranges():
        low = f"(({entry_score} >> {parent}) << {parent - shift})" if parent is not None else "0"
        high = f"(({entry_score} >> {shift}) - 1)"
        buckets.append(
            "(SELECT COALESCE(SUM(c.entries), 0) FROM leaderboard_counts c WHERE c.board = :board "
            f"AND c.level = {level} AND c.bucket BETWEEN {low} AND {high})"
        )
    finest = LEVEL_SHIFTS[0]
    same_board = "SELECT COUNT(*) FROM leaderboard_entries x WHERE x.board = :board"
    exact = f"({same_board} AND x.score >= (({entry_score} >> {finest}) << {finest}) AND x.score < {entry_score})"
    earlier = f"({same_board} AND x.score = {entry_score} AND x.finished_at < {finished_at})"
    tied = f"({same_board} AND x.score = {entry_score} AND x.finished_at = {finished_at} AND x.player_id < {player_id})"
    return f"{' + '.join([*buckets, exact, earlier])} AS better, {tied} AS tied_before"


FIRST_PAGE = f"""
SELECT {ENTRY}, {TOTAL} AS total
FROM leaderboard_entries e JOIN players p ON p.id = e.player_id
WHERE e.board = :board
ORDER BY e.score, e.finished_at, e.player_id
LIMIT :rows"""

PAGE_AFTER = f"""
SELECT {ENTRY}, {TOTAL} AS total, {_rank_sql(":s", ":f", ":p")}
FROM leaderboard_entries e JOIN players p ON p.id = e.player_id
WHERE e.board = :board AND (e.score, e.finished_at, e.player_id) > (:s, :f, :p)
ORDER BY e.score, e.finished_at, e.player_id
LIMIT :rows"""

def _neighbours(part: int, before: bool, limit: str, lateral: bool) -> str:
    """The rows just before (or after) `me`, walking the order index from `me`'s key.

    `me`'s key must be a constant of the index search, and the index's order must serve the ORDER BY, or
    the database walks the board from its start (O(position): the very scan this module avoids). As a plain
    join, PostgreSQL may put the entries outside and filter, and SQLite sorts every row before `me`.
    PostgreSQL gets a LATERAL subquery; SQLite (no LATERAL) gets the key as uncorrelated scalar subqueries,
    which it evaluates once and treats as constants.
    """
    compare, direction = ("<", " DESC") if before else (">", "")
    order = ", ".join(f"e.{column}{direction}" for column in ("score", "finished_at", "player_id"))
    key = "(e.score, e.finished_at, e.player_id)"
    condition = f"e.board = :board AND {key} {compare} (me.score, me.finished_at, me.player_id)"
    inner = "SELECT e.player_id, e.game_id, e.player_moves, e.time_ms, e.finished_at, e.score"
    walk = f"ORDER BY {order} LIMIT {limit}"
    if lateral:
        source = f"me CROSS JOIN LATERAL ({inner} FROM leaderboard_entries e WHERE {condition} {walk}) AS n"
    else:
        mine = "((SELECT score FROM me), (SELECT finished_at FROM me), (SELECT player_id FROM me))"
        condition = f"e.board = :board AND {key} {compare} {mine}"
        source = f"({inner} FROM leaderboard_entries e WHERE {condition} {walk}) AS n"
    return (
        f"SELECT {part}, n.player_id, p.display_name, n.game_id, n.player_moves, n.time_ms, n.finished_at, n.score, "
        f"NULL, NULL, NULL FROM {source} JOIN players p ON p.id = n.player_id"
    )


def _around_sql(lateral: bool) -> str:
    return f"""
WITH me AS (
    SELECT e.player_id, e.game_id, e.player_moves, e.time_ms, e.finished_at, e.score
    FROM leaderboard_entries e WHERE e.board = :board AND e.player_id = :player
)
SELECT 0 AS part, me.player_id, p.display_name, me.game_id, me.player_moves, me.time_ms, me.finished_at, me.score,
       {TOTAL} AS total, {_rank_sql("me.score", "me.finished_at", "me.player_id")}
FROM me JOIN players p ON p.id = me.player_id
UNION ALL
{_neighbours(1, True, ":above", lateral)}
UNION ALL
{_neighbours(2, False, ":below", lateral)}"""


RANK = f"SELECT {_rank_sql(':s', ':f', ':p')}"
ONE_ENTRY = f"""
SELECT {ENTRY}
FROM leaderboard_entries e JOIN players p ON p.id = e.player_id
WHERE e.board = :board AND e.player_id = :player"""
ONLY_TOTAL = f"SELECT {TOTAL} AS total"


def _bound(sql: str, names: tuple[str, ...]) -> Any:
    types: dict[str, TypeEngine[Any]] = {
        "board": String(), "player": String(), "s": BigInteger(), "f": UtcDateTime(), "p": String(),
        "rows": Integer(), "above": Integer(), "below": Integer(),
    }  # fmt: skip
    return text(sql).bindparams(*(bindparam(name, type_=types[name]) for name in names)).columns(
        finished_at=UtcDateTime()
    )


FIRST_PAGE_STATEMENT = _bound(FIRST_PAGE, ("board", "rows"))
PAGE_AFTER_STATEMENT = _bound(PAGE_AFTER, ("board", "s", "f", "p", "rows"))
AROUND_STATEMENTS = {
    "postgresql": _bound(_around_sql(lateral=True), ("board", "player", "above", "below")),
    "sqlite": _bound(_around_sql(lateral=False), ("board", "player", "above", "below")),
}
RANK_STATEMENT = _bound(RANK, ("board", "s", "f", "p"))
ONE_ENTRY_STATEMENT = _bound(ONE_ENTRY, ("board", "player"))
TOTAL_STATEMENT = _bound(ONLY_TOTAL, ("board",))


def _entry(row: Any) -> EntryRow:
    return EntryRow(row.player_id, row.display_name, row.game_id, row.player_moves, row.time_ms, row.finished_at,
                    row.score)  # fmt: skip


def _rank_and_position(better: int, tied_before: int) -> tuple[int, int]:
    return int(better) + 1, int(better) + int(tied_before) + 1


async def rank_at(connection: AsyncConnection, board: str, key: tuple[int, datetime, str]) -> tuple[int, int]:
    """(rank, position) a row with this key has (or would have) on the board. Bounded work: see module doc."""
    entry_score, finished_at, player_id = key
    row = (await connection.execute(RANK_STATEMENT, {"board": board, "s": entry_score, "f": finished_at,
                                                     "p": player_id})).one()  # fmt: skip
    return _rank_and_position(row.better, row.tied_before)


def _numbered(rows: Sequence[EntryRow], first_rank: int, first_position: int) -> list[NumberedRow]:
    numbers = number_rows(rows, lambda row: row.tie, first_position, first_rank)
    return [NumberedRow(rank, position, row) for row, (rank, position) in zip(rows, numbers, strict=True)]


class LeaderboardReads:
    """The board queries of the protocol: one statement each (one consistent snapshot)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def page(self, board: str, limit: int, after: tuple[int, datetime, str] | None = None) -> BoardPage:
        """The `limit` entries after `after` (a cursor's last row), or from the top."""
        async with self.engine.connect() as connection:
            if after is None:
                found = (await connection.execute(FIRST_PAGE_STATEMENT, {"board": board, "rows": limit + 1})).all()
            else:
                values = {"board": board, "s": after[0], "f": after[1], "p": after[2], "rows": limit + 1}
                found = (await connection.execute(PAGE_AFTER_STATEMENT, values)).all()
            if not found:
                total = (await connection.execute(TOTAL_STATEMENT, {"board": board})).scalar_one()
                return BoardPage([], int(total), False)
        rows = [_entry(row) for row in found[:limit]]
        if after is None:
            first_rank, first_position = 1, 1
        else:
            after_rank, after_position = _rank_and_position(found[0].better, found[0].tied_before)
            first_position = after_position + 1
            first_rank = after_rank if rows[0].tie == after[:2] else first_position
        return BoardPage(_numbered(rows, first_rank, first_position), int(found[0].total), len(found) > limit)

    async def entry(self, board: str, player_id: str) -> EntryRow | None:
        async with self.engine.connect() as connection:
            row = (await connection.execute(ONE_ENTRY_STATEMENT, {"board": board, "player": player_id})).first()
        return _entry(row) if row else None

    async def dealt(self, boards: Sequence[str]) -> bool:
        """One probe of `ix_games_board` (ranked games by the board they count on)."""
        statement = select(games.c.id).where(games.c.board.in_(list(boards))).limit(1)
        async with self.engine.connect() as connection:
            return (await connection.execute(statement)).first() is not None

    async def around(self, board: str, player_id: str, above: int, below: int) -> BoardPage | None:
        """The player's entry with up to `above` better and `below` worse neighbours; None if not on the board."""
        async with self.engine.connect() as connection:
            # one row more above than shown: it tells whether the first row shown shares its rank with it
            values = {"board": board, "player": player_id, "above": above + 1, "below": below}
            found = (await connection.execute(AROUND_STATEMENTS[connection.dialect.name], values)).all()
            mine_row = next((row for row in found if row.part == 0), None)
            if mine_row is None:
                return None
            mine = _entry(mine_row)
            rank, position = _rank_and_position(mine_row.better, mine_row.tied_before)
            total = int(mine_row.total)
            higher = sorted((_entry(row) for row in found if row.part == 1), key=lambda row: row.key)
            lower = sorted((_entry(row) for row in found if row.part == 2), key=lambda row: row.key)
            shown_higher = higher[-above:] if above else []
            before_window = higher[: len(higher) - len(shown_higher)]
            window = [*shown_higher, mine, *lower]
            first_position = position - len(shown_higher)
            if not shown_higher:
                first_rank = rank
            elif before_window and before_window[-1].tie == window[0].tie:  # rare: the window starts in a tie
                first_rank, _ = await rank_at(connection, board, window[0].key)
            else:
                first_rank = rank if window[0].tie == mine.tie else first_position
        more = len(lower) == below and position + len(lower) < total
        return BoardPage(_numbered(window, first_rank, first_position), total, more)

"""What the audit reads, in keyset batches so that a database of any size streams through in bounded memory."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from sqlalchemy import ColumnElement, and_, exists, func, literal_column, select, tuple_
from sqlalchemy.ext.asyncio import AsyncEngine

from freecell_arena.core.ports.records import StoredGame
from freecell_arena.core.records.audit import EntryFacts, GameFacts
from freecell_arena.core.records.leaderboard import LEVEL_SHIFTS
from freecell_arena.store.models import Game, LeaderboardCount, LeaderboardEntry, Player, table_of
from freecell_arena.store.sql_store import with_moves

games = table_of(Game)
players = table_of(Player)
entries = table_of(LeaderboardEntry)
counts = table_of(LeaderboardCount)


def _entry(row: Any) -> EntryFacts:
    return EntryFacts(row.board, row.player_id, row.game_id, row.player_moves, row.time_ms, row.finished_at, row.score)


class AuditReads:
    def __init__(self, engine: AsyncEngine, batch: int = 500) -> None:
        self.engine = engine
        self.batch = batch

    async def ranked_games(self) -> AsyncIterator[list[tuple[StoredGame, bool, EntryFacts | None]]]:
        """Every finished ranked game with its moves, its player's bot flag and their entry on its board."""
        last = ""
        while True:
            async with self.engine.connect() as connection:
                query = (
                    select(games, players.c.bot.label("player_bot"))
                    .join(players, players.c.id == games.c.player_id)
                    .where(games.c.ranked.is_(True), games.c.outcome.is_not(None), games.c.id > last)
                    .order_by(games.c.id)
                    .limit(self.batch)
                )
                rows = (await connection.execute(query)).all()
                if not rows:
                    return
                stored = await with_moves(connection, rows)
                claims = {(row.board, row.player_id) for row in rows if row.board is not None}
                found: dict[tuple[str, str], EntryFacts] = {}
                if claims:
                    lookup = select(entries).where(tuple_(entries.c.board, entries.c.player_id).in_(sorted(claims)))
                    found = {(row.board, row.player_id): _entry(row) for row in await connection.execute(lookup)}
            yield [
                (game, bool(row.player_bot), found.get((row.board, row.player_id)))
                for game, row in zip(stored, rows, strict=True)
            ]
            last = rows[-1].id

    async def entries(self) -> AsyncIterator[list[tuple[EntryFacts, GameFacts | None]]]:
        last: tuple[str, str] = ("", "")
        while True:
            async with self.engine.connect() as connection:
                query = (
                    select(
                        entries,
                        games.c.id.label("g_id"),
                        games.c.player_id.label("g_player_id"),
                        games.c.board.label("g_board"),
                        games.c.ranked.label("g_ranked"),
                        games.c.outcome.label("g_outcome"),
                        games.c.player_moves.label("g_player_moves"),
                        games.c.time_ms.label("g_time_ms"),
                        games.c.finished_at.label("g_finished_at"),
                    )
                    .outerjoin(games, games.c.id == entries.c.game_id)
                    .where(tuple_(entries.c.board, entries.c.player_id) > tuple_(*last))
                    .order_by(entries.c.board, entries.c.player_id)
                    .limit(self.batch)
                )
                rows = (await connection.execute(query)).all()
            if not rows:
                return
            yield [(_entry(row), _game(row)) for row in rows]
            last = (rows[-1].board, rows[-1].player_id)

    async def count_mismatches(self) -> AsyncIterator[str]:
        """Count rows that disagree with the entries, both ways, level by level (each lookup an index range)."""
        for level, shift in enumerate(LEVEL_SHIFTS):
            async for line in self._stored_counts_wrong(level, shift):
                yield line
            async for line in self._counts_missing(level, shift):
                yield line

    async def _stored_counts_wrong(self, level: int, shift: int) -> AsyncIterator[str]:
        # an int constant: PostgreSQL shifts a bigint by an int only
        bits: ColumnElement[int] = literal_column(str(int(shift)))
        in_bucket = select(func.count()).where(
            entries.c.board == counts.c.board,
            entries.c.score >= counts.c.bucket.op("<<")(bits),
            entries.c.score < (counts.c.bucket + 1).op("<<")(bits),
        )
        actual = in_bucket.scalar_subquery()
        last: tuple[str, int] = ("", -1)
        while True:
            async with self.engine.connect() as connection:
                query = (
                    select(counts.c.board, counts.c.bucket, counts.c.entries, actual.label("actual"))
                    .where(counts.c.level == level, tuple_(counts.c.board, counts.c.bucket) > tuple_(*last))
                    .order_by(counts.c.board, counts.c.bucket)
                    .limit(self.batch)
                )
                rows = (await connection.execute(query)).all()
            if not rows:
                return
            for row in rows:
                if row.entries != row.actual:
                    yield (f"counts {row.board} level {level} bucket {row.bucket}: stored {row.entries}, "
                           f"the entries say {row.actual}")  # fmt: skip
            last = (rows[-1].board, rows[-1].bucket)

    async def _counts_missing(self, level: int, shift: int) -> AsyncIterator[str]:
        bucket = entries.c.score.op(">>")(literal_column(str(int(shift))))
        has_row = exists().where(and_(counts.c.board == entries.c.board, counts.c.level == level,
                                      counts.c.bucket == bucket))  # fmt: skip
        last: tuple[str, str] = ("", "")
        while True:
            async with self.engine.connect() as connection:
                query = (
                    select(entries.c.board, entries.c.player_id, bucket.label("bucket"), has_row.label("counted"))
                    .where(tuple_(entries.c.board, entries.c.player_id) > tuple_(*last))
                    .order_by(entries.c.board, entries.c.player_id)
                    .limit(self.batch)
                )
                rows = (await connection.execute(query)).all()
            if not rows:
                return
            for row in rows:
                if not row.counted:
                    yield f"counts {row.board} level {level} bucket {row.bucket}: missing (entry of {row.player_id})"
            last = (rows[-1].board, rows[-1].player_id)


def _game(row: Any) -> GameFacts | None:
    if row.g_id is None:
        return None
    return GameFacts(row.g_id, row.g_player_id, row.g_board, bool(row.g_ranked), row.g_outcome,
                     row.g_player_moves, row.g_time_ms, row.g_finished_at)  # fmt: skip

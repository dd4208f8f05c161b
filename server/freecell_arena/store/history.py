"""A player's finished games, newest first: keyset pages on the partial index `ix_games_player_history`."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select, tuple_
from sqlalchemy.ext.asyncio import AsyncEngine

from freecell_arena.core.ports.reads import HistoryRow
from freecell_arena.store.models import Game, Room, table_of

games = table_of(Game)
rooms = table_of(Room)


class HistoryReads:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def page(
        self, player_id: str, limit: int, before: tuple[datetime, str] | None = None
    ) -> tuple[list[HistoryRow], bool]:
        """Up to `limit` games finished before `before` (a cursor's last `(finished_at, game_id)`)."""
        query: Any = (
            select(
                games.c.id,
                games.c.variant,
                games.c.seed,
                games.c.board,
                games.c.daily_day,
                games.c.ranked,
                games.c.outcome,
                games.c.player_moves,
                games.c.single_card_moves,
                games.c.cards_on_foundations,
                games.c.time_ms,
                games.c.started_at,
                games.c.finished_at,
                rooms.c.status,
                rooms.c.seed_sealed_until,
            )
            .outerjoin(rooms, rooms.c.id == games.c.room_id)
            .where(games.c.player_id == player_id, games.c.outcome.is_not(None))
        )
        if before is not None:
            query = query.where(tuple_(games.c.finished_at, games.c.id) < tuple_(*before))
        query = query.order_by(games.c.finished_at.desc(), games.c.id.desc()).limit(limit + 1)
        async with self.engine.connect() as connection:
            found = [HistoryRow(*row) for row in await connection.execute(query)]
        return found[:limit], len(found) > limit

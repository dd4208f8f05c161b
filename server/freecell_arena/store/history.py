"""A player's finished games, newest first: keyset pages on the partial index `ix_games_player_history`; and, for a
page, what places its races and the player's rating change in each."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import select, tuple_
from sqlalchemy.ext.asyncio import AsyncEngine

from freecell_arena.core.ports.reads import HistoryRow, RaceFacts, RaceResult
from freecell_arena.store.models import Game, Room, table_of
from freecell_arena.store.ratings import change_of, changes, race_result, race_results_of

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
                games.c.room_id,
                rooms.c.code,
                rooms.c.options,
                rooms.c.started_at,
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

    async def race_facts(self, player_id: str, room_ids: Sequence[str]) -> RaceFacts:
        """Two reads for a page: the rooms' results (`games.room_id`) and the player's changes in them (the unique
        (room, player, ladder) of `rating_changes`)."""
        if not room_ids:
            return RaceFacts({}, {})
        deltas = select(changes).where(changes.c.room_id.in_(list(room_ids)), changes.c.player_id == player_id)
        async with self.engine.connect() as connection:
            played = (await connection.execute(race_results_of(room_ids))).all()
            found = (await connection.execute(deltas)).all()
        results: dict[str, list[RaceResult]] = defaultdict(list)
        for row in played:
            results[row.room_id].append(race_result(row))
        return RaceFacts({room: tuple(rows) for room, rows in results.items()},
                         {row.room_id: change_of(row).delta for row in found})  # fmt: skip

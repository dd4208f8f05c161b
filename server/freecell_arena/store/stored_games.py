"""Games as read back (`StoredGame`): a `games` row as its records, and a batch of rows with their moves.

Their own module so that every read of whole games (the server's resume, the audit, the export) shares one
reading without loading `SqlStore` (which names every read, the export's among them).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection

from freecell_arena.core.ports.records import GameRecord, MoveRecord, ResultRecord, StoredGame
from freecell_arena.store.models import Game, Move, table_of

games = table_of(Game)
moves = table_of(Move)


def game_record(row: Any) -> GameRecord:
    return GameRecord(
        game_id=row.id,
        room_id=row.room_id,
        player_id=row.player_id,
        variant=row.variant,
        seed=row.seed,
        rules_version=row.rules_version,
        autoplay=row.autoplay,
        undo_allowed=row.undo_allowed,
        ranked=row.ranked,
        started_at=row.started_at,
        board=row.board,
        daily_day=row.daily_day,
    )


def result_record(row: Any) -> ResultRecord | None:
    if row.outcome is None:
        return None
    return ResultRecord(
        game_id=row.id,
        outcome=row.outcome,
        player_moves=row.player_moves,
        single_card_moves=row.single_card_moves,
        cards_on_foundations=row.cards_on_foundations,
        time_ms=row.time_ms,
        finished_at=row.finished_at,
        flag=row.flagged,
    )


async def with_moves(connection: AsyncConnection, game_rows: Sequence[Any]) -> list[StoredGame]:
    """The games with their moves in order, read in the same transaction (one query for all games)."""
    if not game_rows:
        return []
    query = (
        select(moves.c.game_id, moves.c.index, moves.c.notation, moves.c.at)
        .where(moves.c.game_id.in_([row.id for row in game_rows]))
        .order_by(moves.c.game_id, moves.c.index)
    )
    moves_by_game: dict[str, list[MoveRecord]] = {row.id: [] for row in game_rows}
    # unpacked, not `row.index`: a Row is a tuple, and `index` is a tuple method
    for game_id, index, notation, at in await connection.execute(query):
        moves_by_game[game_id].append(MoveRecord(game_id, index, notation, at))
    return [StoredGame(game_record(row), moves_by_game[row.id], result_record(row)) for row in game_rows]

"""The export's reads (`freecell-arena export`, `GET /api/players/{player_id}/games`): finished public games with
their moves, in keyset batches on `(finished_at, id)`, so a database of any size streams through in bounded memory.

Two indexes serve them: `ix_games_finished` (every finished game by its finish: the whole export and its date range)
and `ix_games_player_history` (one player's). Each batch is one range read of games, one read of their moves
(`with_moves`, the audit's and a replay's) and one of their races' rating changes; nothing is held between batches
but the last key.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Select, and_, or_, select, tuple_
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from freecell_arena.core.moderation.exported import ExportRow
from freecell_arena.core.ports.reads import Disclosure, ExportFilter
from freecell_arena.core.records.ratings import RatingChange as Change
from freecell_arena.core.records.sanctioned import Sanctions
from freecell_arena.protocol.vocabulary import FINISHED
from freecell_arena.store.models import Game, Player, RatingChange, Room, TournamentRace, table_of
from freecell_arena.store.ratings import change_of
from freecell_arena.store.sanction_reads import sanctions_in_force
from freecell_arena.store.stored_games import with_moves

games = table_of(Game)
players = table_of(Player)
rooms = table_of(Room)
changes = table_of(RatingChange)
tournament_races = table_of(TournamentRace)

Key = tuple[datetime, str]
"""A game's place in the export's order: `(finished_at, id)`."""


def public(disclosure: Disclosure) -> ColumnElement[bool]:
    """The games anyone may replay at `disclosure.now` (`core.records.public_games.open_to_all`, as SQL conditions):
    finished, their race over, a daily's day closed, a cup heat's seal past."""
    return and_(
        games.c.outcome.is_not(None),
        or_(games.c.daily_day.is_(None), games.c.daily_day < disclosure.first_open_day),
        or_(games.c.room_id.is_(None), rooms.c.status == FINISHED),
        or_(rooms.c.seed_sealed_until.is_(None), rooms.c.seed_sealed_until <= disclosure.now),
    )


def _selected(disclosure: Disclosure, wanted: ExportFilter) -> Select[Any]:
    query = (
        select(games, players.c.bot.label("player_bot"), rooms.c.code.label("room_code"),
               tournament_races.c.tournament_id)
        .join(players, players.c.id == games.c.player_id)
        .outerjoin(rooms, rooms.c.id == games.c.room_id)
        .outerjoin(tournament_races, tournament_races.c.room_id == games.c.room_id)
        .where(public(disclosure))
    )
    if wanted.since is not None:
        query = query.where(games.c.finished_at >= wanted.since)
    if wanted.until is not None:
        query = query.where(games.c.finished_at < wanted.until)
    if wanted.variant is not None:
        query = query.where(games.c.variant == wanted.variant)
    if wanted.player_id is not None:
        query = query.where(games.c.player_id == wanted.player_id)
    return query


class ExportReads:
    def __init__(self, engine: AsyncEngine, batch: int = 500) -> None:
        self.engine = engine
        self.batch = batch

    async def sanctions(self) -> Sanctions:
        """The marks and voids in force, read once per export or page (a few rows per sanctioned player)."""
        async with self.engine.connect() as connection:
            return await sanctions_in_force(connection)

    async def games(self, disclosure: Disclosure, wanted: ExportFilter) -> AsyncIterator[list[ExportRow]]:
        """Every public finished game `wanted` names, oldest first, a batch at a time."""
        after: Key | None = None
        while True:
            query = _selected(disclosure, wanted)
            if after is not None:
                query = query.where(tuple_(games.c.finished_at, games.c.id) > tuple_(*after))
            query = query.order_by(games.c.finished_at, games.c.id).limit(self.batch)
            async with self.engine.connect() as connection:
                rows = (await connection.execute(query)).all()
                if not rows:
                    return
                found = await _export_rows(connection, rows)
            yield found
            after = (rows[-1].finished_at, rows[-1].id)

    async def newest(self, disclosure: Disclosure, player_id: str, limit: int,
                     before: Key | datetime | None = None) -> tuple[list[ExportRow], bool]:  # fmt: skip
        """Up to `limit` of the player's public finished games, newest first, finished before `before` (an instant,
        or a key: also those at that instant of a smaller id); and whether there are more."""
        query = _selected(disclosure, ExportFilter(player_id=player_id))
        if isinstance(before, tuple):
            query = query.where(tuple_(games.c.finished_at, games.c.id) < tuple_(*before))
        elif before is not None:
            query = query.where(games.c.finished_at < before)
        query = query.order_by(games.c.finished_at.desc(), games.c.id.desc()).limit(limit + 1)
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
            found = await _export_rows(connection, rows[:limit])
        return found, len(rows) > limit


async def _export_rows(connection: AsyncConnection, rows: Sequence[Any]) -> list[ExportRow]:
    """The batch's games with their moves and the player's rating change in each rated race (two reads)."""
    stored = await with_moves(connection, rows)
    raced = sorted({(row.room_id, row.player_id) for row in rows if row.room_id is not None})
    rated: dict[tuple[str, str], Change] = {}
    if raced:
        query = (
            select(changes.c.room_id, changes.c.player_id, changes.c.ladder, changes.c.mu_before,
                   changes.c.sigma_before, changes.c.mu_after, changes.c.sigma_after, changes.c.races)
            .where(tuple_(changes.c.room_id, changes.c.player_id).in_(raced))
            .order_by(changes.c.id)
        )
        for row in await connection.execute(query):
            rated[(row.room_id, row.player_id)] = change_of(row)
    return [
        ExportRow(game, bool(row.player_bot), row.room_code, row.tournament_id,
                  rated.get((row.room_id, row.player_id)) if row.room_id is not None else None)
        for game, row in zip(stored, rows, strict=True)
    ]

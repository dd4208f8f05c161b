"""The reads of a player's page: per-variant counts of their finished games and their daily attempts' days.

A game a moderator voided counts in none of them (`not_void`): it is off every board, and off the player's page.

Both are served by indexes of `games`: the history index (player, finished, id; finished games only) for the
counts, the one-ranked-attempt-per-day unique index (player, variant, day) for the streak's days, and a month of
the history index for the calendar's practice days.
"""

from __future__ import annotations

from datetime import date

from sqlalchemy import ColumnElement, Integer, and_, case, exists, func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from freecell_arena.core.moderation.sanctions import Act
from freecell_arena.core.records.daily import closes_at, opens_at
from freecell_arena.core.records.profiles import DailyDays, VariantStats
from freecell_arena.store.models import Daily, Game, Sanction, table_of

games = table_of(Game)
dailies = table_of(Daily)
sanctions = table_of(Sanction)
WON = "won"


def not_void() -> ColumnElement[bool]:
    """The game is not void: no void sanction in force names it (the sanctions' game index)."""
    return ~exists().where(sanctions.c.game_id == games.c.id, sanctions.c.kind == Act.VOID.value)


class ProfileStore:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def variant_stats(self, player_id: str) -> list[VariantStats]:
        won = games.c.outcome == WON
        counts = (
            select(
                games.c.variant,
                func.count().label("games"),
                func.sum(case((won, 1), else_=0)).label("won"),
                func.min(case((won, games.c.player_moves))).label("best_moves"),
                func.avg(case((won, games.c.player_moves))).label("average_moves"),
                func.min(case((won, games.c.time_ms))).label("best_time_ms"),
            )
            .where(games.c.player_id == player_id, games.c.outcome.is_not(None), not_void())
            .group_by(games.c.variant)
        )
        over_par = (
            select(games.c.variant, func.avg((games.c.player_moves - dailies.c.par).cast(Integer) * 1.0))
            .join(dailies, and_(dailies.c.variant == games.c.variant, dailies.c.day == games.c.daily_day))
            .where(games.c.player_id == player_id, games.c.outcome == WON, games.c.ranked == True,  # noqa: E712
                   not_void())
            .group_by(games.c.variant)
        )
        async with self.engine.connect() as connection:
            rows = (await connection.execute(counts)).all()
            pars = {variant: average for variant, average in (await connection.execute(over_par)).all()}
        return [
            VariantStats(row.variant, int(row.games), int(row.won or 0), row.best_moves,
                         None if row.average_moves is None else float(row.average_moves), row.best_time_ms,
                         None if pars.get(row.variant) is None else float(pars[row.variant]))
            for row in sorted(rows, key=lambda row: row.variant)
        ]

    async def daily_days(self, player_id: str, variant: str) -> DailyDays:
        query = select(games.c.daily_day, games.c.outcome).where(
            games.c.player_id == player_id,
            games.c.variant == variant,
            games.c.daily_day.is_not(None),
            games.c.ranked == True,  # noqa: E712 (`= 1` on SQLite: the partial index's own predicate)
        )
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return DailyDays(won=frozenset(row.daily_day for row in rows if row.outcome == WON),
                         played=frozenset(row.daily_day for row in rows))  # fmt: skip

    async def practice_days(self, player_id: str, variant: str, first: date, last: date) -> frozenset[date]:
        """A range of the history index (a daily game finishes within its day), for one month's calendar."""
        query = select(games.c.daily_day).distinct().where(
            games.c.player_id == player_id,
            games.c.outcome.is_not(None),
            games.c.finished_at >= opens_at(first),
            games.c.finished_at <= closes_at(last),
            games.c.variant == variant,
            games.c.daily_day.between(first, last),
            games.c.ranked == False,  # noqa: E712
        )
        async with self.engine.connect() as connection:
            return frozenset((await connection.execute(query)).scalars())

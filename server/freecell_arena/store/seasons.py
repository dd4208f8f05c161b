"""Season table reads: the newest materialised table of a variant, by position (an index range scan)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from freecell_arena.core.ports.reads import SeasonPage, SeasonRow
from freecell_arena.store.models import Player, SeasonStanding, table_of

standings = table_of(SeasonStanding)
players = table_of(Player)


def _rows() -> Any:
    return select(
        standings.c.position,
        standings.c.rank,
        standings.c.player_id,
        players.c.display_name,
        standings.c.wins,
        standings.c.moves_over_par,
        standings.c.average_rank,
    ).join(players, players.c.id == standings.c.player_id)


class SeasonReads:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def page(
        self, variant: str, bots: bool, days: int, limit: int, *, after: int = 0, around: str | None = None
    ) -> SeasonPage | None:
        """Rows after position `after`, or centred on player `around` (None when that player has no row)."""
        table = (standings.c.variant == variant, standings.c.bots == bots, standings.c.days == days)
        async with self.engine.connect() as connection:
            through = (await connection.execute(select(func.max(standings.c.through_day)).where(*table))).scalar()
            if through is None:
                return None if around else SeasonPage(None, [], 0, False)
            current = (*table, standings.c.through_day == through)
            if around is not None:
                mine = select(standings.c.position).where(*current, standings.c.player_id == around)
                position = (await connection.execute(mine)).scalar()
                if position is None:
                    return None
                after = max(0, position - 1 - (limit - 1) // 2)
            query = (
                _rows()
                .where(*current, standings.c.position > after)
                .order_by(standings.c.position)
                .limit(limit + 1)
            )
            found = [SeasonRow(*row) for row in await connection.execute(query)]
            last = select(func.max(standings.c.position)).where(*current)
            total = int((await connection.execute(last)).scalar() or 0)
        return SeasonPage(through, found[:limit], total, len(found) > limit)

"""Deal pars SQL: insert-if-absent per (variant, seed, rules version), read back by any process."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncEngine

from freecell_arena.core.records.review import Par, ParStatus
from freecell_arena.store.engine import WRITE_OPTION
from freecell_arena.store.models import DealPar, table_of

deal_pars = table_of(DealPar)


class ParStore:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def get(self, variant: str, seed: int, rules_version: str) -> Par | None:
        query = select(deal_pars.c.status, deal_pars.c.line).where(
            deal_pars.c.variant == variant, deal_pars.c.seed == seed, deal_pars.c.rules_version == rules_version
        )
        async with self.engine.connect() as connection:
            row = (await connection.execute(query)).first()
        if row is None:
            return None
        return Par(variant, seed, rules_version, ParStatus(row.status), tuple(row.line.split()))

    async def save(self, par: Par, at: datetime) -> Par:
        """Keep `par` unless the deal has one already; return the one stored (the first writer's)."""
        if par.status is ParStatus.UNKNOWN:
            raise ValueError("an unsettled par is not stored: the deal is tried again later")
        values = {"variant": par.variant, "seed": par.seed, "rules_version": par.rules_version,
                  "status": str(par.status), "line": " ".join(par.line), "solved_at": at}  # fmt: skip
        async with self.engine.connect() as connection:
            connection = await connection.execution_options(**{WRITE_OPTION: True})
            dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
            async with connection.begin():
                await connection.execute(dialect.insert(deal_pars).values(**values).on_conflict_do_nothing())
        stored = await self.get(par.variant, par.seed, par.rules_version)
        assert stored is not None
        return stored

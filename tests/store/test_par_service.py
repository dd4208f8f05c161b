"""Pars after races (net/par_service.py, store/pars.py): solved in a real worker process, stored once per deal
on SQLite and PostgreSQL, shared between concurrent requests, and an unsettled deal left to be tried again."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest

from freecell_arena.core.review import ParStatus
from freecell_arena.engine import RULES_VERSION
from freecell_arena.net.par_service import ParService
from freecell_arena.store import SqlStore
from freecell_arena.store.pars import ParStore


class FixedClock:
    def now(self) -> datetime:
        return datetime(2026, 11, 25, 12, tzinfo=UTC)


@pytest.fixture
async def pars(store: SqlStore) -> AsyncIterator[ParStore]:
    yield ParStore(store.engine)


async def test_a_par_is_solved_once_in_the_worker_and_then_read_from_the_store(pars: ParStore) -> None:
    service = ParService(pars, FixedClock(), budget_s=10)
    try:
        first, second = await asyncio.gather(service.par_of("freecell", 1), service.par_of("freecell", 1))
        assert first == second and first.status is ParStatus.SOLVED and first.moves
        assert await pars.get("freecell", 1, RULES_VERSION) == first
    finally:
        await service.close()
    again = ParService(pars, FixedClock(), budget_s=0.0001)  # a budget that could solve nothing: the store answers
    try:
        assert await again.par_of("freecell", 1) == first
    finally:
        await again.close()


async def test_an_unsettled_deal_is_not_stored(pars: ParStore) -> None:
    service = ParService(pars, FixedClock(), budget_s=0.001)
    try:
        par = await service.par_of("freecell-three-deck", 7)
    finally:
        await service.close()
    assert par.status is ParStatus.UNKNOWN
    assert await pars.get("freecell-three-deck", 7, RULES_VERSION) is None


async def test_the_first_stored_par_of_a_deal_is_the_one_kept(pars: ParStore) -> None:
    from freecell_arena.core.review import Par

    first = Par("freecell", 2, RULES_VERSION, ParStatus.SOLVED, ("3a", "3b"))
    assert await pars.save(first, FixedClock().now()) == first
    later = Par("freecell", 2, RULES_VERSION, ParStatus.SOLVED, ("1a",))
    assert await pars.save(later, FixedClock().now()) == first
    with pytest.raises(ValueError, match="unsettled"):
        await pars.save(Par("freecell", 3, RULES_VERSION, ParStatus.UNKNOWN), FixedClock().now())

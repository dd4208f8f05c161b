"""Fixtures of the account tests: a manual clock, and an `AccountService` over a real store on each backend."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))  # the server tests' arena and client
from account_support import RP, ManualClock

from freecell_arena.net.accounts import AccountService
from freecell_arena.store.accounts import AccountSqlStore


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def account_store(database_url: str) -> AsyncIterator[AccountSqlStore]:
    store = AccountSqlStore.from_url(database_url)
    yield store
    await store.close()


@pytest.fixture
def service(account_store: AccountSqlStore, clock: ManualClock) -> AccountService:
    return AccountService(account_store, RP, clock)

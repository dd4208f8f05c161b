"""A real ArenaServer on a free loopback port over a real database, for the server tests and their fixtures.

Its own module name (not `conftest`): `from conftest import ...` means whichever conftest.py was imported first
when several test directories are collected together.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass

from freecell_arena.core.clock import Clock
from freecell_arena.net.app import ArenaServer
from freecell_arena.settings import Settings
from freecell_arena.store import GroupCommitWriter, SqlStore


@dataclass
class RunningArena:
    server: ArenaServer
    url: str
    database_url: str


ACCOUNT_TABLES = ("name_keys", "claimed_names", "passkeys", "bot_accounts", "accounts", "access_tokens",
                  "webauthn_challenges")  # fmt: skip
"""Migration 0006's tables, children first: they refer to players, which PostgreSQL drops only after them."""
TOURNAMENT_TABLES = ("tournament_berserks", "tournament_races", "tournament_entries", "tournaments")
"""Migration 0013's tables, children first (races and berserks refer to rooms, entries and tournaments to players)."""
MODERATION_TABLES = ("retired_names", "sanctions", "mod_log", "reports", "moderators")
"""Migration 0014's tables, children first (moderators refer to accounts)."""


async def drop_schema(server: ArenaServer) -> None:
    """Every table goes away under the running server: from now on each write and read fails (an outage)."""
    from sqlalchemy import text

    async with server.store.engine.begin() as connection:
        for table in ("leaderboard_entries", "daily_ranks", "season_standings", "moves", "games", "room_members",
                      "rating_changes", "ratings", *TOURNAMENT_TABLES, "rooms", *MODERATION_TABLES, *ACCOUNT_TABLES,
                      "players"):  # fmt: skip
            await connection.execute(text(f"DROP TABLE {table}"))


async def start_arena(database_url: str, clock: Clock | None = None, **overrides: object) -> ArenaServer:
    """Daily deals are not prepared in the background unless a test asks (`daily_prepare_interval_s`)."""
    values: dict[str, object] = {
        "rate_limit_per_s": 1000.0,
        "rate_limit_burst": 1000,
        # every test client comes from 127.0.0.1: the per-address limits would count them all as one person
        "max_connections_per_address": 100_000,
        "new_players_per_minute": 1e9,
        "api_rate_limit_per_s": 1e6,
        "api_rate_limit_burst": 1_000_000,
        "daily_prepare_interval_s": 0,
        "par_at_race_end": False,  # no solver worker for every finished race; a review still works its par out
        **overrides,
    }
    settings = Settings(host="127.0.0.1", port=0, database_url=database_url, tick_interval_s=0.02, **values)
    store = SqlStore(database_url)
    server = ArenaServer(settings, store, GroupCommitWriter(store), clock)
    await server.start()
    return server


@contextlib.asynccontextmanager
async def started_arena(
    database_url: str, clock: Clock | None = None, **overrides: object
) -> AsyncIterator[ArenaServer]:
    """`start_arena`, shut down after (a fixture's body)."""
    server = await start_arena(database_url, clock, **overrides)
    try:
        yield server
    finally:
        await server.shutdown()

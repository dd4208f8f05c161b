"""What several browser tests share: a server in this process on a clock the test moves, with quick races that start
a second after the second player and a house bot offered after a second and playing briskly; its addresses; and a
race the browser player creates and a program joins."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

from arena_client import ArenaClient
from arena_server import started_arena
from boards_helpers import ManualClock
from playwright.async_api import expect
from webpages import Player

from freecell_arena.core.records.ranking import TIED_NON_FINISHERS_FROM
from freecell_arena.core.records.review import solve_par
from freecell_arena.net.app import ArenaServer

PAR_LINE = list(solve_par("freecell", 1).line)
"""Microsoft deal 1 won with autoplay on (the room's default): fewer moves to type than the atomic SOLUTION."""


@contextlib.asynccontextmanager
async def quick_arena(sqlite_url: str, **overrides: Any) -> AsyncIterator[tuple[ArenaServer, ManualClock]]:
    """A server on a clock after the standings' change, quick races that start a second after the second player,
    a house bot offered after a second and playing briskly."""
    clock = ManualClock(TIED_NON_FINISHERS_FROM + timedelta(days=3))
    settings: dict[str, Any] = {"rate_limit_per_s": 10_000.0, "rate_limit_burst": 10_000, "quick_race_wait_s": 1.0,
                                "house_bot_after_s": 1.0, "house_bot_moves_per_s": 10.0, **overrides}  # fmt: skip
    async with started_arena(sqlite_url, clock, **settings) as server:
        yield server, clock


def site(server: ArenaServer) -> tuple[str, str]:
    """The page's address and the websocket's."""
    return f"http://127.0.0.1:{server.port}", f"ws://127.0.0.1:{server.port}/"


async def race_a_program(player: Player, rival: ArenaClient, clock: ManualClock | None = None, *, name: str = "",
                         **create: Any) -> str:  # fmt: skip
    """The browser player creates a race (the landing page's form), the program (`name`) joins, the player starts
    it."""
    await player.open("/")
    code = await player.create_race(**create)
    assert (await rival.request({"type": "join_room", "code": code}))["type"] == "room"
    await expect(player.page.get_by_role("list", name="Players").get_by_role("listitem")).to_have_count(2)
    await player.page.get_by_role("button", name="Start", exact=True).click()
    if clock is not None:
        clock.advance(1)
    await player.wait_for_board()
    await rival.expect("race_started", code=code)
    return code

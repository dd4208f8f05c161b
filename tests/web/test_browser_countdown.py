"""The countdown in step with the server: the server's clock runs an hour ahead of the browser's, and the page
still counts the race's seconds down (it corrects `starts_at` by the offset the countdown message gives), then
shows the board when the server starts the race."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
from arena_server import start_arena
from playwright.async_api import expect
from webpages import NewPlayer

from freecell_arena.net.app import ArenaServer

SKEW = timedelta(hours=1)
COUNTDOWN_S = 4


class SkewedClock:
    """The wall clock, an hour ahead: a server whose clock disagrees with its players'."""

    def now(self) -> datetime:
        return datetime.now(UTC) + SKEW


@pytest.fixture
async def skewed_server(sqlite_url: str) -> AsyncIterator[ArenaServer]:
    server = await start_arena(sqlite_url, SkewedClock())
    try:
        yield server
    finally:
        await server.shutdown()


async def test_the_countdown_follows_the_servers_clock(skewed_server: ArenaServer, new_player: NewPlayer) -> None:
    player = await new_player("Early", f"http://127.0.0.1:{skewed_server.port}")
    await player.open("/")
    await player.create_race("freecell", countdown_s=COUNTDOWN_S)
    await player.page.get_by_role("button", name="Start", exact=True).click()
    countdown = player.page.locator("[data-countdown]")
    await expect(countdown).to_be_visible()
    left = int(await countdown.get_attribute("data-countdown") or -1)
    assert 1 <= left <= COUNTDOWN_S, f"{left} s left: the page did not correct for the server's clock"
    await expect(countdown).to_contain_text("Starting in")
    await player.wait_for_board()

"""Issue 53, what newcomers and players met around the races, in Chromium at 1366x768 and 390x844 (the server in this
process, tests/web/racing_pages.py):

- "Quick race" or "Play now" from a room's lobby leaves the lobby by itself (it answered "you are in room …: leave it
  first", raw and red); a race still running is not given up behind the player's back: the page leads back to it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from boards_helpers import ManualClock
from playwright.async_api import expect
from racing_pages import quick_arena, site
from webpages import DESKTOP, PHONE, ROOM_PATH, NewPlayer

from freecell_arena.net.app import ArenaServer

SIZES = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]


@pytest.fixture
async def arena(sqlite_url: str) -> AsyncIterator[tuple[ArenaServer, ManualClock]]:
    async with quick_arena(sqlite_url) as served:
        yield served


async def test_a_quick_race_from_a_lobby_leaves_the_lobby(arena: tuple[ArenaServer, ManualClock],
                                                          new_player: NewPlayer) -> None:  # fmt: skip
    server, _ = arena
    player = await new_player("Restless", site(server)[0], viewport=DESKTOP)
    await player.open("/")
    lobby = await player.create_race(deal=1)
    await player.page.get_by_role("navigation", name="Main").get_by_role("link", name="Play").click()
    await player.page.get_by_role("button", name="Quick race: Chinese FreeCell").click()
    await expect(player.page).to_have_url(ROOM_PATH)
    await expect(player.page).not_to_have_url(f"{site(server)[0]}/r/{lobby}")
    await expect(player.page.locator(".room-options")).to_contain_text("quick race")
    await expect(player.page.get_by_role("alert")).to_have_count(0)

    await player.page.get_by_role("button", name="Leave room").click()
    await player.create_race(deal=1)
    await player.start_race()  # a race of one, running
    await player.page.get_by_role("navigation", name="Main").get_by_role("link", name="Play").click()
    await player.page.get_by_role("button", name="Play now").click()
    back = player.page.get_by_role("alert").get_by_role("link", name="Back to your race")
    await expect(back).to_be_visible()
    await back.click()
    await expect(player.board).to_have_attribute("data-status", "playing")

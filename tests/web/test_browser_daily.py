"""The daily challenge in a real browser: today's deal played from its page to a ranked win, then the day's board
showing it (on the daily page and the leaderboards page, with axe-core's check).

The server runs in this process on a loopback port with a clock the test moves (as tests/server/test_daily.py
does): a daily is ranked only for identities made before the day's deal opened, and a human's win under the
fair-play time floors is set apart, so the test makes the player yesterday and paces the moves a second apart
on the server's clock.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta

import pytest
from boards_helpers import ManualClock
from clocked_server import clocked_daily_server
from playwright.async_api import expect
from webpages import NewPlayer, assert_accessible

from freecell_arena.net.app import ArenaServer

SECRET = "the browser test's daily secret"


@pytest.fixture
async def daily_server(sqlite_url: str) -> AsyncIterator[tuple[ArenaServer, ManualClock]]:
    async with clocked_daily_server(sqlite_url, days_ago=1, secret=SECRET) as served:
        yield served


async def test_the_daily_challenge_played_and_its_board_showing_the_win(
    daily_server: tuple[ArenaServer, ManualClock], new_player: NewPlayer
) -> None:
    server, clock = daily_server
    base_url = f"http://127.0.0.1:{server.port}"
    player = await new_player("Dana", base_url)
    await player.open("/")  # the identity is made yesterday, on the server's clock
    clock.advance(timedelta(days=1).total_seconds())
    await server.daily.run_once()  # today's and tomorrow's deals, as the background task prepares them
    today = clock.now().date()
    deal = await server.store.dailies.deal("freecell", today)
    assert deal is not None

    await player.page.get_by_role("link", name="Play today\u2019s FreeCell", exact=True).click()
    await player.wait_for_board()
    await expect(player.page.locator("[data-ranked]")).to_have_attribute("data-ranked", "true")
    await expect(player.page.get_by_text(f"par {deal.par} moves")).to_be_visible()
    for notation in deal.solution:
        clock.advance(1.0)  # a person's pace on the server's clock: the fair-play floors are met
        await player.type_move(notation)
    await expect(player.board).to_have_attribute("data-status", "won")
    await expect(player.board).to_have_attribute("data-moves", str(deal.par))

    board = player.page.get_by_role("region", name="The day\u2019s board (1 winner)")
    await expect(board).to_be_visible()
    row = board.get_by_role("table").get_by_role("row").nth(1)
    await expect(row).to_contain_text("Dana")
    await expect(row.get_by_role("cell").nth(2)).to_have_text(str(deal.par))
    await assert_accessible(player, "daily game over")
    await player.page.get_by_role("button", name="Play again (practice)").click()  # later games are not ranked
    await expect(player.page.locator("[data-ranked]")).to_have_attribute("data-ranked", "false")
    await expect(player.board).to_have_attribute("data-status", "playing")
    clock.advance(5.0)  # the server's clock stands still between moves: the practice game ends after the win
    await player.resign()
    await expect(player.board).to_have_attribute("data-status", "resigned")
    await player.page.get_by_role("link", name="Daily", exact=True).click()
    await player.page.get_by_role("link", name="Today\u2019s board", exact=True).first.click()

    results = player.page.get_by_role("region", name="Results")
    await expect(results).to_contain_text(f"1 on the board of {today.isoformat()}")
    await expect(results.get_by_role("row").nth(1)).to_contain_text("Dana")
    await assert_accessible(player, "daily leaderboard")

    await results.get_by_role("link", name="Dana", exact=True).click()  # the player's page, then their games
    await expect(player.page.get_by_role("heading", name="Dana (you)")).to_be_visible()
    await assert_accessible(player, "player page")
    await player.page.get_by_role("link", name="All games").click()
    await expect(player.page.get_by_role("heading", name="Games of Dana")).to_be_visible()
    games = player.page.get_by_role("table").get_by_role("row")
    await expect(games).to_have_count(3)  # the header, the practice game (newest first), the ranked win
    await expect(games.nth(1)).to_contain_text("unranked")
    await expect(games.nth(1)).to_contain_text("resigned")
    await expect(games.nth(2)).to_contain_text(f"daily {today.isoformat()}")
    await expect(games.nth(2)).to_contain_text("won")

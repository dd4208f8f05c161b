"""axe-core (through axe-playwright-python) on every main view: no serious or critical violation on the landing (a
first visit's and a player's), the rules, the name prompt, room, board, the resign dialog, replay and leaderboard
views, at desktop and phone sizes."""

from __future__ import annotations

import pytest
from arena_client import connect_player
from playwright.async_api import expect
from racing import open_race
from serverprocess import ServerProcess
from webpages import DESKTOP, PHONE, SOLUTION, NewPlayer, assert_accessible

VIEWPORTS = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]


async def finished_race(server: ServerProcess) -> str:
    """A race a program won (MS deal 1, its solution); the id of its game, whose replay is open to all now."""
    host = await connect_player(f"ws://127.0.0.1:{server.port}/", "Winner")
    try:
        _, games = await open_race(host, [], "freecell", seed=1, autoplay=False)
        for notation in SOLUTION:
            reply = await host.request({"type": "move", "move": notation})
            assert reply["type"] == "move_accepted", reply
        await host.expect("race_over")
        game_id: str = next(iter(games.values()))["game_id"]
        return game_id
    finally:
        await host.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
async def test_landing_room_and_board_have_no_serious_violation(
    base_url: str, new_player: NewPlayer, viewport: dict[str, int]
) -> None:
    player = await new_player("Axe", base_url, viewport=viewport)
    await player.page.goto(base_url + "/")
    await expect(player.page.get_by_role("button", name="Play now")).to_be_visible()
    await assert_accessible(player, "a first visit's landing")
    await player.page.goto(base_url + "/#/rules/chinese-freecell")
    await expect(player.page.get_by_role("heading", name="How to play Chinese FreeCell")).to_be_visible()
    await assert_accessible(player, "rules")
    await player.page.get_by_role("button", name="Choose a name").click()
    await expect(player.page.get_by_role("textbox", name="Name")).to_be_visible()
    await assert_accessible(player, "name prompt")
    await player.open("/")
    await expect(player.page.get_by_role("button", name="Create race")).to_be_visible()
    await assert_accessible(player, "landing")
    await player.create_race("freecell", deal=1)
    await assert_accessible(player, "room")
    await player.start_race()
    await assert_accessible(player, "board")
    await player.page.get_by_text("Keyboard help").click()
    await assert_accessible(player, "board with the keyboard help open")
    await player.page.get_by_role("button", name="Resign").click()
    await expect(player.page.get_by_role("dialog", name="Resign this game?")).to_be_visible()
    await assert_accessible(player, "the resign dialog")
    await player.page.keyboard.press("Escape")
    await expect(player.page.get_by_role("dialog")).to_have_count(0)
    await expect(player.board).to_have_attribute("data-status", "playing")


async def test_the_replay_view_has_no_serious_violation(
    server: ServerProcess, base_url: str, new_player: NewPlayer
) -> None:
    game_id = await finished_race(server)
    player = await new_player("Axe", base_url)
    await player.open(f"/#/replay/{game_id}")
    await expect(player.page.get_by_role("slider", name="Replay position")).to_be_visible()
    await expect(player.board).to_be_visible()
    await assert_accessible(player, "replay")


async def test_the_leaderboard_view_has_no_serious_violation(
    server: ServerProcess, base_url: str, new_player: NewPlayer
) -> None:
    """Boards with rows are checked by the daily challenge's test (test_browser_daily.py), after a ranked win."""
    await finished_race(server)  # autoplay off: unranked, so the deal has no board at all
    player = await new_player("Axe", base_url)
    player.console.expect("Failed to load resource: .* 404")  # read over HTTP before the name: the unknown seed's 404
    await player.open("/#/leaderboards/freecell?board=deal&seed=1&bots=1")
    results = player.page.get_by_role("region", name="Results")
    await expect(results).to_contain_text("no ranked FreeCell game was ever dealt from seed 1")
    await assert_accessible(player, "deal board of a deal nobody was dealt (unknown_seed)")
    await player.open("/#/leaderboards/freecell?board=season")
    await expect(player.page.get_by_role("region", name="Results")).to_contain_text("No one has won")
    await assert_accessible(player, "season table")


async def test_the_event_log_stays_accessible_after_a_long_game(base_url: str, new_player: NewPlayer) -> None:
    player = await new_player("Axe", base_url)
    await player.open("/")
    await player.create_race("freecell", deal=1, autoplay=False)
    await player.start_race()
    for notation in SOLUTION[:60]:
        await player.type_move(notation)
    await assert_accessible(player, "board after 60 moves")

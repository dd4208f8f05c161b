"""Race again and quick races in real browsers against a real server: two friends race, press "Race again" (the
one who did not press first is invited and joins with one click), and the series' tally shows in the new room;
two players press "Quick race" on the landing page and the race fills and starts by itself. Screenshots of both
go to FREECELL_ARENA_SHOTS (a folder) when it is set."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import expect
from serverprocess import ServerProcess, running_server, server_env
from webpages import ROOM_PATH, SOLUTION, NewPlayer, Player


async def shot(player: Player, name: str) -> None:
    folder = os.environ.get("FREECELL_ARENA_SHOTS")
    if folder:
        await player.page.wait_for_timeout(300)
        await player.page.screenshot(path=str(Path(folder) / f"{name}.png"))


async def test_two_friends_race_again_and_the_series_keeps_the_tally(base_url: str, new_player: NewPlayer) -> None:
    alice = await new_player("Alice", base_url)
    await alice.open("/")
    code = await alice.create_race("freecell", deal=1, autoplay=False)
    bob = await new_player("Bob", base_url)
    await bob.open(f"/r/{code}")
    await expect(alice.page.get_by_role("list", name="Players")).to_contain_text("Bob")
    await alice.start_race()
    await bob.wait_for_board()
    await bob.resign()
    for notation in SOLUTION:
        await alice.type_move(notation)
    for player in (alice, bob):
        await expect(player.room).to_have_attribute("data-room-status", "finished")
        await expect(player.page.get_by_role("button", name="Race again")).to_be_visible()

    await alice.page.get_by_role("button", name="Race again").click()
    await expect(alice.page).not_to_have_url(f"{base_url}/r/{code}")
    next_code = ROOM_PATH.search(alice.page.url)
    assert next_code is not None and next_code.group(1) != code
    await expect(alice.room).to_have_attribute("data-room-status", "lobby")
    standings = bob.page.get_by_role("region", name="Standings")  # the invitation turned the button, in its place
    join = standings.get_by_role("button", name="Join the next race")
    await expect(join).to_be_visible()
    await expect(bob.page.get_by_role("log")).to_contain_text("Alice opened the next race")
    await expect(bob.page.get_by_role("status").filter(has_text="next race of this series")).to_contain_text(
        next_code.group(1)
    )  # at the top of the page too, above the board
    await shot(bob, "race-again-invited")
    await join.click()
    await expect(bob.page).to_have_url(f"{base_url}/r/{next_code.group(1)}")
    for player in (alice, bob):
        await expect(player.page.get_by_role("list", name="Players")).to_contain_text("Alice")
        await expect(player.page.get_by_role("list", name="Players")).to_contain_text("Bob")
        tally = player.page.get_by_role("list", name="Wins in this series")
        await expect(tally.get_by_role("listitem").nth(0)).to_have_text("Alice 1 win")
        await expect(tally.get_by_role("listitem").nth(1)).to_have_text("Bob 0 wins")
        await expect(player.page.get_by_role("heading", name="Series · race 2")).to_be_visible()
    await shot(alice, "race-again-series")
    await alice.start_race()  # the same options: Alice, the one who opened it, hosts
    await bob.wait_for_board()


@pytest.fixture
async def quick_server(tmp_path: Path) -> AsyncIterator[ServerProcess]:
    env = server_env(FREECELL_ARENA_QUICK_RACE_MIN_PLAYERS="2", FREECELL_ARENA_QUICK_RACE_WAIT_S="2")
    async with running_server(tmp_path, env=env) as process:
        yield process


async def test_a_quick_race_fills_and_starts_by_itself(quick_server: ServerProcess, new_player: NewPlayer) -> None:
    base = f"http://127.0.0.1:{quick_server.port}"
    alice = await new_player("Alice", base)
    bob = await new_player("Bob", base)
    await alice.open("/")
    await shot(alice, "quick-race-landing")
    await alice.page.get_by_role("button", name="Quick race: Chinese FreeCell").click()
    await expect(alice.page).to_have_url(ROOM_PATH)
    await expect(alice.room).to_have_attribute("data-room-status", "lobby")
    await expect(alice.page.get_by_text("once enough players are in")).to_be_visible()
    await expect(alice.page.get_by_role("button", name="Start", exact=True)).to_have_count(0)
    await expect(alice.page.get_by_role("paragraph").filter(has_text="ranked")).to_contain_text("ranked")
    await shot(alice, "quick-race-waiting")
    await bob.open("/")
    await bob.page.get_by_role("button", name="Quick race: Chinese FreeCell").click()
    await expect(bob.page).to_have_url(alice.page.url)  # the same filling room
    for player in (alice, bob):
        await expect(player.page.get_by_role("list", name="Players")).to_contain_text("Bob")
    await expect(alice.room).to_have_attribute("data-room-status", "countdown")
    await shot(bob, "quick-race-countdown")
    for player in (alice, bob):
        await player.wait_for_board()  # it started by itself
    assert await alice.read_board() == await bob.read_board(), "one deal for both"

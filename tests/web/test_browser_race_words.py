"""Issue 53, what a race says, in Chromium at 1366x768 and 390x844: each defect a player met, with the words they
should see instead (the server runs in this process on a clock the test moves: tests/web/racing_pages.py).

- A race of one and a race with the house bot rate nobody, and their rooms say so (never "ranked and rated").
- A fewest-moves race is decided only when nobody still racing can do better: the first to solve reads "Solved in 38
  moves, best so far", the others see "solved", and "You won the race!" waits for the standings.
- The counts say "1 move", a FreeCell deal number shows whole, "Copy link" answers where it was pressed.
- A refused move is told in words where the move was made; Finish pressed too early says so under the board.
- "Practice (hints on)" is a choice where a race is created.
- Once the race is over, the standings come before the board (a phone sees them without scrolling two screens).
- After resigning to the house bot a player is offered another race at once.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from arena_client import connect_player
from boards_helpers import ManualClock, play
from playwright.async_api import expect
from racing_pages import PAR_LINE, quick_arena, race_a_program, site
from webpages import DESKTOP, SIZES, NewPlayer, Player

from freecell_arena.net.app import ArenaServer

LONG_DEAL = 1_606_060_671
"""A FreeCell deal number of ten digits (the server draws them up to 2^31 - 1)."""


@pytest.fixture
async def slow_bot(sqlite_url: str) -> AsyncIterator[tuple[ArenaServer, ManualClock]]:
    """The house bot at a move a second: it plays on for minutes after a player resigns."""
    async with quick_arena(sqlite_url, house_bot_moves_per_s=1.0) as served:
        yield served


async def test_a_race_of_one_and_a_race_with_the_bot_rate_nobody(arena: tuple[ArenaServer, ManualClock],
                                                                  new_player: NewPlayer) -> None:  # fmt: skip
    server, _ = arena
    player = await new_player("Alone", site(server)[0], viewport=DESKTOP)
    await player.open("/")
    await player.create_race(max_players=1)
    options = player.page.locator(".room-options")
    await expect(options).to_contain_text("a race of one rates nobody")
    await expect(options).not_to_contain_text("ranked and rated")
    await player.page.get_by_role("button", name="Leave room").click()

    await player.page.get_by_role("button", name="Play now").click()  # nobody waits: the house bot races
    await expect(player.page.get_by_role("list", name="Players")).to_contain_text("House bot")
    await expect(options).to_contain_text("a race with a bot changes no rating")
    await expect(options).not_to_contain_text("ranked and rated")


@pytest.mark.parametrize("size", SIZES)
async def test_a_fewest_moves_race_is_decided_when_nobody_can_do_better(
    arena: tuple[ArenaServer, ManualClock], new_player: NewPlayer, size: dict[str, int]
) -> None:
    server, _ = arena
    base, url = site(server)
    player = await new_player("Quick", base, viewport=size)
    watcher = await new_player("Watcher", base, viewport=size)
    rival = await connect_player(url, "Slow")
    try:
        code = await race_a_program(player, rival, deal=1)
        await watcher.open(f"/r/{code}?watch=1")
        for notation in PAR_LINE:
            await player.type_move(notation)
        outcome = player.page.locator(".outcome")
        await expect(outcome).to_contain_text(f"Solved in {len(PAR_LINE)} moves, best so far")
        await expect(outcome).not_to_contain_text("won")
        await expect(player.page.locator(".game-status")).to_have_text("Solved")  # the bar said "You won!"
        await expect(player.page.get_by_role("log")).not_to_contain_text("You won")
        mine = watcher.page.get_by_role("list", name="Progress of every player").locator("li", has_text="Quick")
        await expect(mine).to_contain_text("solved")
        await expect(mine).not_to_contain_text("won")
        await play(rival, ["t1-c1"])
        assert (await rival.request({"type": "resign"}))["outcome"] == "resigned"
        await expect(outcome).to_contain_text("You won the race!")
        await expect(player.page.locator(".game-status")).to_have_text("You won!")
        await expect(mine).to_contain_text("won")  # decided: the standings say it
    finally:
        await rival.close()


async def test_counts_deal_numbers_and_the_copied_link(arena: tuple[ArenaServer, ManualClock],
                                                       new_player: NewPlayer) -> None:  # fmt: skip
    server, _ = arena
    base, url = site(server)
    player = await new_player("Counter", base, viewport=DESKTOP, permissions=["clipboard-read", "clipboard-write"])
    rival = await connect_player(url, "Other")
    try:
        await player.open("/")
        code = await player.create_race(deal=LONG_DEAL, autoplay=False)
        await expect(player.page.locator(".room-meta")).to_contain_text(f"deal #{LONG_DEAL}")
        await player.page.get_by_role("button", name="Copy link").click()
        await expect(player.page.get_by_role("status").filter(has_text="Copied")).to_be_visible()
        assert (await rival.request({"type": "join_room", "code": code}))["type"] == "room"
        await player.start_race()
        await expect(player.page.locator(".game-title")).to_contain_text(f"deal #{LONG_DEAL}")
        await player.type_move("t1-c1")
        me = player.page.get_by_role("list", name="Progress of every player").locator("li.me")
        await expect(me).to_contain_text("1 move ·")
    finally:
        await rival.close()


@pytest.mark.parametrize("size", SIZES)
async def test_a_refusal_and_an_early_finish_are_said_under_the_board(
    arena: tuple[ArenaServer, ManualClock], new_player: NewPlayer, size: dict[str, int]
) -> None:
    server, _ = arena
    player = await new_player("Learner", site(server)[0], viewport=size)
    await player.open("/")
    await player.create_race(deal=1, practice=True)
    await expect(player.page.locator(".room-options")).to_contain_text("practice")
    await player.start_race()
    box = player.page.get_by_role("textbox", name="Move")
    await box.fill("t1-t2")  # deal 1: the 6 of spades cannot go on the 9 of clubs
    await box.press("Enter")
    refusal = player.page.locator(".refusal")
    await expect(refusal).to_be_visible()
    await expect(refusal).to_contain_text("6 of spades cannot go on 9 of clubs")
    await expect(refusal).not_to_contain_text("6S")
    await player.page.get_by_role("button", name="Finish").click()
    said = player.page.locator(".game").get_by_role("status")
    await expect(said).to_contain_text("Not yet")
    await expect(said).to_be_in_viewport()


async def play_now_against_the_bot(player: Player) -> None:
    """Play now with nobody waiting: the house bot joins (its greeting at its own pace)."""
    await player.page.get_by_role("button", name="Play now").click()
    await expect(player.page.get_by_role("list", name="Players")).to_contain_text("House bot", timeout=15_000)


@pytest.mark.parametrize("size", SIZES)
async def test_after_resigning_to_the_bot_the_next_race_is_offered(
    slow_bot: tuple[ArenaServer, ManualClock], new_player: NewPlayer, size: dict[str, int]
) -> None:
    server, clock = slow_bot
    player = await new_player("Impatient", site(server)[0], viewport=size)
    await player.open("/")
    await play_now_against_the_bot(player)
    clock.advance(2)
    await player.wait_for_board()
    await player.resign()
    again = player.page.get_by_role("button", name="Play again")
    await expect(again).to_be_in_viewport()
    first = player.page.url
    await again.click()
    await expect(player.page).not_to_have_url(first)  # a new quick race, the house bot at once: nobody waits
    await expect(player.page.get_by_role("list", name="Players")).to_contain_text("House bot", timeout=15_000)


@pytest.mark.parametrize("size", SIZES)
async def test_the_standings_come_before_the_board(arena: tuple[ArenaServer, ManualClock], new_player: NewPlayer,
                                                   size: dict[str, int]) -> None:  # fmt: skip
    server, _ = arena
    base, url = site(server)
    player = await new_player("Loser", base, viewport=size)
    rival = await connect_player(url, "Winner")
    try:
        await race_a_program(player, rival, deal=1)
        await play(rival, PAR_LINE)
        await player.resign()
        standings = player.page.get_by_role("region", name="Standings")
        await expect(standings).to_be_visible()
        await expect(standings.get_by_role("button", name="Race again")).to_be_in_viewport()
    finally:
        await rival.close()

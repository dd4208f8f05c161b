"""Issue 53, what newcomers and players met around the races, in Chromium at 1366x768 and 390x844 (the server in this
process, tests/web/racing_pages.py):

- A new player's practice daily, won: the calendar's day reads "played, no ranked win" to a screen reader (not
  "played, not won" under "You won!"), the shared text says practice, and the page no longer says the daily "counts
  each player's own play on the boards" of a game that counts on none.
- A first visit opens Tournaments, Leaderboards and Daily without choosing a name (they read over HTTP), enters a
  tournament by giving one when it is needed, and finds "Sign in" (a passkey) without going through "Choose a name".
- The top bar's links ask before leaving the board of a race that runs, and every page then leads back to it.
- On a phone the top bar takes two rows, links are a finger's height, classic FreeCell offers no Zoom that would only
  push the foundations to a second row, and a friend opening a started race sees which deal it is.
- "Quick race" or "Play now" from a room's lobby leaves the lobby by itself (it answered "you are in room …: leave it
  first", raw and red); a race still running is not given up behind the player's back: the page leads back to it.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from arena_client import connect_player
from boards_helpers import ManualClock
from playwright.async_api import expect
from racing_pages import race_a_program, site
from webpages import DESKTOP, PHONE, ROOM_PATH, SIZES, NewPlayer

from freecell_arena.core.competition.tournaments.schedule import tournament_record
from freecell_arena.core.records.tournaments.rules import TournamentRules
from freecell_arena.net.app import ArenaServer


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
    await player.page.get_by_role("button", name="Leave the board").click()
    await player.page.get_by_role("button", name="Play now").click()
    back = player.page.get_by_role("alert").get_by_role("link", name="Back to your race")
    await expect(back).to_be_visible()
    await back.click()
    await expect(player.board).to_have_attribute("data-status", "playing")


@pytest.mark.parametrize("size", SIZES)
async def test_a_practice_daily_won_says_practice(daily_arena: tuple[ArenaServer, ManualClock], new_player: NewPlayer,
                                                   size: dict[str, int]) -> None:  # fmt: skip
    server, clock = daily_arena
    await server.daily.run_once()
    deal = await server.store.dailies.deal("freecell", clock.now().date())
    assert deal is not None and deal.solution
    clipboard = ["clipboard-read", "clipboard-write"]
    player = await new_player("Novice", site(server)[0], viewport=size, permissions=clipboard)
    await player.open("/#/daily/freecell")  # made today: today's deal is practice
    await player.page.get_by_role("button", name="Play today\u2019s deal as practice").click()
    await player.wait_for_board()
    note = player.page.locator(".hint-note")
    await expect(note).to_contain_text("practice included")
    await expect(note).not_to_contain_text("count each player")
    for notation in deal.solution:
        await player.type_move(notation)
    await expect(player.board).to_have_attribute("data-status", "won")
    result = player.page.get_by_role("region", name="Your day")
    today = result.locator(f'.calendar [data-day="{clock.now().date()}"]')
    await expect(today).to_have_attribute("data-mark", "played")
    await expect(today).to_contain_text("played, no ranked win")
    await expect(today).not_to_contain_text("not won")
    await result.get_by_role("button", name="Share").click()
    shared = result.get_by_role("textbox", name="Text to share")
    await expect(shared).to_have_value(re.compile(r"daily .*\nPractice: not on the day"))


ARENA = TournamentRules(kind="arena", variant="freecell", time_limit_s=600, ranked=True, race_size=2, cap=10,
                        duration_s=1800, late_entry_s=600, berserk=True)  # fmt: skip


@pytest.mark.parametrize("size", SIZES)
async def test_a_first_visit_reads_the_public_pages_and_finds_sign_in(
    daily_arena: tuple[ArenaServer, ManualClock], new_player: NewPlayer, size: dict[str, int]
) -> None:
    server, clock = daily_arena
    await server.daily.run_once()
    record = tournament_record("Morning Arena", ARENA, clock.now() + timedelta(minutes=5), clock.now(), b"secret")
    await server.store.write([record])
    visitor = await new_player("Visitor", site(server)[0], viewport=size)
    page = visitor.page
    await page.goto(site(server)[0] + "/")
    main = page.get_by_role("navigation", name="Main")
    await main.get_by_role("link", name="Tournaments").click()
    await expect(page.get_by_role("region", name="Upcoming")).to_contain_text("Morning Arena")
    await main.get_by_role("link", name="Leaderboards").click()
    await expect(page.get_by_role("heading", name="Leaderboards \u00b7 FreeCell")).to_be_visible()
    await expect(page.get_by_role("region", name="Results")).to_contain_text("on the board")
    await main.get_by_role("link", name="Daily").click()
    await expect(page.locator('section[data-variant="freecell"]')).to_contain_text("par")
    await expect(page.get_by_role("textbox", name="Name", exact=True)).to_have_count(0)  # nothing asked yet

    await page.get_by_role("button", name="Sign in", exact=True).click()
    passkey = page.get_by_role("button", name="Sign in with a passkey")
    await expect(passkey).to_be_in_viewport()
    name_box = page.get_by_role("textbox", name="Name", exact=True)
    first, then = await passkey.bounding_box(), await name_box.bounding_box()
    assert first and then and first["y"] < then["y"], "a returning player's passkey comes first"

    await page.goto(f"{site(server)[0]}/#/tournament/{record.tournament_id}")
    await page.get_by_role("button", name="Enter").click()
    await name_box.fill("Visitor")  # the name, when it is needed
    await name_box.press("Enter")
    await expect(page.get_by_role("button", name="Withdraw")).to_be_visible()


@pytest.mark.parametrize("size", SIZES)
async def test_leaving_a_running_race_asks_and_every_page_leads_back(
    arena: tuple[ArenaServer, ManualClock], new_player: NewPlayer, size: dict[str, int]
) -> None:
    server, _ = arena
    player = await new_player("Wanderer", site(server)[0], viewport=size)
    await player.open("/")
    code = await player.create_race(deal=1)
    await player.start_race()
    daily = player.page.get_by_role("navigation", name="Main").get_by_role("link", name="Daily")
    await daily.click()
    ask = player.page.get_by_role("dialog", name="Leave your race\u2019s board?")
    await expect(ask).to_contain_text("goes on")
    await ask.get_by_role("button", name="Stay in the race").click()
    await expect(player.board).to_have_attribute("data-status", "playing")
    await daily.click()
    await ask.get_by_role("button", name="Leave the board").click()
    await expect(player.page.get_by_role("heading", name="Daily challenge")).to_be_visible()
    back = player.page.get_by_role("status").get_by_role("link", name="Back to your race")
    await expect(back).to_be_in_viewport()
    await back.click()
    await expect(player.page).to_have_url(f"{site(server)[0]}/r/{code}")
    await expect(player.board).to_have_attribute("data-status", "playing")


TAPS = """() => ({
  bar: document.querySelector('.top-bar').getBoundingClientRect().height,
  small: [...document.querySelectorAll('.top-bar a, main a')].filter((link) => link.offsetParent !== null)
    .map((link) => [link.textContent, link.getBoundingClientRect().height]).filter(([, height]) => height < 24),
})"""


async def test_a_phone_has_a_short_top_bar_links_to_tap_and_no_useless_zoom(
    arena: tuple[ArenaServer, ManualClock], new_player: NewPlayer
) -> None:
    server, _ = arena
    base, url = site(server)
    player = await new_player("Thumbs", base, viewport=PHONE, has_touch=True, is_mobile=True)
    await player.page.goto(base + "/")
    first: dict[str, Any] = await player.page.evaluate(TAPS)
    assert first["bar"] <= 80 and not first["small"], f"two rows; every link at least 24 px tall: {first}"
    rival = await connect_player(url, "Friend")
    try:
        code = await race_a_program(player, rival, deal=1)
        named: dict[str, Any] = await player.page.evaluate(TAPS)
        assert named["bar"] <= 80 and not named["small"], f"named, racing: {named}"
        await expect(player.page.get_by_role("button", name="Zoom")).to_be_hidden()  # every pile is 40 px already
        top = await player.board.locator(".board-top").bounding_box()
        cell = await player.pile("c1").bounding_box()
        assert top and cell and top["height"] < cell["height"] * 1.5, "cells and foundations on one row"
        friend = await new_player("Watcher", base, viewport=PHONE, has_touch=True, is_mobile=True)
        await friend.open(f"/r/{code}")  # started: they watch
        await expect(friend.page.get_by_text("FreeCell \u00b7 deal #1")).to_be_visible()
    finally:
        await rival.close()

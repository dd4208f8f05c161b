"""A banned player's browser (issue 53): one screen with the moderator's reason in place of every page, kept across
reloads (it was "Signed out", the reason gone, then "Play now" refused the name and the daily page stayed blank);
signing in with a passkey is refused with the reason while the ban holds and works once it is lifted; a lifted ban
gives an unsaved player their own player back.

Set FREECELL_ARENA_MOD_SCREENSHOTS to a folder to keep the banned screen's screenshots (1366x768 and 390x844)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from boards_helpers import ManualClock
from clocked_server import clocked_daily_server
from playwright.async_api import expect
from test_browser_moderation import player_id, save_with_passkey
from webpages import DESKTOP, PHONE, NewPlayer, Player, assert_accessible

from freecell_arena.core.moderation.sanctions import Act
from freecell_arena.net.app import ArenaServer

SECRET = "the banned screen's browser test's daily secret"
REASON = "abusive behaviour"


@pytest.fixture
async def daily_server(sqlite_url: str) -> AsyncIterator[tuple[ArenaServer, ManualClock]]:
    async with clocked_daily_server(sqlite_url, days_ago=1, secret=SECRET) as served:
        yield served


async def ban(server: ArenaServer, clock: ManualClock, player: Player) -> int:
    acted = await server.store.moderation.act(Act.BAN, await player_id(player), None, "abuse in chat", clock.now(),
                                              public_reason=REASON)  # fmt: skip
    return acted.entry.action_id


async def lift(server: ArenaServer, clock: ManualClock, player: Player, action_id: int) -> None:
    await server.store.moderation.act(Act.LIFT, await player_id(player), None, "appeal upheld", clock.now(),
                                      lifts=action_id)  # fmt: skip


async def shows_the_banned_screen(player: Player) -> None:
    screen = player.page.get_by_role("region", name="A moderator banned this player")
    await expect(screen).to_be_visible()
    await expect(screen.locator(".banned-reason")).to_have_text(REASON)
    await expect(player.page.locator("#connection")).to_have_attribute("data-state", "banned")
    await expect(player.page.get_by_text("Signed out")).to_have_count(0)


async def test_a_banned_saved_player_keeps_one_screen_and_their_passkey_is_refused_until_the_lift(
    daily_server: tuple[ArenaServer, ManualClock], new_player: NewPlayer, tmp_path: Path
) -> None:
    server, clock = daily_server
    base = f"http://localhost:{server.port}"
    rude = await new_player("Rude", base)
    await rude.open("/")
    await save_with_passkey(rude)
    action_id = await ban(server, clock, rude)
    await shows_the_banned_screen(rude)
    for path in ("/", "/#/daily", "/#/account"):  # a reload, and any page: the same screen, the same reason
        await rude.page.goto(base + path)
        await rude.page.reload()
        await shows_the_banned_screen(rude)
    await expect(rude.page.get_by_text("sign in with your passkey")).to_be_visible()
    await assert_accessible(rude, "the banned screen")
    await screenshots(rude, tmp_path, "banned-saved")

    await rude.page.get_by_role("button", name="Sign in with a passkey").click()
    await expect(rude.page.locator(".banned-status")).to_have_text(f"Refused: the ban still holds ({REASON}).")
    await shows_the_banned_screen(rude)

    await lift(server, clock, rude, action_id)
    await rude.page.get_by_role("button", name="Sign in with a passkey").click()
    await expect(rude.page.locator('#connection[data-state="open"]')).to_be_attached()
    await expect(rude.page.locator("#whoami")).to_have_text("Rude")
    await expect(rude.page.get_by_role("heading", name="Account")).to_be_visible()  # the page asked for
    await rude.page.reload()
    await expect(rude.page.locator('#connection[data-state="open"]')).to_be_attached()


async def test_a_lifted_ban_gives_an_unsaved_player_their_browser_back(
    daily_server: tuple[ArenaServer, ManualClock], new_player: NewPlayer, tmp_path: Path
) -> None:
    server, clock = daily_server
    base = f"http://localhost:{server.port}"
    guest = await new_player("Guest", base)
    await guest.open("/")
    before = await player_id(guest)
    action_id = await ban(server, clock, guest)
    await shows_the_banned_screen(guest)
    await guest.page.reload()
    await shows_the_banned_screen(guest)
    await guest.page.get_by_role("button", name="Check again").click()
    await expect(guest.page.locator(".banned-status")).to_have_text("The ban holds.")
    await screenshots(guest, tmp_path, "banned-unsaved")

    await lift(server, clock, guest, action_id)
    await guest.page.get_by_role("button", name="Check again").click()
    await expect(guest.page.locator('#connection[data-state="open"]')).to_be_attached()
    await expect(guest.page.locator("#whoami")).to_have_text("Guest")
    assert await player_id(guest) == before, "the same player, not a new one"
    await guest.page.goto(base + "/#/daily")
    await expect(guest.page.get_by_role("heading", name="Daily challenge")).to_be_visible()


async def screenshots(player: Player, tmp_path: Path, name: str) -> None:
    folder = Path(os.environ.get("FREECELL_ARENA_MOD_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    for size, viewport in (("1366x768", DESKTOP), ("390x844", PHONE)):
        await player.page.set_viewport_size(viewport)
        await player.page.screenshot(path=str(folder / f"{name}-{size}.png"))
    await player.page.set_viewport_size(DESKTOP)

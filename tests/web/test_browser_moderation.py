"""Moderation in Chromium, end to end: a player reports the opponent who beat them from the race's standings; a
moderator signs in with a passkey (the DevTools virtual authenticator) on another device, opens the console at
/mod, sees the report with its evidence (a program's rhythm), and marks the player: the daily board no longer
shows them, the victim's rating is what it was before that race; lifting the mark gives everything back.

The server runs in this process on a clock the test moves (tests/web/clocked_server.py), so the program wins at a
person's pace and passes the fair-play floor, as the issue's pacing bot does. Set FREECELL_ARENA_MOD_SCREENSHOTS to
a folder to keep the console's screenshots (desktop and phone) there, and a banned player's page's."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from arena_client import ArenaClient, connect_player
from boards_helpers import ManualClock, play, winning_moves
from clocked_server import clocked_daily_server
from playwright.async_api import Page, expect
from webpages import DESKTOP, PHONE, NewPlayer, Player, assert_accessible, virtual_authenticator

from freecell_arena.core.moderation.sanctions import Act
from freecell_arena.core.records import daily
from freecell_arena.net.app import ArenaServer

SECRET = "the moderation browser test's daily secret"
REPORT_TEXT = "a move every two seconds, never faster, never slower"


@pytest.fixture
async def daily_server(sqlite_url: str) -> AsyncIterator[tuple[ArenaServer, ManualClock]]:
    async with clocked_daily_server(sqlite_url, days_ago=1, secret=SECRET) as served:
        yield served


async def save_with_passkey(player: Player) -> Any:
    """Save the page's player on the account page; the credential (to copy to another device)."""
    cdp, authenticator = await virtual_authenticator(player.page)
    await player.page.goto(player.base + "/#/account")
    await player.page.get_by_role("textbox", name="Passkey name").fill("Laptop")
    await player.page.get_by_role("button", name="Save with a passkey").click()
    await expect(player.page.get_by_text("the name is yours (claimed)")).to_be_visible()
    return (await cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator}))["credentials"][0]


async def rating_of(page: Page, base: str, player_id: str) -> str:
    await page.goto(f"{base}/#/player/{player_id}")
    cell = page.locator('[data-variant="freecell"] .rating').first
    await expect(cell).to_be_visible()
    return await cell.get_attribute("data-rating") or ""


async def daily_names(page: Page, base: str) -> list[str]:
    """The names on today's humans' daily board, as the leaderboard page shows them (read afresh)."""
    await page.goto(base + "/#/leaderboards/freecell?board=daily")
    await page.reload()
    results = page.get_by_role("region", name="Results")
    await expect(results.get_by_text("on the board of")).to_be_visible()
    return [text.strip() for text in await results.locator("tbody tr td:nth-child(2) a").all_inner_texts()]


async def lose_to_a_paced_program_and_report_it(vera: Player, pacer: ArenaClient, base: str,
                                                clock: ManualClock) -> dict[str, Any]:  # fmt: skip
    """A rated race the program wins at a steady two seconds a move while Vera watches from her browser and
    resigns; she reports it from the standings. The program's game, as `race_started` gave it."""
    created = await pacer.request({"type": "create_room", "variant": "freecell", "options": {"countdown_s": 0}})
    await vera.page.goto(f"{base}/r/{created['room']['code']}")
    await expect(vera.room).to_have_attribute("data-room-status", "lobby")
    await expect(vera.page.locator(f'[data-player-id="{pacer.player_id}"]').first).to_be_attached()
    await pacer.request({"type": "start_race"})
    clock.advance(0.1)
    game: dict[str, Any] = (await pacer.expect("race_started"))["game"]
    await vera.wait_for_board()
    await vera.resign()
    await play(pacer, winning_moves("freecell", int(game["seed"])), clock, 2.0)
    await expect(vera.page.locator(".standings-table .rating-change")).to_have_count(2)  # rated: Vera lost points
    await vera.page.get_by_role("button", name="Report Pacer").click()
    form = vera.page.get_by_role("form", name="Report Pacer")
    await form.get_by_role("combobox", name="Reason").select_option("help")
    await form.get_by_role("textbox", name="What happened").fill(REPORT_TEXT)
    await form.get_by_role("button", name="Send report").click()
    await expect(vera.page.get_by_text("Report of Pacer received")).to_be_visible()
    return game


async def test_report_from_the_standings_then_a_moderator_marks_and_lifts(
    daily_server: tuple[ArenaServer, ManualClock], new_player: NewPlayer, tmp_path: Path
) -> None:
    server, clock = daily_server
    base = f"http://localhost:{server.port}"
    vera = await new_player("Vera", base)
    await vera.open("/")
    await save_with_passkey(vera)
    pacer = await connect_player(f"ws://127.0.0.1:{server.port}/", "Pacer")
    try:
        # yesterday: a race the program wins at a steady two seconds a move; Vera resigns and reports it
        await lose_to_a_paced_program_and_report_it(vera, pacer, base, clock)
        before_race = ""  # Vera had no rating before the race
        after_race = await rating_of(vera.page, base, vera_id := await player_id(vera))
        assert after_race and int(after_race) < 1500, after_race

        # today: the program tops the humans' daily at the same pace
        clock.advance(timedelta(days=1).total_seconds())
        await server.daily.run_once()
        await win_daily(server, pacer, clock)
        assert await daily_names(vera.page, base) == ["Pacer"]

        # the moderator: saved on a laptop, made a moderator by the operator, signs in with the passkey elsewhere
        mona_laptop = await new_player("Mona", base)
        await mona_laptop.open("/")
        credential = await save_with_passkey(mona_laptop)
        mona_id = await player_id(mona_laptop)
        await server.store.moderation.act(Act.GRANT, mona_id, None, "by the operator", clock.now())
        console = await new_player("whoever", base)
        cdp, authenticator = await virtual_authenticator(console.page)
        await cdp.send("WebAuthn.addCredential", {"authenticatorId": authenticator, "credential": credential})
        await console.page.goto(base + "/")  # a first visit: the landing page, and "Choose a name" offers to sign in
        await console.page.get_by_role("button", name="Choose a name").click()
        await console.page.get_by_role("button", name="Sign in with a passkey").click()
        await expect(console.page.locator("#whoami")).to_have_text("Mona")
        await console.page.goto(base + "/mod")
        queue = console.page.locator(f'.mod-targets [data-player-id="{pacer.player_id}"]')
        await expect(queue).to_contain_text(REPORT_TEXT)
        await queue.get_by_role("button", name="Evidence").click()
        evidence = console.page.locator(".mod-evidence")
        await expect(evidence.get_by_role("heading", name="Evidence: Pacer")).to_be_visible(timeout=60_000)
        await expect(evidence.locator(".mod-suspicion")).to_contain_text("like a program")
        await expect(evidence.locator(".think-chart").first).to_be_visible()
        await assert_accessible(console, "the moderators' console with evidence")
        await screenshots(console, tmp_path)

        act = console.page.get_by_role("form", name="Act on Pacer")
        await act.get_by_role("combobox", name="Action").select_option("mark")
        await act.get_by_role("textbox", name="Reason (kept in the mod log)").fill("think times of a program")
        await act.get_by_role("button", name="Apply").click()
        await expect(console.page.locator('.mod-log [data-action="mark"]')).to_contain_text("think times of a program")
        assert await daily_names(vera.page, base) == [], "the daily board no longer shows them"
        assert await rating_of(vera.page, base, vera_id) == before_race, "Vera's rating is restored"
        await vera.page.goto(f"{base}/#/player/{pacer.player_id}")
        await expect(vera.page.locator(".mod-notice")).to_contain_text("playing with help")
        await vera.page.goto(base + "/#/account")
        acted_on = vera.page.locator('.my-reports [data-status="acted_on"]')
        await expect(acted_on).to_contain_text("Acted on by a moderator")
        await expect(vera.page.locator(".my-reports")).not_to_contain_text(REPORT_TEXT)
        await vera.page.goto(base + "/mod")
        await expect(vera.page.get_by_text("The console is for moderators.")).to_be_visible()

        await console.page.goto(base + "/mod")
        await console.page.get_by_role("button", name="Search").wait_for()
        await console.page.get_by_role("searchbox", name="Name or id").fill("Pacer")
        await console.page.get_by_role("button", name="Search").click()
        await console.page.locator(".mod-found").get_by_role("button", name="Evidence").click()
        lift = console.page.locator(".mod-evidence .mod-lift").first
        await lift.get_by_role("textbox").fill("the appeal showed a person")
        await lift.get_by_role("button", name="Lift").click()
        await expect(console.page.locator('.mod-log [data-action="lift"]')).to_be_attached()
        assert await daily_names(vera.page, base) == ["Pacer"], "lift gives everything back"
        assert await rating_of(vera.page, base, vera_id) == after_race
    finally:
        await pacer.close()


async def test_a_banned_players_page_says_why_and_stops(daily_server: tuple[ArenaServer, ManualClock],
                                                         new_player: NewPlayer, tmp_path: Path) -> None:
    """The ban's close (4002) ends the page's session with the moderator's public reason: no reconnecting into a
    refused hello, no quiet fall back to "Signed out"."""
    server, clock = daily_server
    rude = await new_player("Rude", f"http://localhost:{server.port}")
    await rude.open("/")
    await server.store.moderation.act(Act.BAN, await player_id(rude), None, "abuse in chat", clock.now(),
                                      public_reason="abusive behaviour")  # fmt: skip
    status = rude.page.locator("#connection")
    await expect(status).to_have_text("Banned by a moderator (abusive behaviour)")
    await rude.page.wait_for_timeout(2_000)  # past the first reconnect's backoff
    await expect(status).to_have_attribute("data-state", "banned")
    await expect(rude.page.locator("#announcer")).to_contain_text("A moderator banned this player: abusive behaviour")
    await screenshots(rude, tmp_path, "banned")


async def player_id(player: Player) -> str:
    found: str = await player.page.evaluate(
        "() => Object.entries(localStorage).filter(([key]) => key.startsWith('freecell-arena:identity:'))"
        ".map(([, value]) => JSON.parse(value).player_id)[0]"
    )
    return found


async def win_daily(server: ArenaServer, client: ArenaClient, clock: ManualClock) -> None:
    await client.request({"type": "leave_room"})
    started = await client.request({"type": "play_daily", "variant": "freecell"})
    assert started.get("ranked") is True, started
    deal = await server.store.dailies.deal("freecell", daily.today(clock.now()))
    assert deal is not None
    assert (await play(client, deal.solution, clock, 2.0))["status"] == "won"
    await server.writer.flush()


async def screenshots(console: Player, tmp_path: Path, name: str = "mod-console") -> None:
    """The page (the console with evidence), at desktop and phone sizes (kept in FREECELL_ARENA_MOD_SCREENSHOTS if
    set)."""
    folder = Path(os.environ.get("FREECELL_ARENA_MOD_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        await console.page.set_viewport_size(viewport)
        await console.page.screenshot(path=str(folder / f"{name}-{size}.png"), full_page=False)
    await console.page.set_viewport_size(DESKTOP)

"""The screenshots of docs/web.md: a first visit's landing, the rules, the landing, room, board (with Resign's
question), replay, leaderboard, standings, review, player, history, rating and account views, a new player's
daily, a casual game's hint and the biggest board mid-game (zoomed on a phone), at desktop (1366x768) and phone
(390x844) sizes, taken in Debian's Chromium from a real server with a few players in it.

    python3 tests/web/screenshots.py [--out docs/web]

The server runs in this process with a clock the script moves (as tests/web/test_browser_daily.py does), so
three program players can be made yesterday and win today's daily challenge at a person's pace: the daily board
then has rows to show.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path[:0] = [str(HERE), str(REPO / "tests" / "server"), str(REPO / "server")]

from arena_client import ArenaClient, connect_player  # noqa: E402
from arena_server import start_arena  # noqa: E402
from boards_helpers import ManualClock, play  # noqa: E402
from playwright.async_api import async_playwright  # noqa: E402
from webpages import DESKTOP, PHONE, SOLUTION, ConsoleWatch, Player, lengthening, virtual_authenticator  # noqa: E402

from freecell_arena.core.records.review import solve_par  # noqa: E402
from freecell_arena.store import migrate  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
               "--disable-sync", "--no-first-run"]  # fmt: skip
DAILY_PLAYERS = {"Ada": 1.0, "Grace": 1.4, "Linus": 2.0}
"""Program players of the daily challenge and their pace (seconds a move on the server's clock)."""


async def populate(url: str, server: Any, clock: ManualClock) -> list[ArenaClient]:
    """Three players made two days ago win yesterday's and today's daily deals, each at its own pace (a streak)."""
    players = [await connect_player(url, name) for name in DAILY_PLAYERS]
    for _ in range(2):
        clock.advance(timedelta(days=1).total_seconds())
        await server.daily.run_once()
        deal = await server.store.dailies.deal("freecell", clock.now().date())
        assert deal is not None
        for client, pace in zip(players, DAILY_PLAYERS.values(), strict=True):
            started = await client.request({"type": "play_daily", "variant": "freecell"})
            assert started["type"] == "daily_started", started
            await play(client, list(deal.solution), clock, seconds_per_move=pace)
    return players


async def shoot(page: Any, out: Path, view: str, size: str) -> None:
    await page.wait_for_timeout(300)  # the last redraw and any card animation
    await page.screenshot(path=str(out / f"{view}-{size}.png"))


async def new_page(browser: Any, base: str, name: str, viewport: dict[str, int]) -> tuple[Any, Player]:
    """A browser context of its own (reduced motion: no card is caught mid-slide) and its player."""
    context = await browser.new_context(viewport=viewport, reduced_motion="reduce")
    context.set_default_timeout(15_000)
    page = await context.new_page()
    console = ConsoleWatch(name)
    console.attach(page)
    return context, Player(page, base, name, console)


async def tour(browser: Any, base: str, url: str, friend: ArenaClient, out: Path, size: str,
               viewport: dict[str, int], clock: ManualClock) -> None:  # fmt: skip
    context, player = await new_page(browser, base, "Margaret", viewport)
    page, console = player.page, player.console
    await page.goto(base + "/")  # a first visit: the game, before any name
    await page.get_by_role("button", name="Play now").wait_for()
    await page.locator('[data-variant="freecell"] .daily-par').filter(has_text="par").wait_for()
    await shoot(page, out, "landing-first", size)
    await page.goto(base + "/#/rules/freecell")
    await page.get_by_role("heading", name="How to play FreeCell").wait_for()
    await shoot(page, out, "rules", size)
    await player.open("/")
    await shoot(page, out, "landing", size)
    code = await player.create_race("freecell", deal=1, autoplay=False)
    await friend.request({"type": "leave_room"})  # the previous tour's room, if any
    assert (await friend.request({"type": "join_room", "code": code}))["type"] == "room"
    await page.get_by_role("list", name="Players").get_by_text("Ada").wait_for()
    await shoot(page, out, "room", size)
    await player.start_race()
    for notation in SOLUTION[:12]:
        await player.type_move(notation)
    await page.evaluate("document.querySelector('.game').scrollIntoView()")
    await shoot(page, out, "board", size)
    await page.get_by_role("button", name="Resign").click()
    await page.get_by_role("dialog", name="Resign this game?").wait_for()
    await shoot(page, out, "resign-confirm", size)
    await page.keyboard.press("Escape")
    assert (await friend.request({"type": "resign"}))["type"] == "game_over"
    for notation in SOLUTION[12:]:
        await player.type_move(notation)
    await page.get_by_role("link", name="Replay of Margaret").click()
    slider = page.get_by_role("slider", name="Replay position")
    await slider.focus()
    await slider.press("Home")
    for _ in range(40):
        await slider.press("ArrowRight")
    await shoot(page, out, "replay", size)
    await player.open("/#/leaderboards/freecell?board=daily")
    await page.get_by_role("region", name="Results").get_by_role("table").wait_for()
    await shoot(page, out, "leaderboard", size)
    await rated_race(page, player, friend, clock, out, size)
    await casual_hint(page, player, out, size)
    assert not console.unexpected(), console.unexpected()
    await context.close()


async def casual_hint(page: Any, player: Player, out: Path, size: str) -> None:
    """An unranked game (casual play): a hint marked on the board and said in words."""
    await player.open("/")
    await player.create_race("freecell", deal=1, ranked="no")
    await player.start_race()
    await page.get_by_role("button", name="Hint").click()
    await page.locator(".pile.hint-from").wait_for()
    await page.evaluate("document.querySelector('.game').scrollIntoView()")
    await shoot(page, out, "hint", size)


async def big_board(browser: Any, base: str, server: Any, out: Path, size: str, viewport: dict[str, int]) -> None:
    """Four Deck mid-game (a long column): all of it on a laptop's screen; on a phone, zoomed for a finger."""
    context, player = await new_page(browser, base, f"Wide {size}", viewport)
    page = player.page
    await player.open("/")
    await player.create_race("freecell-four-deck", autoplay=False, ranked="no")
    await player.start_race()
    game_id = await player.board.get_attribute("data-game-id")
    for notation in lengthening(server.arena.games[str(game_id)].game.board.copy()):
        await player.type_move(notation)
    if size == "phone":
        await shoot(page, out, "four-deck-fit", size)
        await page.get_by_role("button", name="Zoom").click()
    await page.evaluate("document.querySelector('.game').scrollIntoView()")
    await shoot(page, out, "four-deck", size)
    if size == "phone":
        await page.get_by_role("button", name="Zoom").click()  # the next tour's boards fit again
    assert not player.console.unexpected(), player.console.unexpected()
    await context.close()


async def new_players_daily(browser: Any, base: str, out: Path, size: str, viewport: dict[str, int]) -> None:
    """A player made today opens today's daily: why it is practice, said before its clock starts."""
    context, player = await new_page(browser, base, f"Newcomer {size}", viewport)
    await player.open("/#/daily/freecell")
    await player.page.get_by_text("New players rank from tomorrow").wait_for()
    await shoot(player.page, out, "daily-practice", size)
    assert not player.console.unexpected(), player.console.unexpected()
    await context.close()


async def account_tour(browser: Any, base: str, out: Path, size: str, viewport: dict[str, int]) -> None:
    """The account page before and after "Save with a passkey" (a virtual authenticator stands in for the
    device), with a bot whose token is shown once. On localhost: browsers refuse passkeys on an IP address."""
    context, player = await new_page(browser, base, f"Hedy {size}", viewport)
    page, console = player.page, player.console
    await virtual_authenticator(page)
    await player.open("/")
    await page.goto(base + "/#/account")
    await page.get_by_role("textbox", name="Passkey name").fill("Laptop")
    await shoot(page, out, "account-save", size)
    await page.get_by_role("button", name="Save with a passkey").click()
    await page.get_by_text("the name is yours (claimed)").wait_for()
    await page.get_by_role("textbox", name="Bot name").fill(f"Hedybot {size}")
    await page.get_by_role("textbox", name="Description").fill("depth-first search, 50k nodes a move")
    await page.get_by_role("button", name="Create bot").click()
    await page.locator("[data-bot-token]").wait_for()
    await page.evaluate("window.scrollTo(0, 0)")  # the token shown once, at the top
    await shoot(page, out, "account", size)
    assert not console.unexpected(), console.unexpected()
    await context.close()


async def rated_race(page: Any, player: Player, friend: ArenaClient, clock: ManualClock, out: Path, size: str) -> (
    None
):
    """A race on a deal the server draws (rated): the friend wins on the solver's line, the standings show both
    ratings move; then the review against par, the friend's page and the Rating board."""
    await player.open("/")
    code = await player.create_race("freecell")
    await friend.request({"type": "leave_room"})
    assert (await friend.request({"type": "join_room", "code": code}))["type"] == "room"
    await player.start_race()
    started = await friend.expect("race_started", code=code)
    await player.resign()
    par = solve_par("freecell", int(started["game"]["seed"]), 10)
    await play(friend, list(par.line), clock, seconds_per_move=2.0)
    await page.locator(".standings-table [data-delta]").first.wait_for()
    await page.locator(".standings").scroll_into_view_if_needed()
    await shoot(page, out, "standings", size)
    await page.get_by_role("link", name="Review against par").click()
    await page.get_by_role("region", name="Where moves were lost").wait_for()
    await page.get_by_role("slider", name="Replay position").first.wait_for()
    await shoot(page, out, "review", size)
    await page.get_by_role("region", name="Results against par").get_by_role("link", name="Ada").click()
    await page.get_by_role("img", name="Rating history: from 1500").first.wait_for()
    await page.locator(".calendar").first.wait_for()
    await shoot(page, out, "player", size)
    await player.open("/#/leaderboards/freecell?board=rating")
    await page.get_by_role("region", name="Results").get_by_role("table").wait_for()
    await shoot(page, out, "rating", size)
    await player.open("/#/history")
    await page.locator("tbody tr[data-place]").first.wait_for()
    await shoot(page, out, "history", size)


async def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="screenshots-") as folder:
        database_url = f"sqlite+aiosqlite:///{Path(folder) / 'arena.db'}"
        await migrate(database_url)
        clock = ManualClock(datetime.now(UTC).replace(microsecond=0) - timedelta(days=2))
        server = await start_arena(database_url, clock, daily_variants="freecell", daily_solver_nodes=50_000,
                                   daily_secret="the screenshots' daily secret")  # fmt: skip
        try:
            url = f"ws://127.0.0.1:{server.port}/"
            players = await populate(url, server, clock)
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
                for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
                    base = f"http://127.0.0.1:{server.port}"
                    await account_tour(browser, f"http://localhost:{server.port}", out, size, viewport)
                    await tour(browser, base, url, players[0], out, size, viewport, clock)
                    await big_board(browser, base, server, out, size, viewport)
                    await new_players_daily(browser, base, out, size, viewport)
                await browser.close()
            for client in players:
                await client.close()
        finally:
            await server.shutdown()
    for path in sorted(out.glob("*.png")):
        print(f"{path}: {path.stat().st_size / 1024:.0f} KB")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "web")
    asyncio.run(main(parser.parse_args().out))

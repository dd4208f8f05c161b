"""The moderators' console in Chromium with a SAVED player (issue 53: Evidence failed for every saved player, and the
action form and Lift live inside it): a saved player reports the saved opponent who beat them at a program's steady
pace; a moderator opens /mod, reads the evidence in words, marks, lifts, and sees an operator's void from the
command line arrive without a reload, then lifts it too. `freecell-arena audit` is clean after every step, and the
console fits a phone's width with no column cut off.

Set FREECELL_ARENA_MOD_SCREENSHOTS to a folder to keep the console's screenshots (1366x768 and 390x844) there."""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from arena_client import connect_player
from boards_helpers import ManualClock
from clocked_server import clocked_daily_server
from playwright.async_api import Page, expect
from serverprocess import run_command
from test_browser_moderation import lose_to_a_paced_program_and_report_it, player_id, save_with_passkey
from webpages import DESKTOP, PHONE, NewPlayer, assert_accessible

from freecell_arena.core.moderation.sanctions import Act
from freecell_arena.net.app import ArenaServer

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "accounts"),
                str(Path(__file__).resolve().parents[1] / "moderation")]  # fmt: skip
from moderation_support import save  # noqa: E402

SECRET = "the console's browser test's daily secret"
REPORT_TEXT = "a move every two seconds, never faster, never slower"


@pytest.fixture
async def daily_server(sqlite_url: str) -> AsyncIterator[tuple[ArenaServer, ManualClock, str]]:
    async with clocked_daily_server(sqlite_url, days_ago=1, secret=SECRET) as (server, clock):
        yield server, clock, sqlite_url


async def audit_is_clean(database_url: str, step: str) -> None:
    code, out, err = await run_command("audit", "--database-url", database_url)
    assert code == 0, f"the audit after {step}: {out}{err}"


async def shoot(page: Page, tmp_path: Path, name: str, *, phone: bool = True) -> None:
    """The page as it is, at 1366x768 (the viewport) and 390x844 (the whole page: every column shows), kept in
    FREECELL_ARENA_MOD_SCREENSHOTS if set."""
    folder = Path(os.environ.get("FREECELL_ARENA_MOD_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(folder / f"{name}-1366x768.png"))
    if phone:
        await page.set_viewport_size(PHONE)
        await page.screenshot(path=str(folder / f"{name}-390x844-full.png"), full_page=True)
        await page.set_viewport_size(DESKTOP)


async def fits_the_width(page: Page, width: int) -> None:
    """Nothing wider than the screen: the page does not scroll sideways, and every cell of the console's tables
    (the mod log's Why included) ends inside it."""
    overflow = await page.evaluate("""(width) => {
        const wide = document.documentElement.scrollWidth;
        const cut = [...document.querySelectorAll('.mod-grid td, .mod-grid th:not(thead th)')]
          .filter((cell) => cell.getBoundingClientRect().right > width + 0.5)
          .map((cell) => cell.dataset.label || cell.textContent.slice(0, 30));
        return { wide, cut };
    }""", width)  # fmt: skip
    assert overflow["wide"] <= width and not overflow["cut"], overflow


async def test_a_moderator_acts_on_a_saved_players_report_with_the_audit_clean_after_each_step(
    daily_server: tuple[ArenaServer, ManualClock, str], new_player: NewPlayer, tmp_path: Path
) -> None:
    server, clock, database_url = daily_server
    base = f"http://localhost:{server.port}"
    vera = await new_player("Vera", base)
    await vera.open("/")
    await save_with_passkey(vera)
    pacer = await connect_player(f"ws://127.0.0.1:{server.port}/", "Pacer")
    try:
        await save(pacer, base)  # a saved player, as the were
        game = await lose_to_a_paced_program_and_report_it(vera, pacer, base, clock)
        await server.writer.flush()
        await audit_is_clean(database_url, "the report")

        mona = await new_player("Mona", base)
        await mona.open("/")
        await save_with_passkey(mona)
        await server.store.moderation.act(Act.GRANT, await player_id(mona), None, "by the operator", clock.now())
        console = mona.page
        await console.goto(base + "/mod")
        queue = console.locator(f'.mod-targets [data-player-id="{pacer.player_id}"]')
        await expect(queue).to_contain_text(REPORT_TEXT)
        await expect(queue.locator('[data-reporter="opponent"]')).to_contain_text("Their opponent")
        await queue.get_by_role("button", name="Evidence").click()
        evidence = console.locator(".mod-evidence")
        await expect(evidence.get_by_role("heading", name="Evidence: Pacer")).to_be_visible(timeout=60_000)
        await expect(evidence).to_contain_text("1 session")
        await expect(evidence.locator(".mod-summary")).to_contain_text("Over 1 ranked game")
        await expect(evidence.locator(".mod-suspicion")).to_contain_text("like a program")
        row = evidence.locator(f'[data-game-id="{game["game_id"]}"]')
        await expect(row.locator('.mod-unusual[data-signal="regularity"]')).to_contain_text("steady as a program's")
        await expect(row.locator('.mod-unusual[data-signal="solver_line"]')).to_contain_text("move for move")
        meanings = evidence.locator(".mod-meanings")
        await expect(meanings.locator("dt")).to_have_text(["Regularity", "Solver line", "Think times"])
        await expect(meanings).to_contain_text("Under 0.25 is as steady as a program pacing itself")
        await assert_accessible(mona, "the console with a saved player's evidence")
        await shoot(console, tmp_path, "mod-console-evidence")
        await console.set_viewport_size(PHONE)
        await fits_the_width(console, PHONE["width"])
        await console.set_viewport_size(DESKTOP)
        await audit_is_clean(database_url, "the evidence")

        act = console.get_by_role("form", name="Act on Pacer")
        await act.get_by_role("combobox", name="Action").select_option("mark")
        await expect(act.get_by_role("combobox", name="Game")).to_be_hidden()  # a mark names no game
        await expect(act.get_by_role("textbox", name="Public reason")).to_be_hidden()  # nor tells the player
        await act.get_by_role("textbox", name="Reason (kept in the mod log)").fill("think times of a program")
        await act.get_by_role("button", name="Apply").click()
        await expect(console.locator('.mod-log [data-action="mark"]')).to_contain_text("think times of a program")
        held = evidence.locator('.mod-in-force [data-kind="mark"]')
        await expect(held).to_contain_text("Marked as playing with help")
        await expect(held).to_contain_text("Why: think times of a program")
        await audit_is_clean(database_url, "the mark")
        await held.scroll_into_view_if_needed()
        await shoot(console, tmp_path, "mod-console-in-force", phone=False)

        await held.get_by_role("textbox").fill("the appeal showed a person")
        await held.get_by_role("button", name="Lift").click()
        await expect(console.locator('.mod-log [data-action="lift"]')).to_be_attached()
        await expect(evidence.locator(".mod-in-force")).to_have_count(0)
        await audit_is_clean(database_url, "the lift of the mark")

        # an operator voids the game from the command line: the open console hears of it, no reload
        exit_code, _, err = await run_command("mod", "--database-url", database_url, "void", game["game_id"],
                                              "--reason", "a bug gave this win")  # fmt: skip
        assert exit_code == 0, err
        await expect(console.locator('.mod-log [data-action="void"]')).to_contain_text("operator", timeout=5_000)
        voided = evidence.locator('.mod-in-force [data-kind="void"]')
        await expect(voided).to_contain_text("Why: a bug gave this win", timeout=60_000)
        await expect(voided.get_by_role("link", name="the game")).to_have_attribute(
            "href", f"/#/replay/{game['game_id']}")
        await audit_is_clean(database_url, "the operator's void")
        await voided.get_by_role("textbox").fill("the win was right after all")
        await voided.get_by_role("button", name="Lift").click()
        await expect(evidence.locator(".mod-in-force")).to_have_count(0)
        await audit_is_clean(database_url, "the lift of the void")
    finally:
        await pacer.close()

"""Fixtures for the browser tests: a real `freecell-arena serve` process on a free loopback port, Debian's
Chromium driven by Playwright, and pages that fail their test on any console error or uncaught exception.

Chromium and Playwright are installed by `.ci/run`; without them the tests skip here and fail under CI=true.
`playwright install` (which downloads its own browsers) is never needed: the system Chromium is launched.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))  # the server tests' process helpers

from serverprocess import ServerProcess, running_server, server_env

LIBRARIES = ("playwright", "axe_playwright_python")
if any(importlib.util.find_spec(name) is None for name in LIBRARIES) and os.environ.get("CI") != "true":
    # the test modules import them: without them (locally) they are not collected; under CI=true the import
    # error below fails the run
    collect_ignore_glob = ["test_*.py"]
else:
    from webpages import DESKTOP, ConsoleWatch, NewPlayer, Player

CHROMIUM = Path(os.environ.get("FREECELL_ARENA_CHROMIUM", "/usr/bin/chromium"))
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ACTION_TIMEOUT_MS = 10_000


def need_a_browser() -> None:
    """Skip without Chromium or Playwright locally; in CI their absence is a failure, never a silent skip."""
    missing = []
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        missing.append("the playwright package (README's test command installs it)")
    if not (CHROMIUM.is_file() or shutil.which(str(CHROMIUM))):
        missing.append(f"Chromium at {CHROMIUM} (apt-get install chromium)")
    if missing:
        reason = "browser tests need " + " and ".join(missing)
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    need_a_browser()
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        chromium = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS, timeout=60_000)
        try:
            yield chromium
        finally:
            await chromium.close()


def browser_server_env() -> dict[str, str]:
    """The tests' programs (a host, a winner) send moves back to back: far above a person's rate limit."""
    return server_env(FREECELL_ARENA_RATE_LIMIT_PER_S="10000", FREECELL_ARENA_RATE_LIMIT_BURST="10000")


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[ServerProcess]:
    """The server as users run it, on its embedded SQLite file in a fresh folder."""
    async with running_server(tmp_path, env=browser_server_env()) as process:
        yield process


@pytest.fixture
async def arena(sqlite_url: str) -> AsyncIterator[Any]:
    """A server in this process on a clock the test moves, quick races and the house bot brisk
    (tests/web/racing_pages.py): yields the server and its clock."""
    from racing_pages import quick_arena

    async with quick_arena(sqlite_url) as served:
        yield served


@pytest.fixture
async def daily_arena(sqlite_url: str) -> AsyncIterator[Any]:
    """A server on a clock the test moves with today's FreeCell daily, its players made today (they play it as
    practice): yields the server and its clock."""
    from clocked_server import clocked_daily_server

    async with clocked_daily_server(sqlite_url, days_ago=0, secret="the browser tests' daily secret") as served:
        yield served


@pytest.fixture
def base_url(server: ServerProcess) -> str:
    return f"http://127.0.0.1:{server.port}"


@pytest.fixture
async def new_player(browser: Any) -> AsyncIterator[NewPlayer]:
    """Each player is a browser context of its own (its own localStorage, so its own identity and token).
    Every page's console is watched: an error or an uncaught exception fails the test at teardown."""
    watches: list[ConsoleWatch] = []
    contexts: list[Any] = []

    async def make(name: str, base: str, viewport: dict[str, int] = DESKTOP, **options: Any) -> Player:
        context = await browser.new_context(viewport=viewport, **options)
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        contexts.append(context)
        page = await context.new_page()
        watch = ConsoleWatch(name)
        watch.attach(page)
        watches.append(watch)
        return Player(page, base, name, watch)

    yield make
    for context in contexts:
        await context.close()
    errors = [error for watch in watches for error in watch.unexpected()]
    assert not errors, "console errors:\n" + "\n".join(errors)

"""Ratings, streaks, share and review in a real browser (issue 23): the server runs in this process on a loopback
port with a clock the test moves (as tests/web/test_browser_daily.py does).

- a rated race: the standings at `race_over` show each rating moving the way the standings go (the winner up,
  the loser down), the Rating tab and the player page agree, the review shows the result beside par with the
  solver's line in the replay viewer;
- a streak across days with the server's clock moved: the Daily page's streak and calendar;
- the Share text, copied or shown, free of spoilers (no seed, no move) while the day is open.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest
from arena_client import ArenaClient, connect_player
from boards_helpers import ManualClock, play
from clocked_server import clocked_daily_server
from playwright.async_api import expect
from webpages import DESKTOP, PHONE, NewPlayer

from freecell_arena.core.records.review import solve_par
from freecell_arena.net.app import ArenaServer

SECRET = "the browser test's streak secret"


@pytest.fixture
async def compete_server(sqlite_url: str) -> AsyncIterator[tuple[ArenaServer, ManualClock]]:
    async with clocked_daily_server(sqlite_url, days_ago=3, secret=SECRET) as served:
        yield served


async def test_a_rated_race_in_the_browser_moves_ratings_the_way_the_standings_go(
    compete_server: tuple[ArenaServer, ManualClock], new_player: NewPlayer
) -> None:
    server, clock = compete_server
    base = f"http://127.0.0.1:{server.port}"
    player = await new_player("Magdalena", base, permissions=["clipboard-read", "clipboard-write"])
    await player.open("/")
    rival: ArenaClient = await connect_player(f"ws://127.0.0.1:{server.port}/", "Rival")
    try:
        code = await player.create_race("freecell")  # the server draws the deal: a rated race
        assert (await rival.request({"type": "join_room", "code": code}))["type"] == "room"
        await player.start_race()
        started = await rival.expect("race_started", code=code)
        await player.resign()
        par = solve_par("freecell", int(started["game"]["seed"]))  # the server's node budget: the same par
        await play(rival, par.line, clock, seconds_per_move=2.0)

        standings = player.page.locator(".standings-table")
        mine = standings.locator(f'tbody tr:not([data-player-id="{rival.player_id}"])')
        theirs = standings.locator(f'tr[data-player-id="{rival.player_id}"]')
        await expect(theirs).to_have_attribute("data-rank", "1")
        await expect(mine).to_have_attribute("data-rank", "2")
        up = theirs.locator("[data-delta]")
        down = mine.locator("[data-delta]")
        await expect(up).to_be_visible()
        assert int(await up.get_attribute("data-delta") or 0) > 0 > int(await down.get_attribute("data-delta") or 0)
        await expect(down).to_contain_text("\u2212")
        await expect(down).to_contain_text("?")  # provisional after one race, and said what it means
        await expect(player.page.get_by_text("A \u201c?\u201d after a rating: still provisional")).to_be_visible()

        await player.page.get_by_role("button", name="Share").click()
        shared = player.page.get_by_role("textbox", name="Text to share")
        lost = -int(await down.get_attribute("data-delta") or 0)
        await expect(shared).to_have_value(re.compile(
            rf"^FreeCell Arena · FreeCell race of 2\n❌ \d+/52 cards home in \d+:\d\d · #2 of 2\n"
            rf"rating \u2212{lost}\n{re.escape(base)}/r/{code}$"))  # fmt: skip
        await expect(player.page.locator(".share-output")).to_have_attribute("data-copied", "true")
        assert await player.page.evaluate("navigator.clipboard.readText()") == await shared.input_value()

        gained, lost_text = await up.get_attribute("data-delta") or "", await down.inner_text()
        await player.page.reload()  # the standings, their rating changes and Share come back with the page
        await expect(theirs).to_have_attribute("data-rank", "1")
        await expect(mine).to_have_attribute("data-rank", "2")
        await expect(up).to_have_attribute("data-delta", gained)
        await expect(down).to_have_text(lost_text)
        await expect(player.page.get_by_role("button", name="Share")).to_be_visible()
        await player.page.set_viewport_size(PHONE)  # on a phone no column is clipped behind a scroll
        overflow = await player.page.locator(".standings").evaluate("box => box.scrollWidth - box.clientWidth")
        columns = await player.page.locator(".standings-table th").evaluate_all(
            "cells => cells.map((cell) => `${cell.textContent} ${Math.round(cell.getBoundingClientRect().width)} px`)")
        assert overflow <= 0, f"the standings overflow a phone's width by {overflow} px; columns: {columns}"
        await player.page.set_viewport_size(DESKTOP)

        await player.page.get_by_role("link", name="Review against par").click()
        review = player.page.get_by_role("region", name="Results against par")
        await expect(review).to_have_attribute("data-par", str(par.moves))
        await expect(review.locator(f'tr[data-player-id="{rival.player_id}"]')).to_have_attribute("data-over-par", "0")
        solver = player.page.get_by_role("region", name="Replay of the solver")
        await expect(solver.get_by_role("slider", name="Replay position")).to_have_attribute("max", str(par.moves))
        await expect(solver.locator(".board")).to_be_visible()

        await player.page.get_by_role("link", name="Rival", exact=True).first.click()
        await expect(player.page.get_by_role("heading", name="Rival", exact=True)).to_be_visible()
        await expect(player.page.locator('[data-variant="freecell"] [data-rating]').first).not_to_have_attribute(
            "data-rating", "1500")  # fmt: skip
        await expect(player.page.get_by_role("img", name="Rating history: from 1500")).to_be_visible()

        await player.open("/#/leaderboards/freecell?board=rating")
        rows = player.page.get_by_role("region", name="Results").locator("tbody tr")
        await expect(rows).to_have_count(2)
        await expect(rows.first).to_have_attribute("data-player-id", rival.player_id)
    finally:
        await rival.close()


async def test_a_streak_across_days_and_a_spoiler_free_share_on_the_daily_page(
    compete_server: tuple[ArenaServer, ManualClock], new_player: NewPlayer
) -> None:
    server, clock = compete_server
    base = f"http://127.0.0.1:{server.port}"
    player = await new_player("Dana", base)
    await player.open("/")  # the identity is made before the days it plays
    deals = []
    for day in range(2):
        clock.advance(timedelta(days=1).total_seconds())
        await server.daily.run_once()
        deal = await server.store.dailies.deal("freecell", clock.now().date())
        assert deal is not None
        deals.append(deal)
        await player.open("/#/daily/freecell")
        await player.wait_for_board()
        for notation in deal.solution:
            clock.advance(1.0)  # a person's pace on the server's clock: the fair-play floors are met
            await player.type_move(notation)
        await expect(player.board).to_have_attribute("data-status", "won")
        streak = player.page.locator(".daily-result .streak")
        await expect(streak).to_have_attribute("data-current", str(day + 1))
        await expect(streak.locator(f'[data-day="{clock.now().date()}"]')).to_have_attribute("data-mark", "won")

    # a browser that refuses the clipboard (an http page, a denied permission): the text is shown, selected
    await player.page.evaluate(
        "() => { navigator.clipboard.writeText = () => Promise.reject(new DOMException('no', 'NotAllowedError')); }")
    await player.page.get_by_role("button", name="Share").click()
    await expect(player.page.locator(".share-output")).to_have_attribute("data-copied", "false")
    await expect(player.page.get_by_role("status").filter(has_text="copy it with Ctrl+C")).to_be_visible()
    shared = await player.page.get_by_role("textbox", name="Text to share").input_value()
    title = f"FreeCell Arena · FreeCell daily {clock.now().date()}"
    assert shared.startswith(f"{title}\n✅ {deal.par} moves (par {deal.par}")
    assert "🔥 2-day streak" in shared and shared.endswith("/#/daily/freecell")
    # a move's notation may read like a count the text shows: "56" is column 5 to 6, and the moves played
    shown_counts = {str(len(deal.solution))}
    leaked_moves = set(shared.split()) & set(deal.solution) - shown_counts
    assert str(deal.seed) not in shared and not leaked_moves, "no seed, no move"

    clock.advance(timedelta(days=1).total_seconds())  # a day passes unplayed: the streak is still alive today
    await player.open("/#/daily")
    panel = player.page.locator('[data-variant="freecell"] .streak')
    await expect(panel).to_have_attribute("data-current", "2")
    closed = deals[1]  # yesterday's, closed: its review beside par, the certified solution in the replay viewer
    await player.page.get_by_role("link", name=f"Review of {closed.day} against par").click()
    review = player.page.get_by_role("region", name="Results against par")
    await expect(review).to_have_attribute("data-par", str(closed.par))
    await expect(review.get_by_role("row").nth(1)).to_have_attribute("data-over-par", "0")
    solver = player.page.get_by_role("region", name="Replay of the solver")
    await expect(solver.get_by_role("slider", name="Replay position")).to_have_attribute("max", str(closed.par))
    clock.advance(timedelta(days=1).total_seconds())  # and now one day closed without a win: it is over
    await player.open("/#/daily")
    await expect(panel).to_have_attribute("data-current", "0")
    await expect(panel).to_have_attribute("data-best", "2")
    missed = (clock.now() - timedelta(days=1)).date()
    if missed.month == clock.now().month:
        await expect(panel.locator(f'[data-day="{missed}"]')).to_have_attribute("data-mark", "missed")

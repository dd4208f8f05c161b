"""A tournament in real browsers (axe-core on each of its pages) against a real server whose clock the test moves:
two players find an arena on the Tournaments page, enter it, are paired (their race opens by itself), race, see
the standings move, and see the podium at its end; a third watches it all on a phone. Every page fails its test
on a console error (conftest).

With `FREECELL_ARENA_SHOTS=DIR` the test saves the screenshots docs/web shows (desktop 1366x768, phone 390x844)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from arena_server import started_arena
from boards_helpers import ManualClock
from playwright.async_api import expect
from webpages import PHONE, NewPlayer, Player, assert_accessible

from freecell_arena.core.competition.tournaments.schedule import tournament_record
from freecell_arena.core.records.review import solve_par
from freecell_arena.core.records.tournaments.rules import TournamentRules
from freecell_arena.net.app import ArenaServer

ARENA = TournamentRules(kind="arena", variant="freecell", time_limit_s=600, ranked=True, race_size=2, cap=10,
                        duration_s=1800, late_entry_s=600, berserk=True)  # fmt: skip


@pytest.fixture
async def clocked(sqlite_url: str) -> AsyncIterator[tuple[ArenaServer, ManualClock]]:
    clock = ManualClock(datetime.now(UTC).replace(microsecond=0))
    async with started_arena(sqlite_url, clock, tournament_interval_s=0.05) as server:
        yield server, clock


async def shoot(player: Player, name: str) -> None:
    folder = os.environ.get("FREECELL_ARENA_SHOTS")
    if folder:
        await player.page.screenshot(path=str(Path(folder) / name), full_page=False)


async def test_two_players_enter_an_arena_are_paired_race_and_see_the_podium(
    clocked: tuple[ArenaServer, ManualClock], new_player: NewPlayer
) -> None:
    server, clock = clocked
    base = f"http://127.0.0.1:{server.port}"
    record = tournament_record("Evening Arena", ARENA, clock.now() + timedelta(minutes=5), clock.now(), b"secret")
    await server.store.write([record])
    tournament_id = record.tournament_id

    alice = await new_player("Alice", base)
    await alice.open("/")
    await alice.page.get_by_role("navigation", name="Main").get_by_role("link", name="Tournaments").click()
    upcoming = alice.page.get_by_role("region", name="Upcoming")
    await expect(upcoming.get_by_role("row").nth(1)).to_contain_text("Evening Arena")
    await expect(upcoming.locator(".tournament-countdown")).to_contain_text("in 4 min")
    await shoot(alice, "tournaments-desktop.png")
    await assert_accessible(alice, "tournaments page")
    await upcoming.get_by_role("link", name="Evening Arena").click()
    await alice.page.get_by_role("button", name="Enter").click()
    standings = alice.page.get_by_role("region", name="Standings")
    await expect(standings.get_by_role("row")).to_have_count(2)
    await expect(alice.page.get_by_role("button", name="Withdraw")).to_be_visible()

    bob = await new_player("Bob", base)
    await bob.open(f"/#/tournament/{tournament_id}")
    await bob.page.get_by_role("button", name="Enter").click()
    await expect(standings.get_by_role("row")).to_have_count(3)  # Alice's page sees Bob come in
    cy = await new_player("Cy", base, viewport=PHONE)
    await cy.open(f"/#/tournament/{tournament_id}")
    await expect(cy.page.get_by_role("button", name="Enter")).to_be_visible()

    clock.advance(5 * 60 + 1)  # the arena starts: both are free, paired, and their race opens by itself
    for player in (alice, bob):
        await expect(player.room).to_have_attribute("data-room-status", "countdown")
    code = await alice.room.get_attribute("data-room-code")
    assert code and code == await bob.room.get_attribute("data-room-code")
    await alice.page.get_by_role("button", name="Berserk (half the time, +1 if solved)").click()
    await expect(alice.page.locator(".tournament-race .badge.berserk")).to_be_visible()
    await shoot(alice, "tournament-race-desktop.png")

    clock.advance(ARENA.countdown_s + 1)
    await alice.wait_for_board()
    await bob.wait_for_board()
    await bob.resign()
    par = solve_par("freecell", server.arena.rooms[code].record.seed)
    assert len(par.line) * 2 < ARENA.time_limit_s / 2, "a berserker's solve counts within half the time limit"
    for notation in par.line:
        clock.advance(2)  # a person's pace: the fair-play screen leaves the win alone
        await alice.type_move(notation)
    await expect(alice.board).to_have_attribute("data-status", "won")

    await alice.page.get_by_role("link", name="Tournament page").click()
    first = alice.page.get_by_role("region", name="Standings").get_by_role("row").nth(1)
    await expect(first).to_contain_text("Alice")
    assert await alice.page.locator(".celebration").count() == 0, "the win's cascade stayed on the board it left"
    await expect(first).to_have_attribute("data-points", "3")  # a race of 2 won: 2 points, and berserk's +1
    cy_first = cy.page.get_by_role("region", name="Standings").get_by_role("row").nth(1)
    await expect(cy_first).to_contain_text("Alice")  # the phone's page moved by itself
    await shoot(alice, "tournament-desktop.png")
    await shoot(cy, "tournament-phone.png")
    await assert_accessible(alice, "a running tournament's page")
    await assert_accessible(cy, "a running tournament's page on a phone")

    clock.advance(30 * 60)  # the arena is over: its podium
    podium = cy.page.get_by_role("list", name="Podium")
    await expect(podium.get_by_role("listitem")).to_have_count(2)
    await expect(podium.get_by_role("listitem").first).to_contain_text("Alice")
    await expect(alice.page.get_by_role("list", name="Podium").get_by_role("listitem").first).to_contain_text("Alice")
    await expect(alice.page.get_by_role("button", name="Withdraw")).to_have_count(0)
    await shoot(alice, "tournament-podium-desktop.png")
    await shoot(cy, "tournament-podium-phone.png")
    await assert_accessible(cy, "a finished tournament's podium on a phone")
    await cy.page.goto(f"{base}/#/tournaments")
    await expect(cy.page.get_by_role("region", name="Finished").get_by_role("row").nth(1)).to_contain_text("Evening")
    await shoot(cy, "tournaments-phone.png")
    await alice.page.goto(f"{base}/#/player")
    entered = alice.page.get_by_role("region", name="Tournaments").get_by_role("row").nth(1)
    await expect(entered).to_contain_text("Evening Arena")
    await expect(entered).to_contain_text("1 of 2")

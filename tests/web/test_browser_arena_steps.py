"""Issue 53, "tournaments don't say what comes next": an arena with three players (two laptops and a phone) against a
real server whose clock the test moves, the words each sees at each step checked:

1. before the start every entrant is "entered" (not "playing"), the page says when it ends and how points count;
2. the start pairs the first two to enter; the third reads that it waits for the next free entrant;
3. in the race, the time left and a berserker's half-clock, and the sign when that half ran out;
4. the race over: the result and the points it earned stay in view (the next race's room waits until it starts), with
   the place in the tournament; the one left over reads that the next race forms when someone is free (whom the
   waiting entrant races next depends on whether the table counted the race yet: either is checked);
5. an entrant who made no move is paused, and the page says why; Withdraw (for good) asks first;
6. the arena's end reaches the room: a race nobody solved is no win ("nobody solved it", never "You came first"), its
   final progress says "out of time" (not "playing"), the tournament is over, with the final place, and no "Race
   again" (a tournament pairs its own races).

And around it: an hourly schedule is one row (it listed 26 alike), an unsaved player's private tournament leads to
saving, and an entrant waiting in a quick race's lobby is told the arena does not pair them there.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from arena_server import started_arena
from boards_helpers import ManualClock
from playwright.async_api import expect
from webpages import PHONE, NewPlayer, Player

from freecell_arena.core.competition.tournaments.schedule import tournament_record
from freecell_arena.core.records.review import solve_par
from freecell_arena.core.records.tournaments.rules import TournamentRules
from freecell_arena.net.app import ArenaServer

ARENA = TournamentRules(kind="arena", variant="freecell", time_limit_s=600, ranked=True, race_size=2, cap=10,
                        duration_s=1800, late_entry_s=600, berserk=True)  # fmt: skip
PACE_S = 2.0
"""A person's pace between moves: the fair-play screen leaves the win alone."""


@pytest.fixture
async def clocked(sqlite_url: str) -> AsyncIterator[tuple[ArenaServer, ManualClock]]:
    clock = ManualClock(datetime.now(UTC).replace(microsecond=0))
    async with started_arena(sqlite_url, clock, tournament_interval_s=0.05) as server:
        yield server, clock


def status_cell(player: Player, name: str) -> Any:
    """The Status cell of `name`'s row in the page's tournament table."""
    row = player.page.get_by_role("region", name="Standings").get_by_role("row").filter(has_text=name)
    return row.locator("td").last


async def enter(player: Player, tournament_id: str) -> None:
    await player.open(f"/#/tournament/{tournament_id}")
    await player.page.get_by_role("button", name="Enter").click()
    await expect(player.page.get_by_role("button", name="Withdraw")).to_be_visible()


async def next_pair(*waiting: Player) -> tuple[Player, Player]:
    """Of two players in a finished tournament race, the one its next race took (its room's notice says so) and the
    one left waiting."""
    async with asyncio.timeout(10):
        while True:
            for index, player in enumerate(waiting):
                if await player.page.locator(".next-race").count():
                    return player, waiting[1 - index]
            await asyncio.sleep(0.1)


async def berserk(player: Player) -> None:
    await expect(player.room).to_have_attribute("data-room-status", "countdown")
    await player.page.get_by_role("button", name="Berserk (half the time, +1 if solved)").click()
    await expect(player.page.locator(".tournament-race .badge.berserk")).to_be_visible()


async def test_an_arena_says_what_comes_next_at_every_step(clocked: tuple[ArenaServer, ManualClock],
                                                           new_player: NewPlayer) -> None:  # fmt: skip
    server, clock = clocked
    base = f"http://127.0.0.1:{server.port}"
    record = tournament_record("Evening Arena", ARENA, clock.now() + timedelta(minutes=5), clock.now(), b"secret")
    await server.store.write([record])
    alice, bob = await new_player("Alice", base), await new_player("Bob", base)
    cy = await new_player("Cy", base, viewport=PHONE)
    for player in (alice, bob, cy):  # one second apart: the first two to enter race first
        await enter(player, record.tournament_id)
        clock.advance(1)

    # 1. before the start
    for name in ("Alice", "Bob", "Cy"):
        await expect(status_cell(cy, name)).to_have_text("entered")
    await expect(cy.page.locator(".tournament-scoring summary")).to_have_text("How points are counted")

    # 2. the start: Alice and Bob race, Cy waits and is told so
    clock.advance(5 * 60)
    await berserk(alice)
    await berserk(bob)
    state = cy.page.locator(".tournament-state")
    await expect(state).to_contain_text("Waiting for your next race")
    await expect(status_cell(cy, "Cy")).to_have_text("active")
    await expect(cy.page.locator(".tournament-facts")).to_contain_text(re.compile(r"ends in \d+ min"))
    code = await alice.room.get_attribute("data-room-code")
    assert code and code == await bob.room.get_attribute("data-room-code")

    # 3. the race's clocks: the time left, and berserk's half (300 s)
    clock.advance(ARENA.countdown_s + 1)
    await alice.wait_for_board()
    await bob.wait_for_board()
    await expect(alice.page.locator('[data-clock="Left"]')).to_contain_text(re.compile(r"Left \d+:\d\d"))
    await expect(alice.page.locator('[data-clock="Berserk"]')).to_contain_text("left")
    par = solve_par("freecell", server.arena.rooms[code].record.seed)
    assert len(par.line) * PACE_S < ARENA.time_limit_s / 2, "Alice solves within berserk's half"
    for notation in par.line:
        clock.advance(PACE_S)
        await alice.type_move(notation)
    await expect(alice.board).to_have_attribute("data-status", "won")
    clock.advance(ARENA.time_limit_s / 2)  # Bob's berserk half runs out: his next move says so
    await bob.type_move(par.line[0])
    await expect(bob.page.locator('[data-clock="Berserk"]')).to_contain_text("time is up: a solve now earns no point")
    await bob.resign()

    # 4. the race over: its result and points stay in view; the waiting Cy races one of the two next (the table may
    #    not count this race yet when they are paired), whose page keeps the result until that race starts
    standings = alice.page.get_by_role("region", name="Standings")
    await expect(standings).to_be_visible()
    await expect(alice.page.locator(".race-points")).to_contain_text("This race: +3 points")  # 2, and berserk's 1
    await expect(alice.page.locator(".tournament-race")).to_contain_text("you are 1st of 3 with 3 points")
    await expect(alice.page.get_by_role("button", name="Race again")).to_have_count(0)
    await expect(cy.room).to_have_attribute("data-room-status", "countdown")  # Cy's page went to the race
    partner, left_over = await next_pair(alice, bob)
    formed = partner.page.get_by_role("status").filter(has_text="Your next race is formed")
    await expect(formed).to_contain_text(re.compile(r"starting in \d+ s"))
    await expect(partner.page).to_have_url(f"{base}/r/{code}")  # not replaced by the next room
    await expect(partner.page.get_by_role("region", name="Standings")).to_be_visible()
    await expect(left_over.page.locator(".tournament-next")).to_contain_text("Your next race forms as soon as another")
    clock.advance(ARENA.countdown_s + 1)
    await expect(partner.page).not_to_have_url(f"{base}/r/{code}")  # the next race began: its board is there
    await partner.wait_for_board()
    await cy.wait_for_board()

    # 5. Cy gives up without a move: paused, and told why (the server's paused_why); Withdraw asks
    await partner.type_move("t1-c1")
    await cy.resign()
    await partner.resign()
    await cy.page.goto(f"{base}/#/tournament/{record.tournament_id}")
    await expect(cy.page.locator(".tournament-state")).to_contain_text("you made no move in your last race")
    await expect(status_cell(cy, "Cy")).to_have_text("paused")
    await cy.page.get_by_role("button", name="Withdraw").click()
    asked = cy.page.get_by_role("dialog", name="Withdraw from Evening Arena?")
    await expect(asked).to_contain_text("never be paired in it again")
    await asked.get_by_role("button", name="Stay in").click()
    await expect(cy.page.get_by_role("button", name="Withdraw")).to_be_visible()

    # 6. the end: Alice and Bob race once more; the arena's time and that race's run out; the room says it is over
    clock.advance(ARENA.countdown_s + 1)
    await alice.wait_for_board()
    clock.advance(ARENA.duration_s)
    await expect(alice.board).to_have_attribute("data-status", "timeout")
    outcome = alice.page.locator(".outcome")
    await expect(outcome).to_contain_text("nobody solved it")  # not "You came first": it scored nothing
    await expect(outcome).not_to_contain_text("came first")
    progress = alice.page.get_by_role("list", name="Progress of every player")
    await expect(progress).to_contain_text("out of time")  # the final progress, not "playing" after "Time is up"
    await expect(progress).not_to_contain_text("playing")
    over = alice.page.locator(".tournament-next")
    await expect(over).to_contain_text("Evening Arena is over: you finished 1st of 3 with 3 points", timeout=15_000)
    await expect(over.get_by_role("link", name="See the podium")).to_be_visible()
    await expect(alice.page.get_by_role("button", name="Race again")).to_have_count(0)


async def test_the_schedule_a_private_tournament_and_a_lobby_say_what_to_do(
    clocked: tuple[ArenaServer, ManualClock], new_player: NewPlayer
) -> None:
    server, clock = clocked
    base = f"http://127.0.0.1:{server.port}"
    now = clock.now()
    hourly = [tournament_record("Hourly Arena", ARENA, now + timedelta(hours=hour, minutes=5), now, b"secret")
              for hour in range(26)]  # fmt: skip
    await server.store.write(hourly)
    dana = await new_player("Dana", base, viewport=PHONE)
    await dana.open("/#/tournaments")
    upcoming = dana.page.get_by_role("region", name="Upcoming")
    await expect(upcoming.get_by_role("row")).to_have_count(2)  # the heading's row and the series' one
    await expect(upcoming).to_contain_text("then 25 more, every 1:00:00")
    await upcoming.get_by_role("button", name="Show all 26").click()
    await expect(upcoming.get_by_role("row")).to_have_count(27)

    await dana.page.get_by_role("button", name="Create a private tournament").click()  # Dana is not saved
    refused = dana.page.locator(".create-tournament .form-error")
    await expect(refused.get_by_role("link", name="Save your player with a passkey")).to_be_visible()

    await dana.page.get_by_role("link", name="Hourly Arena").first.click()
    await dana.page.get_by_role("button", name="Enter").click()
    await expect(dana.page.get_by_role("button", name="Withdraw")).to_be_visible()
    clock.advance(6 * 60)  # it runs; nobody else entered, so nobody is paired yet
    await dana.page.goto(base + "/")
    await dana.page.get_by_role("button", name="Quick race: Cell Eleven").click()
    told = dana.page.get_by_role("status").filter(has_text="You entered Hourly Arena, running now")
    await expect(told).to_contain_text("you are not paired in it")
    await told.get_by_role("button", name="Leave for the tournament").click()
    await expect(dana.page.locator(".tournament-state")).to_contain_text("Waiting for your next race")

"""Whole tournaments played by SDK bots against a real server whose clock runs fast (an injected clock): a
30-minute arena with 12 bots, a cup of 3 rounds with 40 bots in heats of 16, each in seconds of test time, and an
arena whose bots lose their connections twice (cut, then closed as a draining server closes them) and play on.
Afterwards every point is recomputed from the stored results (as `freecell-arena audit` does)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import update

from freecell_arena.core.competition.tournaments.cup import verify_reveal
from freecell_arena.core.competition.tournaments.schedule import tournament_record
from freecell_arena.core.records.tournaments.rules import TournamentRules
from freecell_arena.core.records.tournaments.state import TournamentSnapshot, table_of
from freecell_arena.net.app import ArenaServer
from freecell_arena.protocol.session import CloseCode
from freecell_arena.settings import Settings
from freecell_arena.store import GroupCommitWriter, SqlStore
from freecell_arena.store.models import Tournament
from freecell_arena.store.models import table_of as table_of_model
from freecell_arena_client import RunConfig
from freecell_arena_client.bots import BOTS
from freecell_arena_client.tournament import WAITING, TournamentResult, TournamentRunner

from .support import LOOPBACK_LIMITS

START = datetime(2026, 11, 27, 20, 0, tzinfo=UTC)


class FastClock:
    """Game time runs `factor` times faster than the test's: half an hour of tournament in seconds."""

    def __init__(self, factor: float) -> None:
        self.factor = factor
        self.origin = time.monotonic()
        self.skipped = timedelta(0)

    def now(self) -> datetime:
        return START + self.skipped + timedelta(seconds=(time.monotonic() - self.origin) * self.factor)

    def skip_to(self, instant: datetime) -> None:
        """Jump ahead to `instant` (a test waits for something, not for a fixed time, then moves on)."""
        self.skipped += max(timedelta(0), instant - self.now())


@pytest.fixture
async def fast_arena(tmp_path: Path, _sqlite_template: Path) -> AsyncIterator[tuple[ArenaServer, str, FastClock]]:
    path = tmp_path / "arena.db"
    path.write_bytes(_sqlite_template.read_bytes())
    database_url = f"sqlite+aiosqlite:///{path}"
    clock = FastClock(120)
    settings = Settings(host="127.0.0.1", port=0, database_url=database_url, tick_interval_s=0.01,
                        tournament_interval_s=0.02, rate_limit_per_s=10_000.0, rate_limit_burst=10_000,
                        par_at_race_end=False, daily_prepare_interval_s=0, **LOOPBACK_LIMITS)  # fmt: skip
    store = SqlStore(database_url)
    server = ArenaServer(settings, store, GroupCommitWriter(store), clock)
    await server.start()
    try:
        yield server, f"ws://127.0.0.1:{server.port}/", clock
    finally:
        await server.shutdown()


async def create(server: ArenaServer, clock: FastClock, rules: TournamentRules, starts_in_s: float) -> str:
    record = tournament_record("Test " + rules.kind, rules, clock.now() + timedelta(seconds=starts_in_s),
                               clock.now(), await server.daily.secret())  # fmt: skip
    await server.store.write([record])
    return record.tournament_id


def runners_for(url: str, tournament_id: str, bots: int) -> list[TournamentRunner]:
    return [TournamentRunner(BOTS["greedy"](), RunConfig(server=url, name=f"bot{index}", room=WAITING,
                                                        max_rate_per_s=None, max_moves=150),
                             tournament_id, poll_s=0.3) for index in range(bots)]  # fmt: skip


async def play(url: str, tournament_id: str, bots: int) -> list[TournamentResult]:
    runners = runners_for(url, tournament_id, bots)
    async with asyncio.timeout(120):
        return list(await asyncio.gather(*(runner.run_tournament() for runner in runners)))


async def test_a_30_minute_arena_with_12_bots_runs_to_its_podium(fast_arena: tuple[ArenaServer, str, FastClock]) -> (
    None
):
    server, url, clock = fast_arena
    rules = TournamentRules(kind="arena", variant="freecell", time_limit_s=120, ranked=True, entry="bots",
                            duration_s=1800, race_size=4, berserk=True, late_entry_s=600)  # fmt: skip
    tournament_id = await create(server, clock, rules, starts_in_s=60)
    started = time.monotonic()
    results = await play(url, tournament_id, 12)
    assert time.monotonic() - started < 60  # half an hour of tournament in seconds
    final = results[0].tournament
    assert final.tournament.phase == "finished"
    assert len(final.standings) == 12 and [row.rank for row in final.standings] == list(range(1, 13))
    assert all(len(result.races) >= 4 for result in results), [len(result.races) for result in results]
    snapshot = await server.store.tournaments.snapshot(tournament_id)
    assert snapshot is not None and snapshot.stored.final
    recomputed = [row.to_json() for row in table_of(snapshot)]
    assert recomputed == [row.to_json() for row in snapshot.stored.standings]  # every point from stored results
    assert {race.wave for race in snapshot.races} == set(range(1, snapshot.stored.wave + 1))
    for race in snapshot.races:  # a race of the arena is formed before its end; nobody in two races at once
        assert race.formed_at < snapshot.stored.record.ends_at and 2 <= len(race.members) <= 4
    database_url = server.settings.store.database_url
    for _ in range(20):  # the last races are rated in the background: an unrated one is a transient line
        clean = await audited(database_url)
        if clean.returncode == 0:
            break
        await asyncio.sleep(0.5)
    assert clean.returncode == 0, clean.stdout
    leader = snapshot.stored.standings[0].player_id
    async with server.store.engine.begin() as connection:  # a stored figure that no result backs
        standings = [dict(row.to_json(), points=row.points + 1) if row.player_id == leader else row.to_json()
                     for row in snapshot.stored.standings]  # fmt: skip
        await connection.execute(update(table_of_model(Tournament)).values(standings=standings))
    report = await audited(database_url)
    assert report.returncode == 1 and f"{leader} stored points=" in report.stdout


async def test_an_arenas_bots_ride_through_lost_connections_to_the_podium(
    fast_arena: tuple[ArenaServer, str, FastClock],
) -> None:
    """Every bot's connection is cut (as a killed process cuts it: no close frame) in the middle of the arena, then
    closed with 1012 (as a draining server closes it); each `freecell-arena-bot --tournament` runner reconnects,
    picks its race or the tournament up where the server says it stands, and plays to the end."""
    server, url, clock = fast_arena
    rules = TournamentRules(kind="arena", variant="freecell", time_limit_s=120, ranked=True, entry="bots",
                            duration_s=900, race_size=3)  # fmt: skip
    tournament_id = await create(server, clock, rules, starts_in_s=30)
    runners = runners_for(url, tournament_id, 6)

    async def all_six_connected() -> None:
        while len(server.connections) < 6:
            await asyncio.sleep(0.05)

    async def faults() -> None:
        await all_six_connected()
        while not snapshot_races(await server.store.tournaments.snapshot(tournament_id)):
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.5)  # races under way: some bots mid-race, some between races
        cut = dict(server.connections)
        for connection in cut.values():
            connection.websocket.transport.abort()
        while any(server.connections.get(player_id) in (None, connection) for player_id, connection in cut.items()):
            await asyncio.sleep(0.05)  # until all six are back, each on a new connection
        await asyncio.sleep(1.0)
        await server.holder.close_all(CloseCode.service_restart, "server restarting")

    async with asyncio.timeout(120):
        *results, _ = await asyncio.gather(*(runner.run_tournament() for runner in runners), faults())
    assert all(result.tournament.tournament.phase == "finished" for result in results)
    assert all(runner.reconnects >= 2 for runner in runners), [runner.reconnects for runner in runners]
    assert all(result.races for result in results), [len(result.races) for result in results]
    snapshot = await server.store.tournaments.snapshot(tournament_id)
    assert snapshot is not None and snapshot.stored.final and len(snapshot.stored.standings) == 6
    assert [row.to_json() for row in table_of(snapshot)] == [row.to_json() for row in snapshot.stored.standings]
    for race in snapshot.races:  # nobody seated in two races at once, whatever the reconnects
        assert len(race.members) == len(set(race.members))
    played = {result.races[0].player_id: len(result.races) for result in results}
    assert played == {row.player_id: row.races for row in snapshot.stored.standings}, "every race the table counts"


def snapshot_races(snapshot: TournamentSnapshot | None) -> int:
    return 0 if snapshot is None else len(snapshot.races)


async def audited(database_url: str) -> subprocess.CompletedProcess[str]:
    """`freecell-arena audit` on the database, as an operator runs it."""
    return await asyncio.to_thread(subprocess.run, [sys.executable, "-m", "freecell_arena", "audit",
                                                    "--database-url", database_url],
                                   capture_output=True, text=True, timeout=120)  # fmt: skip


async def test_a_cup_of_3_rounds_with_40_bots_in_heats_of_16(fast_arena: tuple[ArenaServer, str, FastClock]) -> None:
    server, url, clock = fast_arena
    rules = TournamentRules(kind="cup", variant="freecell", time_limit_s=120, ranked=True, entry="bots", rounds=3,
                            round_interval_s=300, heat_size=16)  # fmt: skip
    tournament_id = await create(server, clock, rules, starts_in_s=7200)  # an hour of test time to enter in

    async def start_once_all_entered() -> None:
        while len(getattr(await server.store.tournaments.snapshot(tournament_id), "entries", ())) < 40:
            await asyncio.sleep(0.2)
        snapshot = await server.store.tournaments.snapshot(tournament_id)
        assert snapshot is not None
        clock.skip_to(snapshot.stored.record.starts_at - timedelta(seconds=5))

    results, _ = await asyncio.gather(play(url, tournament_id, 40), start_once_all_entered())
    final = results[0].tournament
    assert final.tournament.phase == "finished" and final.deals is not None and final.nonce is not None
    assert final.commitment is not None
    assert verify_reveal(tournament_id, "freecell", final.deals, final.nonce, final.commitment)
    assert [len(result.races) for result in results] == [3] * 40, [len(result.races) for result in results]
    snapshot = await server.store.tournaments.snapshot(tournament_id)
    assert snapshot is not None
    for round_index in range(1, 4):
        heats = [race for race in snapshot.races if race.wave == round_index]
        assert sorted(len(race.members) for race in heats) == [13, 13, 14]
        assert len({race.formed_at for race in heats}) == 1
    by_room = {race.room_id: race for race in snapshot.races}
    stored = await server.store.room(next(iter(by_room)))
    assert stored is not None
    seeds = {(await server.store.room(room_id)).room.seed for room_id in by_room}  # type: ignore[union-attr]
    assert seeds == set(final.deals)  # every heat of a round on the round's committed deal
    assert [row.to_json() for row in table_of(snapshot)] == [row.to_json() for row in snapshot.stored.standings]

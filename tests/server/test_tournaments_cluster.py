"""A tournament across two real server processes on one PostgreSQL and one Redis (started by the suite): the process
holding half the entrants dies (kill -9) mid-arena, mid-race; its entrants resume on the other, nobody's points are
lost, and the next pairing happens there within seconds."""

from __future__ import annotations

import asyncio
import signal
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from arena_client import ArenaClient
from test_cluster import close_all, cluster, cluster_database_url  # noqa: F401  (a fixture)

from freecell_arena.core.competition.tournaments.schedule import tournament_record
from freecell_arena.core.records.review import solve_par
from freecell_arena.core.records.tournaments.rules import TournamentRules
from freecell_arena.core.records.tournaments.state import table_of
from freecell_arena.store.sql_store import SqlStore

pytestmark = pytest.mark.postgres

DEAL = 1
ARENA = TournamentRules(kind="arena", variant="freecell", time_limit_s=120, ranked=False, entry="bots", cap=10,
                        duration_s=600, race_size=2, berserk=False, gather_s=1.0, countdown_s=1.0,
                        seed=DEAL)  # fmt: skip
"""Bots only (no fair-play floor on a program's pace), every race on one chosen deal: each bot plays its par."""
PAIRED_WITHIN_S = 15.0


async def bot(url: str, name: str, token: str | None = None) -> ArenaClient:
    client = await ArenaClient.open(url)
    await client.hello(name, token=token, bot=True)
    return client


async def solve(client: ArenaClient, line: list[str]) -> None:
    for notation in line:
        reply = await client.request({"type": "move", "move": notation})
        if reply["type"] == "game_over":
            return
        assert reply["type"] == "move_accepted", reply
    await client.expect("game_over")


async def test_a_process_killed_mid_arena_loses_no_point_and_pairing_goes_on(
    tmp_path: Path, cluster_database_url: str, redis_url: str  # noqa: F811
) -> None:
    line = list(solve_par("freecell", DEAL).line)
    store = SqlStore(cluster_database_url)
    async with cluster(tmp_path, cluster_database_url, redis_url, 2, FREECELL_ARENA_TOURNAMENT_INTERVAL_S="0.2") as (
        processes
    ):
        names = ["bot0", "bot1", "bot2", "bot3"]
        bots = [await bot(processes[index // 2].url, name) for index, name in enumerate(names)]
        resumed: list[ArenaClient] = []
        try:
            now = datetime.now(UTC)
            record = tournament_record("Bots' arena", ARENA, now + timedelta(seconds=2), now, b"secret")
            await store.write([record])
            for client in bots:
                entered = await client.request({"type": "enter_tournament", "tournament_id": record.tournament_id})
                assert entered["type"] == "tournament_entry", entered
            for client in bots:
                await client.expect("tournament_race", tournament_id=record.tournament_id, timeout=PAIRED_WITHIN_S)
                await client.expect("race_started", timeout=PAIRED_WITHIN_S)

            processes[0].process.send_signal(signal.SIGKILL)  # half the entrants' process dies mid-race
            assert await processes[0].wait() == -signal.SIGKILL
            for client, name in zip(bots[:2], names[:2], strict=True):
                back = await bot(processes[1].url, name, token=client.token)
                await back.expect("game_state")
                resumed.append(back)
            players = [*resumed, *bots[2:]]
            await asyncio.gather(*(solve(client, line) for client in players))
            killed_at = asyncio.get_running_loop().time()
            for client in players:  # the next pairing, on the process left, within seconds
                await client.expect("tournament_race", tournament_id=record.tournament_id, timeout=PAIRED_WITHIN_S)
            paired_after = asyncio.get_running_loop().time() - killed_at
            print(f"paired again {paired_after:.2f} s after the first races' end")

            snapshot = await store.tournaments.snapshot(record.tournament_id)
            assert snapshot is not None
            first = [race for race in snapshot.races if race.wave == 1]
            assert len(first) == 2 and all(race.finished for race in first)
            table = {row.player_id: row for row in table_of(snapshot)}
            assert set(table) == {client.player_id for client in bots}
            assert all(row.solved >= 1 for row in table.values()), table  # every first race's result is kept
            assert sum(row.points for row in table.values()) >= 2 * (2 + 1)  # each race: its winner 2, the other 1
        finally:
            await close_all(*bots, *resumed)
            await store.close()


async def test_bots_entering_at_once_on_two_processes_fill_the_cap_exactly(
    tmp_path: Path, cluster_database_url: str, redis_url: str  # noqa: F811
) -> None:
    """Twenty-four bots press "enter" together, half on each process, for twenty places: the count of entrants goes
    up in the store only while below the cap (one statement, which the other process never makes fail), so twenty
    are entered, the count is exact, and the four others are told the arena is full (a write refused because it
    filled meanwhile is read again, then refused as full), never that the server could not store it."""
    store = SqlStore(cluster_database_url)
    async with cluster(tmp_path, cluster_database_url, redis_url, 2) as processes:
        bots = [await bot(processes[index % 2].url, f"bot{index}") for index in range(24)]
        try:
            now = datetime.now(UTC)
            rules = TournamentRules(kind="arena", variant="freecell", time_limit_s=120, ranked=False, entry="bots",
                                    cap=20, duration_s=600, race_size=2)  # fmt: skip
            for round_index in range(2):
                record = tournament_record(f"Rush {round_index}", rules, now + timedelta(minutes=10), now, b"secret")
                await store.write([record])
                enter = {"type": "enter_tournament", "tournament_id": record.tournament_id}
                replies = await asyncio.gather(*(client.request(enter) for client in bots))
                kinds = sorted(reply.get("code", reply["type"]) for reply in replies)
                assert kinds == ["tournament_entry"] * 20 + ["tournament_full"] * 4, replies
                snapshot = await store.tournaments.snapshot(record.tournament_id)
                assert snapshot is not None and snapshot.stored.entrants == 20 and len(snapshot.entries) == 20
        finally:
            await close_all(*bots)
            await store.close()

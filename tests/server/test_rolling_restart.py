"""A rolling restart under load, small (issue 54's CI version): three server processes on PostgreSQL and Redis
behind the repository's HAProxy, 30 SDK bots racing in rooms of three through it, every process drained and
replaced in turn, one round (tests/server/rolling.py). Every race ends with its standings, every bot finishes
every race it began, every move a bot was told was accepted is in the store as it was told, and the audit is clean.
bench/rolling_restart.py runs the same at 150 bots, twice round, beside kill -9. Skipped without haproxy locally,
failed under CI=true (.ci/run installs it)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest
from balancer import HAPROXY
from rolling import Run, Shape, cluster_behind_haproxy, rolling_restart_under_load
from services import service_missing

from freecell_arena.store import SqlStore

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


async def test_a_rolling_restart_behind_haproxy_drops_no_race_and_no_accepted_move(
    tmp_path: Path, postgres_database_url: str, redis_url: str
) -> None:
    if not os.access(HAPROXY, os.X_OK):
        service_missing("haproxy is not installed (Debian package haproxy)")
    shape = Shape(processes=3, bots=30, rounds=1)
    async with asyncio.timeout(240):
        async with cluster_behind_haproxy(tmp_path, postgres_database_url, redis_url, shape) as cluster:
            run = await rolling_restart_under_load(cluster, "drain")
    assert len(run.replacements_s) == 3
    assert run.failures() == []
    await check_nothing_lost(run, postgres_database_url)
    assert sum(bot.reconnects for bot in run.bots) >= 10, "the restarts moved the bots: each process had some"
    print(f"longest pause a racer saw: {run.longest_pause_s():.2f} s; replacements "
          f"{', '.join(f'{seconds:.1f} s' for seconds in run.replacements_s)}; {len(run.races)} races")  # fmt: skip
    audit = await asyncio.to_thread(
        subprocess.run, [sys.executable, "-m", "freecell_arena", "audit", "--database-url", postgres_database_url],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert audit.returncode == 0, audit.stdout + audit.stderr


async def check_nothing_lost(run: Run, database_url: str) -> None:
    """Every race ended with its three players ranked, every bot's game in it ended, and every move a bot was told
    was accepted is stored at the index it was told, as the action it was told."""
    assert len(run.races) >= 10, "each room raced at least once"
    for race in run.races:
        assert all(result.outcome is not None and result.game_id for result in race), race
        told = [result.standings for result in race if result.standings is not None]
        assert told, f"nobody of the race in room {race[0].room_code} saw its standings"
        assert all(len(standings) == 3 for standings in told), told
    store = SqlStore(database_url)
    try:
        for bot in run.bots:
            assert bot.results and all(result.outcome is not None for result in bot.results), bot.name
            for game_id, accepted in bot.accepted.items():
                stored = await store.game(game_id)
                assert stored is not None and stored.result is not None, (bot.name, game_id)
                actions = {move.index: move.notation for move in stored.moves}
                missing = {index: action for index, action in accepted.items() if actions.get(index) != action}
                assert not missing, f"{bot.name}: accepted but not stored as told in {game_id}: {missing}"
    finally:
        await store.close()

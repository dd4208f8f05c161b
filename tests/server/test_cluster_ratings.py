"""A rated race spread over two processes sharing PostgreSQL and Redis: rated once, its par worked out at the end,
and every member (on either process) told the same changes once."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from arena_client import connect_player
from test_cluster import close_all, cluster, cluster_database_url  # noqa: F401 (a fixture)

from freecell_arena.core.records.review import solve_par
from freecell_arena.engine import RULES_VERSION
from freecell_arena.store import SqlStore

pytestmark = pytest.mark.postgres


async def test_a_race_over_two_processes_is_rated_once(
    tmp_path: Path, cluster_database_url: str, redis_url: str  # noqa: F811
) -> None:
    async with cluster(tmp_path, cluster_database_url, redis_url, 2, FREECELL_ARENA_PAR_AT_RACE_END="true") as nodes:
        host = await connect_player(nodes[0].url, "host")
        rival = await connect_player(nodes[1].url, "rival")
        store = SqlStore(cluster_database_url)
        try:
            created = await host.request({"type": "create_room", "variant": "freecell",
                                          "options": {"countdown_s": 0}})  # fmt: skip
            code = created["room"]["code"]
            assert (await rival.request({"type": "join_room", "code": code}))["type"] == "room"
            assert (await host.request({"type": "start_race"}))["type"] == "countdown"
            game = (await rival.expect("race_started", code=code))["game"]
            await host.expect("race_started", code=code)
            assert (await host.request({"type": "resign"}))["type"] == "game_over"
            par = solve_par("freecell", int(game["seed"]), 10)
            for action in par.line:
                assert (await rival.request({"type": "move", "move": action}))["type"] == "move_accepted"

            told = []
            for client in (host, rival):
                await client.expect("race_over", code=code, timeout=15)
                rated = await client.expect("race_ratings", code=code, timeout=15)
                told.append({change["player_id"]: change["delta"] for change in rated["changes"]})
            assert told[0] == told[1] and told[0][rival.player_id] > 0 > told[0][host.player_id]
            await asyncio.sleep(1)  # a second rating, if any process rated it again, would have arrived by now
            for client in (host, rival):
                assert (await client.request({"type": "get_player"}))["type"] == "player"  # reads what came first
                assert not [frame for frame in client.pending if frame.get("type") == "race_ratings"]

            room = await store.room_by_code(code)
            assert room is not None
            changes = await store.ratings.changes_of(room.room.room_id)
            assert sorted(change.player_id for change in changes) == sorted([host.player_id, rival.player_id])
            assert all(change.after.races == 1 for change in changes)
            for _ in range(100):  # the par, worked out at the race's end by the process that finished it
                if (stored := await store.pars.get("freecell", int(game["seed"]), RULES_VERSION)) is not None:
                    break
                await asyncio.sleep(0.1)
            assert stored is not None and stored.line == par.line
        finally:
            await close_all(host, rival)
            await store.close()

"""Sanctions across processes (two server processes sharing PostgreSQL and Redis): a ban made on one process closes
the player's connection on the other within a second; a revoked moderator is refused at once on both; a mark made
while a race runs takes effect when it ends, once (the race is rated once, without the marked player among the
humans), and the audit finds nothing wrong."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from arena_client import ArenaClient, connect_player
from moderation_support import audit, mod, save, sql
from test_cluster import close_all, cluster, cluster_database_url
from websockets.exceptions import ConnectionClosed

from freecell_arena.core.records.review import solve_par
from freecell_arena.net.moderation import CLOSE_BANNED

pytestmark = pytest.mark.postgres
__all__ = ["cluster_database_url"]  # the fixture, used by name
PACE_S = 0.3
"""Seconds between the marked player's moves: a win the fair-play floor lets through, as the issue's pacing bot's."""
PUBLIC_URL = "http://localhost:8765"
"""What both processes name as their address (behind one balancer): passkeys are the cluster's."""


async def test_a_ban_on_one_process_closes_the_connection_on_the_other_within_a_second(
    tmp_path: Path, cluster_database_url: str, redis_url: str
) -> None:
    async with cluster(tmp_path, cluster_database_url, redis_url, 2, FREECELL_ARENA_PUBLIC_URL=PUBLIC_URL) as nodes:
        warden = await connect_player(nodes[0].url, "Warden")
        target = await connect_player(nodes[1].url, "Target")
        try:
            await save(warden, PUBLIC_URL)
            code, _, err = await mod(cluster_database_url, "grant", warden.player_id)
            assert code == 0, err
            started = time.monotonic()
            acted = await warden.request({"type": "mod_action", "action": "ban", "player_id": target.player_id,
                                          "reason": "abuse", "public_reason": "abusive behaviour"})  # fmt: skip
            assert acted["type"] == "mod_action", acted
            with pytest.raises(ConnectionClosed) as closed:
                async with asyncio.timeout(5):
                    await target.expect("never")
            elapsed = time.monotonic() - started
            assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_BANNED
            assert elapsed < 1.0, f"closed on the other process after {elapsed:.2f} s"
            for node in nodes:  # and refused anywhere
                back = await ArenaClient.open(node.url)
                refused = await back.request({"type": "hello", "name": "Target", "token": target.token})
                assert refused["code"] == "banned" and "abusive behaviour" in refused["message"], refused
                await close_all(back)
        finally:
            await close_all(warden, target)


async def test_a_revoked_moderator_is_refused_at_once_on_every_process(
    tmp_path: Path, cluster_database_url: str, redis_url: str
) -> None:
    async with cluster(tmp_path, cluster_database_url, redis_url, 2, FREECELL_ARENA_PUBLIC_URL=PUBLIC_URL) as nodes:
        warden = await connect_player(nodes[0].url, "Warden")
        elsewhere: ArenaClient | None = None
        try:
            await save(warden, PUBLIC_URL)
            code, _, err = await mod(cluster_database_url, "grant", warden.player_id)
            assert code == 0, err
            assert (await warden.request({"type": "mod_queue"}))["type"] == "mod_queue"
            elsewhere = await ArenaClient.open(nodes[1].url)  # the same moderator, now on the other process
            welcome = await elsewhere.request({"type": "hello", "name": "Warden", "token": warden.token})
            assert welcome["type"] == "welcome" and welcome["player_id"] == warden.player_id, welcome
            assert (await elsewhere.request({"type": "mod_log"}))["type"] == "mod_log"
            code, _, err = await mod(cluster_database_url, "revoke", warden.player_id)
            assert code == 0, err
            refused = await elsewhere.request({"type": "mod_log"})
            assert refused["code"] == "not_allowed", "the next request, on the process that never saw the revoke"
            await close_all(elsewhere)
            back = await ArenaClient.open(nodes[0].url)
            assert (await back.request({"type": "hello", "name": "Warden", "token": warden.token}))["type"] == "welcome"
            refused = await back.request({"type": "mod_queue"})
            assert refused["code"] == "not_allowed", "and on the first process"
            await close_all(back)
        finally:
            await close_all(warden, elsewhere)


async def test_a_mark_during_a_running_race_takes_effect_when_it_ends_once(
    tmp_path: Path, cluster_database_url: str, redis_url: str
) -> None:
    async with cluster(tmp_path, cluster_database_url, redis_url, 2) as nodes:
        cheat = await connect_player(nodes[0].url, "Cheat")
        victim = await connect_player(nodes[1].url, "Victim")
        third = await connect_player(nodes[1].url, "Third")
        try:
            created = await cheat.request({"type": "create_room", "variant": "freecell",
                                           "options": {"countdown_s": 0}})  # fmt: skip
            room = created["room"]["code"]
            for client in (victim, third):
                assert (await client.request({"type": "join_room", "code": room}))["type"] == "room"
            assert (await cheat.request({"type": "start_race"}))["type"] == "countdown"
            game = (await cheat.expect("race_started", code=room))["game"]
            for client in (victim, third):
                await client.expect("race_started", code=room)
            code, _, err = await mod(cluster_database_url, "mark", cheat.player_id, "--reason", "plays a solver")
            assert code == 0, err
            assert (await victim.request({"type": "resign"}))["type"] == "game_over"
            assert (await third.request({"type": "resign"}))["type"] == "game_over"
            for action in solve_par("freecell", int(game["seed"]), 10).line:  # at a pace the fair-play screen passes
                await asyncio.sleep(PACE_S)
                assert (await cheat.request({"type": "move", "move": action}))["type"] == "move_accepted"
            rated = await victim.expect("race_ratings", code=room, timeout=15)
            assert {change["player_id"] for change in rated["changes"]} == {victim.player_id, third.player_id}, (
                "the humans are rated among themselves: the marked winner is not among them")
            await asyncio.sleep(1)
            rows = await sql(cluster_database_url, "SELECT player_id, ladder, races FROM rating_changes "
                                                   "WHERE room_id = (SELECT id FROM rooms WHERE code = :code) "
                                                   "ORDER BY player_id", code=room)  # fmt: skip
            assert sorted(rows) == sorted([(victim.player_id, "humans", 1), (third.player_id, "humans", 1)]), rows
            board = await sql(cluster_database_url, "SELECT board, flagged FROM games WHERE player_id = :who",
                              who=cheat.player_id)  # fmt: skip
            assert board[0][0].endswith("/bots") and board[0][1] is None, "not flagged: on the bots' side by the mark"
            code, out, err = await audit(cluster_database_url)
            assert code == 0, out + err
        finally:
            await close_all(cheat, victim, third)

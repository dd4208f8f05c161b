"""Race-again series and quick races spread over two server processes on one PostgreSQL and one Redis (real
ones): the members of a finished race on two processes go on to one next room, and the players of two processes
fill one quick race a variant, even when they press at the same instant."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from arena_client import ArenaClient, connect_player
from test_cluster import SOLUTION, close_all, cluster, cluster_database_url, send_moves

pytestmark = pytest.mark.postgres
__all__ = ["cluster_database_url"]  # the fixture, used by name


async def test_a_race_again_series_spread_over_two_processes(
    tmp_path: Path, cluster_database_url: str, redis_url: str
) -> None:
    """Host on process 0, rival on process 1: the invitation crosses, the rival joins the next room from the other
    process, and two presses at once after the second race still make one next room, with the tally on."""
    async with cluster(tmp_path, cluster_database_url, redis_url, 2) as processes:
        host = await connect_player(processes[0].url, "host")
        rival = await connect_player(processes[1].url, "rival")
        try:
            options = {"countdown_s": 0, "autoplay": False}
            created = await host.request({"type": "create_room", "variant": "freecell", "deal": 1, "options": options})
            code = created["room"]["code"]
            assert (await rival.request({"type": "join_room", "code": code}))["type"] == "room"
            await host.expect("member_joined", code=code)
            assert (await host.request({"type": "start_race"}))["type"] == "countdown"
            await rival.expect("race_started", code=code)
            assert (await host.request({"type": "resign"}))["type"] == "game_over"
            await send_moves(rival, SOLUTION)
            for client in (host, rival):
                await client.expect("race_over", code=code, timeout=15)

            again = await host.request({"type": "race_again"})
            following = again["room"]["code"]
            invite = await rival.expect("series_invite", code=code)
            assert invite["next_code"] == following and invite["by"] == "host"
            joined = await rival.request({"type": "race_again"})
            assert joined["type"] == "room" and joined["room"]["code"] == following, joined
            assert [row["name"] for row in joined["room"]["series"]["tally"]] == ["rival", "host"]
            await host.expect("member_joined", code=following)

            assert (await host.request({"type": "start_race"}))["type"] == "countdown"
            for client in (host, rival):
                await client.expect("race_started", code=following, timeout=10)
                assert (await client.request({"type": "resign"}))["type"] == "game_over"
            for client in (host, rival):
                await client.expect("race_over", code=following, timeout=15)
            answers = await asyncio.gather(host.request({"type": "race_again"}), rival.request({"type": "race_again"}))
            assert [answer["type"] for answer in answers] == ["room", "room"], answers
            third = {answer["room"]["code"] for answer in answers}
            assert len(third) == 1, answers  # one next room, not two
            (room,) = [answer["room"] for answer in answers if len(answer["room"]["members"]) == 2] or [
                (await host.request({"type": "get_state"}))["room"]
            ]
            assert room["series"]["race"] == 3
            assert sorted((row["name"], row["wins"]) for row in room["series"]["tally"]) == [("host", 0), ("rival", 1)]
        finally:
            await close_all(host, rival)


async def test_a_quick_race_spread_over_two_processes(
    tmp_path: Path, cluster_database_url: str, redis_url: str
) -> None:
    """Players of two processes fill one quick race a variant and it starts by itself for all of them; pairs
    pressing at the same instant on the two processes still get one room."""
    settings = {"FREECELL_ARENA_QUICK_RACE_MIN_PLAYERS": "2", "FREECELL_ARENA_QUICK_RACE_WAIT_S": "0.5"}
    async with cluster(tmp_path, cluster_database_url, redis_url, 2, **settings) as processes:
        clients: list[ArenaClient] = []
        try:
            for round_ in range(4):
                one = await connect_player(processes[0].url, f"one-{round_}")
                two = await connect_player(processes[1].url, f"two-{round_}")
                clients += [one, two]
                request = {"type": "quick_race", "variant": "freecell"}
                if round_ == 0:  # one after the other
                    answers = [await one.request(request), await two.request(request)]
                else:  # at the same instant, on both processes
                    answers = list(await asyncio.gather(one.request(request), two.request(request)))
                assert [answer["type"] for answer in answers] == ["room", "room"], answers
                codes = {answer["room"]["code"] for answer in answers}
                assert len(codes) == 1, answers
                (code,) = codes
                for client in (one, two):
                    await client.expect("countdown", code=code, timeout=10)
                    started = await client.expect("race_started", code=code, timeout=10)
                    assert started["game"]["room_code"] == code
        finally:
            await close_all(*clients)

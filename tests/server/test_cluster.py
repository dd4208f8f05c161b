"""Several server processes on one PostgreSQL and one Redis (real ones, started by the suite): a room whose members
sit on different processes behaves as on one process.

Each process is a real `python -m freecell_arena serve` with `FREECELL_ARENA_REDIS_URL`; clients pick a process
the way a load balancer would spread them, and reconnect to another one.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from arena_client import ArenaClient, connect_player
from redis_support import RedisServer
from serverprocess import ServerProcess, metric_value, running_server, server_env

pytestmark = pytest.mark.postgres

SOLUTION = (Path(__file__).resolve().parents[1] / "data" / "ms-deal-1-atomic.sn").read_text().split()


@pytest.fixture
def cluster_database_url(request: pytest.FixtureRequest) -> Iterator[str]:
    """A fresh migrated PostgreSQL database (a copy of the session's template)."""
    server = request.getfixturevalue("postgres_server")
    name = server.create_database(template=request.getfixturevalue("_postgres_template"))
    try:
        yield server.url(name)
    finally:
        server.drop_database(name)


@contextlib.asynccontextmanager
async def cluster(
    tmp_path: Path, database_url: str, redis_url: str, size: int, **settings: str
) -> AsyncIterator[list[ServerProcess]]:
    """`size` server processes sharing the database and Redis, each on its own loopback port; `settings` are
    more `FREECELL_ARENA_*` variables."""
    async with contextlib.AsyncExitStack() as stack:
        processes = []
        for index in range(size):
            folder = tmp_path / f"process-{index}"
            folder.mkdir(exist_ok=True)
            env = cluster_env(redis_url, **settings)
            processes.append(
                await stack.enter_async_context(running_server(folder, database_url=database_url, env=env))
            )
        await asyncio.sleep(0.5)  # each process subscribes to Redis once it serves
        yield processes


def cluster_env(redis_url: str, **settings: str) -> dict[str, str]:
    """The environment of one process of a cluster (`settings`: more `FREECELL_ARENA_*` variables)."""
    return server_env(
        FREECELL_ARENA_REDIS_URL=redis_url,
        FREECELL_ARENA_RATE_LIMIT_PER_S="1000",  # a test client plays a whole solution flat out
        FREECELL_ARENA_RATE_LIMIT_BURST="1000",
        **settings,
    )


async def race_of_two(host: ArenaClient, racer: ArenaClient, **options: Any) -> str:
    """Deal 1, no autoplay (the atomic solution plays every move), started at once unless `options` say; the
    room's code once the host's countdown is accepted."""
    settings = {"countdown_s": 0, "autoplay": False, **options}
    created = await host.request({"type": "create_room", "variant": "freecell", "deal": 1, "options": settings})
    code: str = created["room"]["code"]
    assert (await racer.request({"type": "join_room", "code": code}))["type"] == "room"
    assert (await host.request({"type": "start_race"}))["type"] == "countdown"
    return code


async def close_all(*clients: ArenaClient | None) -> None:
    for client in clients:
        if client is not None:
            with contextlib.suppress(Exception):
                await client.close()


async def send_moves(client: ArenaClient, moves: list[str]) -> list[dict[str, Any]]:
    replies = []
    for notation in moves:
        reply = await client.request({"type": "move", "move": notation})
        assert reply["type"] == "move_accepted", reply
        replies.append(reply)
    return replies


async def resume_on(url: str, player: ArenaClient, name: str, last_acknowledged: dict[str, Any]) -> ArenaClient:
    """The player says hello with their token on another process: resumed, their game exactly where their last
    acknowledged move left it."""
    client = await ArenaClient.open(url)
    assert (await client.hello(name, token=player.token))["resumed"]
    state = await client.expect("game_state")
    assert state["game"]["player_moves"] == last_acknowledged["player_moves"]
    return client


async def test_a_race_spread_over_three_processes_runs_as_on_one(
    tmp_path: Path, cluster_database_url: str, redis_url: str
) -> None:
    """Host on process 0, a rival on 1, another on 2, a spectator on 1: membership, countdown, start, progress,
    results and replays all cross processes; the winner wins on the known solution."""
    async with cluster(tmp_path, cluster_database_url, redis_url, 3) as processes:
        host = await connect_player(processes[0].url, "host")
        rival = await connect_player(processes[1].url, "rival")
        third = await connect_player(processes[2].url, "third")
        watcher = await connect_player(processes[1].url, "watcher")
        clients = [host, rival, third, watcher]
        try:
            created = await host.request(
                {"type": "create_room", "variant": "freecell", "deal": 1,
                 "options": {"countdown_s": 1, "autoplay": False}}
            )  # fmt: skip
            code = created["room"]["code"]
            joined = await rival.request({"type": "join_room", "code": code})
            assert joined["type"] == "room", joined
            assert (await host.expect("member_joined", code=code))["member"]["player_id"] == rival.player_id
            assert (await third.request({"type": "join_room", "code": code}))["type"] == "room"
            for member in (host, rival):
                assert (await member.expect("member_joined"))["member"]["player_id"] == third.player_id
            spectating = await watcher.request({"type": "join_room", "code": code, "spectator": True})
            assert spectating["type"] == "room"
            assert {m["player_id"] for m in spectating["room"]["members"]} == {c.player_id for c in clients}

            assert (await host.request({"type": "start_race"}))["type"] == "countdown"
            for member in (rival, third, watcher):
                await member.expect("countdown", code=code)
            games = {}
            for player in (host, rival, third):
                started = await player.expect("race_started", code=code)
                games[player.player_id] = started["game"]["game_id"]
            assert len(set(games.values())) == 3

            await send_moves(rival, SOLUTION[:2])
            seen = await host.expect("progress", code=code)
            assert seen["progress"]["player_id"] == rival.player_id
            assert (await third.request({"type": "resign"}))["type"] == "game_over"
            assert (await host.request({"type": "resign"}))["type"] == "game_over"
            replies = await send_moves(rival, SOLUTION[2:])
            assert replies[-1]["status"] == "won"

            overs = [await client.expect("race_over", code=code, timeout=15) for client in clients]
            standings = [
                [(row["player_id"], row["outcome"], row["moves"]) for row in over["standings"]] for over in overs
            ]
            assert all(one == standings[0] for one in standings), "every process tells the same standings"
            assert standings[0][0][:2] == (rival.player_id, "won")

            replay = await watcher.request({"type": "get_replay", "game_id": games[rival.player_id]})
            assert replay["type"] == "replay" and replay["outcome"] == "won"
            assert len(replay["actions"]) == len(SOLUTION)
        finally:
            await close_all(*clients)


async def test_two_processes_racing_for_the_last_seat_and_for_the_start_let_exactly_one_win(
    tmp_path: Path, cluster_database_url: str, redis_url: str
) -> None:
    async with cluster(tmp_path, cluster_database_url, redis_url, 2) as processes:
        clients: list[ArenaClient] = []
        try:
            for _ in range(10):
                host = await connect_player(processes[0].url, "host")
                one = await connect_player(processes[0].url, "one")
                two = await connect_player(processes[1].url, "two")
                clients += [host, one, two]
                created = await host.request(
                    {"type": "create_room", "variant": "freecell", "options": {"max_players": 2}}
                )
                code = created["room"]["code"]
                await two.request({"type": "get_state"})  # both processes hold a copy of the room
                answers = await asyncio.gather(
                    one.request({"type": "join_room", "code": code}), two.request({"type": "join_room", "code": code})
                )
                kinds = sorted(answer.get("code", answer["type"]) for answer in answers)
                assert kinds == ["room", "room_full"], answers
        finally:
            await close_all(*clients)


async def test_a_reconnect_to_another_process_resumes_the_game(
    tmp_path: Path, cluster_database_url: str, redis_url: str
) -> None:
    """A player on process 0 plays, then comes back on process 1 with their token: the same game, every move;
    the old connection is closed; the race goes on and finishes for the host on process 0."""
    async with cluster(tmp_path, cluster_database_url, redis_url, 2) as processes:
        host = await connect_player(processes[0].url, "host")
        player = await connect_player(processes[0].url, "player")
        moved: ArenaClient | None = None
        try:
            code = await race_of_two(host, player)
            await player.expect("race_started")
            await host.expect("race_started")
            first = await send_moves(player, SOLUTION[:10])
            moved = await resume_on(processes[1].url, player, "player", first[-1])
            await send_moves(moved, SOLUTION[10:])
            assert (await host.request({"type": "resign"}))["type"] == "game_over"
            over = await host.expect("race_over", code=code, timeout=15)
            assert over["standings"][0]["player_id"] == player.player_id and over["standings"][0]["outcome"] == "won"
        finally:
            await close_all(host, player, moved)


@pytest.mark.parametrize("moves_before_kill", [1, 25, 150])
async def test_kill_9_of_a_process_mid_race_loses_no_acknowledged_move(
    tmp_path: Path, cluster_database_url: str, redis_url: str, moves_before_kill: int
) -> None:
    """The process holding one racer dies (kill -9) mid-race: the racer resumes on the other process exactly
    where their last acknowledged move left them, finishes, and the race ends once for everyone."""
    async with cluster(tmp_path, cluster_database_url, redis_url, 2) as processes:
        host = await connect_player(processes[0].url, "host")
        racer = await connect_player(processes[1].url, "racer")
        back: ArenaClient | None = None
        try:
            code = await race_of_two(host, racer)
            await racer.expect("race_started")
            acknowledged = await send_moves(racer, SOLUTION[:moves_before_kill])
            processes[1].process.send_signal(signal.SIGKILL)
            assert await processes[1].wait() == -signal.SIGKILL
            back = await resume_on(processes[0].url, racer, "racer", acknowledged[-1])
            await send_moves(back, SOLUTION[moves_before_kill:])
            assert (await host.request({"type": "resign"}))["type"] == "game_over"
            overs = [await client.expect("race_over", code=code, timeout=15) for client in (host, back)]
            assert overs[0]["standings"] == overs[1]["standings"]
            assert overs[0]["standings"][0]["player_id"] == racer.player_id
        finally:
            await close_all(host, racer, back)


async def test_a_countdown_whose_process_died_still_starts_the_race_once(
    tmp_path: Path, cluster_database_url: str, redis_url: str
) -> None:
    """The host's process starts a countdown and dies (kill -9) before its end: the other process begins the race
    (a short grace after the countdown's end), once; its players get their deal and race to the end."""
    async with cluster(tmp_path, cluster_database_url, redis_url, 2) as processes:
        host = await connect_player(processes[0].url, "host")
        racer = await connect_player(processes[1].url, "racer")
        try:
            code = await race_of_two(host, racer, countdown_s=1)
            await racer.expect("countdown", code=code)
            processes[0].process.send_signal(signal.SIGKILL)
            assert await processes[0].wait() == -signal.SIGKILL
            started = await racer.expect("race_started", code=code, timeout=15)
            replies = await send_moves(racer, SOLUTION)
            assert replies[-1]["status"] == "won"
            with pytest.raises(TimeoutError):
                await racer.expect("race_started", timeout=1.0)  # begun once, not by every process
            state = await racer.request({"type": "get_state"})
            assert state["game"]["game_id"] == started["game"]["game_id"]
        finally:
            await close_all(host, racer)


async def test_redis_stopped_and_started_mid_race_loses_nothing(
    tmp_path: Path, cluster_database_url: str, redis_url: str, redis_server: RedisServer
) -> None:
    """Redis goes down in the middle of a race spread over two processes: moves go on (they need only the
    database), and once Redis is back the room's events flow again and the race ends for both sides."""
    async with cluster(tmp_path, cluster_database_url, redis_url, 2) as processes:
        host = await connect_player(processes[0].url, "host")
        racer = await connect_player(processes[1].url, "racer")
        try:
            code = await race_of_two(host, racer)
            await racer.expect("race_started", code=code)
            await send_moves(racer, SOLUTION[:10])
            before = [await metric_value(process.port, "freecell_arena_room_resyncs_total") for process in processes]
            with redis_server.stopped():
                during = await send_moves(racer, SOLUTION[10:40])  # no Redis: moves are still stored and acknowledged
                assert during[-1]["player_moves"] >= 30
            await asyncio.sleep(1.0)  # the processes notice and subscribe again (backoff with jitter)
            async with asyncio.timeout(20):  # once subscribed again, each process re-reads the room it holds
                while not all([await metric_value(process.port, "freecell_arena_room_resyncs_total") > count
                               for process, count in zip(processes, before, strict=True)]):  # fmt: skip
                    await asyncio.sleep(0.2)
            await send_moves(racer, SOLUTION[40:])
            assert (await host.request({"type": "resign"}))["type"] == "game_over"
            overs = [await client.expect("race_over", code=code, timeout=20) for client in (host, racer)]
            assert overs[0]["standings"] == overs[1]["standings"]
            won = overs[0]["standings"][0]
            assert won["player_id"] == racer.player_id and won["outcome"] == "won"
            replay = await host.request({"type": "get_replay", "game_id": won["game_id"]})
            assert len(replay["actions"]) == len(SOLUTION), "every move, none twice"
        finally:
            await close_all(host, racer)


async def test_a_time_limit_whose_keeper_died_ends_the_race_once(
    tmp_path: Path, cluster_database_url: str, redis_url: str
) -> None:
    """The process that started the race dies with its host; the time limit passes: the other process ends the
    race (after its grace), the host's game as a timeout at the limit, and tells its racer once."""
    async with cluster(tmp_path, cluster_database_url, redis_url, 2) as processes:
        host = await connect_player(processes[0].url, "host")
        racer = await connect_player(processes[1].url, "racer")
        try:
            code = await race_of_two(host, racer, time_limit_s=5)
            await racer.expect("race_started", code=code)
            await send_moves(racer, SOLUTION[:5])
            processes[0].process.send_signal(signal.SIGKILL)
            assert await processes[0].wait() == -signal.SIGKILL
            over = await racer.expect("race_over", code=code, timeout=15)
            outcomes = {row["player_id"]: (row["outcome"], row["moves"]) for row in over["standings"]}
            assert outcomes == {host.player_id: ("timeout", 0), racer.player_id: ("timeout", 5)}
            assert all(5_000 <= row["time_ms"] <= 5_100 for row in over["standings"]), "ended at the limit"
            with pytest.raises(TimeoutError):
                await racer.expect("race_over", timeout=1.0)
        finally:
            await close_all(host, racer)


GRACE_S = 2.0
"""A picked-up lobby's grace in the tests below (`FREECELL_ARENA_LOBBY_RETURN_GRACE_S`), instead of a minute."""


async def lobby_across(processes: list[ServerProcess]) -> tuple[ArenaClient, ArenaClient, str]:
    """The host's lobby on process A, a guest joined by code through process B (which picks it up from the
    store); the two clients and the room's code."""
    host = await connect_player(processes[0].url, "host")
    guest = await connect_player(processes[1].url, "guest")
    created = await host.request({"type": "create_room", "variant": "freecell", "options": {"countdown_s": 1}})
    code = created["room"]["code"]
    assert (await guest.request({"type": "join_room", "code": code}))["type"] == "room"
    return host, guest, code


async def test_a_lobby_picked_up_by_another_process_keeps_the_members_connected_to_the_first(
    tmp_path: Path, cluster_database_url: str, redis_url: str
) -> None:
    """The host's lobby lives on process A; a guest joins by code through process B, which picks the lobby up from
    the store. The host, connected to A (alive), is shown connected to the guest and keeps their seat past B's
    grace: the race starts with both."""
    grace = {"FREECELL_ARENA_LOBBY_RETURN_GRACE_S": str(GRACE_S)}
    async with cluster(tmp_path, cluster_database_url, redis_url, 2, **grace) as processes:
        host, guest, code = await lobby_across(processes)
        try:
            await guest.expect("member_connection", code=code, player_id=host.player_id, connected=True)
            with pytest.raises(TimeoutError):
                await guest.expect("member_left", timeout=GRACE_S + 2)
            with pytest.raises(TimeoutError):
                await host.expect("member_left", timeout=0.5)
            assert (await host.request({"type": "start_race"}))["type"] == "countdown"
            for client in (host, guest):
                await client.expect("race_started", code=code, timeout=10)
        finally:
            await close_all(host, guest)


async def test_a_lobby_picked_up_after_its_process_died_gives_up_only_the_seats_of_its_dead_members(
    tmp_path: Path, cluster_database_url: str, redis_url: str
) -> None:
    """The host sat on process A, the guest on process B; A is killed (kill -9). A process started afterwards
    picks the lobby up from the store: after its grace the host's seat (nobody answers for them) is given up, the
    guest (connected to B, alive) keeps theirs and becomes the host."""
    grace = {"FREECELL_ARENA_LOBBY_RETURN_GRACE_S": str(GRACE_S)}
    async with cluster(tmp_path, cluster_database_url, redis_url, 2, **grace) as processes:
        host, guest, code = await lobby_across(processes)
        try:
            processes[0].process.send_signal(signal.SIGKILL)
            assert await processes[0].wait() == -signal.SIGKILL
            folder = tmp_path / "process-late"
            folder.mkdir()
            env = cluster_env(redis_url, **grace)
            async with running_server(folder, database_url=cluster_database_url, env=env):
                left = await guest.expect("member_left", code=code, timeout=GRACE_S + 10)
                assert (left["player_id"], left["host_id"]) == (host.player_id, guest.player_id)
                with pytest.raises(TimeoutError):
                    await guest.expect("member_left", timeout=1.0)
                assert (await guest.request({"type": "start_race"}))["type"] == "countdown"
                await guest.expect("race_started", code=code, timeout=10)
        finally:
            await close_all(host, guest)

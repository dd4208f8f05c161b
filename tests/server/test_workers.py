"""`serve --workers N` as real processes on the suite's PostgreSQL and Redis: one port, several pids; a killed
worker is replaced; a crash loop backs off; SIGTERM stops everyone; what is missing is refused in one line."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import socket
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil
import pytest
from arena_client import ArenaClient, connect_player
from racing import open_race
from serverprocess import http_get_json, running_server, server_env, spawn
from services import free_port
from test_process import SOLUTION, send_moves
from test_stop import send_then_stop
from websockets.exceptions import ConnectionClosed

from freecell_arena import readiness
from freecell_arena.settings import Settings
from freecell_arena.store import SqlStore
from freecell_arena.supervisor import (
    FIRST_BACKOFF_S,
    MAX_BACKOFF_S,
    SUPERVISOR_PID_ENV,
    WORKER_INDEX_ENV,
    worker_environment,
)

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

SUPERVISING = re.compile(rb"supervisor \(pid (\d+)\) starting (\d+) workers on ws://127\.0\.0\.1:(\d+)/")
START_TIMEOUT_S = 30.0
WAIT_S = 30.0


@dataclass
class Supervised:
    process: asyncio.subprocess.Process
    port: int
    log: Path

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    def worker_pids(self) -> set[int]:
        with contextlib.suppress(psutil.NoSuchProcess):
            return {child.pid for child in psutil.Process(self.process.pid).children()}
        return set()

    async def pids_answering(self, count: int, *, not_in: set[int] = frozenset(), within: float = WAIT_S) -> set[int]:
        """Ask /healthz on fresh connections until `count` distinct pids (none of `not_in`) answered."""
        seen: set[int] = set()
        async with asyncio.timeout(within):
            while len(seen - not_in) < count:
                with contextlib.suppress(OSError, ValueError, IndexError):
                    status, body = await http_get_json(self.port, "/healthz")
                    if status == 200:
                        seen.add(body["pid"])
                await asyncio.sleep(0.02)
        return seen - not_in


@contextlib.asynccontextmanager
async def supervising(tmp_path: Path, *args: str, env: dict[str, str] | None = None, new_session: bool = False) -> (
    AsyncIterator[Supervised]
):
    """`serve --workers ...` on a free port; the supervisor and every worker are killed in `finally`.
    `new_session`: the supervisor leads a process group of its own, which a test may signal whole."""
    log = tmp_path / "stderr.log"
    with log.open("wb") as stderr:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "freecell_arena", "serve", "--port", "0", "--log-level", "WARNING", *args,
            cwd=tmp_path, env=env or server_env(), stdout=asyncio.subprocess.PIPE, stderr=stderr,
            start_new_session=new_session,
        )  # fmt: skip
    workers: set[int] = set()
    try:
        assert process.stdout is not None
        async with asyncio.timeout(START_TIMEOUT_S):
            line = await process.stdout.readline()
        match = SUPERVISING.search(line)
        assert match, f"no supervisor line: {line!r} {log.read_text()[-2000:]}"
        supervised = Supervised(process, int(match.group(3)), log)
        asyncio.get_running_loop().create_task(_drain(process))
        yield supervised
        workers = supervised.worker_pids()
    finally:
        workers |= {child.pid for child in _children(process.pid)}
        if process.returncode is None:
            process.kill()
        for pid in workers:
            with contextlib.suppress(ProcessLookupError):
                psutil.Process(pid).kill()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(10):
                await process.wait()


async def _drain(process: asyncio.subprocess.Process) -> None:
    """Read the workers' `listening` lines, so a full pipe never blocks anyone."""
    assert process.stdout is not None
    while await process.stdout.readline():
        pass


def _children(pid: int) -> list[psutil.Process]:
    try:
        return psutil.Process(pid).children()
    except psutil.NoSuchProcess:
        return []


def started_by(supervisor_pid: int) -> list[int]:
    """Live processes a supervisor started, found by the variable it gives them (their parent may be gone)."""
    found = []
    for process in psutil.process_iter():
        with contextlib.suppress(psutil.Error):
            if process.environ().get(SUPERVISOR_PID_ENV) == str(supervisor_pid) and process.status() != "zombie":
                found.append(process.pid)
    return found


async def wait_gone(pids: set[int], within: float = WAIT_S) -> None:
    async with asyncio.timeout(within):
        while any(psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE for pid in pids):
            await asyncio.sleep(0.05)


def cluster_args(database_url: str, redis_url: str) -> list[str]:
    return ["--workers", "2", "--database-url", database_url, "--redis-url", redis_url]


async def test_two_workers_share_one_port_and_a_killed_one_is_replaced(
    tmp_path: Path, postgres_database_url: str, redis_url: str
) -> None:
    async with supervising(tmp_path, *cluster_args(postgres_database_url, redis_url)) as cluster:
        pids = await cluster.pids_answering(2)
        assert pids == cluster.worker_pids(), "the answers come from the supervisor's two workers"
        player = await connect_player(cluster.url, "through the shared port")
        assert (await player.request({"type": "create_room", "variant": "freecell"}))["type"] == "room"
        await player.close()

        victim = min(pids)
        psutil.Process(victim).kill()  # kill -9
        survivor = (pids - {victim}).pop()
        answered_by: list[int] = []
        async with asyncio.timeout(WAIT_S):
            while len(set(answered_by) - pids) < 1:
                with contextlib.suppress(OSError, ValueError, IndexError):
                    status, body = await http_get_json(cluster.port, "/healthz")
                    assert status == 200
                    answered_by.append(body["pid"])
                await asyncio.sleep(0.02)
        assert victim not in answered_by, "the killed worker answered after its death"
        assert survivor in answered_by, "the surviving worker went on answering"
        replacement = (set(answered_by) - pids).pop()
        assert cluster.worker_pids() == {survivor, replacement}
        log = cluster.log.read_text()
        assert re.search(rf"worker \d \(pid {victim}\) was killed by SIGKILL; restarting it in 0\.5 s", log), log


LINGERING = {psutil.CONN_TIME_WAIT, psutil.CONN_FIN_WAIT1, psutil.CONN_FIN_WAIT2, psutil.CONN_CLOSING,
             psutil.CONN_LAST_ACK, psutil.CONN_CLOSE_WAIT}


def lingering_on(port: int) -> list[str]:
    """States of the closed connections still bound to `port` (TIME_WAIT and friends): what blocks a bind
    without SO_REUSEADDR."""
    return [conn.status for conn in psutil.net_connections("tcp4")
            if conn.laddr and conn.laddr.port == port and conn.status in LINGERING]


@pytest.mark.parametrize("stop", ["SIGTERM", "kill -9"])
async def test_workers_start_at_once_on_the_port_a_stopped_server_just_served_players_on(
    tmp_path: Path, postgres_database_url: str, redis_url: str, stop: str
) -> None:
    """A service manager restarting the server after a stop or a crash: the closed players' connections of the
    one-process server still hold the port (TIME_WAIT) while the new supervisor binds it."""
    port = free_port()
    env = server_env(FREECELL_ARENA_REDIS_URL=redis_url)
    async with running_server(tmp_path, database_url=postgres_database_url, env=env, port=port) as server:
        players = [await connect_player(server.url, f"player {number}") for number in range(6)]
        for player in players:
            assert (await player.request({"type": "create_room", "variant": "freecell"}))["type"] == "room"
        if stop == "SIGTERM":
            server.process.send_signal(signal.SIGTERM)
            assert await server.wait() == 0
        else:
            server.process.kill()
            await server.wait()
        for player in players:  # the players see the close and finish it
            with contextlib.suppress(Exception):
                await player.close()
    assert lingering_on(port), "the stopped server's connections should still hold the port"
    async with supervising(tmp_path, *cluster_args(postgres_database_url, redis_url), "--port", str(port)) as cluster:
        assert cluster.port == port
        await cluster.pids_answering(2)
        player = await connect_player(cluster.url, "after the restart")
        await player.close()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
async def test_sigterm_or_sigint_to_the_supervisor_stops_every_worker_and_exits_0(
    tmp_path: Path, postgres_database_url: str, redis_url: str, signum: signal.Signals
) -> None:
    async with supervising(tmp_path, *cluster_args(postgres_database_url, redis_url)) as cluster:
        pids = await cluster.pids_answering(2)
        cluster.process.send_signal(signum)
        async with asyncio.timeout(WAIT_S):
            assert await cluster.process.wait() == 0
        await wait_gone(pids, within=5)
        assert "restarting" not in cluster.log.read_text(), "a stopping worker was not restarted"


async def test_sigterm_to_the_supervisors_whole_group_stops_it_in_time_solver_workers_and_all(
    tmp_path: Path, postgres_database_url: str, redis_url: str
) -> None:
    """As systemd's `KillMode=control-group` or a shell's job control: every process of the group gets SIGTERM at
    once, the supervisor, its workers and a worker's idle solver (a par was just solved there), while a player's
    moves are in flight. Each worker stops by itself (exit 0, none restarted) within the shutdown timeout, no solver
    is left behind, and every move acknowledged is in the database."""
    shutdown_s = 8.0
    env = server_env(FREECELL_ARENA_SHUTDOWN_TIMEOUT_S=str(shutdown_s))
    args = cluster_args(postgres_database_url, redis_url)
    async with supervising(tmp_path, *args, env=env, new_session=True) as cluster:
        pids = await cluster.pids_answering(2)
        player = await connect_player(cluster.url, "reviewer")
        code, _ = await open_race(player, [], "freecell", seed=1)
        assert (await player.request({"type": "resign"}))["type"] == "game_over"
        await player.expect("race_over", code=code)
        status, body = await http_get_json(cluster.port, f"/api/races/{code}/review", timeout=WAIT_S)
        assert status == 200 and body["par_status"] == "solved", body
        solvers = {child.pid for pid in pids for child in _children(pid)}
        assert solvers, "a worker solved the par in a solver process of its own"
        _, games = await open_race(player, [], "freecell", seed=1, autoplay=False)
        acknowledged = await send_moves(player, SOLUTION[:10])
        signalled = time.monotonic()
        acknowledged += await send_then_stop(player, lambda: os.killpg(cluster.process.pid, signal.SIGTERM))
        async with asyncio.timeout(WAIT_S):
            assert await cluster.process.wait() == 0, cluster.log.read_text()
        assert time.monotonic() - signalled < shutdown_s
        await wait_gone(pids | solvers, within=5)
        assert "restarting" not in cluster.log.read_text(), "a stopping worker was restarted"
    store = SqlStore(postgres_database_url)
    try:
        stored = await store.game(games[player.player_id]["game_id"])
    finally:
        await store.close()
    assert stored is not None and len(acknowledged) >= 10
    assert [move.notation for move in stored.moves][: len(acknowledged)] == acknowledged, "an acknowledged move lost"


async def test_sighup_replaces_every_worker_one_at_a_time_and_a_racer_plays_through(
    tmp_path: Path, postgres_database_url: str, redis_url: str
) -> None:
    """A rolling restart (`systemctl reload`): each worker's replacement listens before the old one is drained, so
    the port never refuses a connection; the racer's connection is closed with 1012, its player comes back with
    its token to the same game, and every move acknowledged before is there."""
    env = server_env(FREECELL_ARENA_DRAIN_GRACE_S="1", FREECELL_ARENA_SHUTDOWN_TIMEOUT_S="5")
    async with supervising(tmp_path, *cluster_args(postgres_database_url, redis_url), env=env) as cluster:
        old = await cluster.pids_answering(2)
        racer = await connect_player(cluster.url, "racer")
        await open_race(racer, [], "freecell", seed=1, autoplay=False)
        acknowledged = await send_moves(racer, SOLUTION[:5])
        refused: list[str] = []
        answers = 0

        async def knock() -> None:  # a new connection every 20 ms all through the roll
            nonlocal answers
            while True:
                try:
                    status, _ = await http_get_json(cluster.port, "/healthz")
                    answers += status == 200
                except OSError as error:
                    refused.append(repr(error))
                await asyncio.sleep(0.02)

        knocking = asyncio.create_task(knock())
        cluster.process.send_signal(signal.SIGHUP)
        with pytest.raises(ConnectionClosed) as closed:
            async with asyncio.timeout(WAIT_S):
                while True:
                    await racer._receive()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012, closed.value
        new = await cluster.pids_answering(2, not_in=old)
        await wait_gone(old)
        knocking.cancel()
        assert cluster.worker_pids() == new and len(new) == 2
        assert refused == [] and answers > 10, (refused, answers)
        back = await ArenaClient.open(cluster.url)
        await back.hello("racer", token=racer.token)
        state = await back.expect("game_state")
        assert state["game"]["actions"] == acknowledged
        assert len(await send_moves(back, SOLUTION[5:10])) == 5  # and the race goes on
        await back.close()
        log = cluster.log.read_text()
        assert "restarting it" not in log, "a replaced worker was taken for a dead one"
        assert cluster.process.returncode is None


async def test_the_supervisor_says_ready_once_every_worker_listens(
    tmp_path: Path, postgres_database_url: str, redis_url: str
) -> None:
    """systemd's `Type=notify` one level up: each worker says READY=1 to the supervisor's own socket, and the
    supervisor says it to the service manager (a real datagram socket here) only when all of them listen."""
    path = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as manager:
        manager.bind(path)
        manager.setblocking(False)
        env = server_env(NOTIFY_SOCKET=path)
        async with supervising(tmp_path, *cluster_args(postgres_database_url, redis_url), env=env) as cluster:
            async with asyncio.timeout(WAIT_S):
                ready = readiness.parse(await asyncio.get_running_loop().sock_recv(manager, 4096))
            assert ready["READY"] == "1" and ready["MAINPID"] == str(cluster.process.pid)
            workers = [psutil.Process(pid) for pid in cluster.worker_pids()]
            assert len(workers) == 2
            for worker in workers:  # each worker listens on the port (the supervisor's own socket never does)
                assert any(connection.status == psutil.CONN_LISTEN and connection.laddr.port == cluster.port
                           for connection in worker.net_connections()), f"worker {worker.pid} does not listen yet"
            assert all(worker.environ().get("NOTIFY_SOCKET") not in (None, path) for worker in workers)


async def test_workers_die_with_a_killed_supervisor(tmp_path: Path, postgres_database_url: str, redis_url: str) -> None:
    async with supervising(tmp_path, *cluster_args(postgres_database_url, redis_url)) as cluster:
        pids = await cluster.pids_answering(2)
        assert set(started_by(cluster.process.pid)) == pids
        cluster.process.kill()
        await wait_gone(pids)  # PR_SET_PDEATHSIG: no orphan keeps serving the port
        assert started_by(cluster.process.pid) == []


async def test_a_worker_that_keeps_dying_is_restarted_ever_more_slowly(
    tmp_path: Path, postgres_database_url: str, redis_url: str, postgres_server: Any
) -> None:
    async with supervising(tmp_path, *cluster_args(postgres_database_url, redis_url)) as cluster:
        pids = await cluster.pids_answering(2)
        postgres_server.drop_database(postgres_database_url.rsplit("/", 1)[1])  # a restarted worker cannot start
        psutil.Process(min(pids)).kill()
        expected = [FIRST_BACKOFF_S, 2 * FIRST_BACKOFF_S, 4 * FIRST_BACKOFF_S]
        async with asyncio.timeout(WAIT_S):
            while len(delays := re.findall(r"restarting it in ([\d.]+) s", cluster.log.read_text())) < len(expected):
                await asyncio.sleep(0.1)
        assert [float(delay) for delay in delays[: len(expected)]] == expected
        assert "exited with code 2" in cluster.log.read_text()
        assert max(expected) <= MAX_BACKOFF_S
        # a stop in the middle of a backoff (or of a restart) ends it at once, leaving nobody behind
        everyone = cluster.worker_pids() | pids
        cluster.process.send_signal(signal.SIGTERM)
        async with asyncio.timeout(10):
            assert await cluster.process.wait() == 0
        await wait_gone(everyone, within=5)
        assert started_by(cluster.process.pid) == [], "a worker outlived its supervisor"


@pytest.mark.parametrize(
    ("database_url", "environment", "expected"),
    [
        ("sqlite+aiosqlite:///arena.db", {}, b"--workers 2 needs PostgreSQL: set FREECELL_ARENA_DATABASE_URL"),
        ("postgresql+asyncpg://u@127.0.0.1:9/db", {}, b"--workers 2 needs Redis: set FREECELL_ARENA_REDIS_URL"),
        ("postgresql+asyncpg://u@127.0.0.1:9/db", {"FREECELL_ARENA_REDIS_URL": "http://x"}, b"bad setting redis_url"),
        ("sqlite+aiosqlite:///arena.db", {"FREECELL_ARENA_WORKERS": "0"}, b"bad setting workers"),
    ],
)
async def test_workers_without_postgres_and_redis_are_refused_in_one_line(
    tmp_path: Path, database_url: str, environment: dict[str, str], expected: bytes
) -> None:
    workers = [] if "FREECELL_ARENA_WORKERS" in environment else ["--workers", "2"]
    env = server_env(**environment)
    process = await spawn(["serve", "--port", "0", "--database-url", database_url, *workers], tmp_path, env)
    try:
        async with asyncio.timeout(30):
            stdout, stderr = await process.communicate()
        assert process.returncode == 2
        assert stderr.startswith(b"freecell-arena: ") and stderr.count(b"\n") == 1, stderr
        assert expected in stderr and stdout == b""
    finally:
        if process.returncode is None:
            process.kill()


async def test_an_unmigrated_postgres_is_refused_before_any_worker_starts(
    tmp_path: Path, postgres_server: Any, redis_url: str
) -> None:
    empty = postgres_server.url(postgres_server.create_database())
    process = await spawn(["serve", "--port", "0", *cluster_args(empty, redis_url)], tmp_path, server_env())
    try:
        async with asyncio.timeout(60):
            stdout, stderr = await process.communicate()
        assert process.returncode == 2
        assert b"freecell-arena migrate" in stderr and b"Traceback" not in stderr and stdout == b""
    finally:
        if process.returncode is None:
            process.kill()


async def test_serve_check_says_whether_the_settings_and_the_database_are_ready(
    tmp_path: Path, postgres_server: Any
) -> None:
    """What the supervisor runs before its workers (so that it never loads the database stack itself)."""
    fresh = tmp_path / "fresh.db"
    empty = postgres_server.url(postgres_server.create_database())
    for url, code, expected in ((f"sqlite+aiosqlite:///{fresh}", 0, b"are ready"), (empty, 2, b"not migrated")):
        process = await spawn(["serve", "--check", "--database-url", url], tmp_path, server_env())
        try:
            async with asyncio.timeout(60):
                stdout, stderr = await process.communicate()
        finally:
            if process.returncode is None:
                process.kill()
        assert process.returncode == code, stderr
        assert expected in stdout + stderr and b"Traceback" not in stderr
    assert fresh.exists(), "a SQLite file is created and migrated by the check, as by serve"


async def test_one_sqlite_process_never_imports_redis(tmp_path: Path) -> None:
    """Redis is for several processes: the embedded default does not pay for importing it (`-X importtime` lists
    every module the server imported, from start to SIGTERM)."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-X", "importtime", "-m", "freecell_arena", "serve", "--port", "0",
        cwd=tmp_path, env=server_env(), stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        async with asyncio.timeout(START_TIMEOUT_S):
            assert b"listening on" in await process.stdout.readline()
        process.send_signal(signal.SIGTERM)
        async with asyncio.timeout(WAIT_S):
            _, stderr = await process.communicate()
    finally:
        if process.returncode is None:
            process.kill()
    imported = re.findall(rb"^import time:.*\|\s+([\w.]+)$", stderr, re.M)
    assert b"sqlalchemy" in imported and b"websockets" in imported, "the probe sees the server's imports"
    assert not [name for name in imported if name.split(b".")[0] in (b"redis", b"hiredis")]


def test_a_worker_reads_back_exactly_the_supervisors_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """Flags and environment merged in the supervisor reach its workers through their environment, every
    field of every type (a setting added later included)."""
    chosen = Settings(workers=3, redis_url="redis://127.0.0.1:6379/2", port=8123, tick_interval_s=0.07,
                      compression="none", daily_secret="s" * 16, gc_thresholds="5000,10,10")
    environment = worker_environment(chosen, index=2, port=8123)
    for variable in [name for name in os.environ if name.startswith("FREECELL_ARENA_")]:
        monkeypatch.delenv(variable)
    for variable, value in environment.items():
        if variable.startswith("FREECELL_ARENA_"):
            monkeypatch.setenv(variable, value)
    expected = Settings.from_names({**dict(chosen.named_values()), "workers": 1, "reuse_port": True})
    assert Settings() == expected
    assert environment[WORKER_INDEX_ENV] == "2" and environment[SUPERVISOR_PID_ENV] == str(os.getpid())

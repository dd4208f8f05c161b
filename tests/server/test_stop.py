"""A stop never hangs: `serve` as a real process in a process group of its own, stopped by a real SIGTERM or SIGINT
sent to it alone or to its whole group (what systemd's `KillMode=control-group`, a shell's Ctrl-C or a supervisor
that signals the group do), at each moment of its solver worker's life: idle after a par, mid-solve, being
spawned, and preparing a daily. Every stop ends within the shutdown timeout, exits 0, leaves no worker behind,
and every move acknowledged before or during it is in the database afterwards.

(Before net/solver_pool.py owned its worker outright, the idle case hung forever: the worker, killed by the
group's SIGTERM while waiting for work, held its `multiprocessing.Pool` queue's lock, `Pool.terminate` waited for
it in a thread, and `asyncio.run` waited for that thread at exit.)"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import psutil
import pytest
from arena_client import ArenaClient, connect_player
from racing import open_race
from serverprocess import ServerProcess, http_get_json, running_server, server_env
from test_process import SOLUTION, send_moves
from websockets.exceptions import ConnectionClosed

from freecell_arena.store import SqlStore

SHUTDOWN_S = 8.0
"""The server's shutdown timeout in these tests: each stop must end within it."""
HARD_DEAL = ("freecell-three-deck", 7)  # not settled within seconds: a solve that is still running when the stop comes
WAIT_S = 30.0


def solver_workers(server: ServerProcess) -> list[psutil.Process]:
    """The server's solver worker processes (children running `serve_requests`)."""
    found = []
    with contextlib.suppress(psutil.NoSuchProcess):
        for child in psutil.Process(server.process.pid).children():
            with contextlib.suppress(psutil.Error):
                if "serve_requests" in " ".join(child.cmdline()):
                    found.append(child)
    return found


async def a_worker(server: ServerProcess, *, busy_for_s: float = 0.0, poll_s: float = 0.05) -> psutil.Process:
    """The first solver worker to appear (that has spent `busy_for_s` of CPU, when asked)."""
    async with asyncio.timeout(WAIT_S):
        while True:
            for worker in solver_workers(server):
                with contextlib.suppress(psutil.Error):
                    if busy_for_s == 0 or sum(worker.cpu_times()[:2]) >= busy_for_s:
                        return worker
            await asyncio.sleep(poll_s)


async def finished_race(server: ServerProcess, variant: str, seed: int) -> str:
    """A solo race its player resigned at once: over, so its review may be asked (and its par solved)."""
    player = await connect_player(server.url, "reviewer")
    code, _ = await open_race(player, [], variant, seed=seed)
    assert (await player.request({"type": "resign"}))["type"] == "game_over"
    await player.expect("race_over", code=code)  # at the next tick
    await player.close()
    return code


async def review(server: ServerProcess, code: str) -> tuple[int, dict[str, object]]:
    return await http_get_json(server.port, f"/api/races/{code}/review", timeout=WAIT_S)


# -------------------------------------------------------------------------------- the moments: each returns its worker


async def idle_worker(server: ServerProcess) -> tuple[psutil.Process, asyncio.Task[object] | None]:
    """A par was solved (deal 1: a few seconds); the worker waits for the next task."""
    code = await finished_race(server, "freecell", 1)
    status, body = await review(server, code)
    assert status == 200 and body["par_status"] == "solved", body
    return await a_worker(server), None


async def worker_mid_solve(server: ServerProcess) -> tuple[psutil.Process, asyncio.Task[object] | None]:
    code = await finished_race(server, *HARD_DEAL)
    asking = asyncio.create_task(review(server, code))
    return await a_worker(server, busy_for_s=0.2), asking


async def worker_being_spawned(server: ServerProcess) -> tuple[psutil.Process, asyncio.Task[object] | None]:
    """The signal comes as soon as the worker process exists, long before its interpreter has started."""
    code = await finished_race(server, *HARD_DEAL)
    asking = asyncio.create_task(review(server, code))
    return await a_worker(server, poll_s=0.001), asking


async def daily_being_prepared(server: ServerProcess) -> tuple[psutil.Process, asyncio.Task[object] | None]:
    """The daily service prepares today's deals at start, in its own worker."""
    return await a_worker(server, busy_for_s=0.3), None


Moment = Callable[[ServerProcess], Awaitable[tuple[psutil.Process, "asyncio.Task[object] | None"]]]
DAILY_ENV = {"FREECELL_ARENA_DAILY_PREPARE_INTERVAL_S": "300", "FREECELL_ARENA_DAILY_VARIANTS": "freecell-three-deck",
             "FREECELL_ARENA_DAILY_SOLVER_NODES": "50000000"}  # fmt: skip


async def send_then_stop(mover: ArenaClient, stop: Callable[[], None]) -> list[str]:
    """Six moves sent without waiting, the stop, then every acknowledgement that still comes until the server
    closes the connection: the actions acknowledged."""
    acknowledged = []
    for notation in SOLUTION[10:16]:
        await mover.send({"type": "move", "move": notation})
    stop()
    with contextlib.suppress(ConnectionClosed):
        async with asyncio.timeout(WAIT_S):
            while True:
                frame = await mover._receive()
                if frame["type"] == "move_accepted":
                    acknowledged.append(frame["action"])
    return acknowledged


@pytest.mark.parametrize(
    ("moment", "signum", "whole_group"),
    [
        (idle_worker, signal.SIGTERM, True),
        (idle_worker, signal.SIGINT, True),
        (idle_worker, signal.SIGTERM, False),
        (idle_worker, signal.SIGINT, False),
        (worker_mid_solve, signal.SIGTERM, True),
        (worker_mid_solve, signal.SIGINT, False),
        (worker_being_spawned, signal.SIGTERM, True),
        (worker_being_spawned, signal.SIGINT, True),
        (daily_being_prepared, signal.SIGTERM, True),
        (daily_being_prepared, signal.SIGINT, False),
    ],
    ids=lambda value: getattr(value, "__name__", None) or getattr(value, "name", None) or ("group" if value else
                                                                                            "process"),
)
async def test_a_stop_ends_in_time_and_keeps_every_acknowledged_move(
    tmp_path: Path, moment: Moment, signum: signal.Signals, whole_group: bool
) -> None:
    database_url = f"sqlite+aiosqlite:///{tmp_path / 'stop.db'}"
    env = server_env(FREECELL_ARENA_SHUTDOWN_TIMEOUT_S=str(SHUTDOWN_S), FREECELL_ARENA_PAR_SOLVER_NODES="50000000",
                     **(DAILY_ENV if moment is daily_being_prepared else {}))  # fmt: skip
    async with running_server(tmp_path, database_url=database_url, env=env, new_session=True) as server:
        mover = await connect_player(server.url, "mover")
        _, games = await open_race(mover, [], "freecell", seed=1, autoplay=False)
        acknowledged = await send_moves(mover, SOLUTION[:10])
        worker, asking = await moment(server)
        signalled = 0.0

        def stop() -> None:
            nonlocal signalled
            signalled = time.monotonic()
            if whole_group:
                os.killpg(server.process.pid, signum)
            else:
                server.process.send_signal(signum)

        acknowledged += await send_then_stop(mover, stop)
        assert await server.wait(timeout=WAIT_S) == 0
        took = time.monotonic() - signalled
        if asking is not None:  # the review that waited for the solve was answered: no par for now
            status, body = await asking  # type: ignore[misc]
            assert status == 200 and body["par_status"] == "unknown", body
    print(f"stopped in {took:.2f} s")  # shown with -s
    assert took < SHUTDOWN_S, f"the stop took {took:.1f} s"
    assert not worker.is_running() or worker.status() == psutil.STATUS_ZOMBIE, "the solver worker outlived its server"
    store = SqlStore(database_url)
    try:
        stored = await store.game(games[mover.player_id]["game_id"])
    finally:
        await store.close()
    assert stored is not None and len(acknowledged) >= 10
    stored_actions = [move.notation for move in stored.moves]
    assert stored_actions[: len(acknowledged)] == acknowledged, "an acknowledged move was lost"

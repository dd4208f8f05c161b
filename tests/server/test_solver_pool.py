"""The solver's worker process (net/solver_pool.py), real processes and real signals: it ignores the stop signals
meant for its server, its death at any moment is noticed at once (no lock of its server's held), and its server
ends it."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time

import psutil
import pytest
from serverprocess import server_env

from freecell_arena.net.solver_pool import SolverPool, SolverWorkerLost

LONGEST_S = 60.0


async def gone(pid: int, within: float = 5.0) -> bool:
    """The process ended (a killed one takes a moment)."""
    async with asyncio.timeout(within):
        while psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
            await asyncio.sleep(0.02)
    return True


async def test_the_worker_ignores_sigterm_and_sigint_and_answers_on() -> None:
    pool = SolverPool()
    try:
        pid = await pool.run(os.getpid, (), {}, LONGEST_S)
        for signum in (signal.SIGTERM, signal.SIGINT):
            os.kill(pid, signum)
        await asyncio.sleep(0.2)
        assert await pool.run(os.getpid, (), {}, LONGEST_S) == pid, "the same worker, alive"
    finally:
        await pool.close()
    assert await gone(pid)


async def test_a_worker_killed_mid_task_is_noticed_at_once_and_replaced() -> None:
    pool = SolverPool()
    try:
        first = await pool.run(os.getpid, (), {}, LONGEST_S)
        sleeping = asyncio.create_task(pool.run(time.sleep, (30,), {}, LONGEST_S))
        await asyncio.sleep(0.3)
        started = time.monotonic()
        os.kill(first, signal.SIGKILL)
        with pytest.raises(SolverWorkerLost):
            await sleeping
        assert time.monotonic() - started < 5, "noticed by the pipe's end, not after the task's longest time"
        assert await pool.run(os.getpid, (), {}, LONGEST_S) != first
    finally:
        await pool.close()


async def test_an_error_in_the_task_is_raised_and_the_worker_kept() -> None:
    pool = SolverPool()
    try:
        pid = await pool.run(os.getpid, (), {}, LONGEST_S)
        with pytest.raises(ValueError, match="invalid literal"):
            await pool.run(int, ("not a number",), {}, LONGEST_S)
        assert await pool.run(os.getpid, (), {}, LONGEST_S) == pid
    finally:
        await pool.close()


async def test_an_overrun_kills_the_worker_and_close_ends_a_task_and_refuses_more() -> None:
    pool = SolverPool()
    pid = await pool.run(os.getpid, (), {}, LONGEST_S)
    with pytest.raises(TimeoutError):
        await pool.run(time.sleep, (30,), {}, 0.5)
    assert await gone(pid)
    sleeping = asyncio.create_task(pool.run(time.sleep, (30,), {}, LONGEST_S))
    await asyncio.sleep(0.3)
    started = time.monotonic()
    await pool.close()
    with pytest.raises(SolverWorkerLost):
        await sleeping
    assert time.monotonic() - started < 5
    with pytest.raises(SolverWorkerLost, match="closed"):
        await pool.run(os.getpid, (), {}, LONGEST_S)


SERVER_THAT_DIES = """
import asyncio, os, time
from freecell_arena.net.solver_pool import SolverPool

async def main():
    pool = SolverPool()
    print(await pool.run(os.getpid, (), {}, 60), flush=True)
    await pool.run(time.sleep, (3600,), {}, 3600)  # busy: it reads no more from its pipe

asyncio.run(main())
"""


async def test_the_worker_dies_with_a_server_killed_by_sigkill() -> None:
    """It ignores SIGTERM, so it asks the kernel for SIGKILL when its server dies (PR_SET_PDEATHSIG): a kill -9 of
    the server mid-solve leaves no solver running (an idle worker would also see its pipe close)."""
    server = await asyncio.create_subprocess_exec(sys.executable, "-c", SERVER_THAT_DIES, env=server_env(),
                                                  stdout=asyncio.subprocess.PIPE)  # fmt: skip
    try:
        assert server.stdout is not None
        async with asyncio.timeout(30):
            worker = int(await server.stdout.readline())
        assert psutil.Process(worker).ppid() == server.pid
        await asyncio.sleep(0.3)  # into the long task
        server.kill()
        await server.wait()
        assert await gone(worker)
    finally:
        if server.returncode is None:
            server.kill()
            await server.wait()


async def test_a_close_while_the_worker_is_being_started_ends_the_task_too() -> None:
    """The stop of a server whose first solve is still starting its worker: the task never runs, the worker goes."""
    pool = SolverPool()
    sleeping = asyncio.create_task(pool.run(time.sleep, (30,), {}, LONGEST_S))
    await asyncio.sleep(0)  # into the worker's start
    await pool.close()
    started = time.monotonic()
    with pytest.raises(SolverWorkerLost):
        await sleeping
    assert time.monotonic() - started < 5
    await pool.close()  # the worker started meanwhile is reaped
    assert not [child for child in psutil.Process().children() if "serve_requests" in " ".join(child.cmdline())]

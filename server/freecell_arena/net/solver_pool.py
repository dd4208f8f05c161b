"""One worker process for the solver, so the event loop never runs it (it is pure Python: seconds of CPU).

The worker is started on first use (spawn: a clean interpreter, nothing of the server's sockets), is killed with
its server (a kill -9 of the server must not leave a solver running), and a task that does not answer within
its longest time (a worker that died mid-task never answers) replaces the worker before the error is raised.

Stopping a pool never holds the event loop or a shutdown: `Pool.terminate` joins threads and processes, and can
hang when it lands while the worker is still being spawned (seen on a loaded machine), so it runs in a thread,
bounded by STOP_TIMEOUT_S, after which the worker processes are killed outright.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import multiprocessing
import signal
from collections.abc import Callable, Mapping, Sequence
from multiprocessing.pool import Pool
from typing import Any, TypeVar

PR_SET_PDEATHSIG = 1
STOP_TIMEOUT_S = 5.0
T = TypeVar("T")
log = logging.getLogger(__name__)


def _die_with_parent() -> None:
    """Linux: the worker gets SIGTERM when its server dies."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


class SolverPool:
    def __init__(self) -> None:
        self._pool: Pool | None = None

    async def run(self, function: Callable[..., T], args: Sequence[Any], kwargs: Mapping[str, Any],
                  longest_s: float) -> T:  # fmt: skip
        """`function(*args, **kwargs)` in the worker; `TimeoutError` after `longest_s` (the worker is replaced)."""
        if self._pool is None:
            self._pool = multiprocessing.get_context("spawn").Pool(1, initializer=_die_with_parent)
        loop = asyncio.get_running_loop()
        done: asyncio.Future[T] = loop.create_future()

        def resolve(result: T) -> None:
            loop.call_soon_threadsafe(lambda: None if done.done() else done.set_result(result))

        def fail(error: BaseException) -> None:
            loop.call_soon_threadsafe(lambda: None if done.done() else done.set_exception(error))

        self._pool.apply_async(function, tuple(args), dict(kwargs), callback=resolve, error_callback=fail)
        try:
            return await asyncio.wait_for(done, longest_s)
        except TimeoutError:
            self._terminate()
            raise

    def _terminate(self) -> None:
        """Replace the worker (the next task starts a new one); the old one is stopped in the background."""
        if self._pool is not None:
            pool, self._pool = self._pool, None
            task = asyncio.ensure_future(_stop(pool))
            _stopping.add(task)
            task.add_done_callback(_stopping.discard)

    async def close(self) -> None:
        """Abandon a task in progress and stop the worker."""
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await _stop(pool)


_stopping: set[asyncio.Task[None]] = set()


async def _stop(pool: Pool) -> None:
    workers = list(getattr(pool, "_pool", ()))  # its processes, to kill if terminate hangs (CPython keeps them here)

    def terminate_and_join() -> None:
        pool.terminate()
        pool.join()

    try:
        await asyncio.wait_for(asyncio.to_thread(terminate_and_join), STOP_TIMEOUT_S)
    except TimeoutError:
        for worker in workers:
            with contextlib.suppress(Exception):
                worker.kill()
        log.warning("the solver worker did not stop within %s s: killed", STOP_TIMEOUT_S)

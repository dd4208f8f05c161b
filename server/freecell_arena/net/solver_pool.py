"""One worker process for the solver, so the event loop never runs it (it is pure Python: seconds of CPU).

The worker is started on first use (spawn: a clean interpreter, nothing of the server's sockets), is killed with
its server (a kill -9 of the server must not leave a solver running), and a task that does not answer within
its longest time (a worker that died mid-task never answers) replaces the worker before the error is raised.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import multiprocessing
import signal
from collections.abc import Callable, Mapping, Sequence
from multiprocessing.pool import Pool
from typing import Any, TypeVar

PR_SET_PDEATHSIG = 1
T = TypeVar("T")


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
        if self._pool is not None:
            self._pool.terminate()
            self._pool = None

    async def close(self) -> None:
        """Abandon a task in progress and stop the worker."""
        if self._pool is not None:
            pool, self._pool = self._pool, None
            pool.terminate()
            await asyncio.to_thread(pool.join)

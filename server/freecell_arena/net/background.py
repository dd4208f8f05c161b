"""Tasks that run on their own: `BackgroundTasks` (work a caller starts and does not await: a timer's effect, a race's
rating, a re-read), `every` (the one loop of the server's periodic work: the tick, the connection watch, the
tournament director, the mod-log follower, the sweeps, the daily preparation, the cluster's room check), and
stopping them (`stop_tasks`, `cancel_quietly`).

The event loop keeps only weak references to tasks, so a task nobody holds may be collected before it ends;
each owner keeps its own set here until the task is done, and decides at shutdown whether to wait or cancel.

A cancellation can be lost, and a shutdown must not wait forever for a task that goes on: on CPython 3.11
`asyncio.wait_for` returns its inner future's result when the cancellation lands as that future completes (the
solver worker's answer arriving as the daily service was cancelled: the service saved its deal and slept for its
300 s interval while the shutdown waited), and redis-py's read timeout can swallow one too. So a task is
cancelled again every `CANCEL_AGAIN_S` until it ends, within a limit.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from typing import Any, NoReturn

from freecell_arena.net.throttled_log import ThrottledLog, one_line

log = logging.getLogger(__name__)
CANCEL_AGAIN_S = 0.5
"""A task still running this long after its cancellation is cancelled again."""
CANCEL_WITHIN_S = 10.0
"""How long `cancel_quietly` waits for a task to end before leaving it behind (logged)."""


async def every(interval_s: float, turn: Callable[[], Awaitable[object]], failures: ThrottledLog, what: str, *,
                at_once: bool = False, bug: bool = False) -> NoReturn:  # fmt: skip
    """`turn()` every `interval_s` seconds until cancelled: the first after one interval, or at once (`at_once`).
    A turn that fails is logged, throttled ("`what` failed: the error" on one line, with its traceback when only a
    bug can cause it: `bug`), and the next turn tries again: the database may be away a while, and one bad turn
    must not stop what every player relies on (a room's timers, a connection's clocks, a tournament's pairings)."""
    if not at_once:
        await asyncio.sleep(interval_s)
    while True:
        try:
            await turn()
        except Exception as error:
            (failures.exception if bug else failures.warning)(type(error).__name__, f"{what} failed: {one_line(error)}")
        await asyncio.sleep(interval_s)


class BackgroundTasks:
    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    def spawn(self, coroutine: Coroutine[Any, Any, Any]) -> None:
        """Run `coroutine` on its own, held until it ends."""
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def __len__(self) -> int:
        return len(self._tasks)

    async def settle(self, timeout: float | None = None) -> None:
        """Wait until those running now end (at most `timeout` seconds); their errors were logged where they
        happened, so none is raised here."""
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=timeout)

    async def stop(self, within: float = CANCEL_WITHIN_S) -> None:
        """Cancel those running now and wait until they end (`stop_tasks`): a task cancelled and not awaited may
        still be reading the store when its owner's shutdown closes it, and then never end (the loop's last
        cancellation waits for it forever). One that does not end within `within` seconds is left behind, logged."""
        running = list(self._tasks)
        if running and not await stop_tasks(running, within):
            left = sorted(task.get_name() for task in running if not task.done())
            log.warning("%d tasks did not end within %g s of their cancellation: left behind (%s)",
                        len(left), within, ", ".join(left))  # fmt: skip


async def stop_tasks(tasks: Iterable[asyncio.Task[Any]], within: float) -> bool:
    """Cancel the tasks, again and again (one cancellation may be lost), until they end or `within` seconds pass;
    True if they all ended. Their errors are taken (they were logged where they happened)."""
    tasks = list(tasks)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    pending = {task for task in tasks if not task.done()}
    while pending and loop.time() < deadline:
        for task in pending:
            task.cancel()
        _, pending = await asyncio.wait(pending, timeout=min(CANCEL_AGAIN_S, max(0.0, deadline - loop.time())))
    for task in tasks:
        if task.done() and not task.cancelled():
            task.exception()
    return not pending


async def cancel_quietly(task: asyncio.Task[Any] | None, within: float = CANCEL_WITHIN_S) -> None:
    """Stop one task (`stop_tasks`); one that does not end within `within` seconds is left behind, logged."""
    if task is not None and not await stop_tasks([task], within):
        log.warning("the task %s did not end within %g s of its cancellation: left behind", task.get_name(), within)

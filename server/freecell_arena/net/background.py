"""`BackgroundTasks`: work a caller starts and does not await (a timer's effect, a race's rating, a re-read).

The event loop keeps only weak references to tasks, so a task nobody holds may be collected before it ends;
each owner keeps its own set here until the task is done, and decides at shutdown whether to wait or cancel.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any


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

    def cancel(self) -> None:
        for task in self._tasks:
            task.cancel()

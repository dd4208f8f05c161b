"""Closing the Redis bridge never hangs (net/cluster.py): a loop that swallows a cancellation, as redis-py's read
timeout can, is cancelled again until it ends; one that never ends is left behind after the time limit."""

from __future__ import annotations

import asyncio
import contextlib

from freecell_arena.net.cluster import raise_if_cancelling, stop_tasks


async def swallows_once() -> None:
    """Like a redis-py read whose timeout fired as the cancellation landed: the first cancellation is lost."""
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.sleep(3600)
    await asyncio.sleep(3600)


async def checks_each_turn() -> None:
    while True:
        with contextlib.suppress(asyncio.CancelledError):  # swallowed, every time, as a library might
            await asyncio.sleep(3600)
        raise_if_cancelling()


async def ignores_cancellation(until: asyncio.Event) -> None:
    while not until.is_set():
        with contextlib.suppress(asyncio.CancelledError):
            await until.wait()


async def test_a_swallowed_cancellation_is_sent_again() -> None:
    task = asyncio.create_task(swallows_once())
    await asyncio.sleep(0)
    assert await stop_tasks([task], within=5)
    assert task.cancelled()


async def test_a_loop_that_checks_its_cancellation_ends_at_the_first_one() -> None:
    task = asyncio.create_task(checks_each_turn())
    await asyncio.sleep(0)
    loop = asyncio.get_running_loop()
    started = loop.time()
    assert await stop_tasks([task], within=5)
    assert loop.time() - started < 0.4, "ended at the first cancellation, not after a second one"


async def test_a_loop_that_ignores_every_cancellation_is_left_behind_in_time() -> None:
    let_go = asyncio.Event()
    task = asyncio.create_task(ignores_cancellation(let_go))
    await asyncio.sleep(0)
    assert not await stop_tasks([task], within=1.2)
    assert not task.done()
    let_go.set()  # so that the test's own event loop can close
    await task

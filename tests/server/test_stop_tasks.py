"""Stopping a task never hangs a shutdown (net/background.py): a loop that swallows a cancellation, as redis-py's read
timeout can, or as CPython 3.11's `asyncio.wait_for` does when it lands as the inner future completes, is cancelled
again until it ends; one that never ends is left behind after the time limit."""

from __future__ import annotations

import asyncio
import contextlib

from freecell_arena.net.background import cancel_quietly, stop_tasks
from freecell_arena.net.cluster import raise_if_cancelling


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


async def test_a_cancellation_wait_for_lost_is_sent_again() -> None:
    """The daily service's shutdown hang (a test teardown waited 300 s): its task waited for the solver worker's
    answer in `wait_for`, the answer and the cancellation came in the same turn of the loop, and on CPython 3.11
    `wait_for` returned the answer: the task went on to sleep for its interval while `close` awaited it."""
    answer: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    async def waits_for_the_worker() -> None:
        await asyncio.wait_for(answer, 100)  # 3.11: returns 7 though cancelled (3.12 raises CancelledError here)
        await asyncio.sleep(300)  # the interval to the next preparation

    task = asyncio.create_task(waits_for_the_worker())
    for _ in range(3):  # into wait_for's own wait
        await asyncio.sleep(0)
    asyncio.get_running_loop().call_soon(answer.set_result, 7)  # the worker's answer, as the cancellation lands
    stopping = asyncio.create_task(cancel_quietly(task, within=5))
    done, _ = await asyncio.wait({stopping}, timeout=30)  # a cancellation lost and never sent again: 300 s
    assert stopping in done and task.cancelled()

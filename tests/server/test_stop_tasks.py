"""Stopping a task never hangs a shutdown (net/background.py): a loop that swallows a cancellation, as redis-py's read
timeout can, or as CPython 3.11's `asyncio.wait_for` does when it lands as the inner future completes, is cancelled
again until it ends; one that never ends is left behind after the time limit."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from freecell_arena.net.background import BackgroundTasks, cancel_quietly, every, stop_tasks
from freecell_arena.net.cluster import raise_if_cancelling
from freecell_arena.net.throttled_log import ThrottledLog


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


async def test_background_tasks_stop_returns_once_they_have_ended_a_swallowed_cancellation_too() -> None:
    """`BackgroundTasks.stop` waits: a task only cancelled may still be reading the store as its owner closes the
    store next, and then never end (the event loop's last cancellation waited for it until pytest-timeout cut
    test_fair_play's teardown, twice in a clean checkout's suite)."""
    tasks = BackgroundTasks()
    tasks.spawn(swallows_once())
    tasks.spawn(asyncio.sleep(3600))
    await asyncio.sleep(0)
    await tasks.stop(within=5)
    assert len(tasks) == 0


async def test_a_win_screen_closes_only_once_its_checks_have_ended(sqlite_url: str) -> None:
    """A human's win is screened after it is stored, in a task of the win screen's own; a shutdown closes the store
    right after the win screen: the check must have ended by then."""
    from freecell_arena.core.clock import SystemClock
    from freecell_arena.net.moderation import WinScreen
    from freecell_arena.store import SqlStore

    store = SqlStore(sqlite_url)
    screen = WinScreen(store.moderation, SystemClock())
    try:
        screen._checks.spawn(screen._screen("a-game-being-read", "a-player"))  # reading the store as the stop comes
        await asyncio.sleep(0)
        assert len(screen._checks) == 1
        await screen.close()
        assert len(screen._checks) == 0, "a check still running as the store closes"
    finally:
        await store.close()


async def test_every_goes_on_after_a_failed_turn_and_logs_it_once_per_kind(caplog: Any) -> None:
    """A turn that fails (the database away) is logged in one line, the repeats within the interval counted, and the
    next turn runs; a cancellation ends the loop at once, even in the middle of a turn."""
    turns: list[int] = []
    finished = asyncio.Event()

    async def turn() -> None:
        turns.append(len(turns))
        if len(turns) <= 3:
            raise OSError("the database is away")
        if len(turns) == 5:
            finished.set()
            await asyncio.sleep(3600)  # cancelled in the middle of a turn

    failures = ThrottledLog(logging.getLogger("test.every"))
    with caplog.at_level(logging.WARNING, logger="test.every"):
        task = asyncio.create_task(every(0.001, turn, failures, "tending", at_once=True))
        async with asyncio.timeout(10):
            await finished.wait()
        assert await stop_tasks([task], 5) and task.cancelled()
    assert turns == [0, 1, 2, 3, 4]
    assert [record.getMessage() for record in caplog.records] == ["tending failed: OSError: the database is away"]
    assert not caplog.records[0].exc_info  # `bug=False`: one line, no traceback

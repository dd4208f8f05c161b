"""CPU of one hop to the SQLite writer's thread and back, beside `run_in_executor` on a one-thread pool (the
baseline, in the same run): what every group commit's transaction pays on top of the database's own work.

    python bench/thread_hop.py            # 10,000 hops each way, 7 rounds alternated; ~15 s

The job is a no-op, so the figure is the hop alone: queueing, waking the thread, and waking the loop back.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "server")]

from sqlalchemy.dialects import sqlite  # noqa: E402

from freecell_arena.build import running_build  # noqa: E402
from freecell_arena.store.sqlite_writer import SqliteWriter  # noqa: E402


def nothing() -> None:
    pass


async def per_hop(hop: Callable[[], Awaitable[None]], count: int) -> float:
    await hop()  # the thread is started outside the measure
    started = time.process_time()
    for _ in range(count):
        await hop()
    return (time.process_time() - started) / count * 1e6


async def main(count: int, rounds: int) -> None:
    loop = asyncio.get_running_loop()
    with tempfile.TemporaryDirectory() as folder, ThreadPoolExecutor(max_workers=1) as pool:
        writer = SqliteWriter(str(Path(folder) / "unused.db"), sqlite.dialect())
        hops: dict[str, Callable[[], Awaitable[None]]] = {
            "run_in_executor (baseline)": lambda: loop.run_in_executor(pool, nothing),
            "SqliteWriter's thread": lambda: writer._in_thread(nothing),
        }
        print(f"build {running_build()}, {type(loop).__module__} loop, {count} hops a run, alternated")
        figures: dict[str, list[float]] = {name: [] for name in hops}
        for _ in range(rounds):
            for name, hop in hops.items():
                figures[name].append(await per_hop(hop, count))
        for name, runs in figures.items():
            listed = ", ".join(f"{run:.0f}" for run in runs)
            print(f"  {name:28s} median {statistics.median(runs):5.1f} us CPU a hop (both threads): {listed}")
        await writer.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hops", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=7)
    arguments = parser.parse_args()
    try:
        import uvloop
    except ImportError:
        asyncio.run(main(arguments.hops, arguments.rounds))
    else:
        uvloop.run(main(arguments.hops, arguments.rounds))

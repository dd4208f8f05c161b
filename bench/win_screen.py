"""What moderation adds to a move's path: its records handed to the writer through `WinScreen` (the second look at
humans' wins, net/moderation.py) beside the same records handed to the writer directly, in the same run.

    python3 bench/win_screen.py [--moves 200000] [--rounds 5]

The writer is one that stores nothing (the store's own cost is the same either way and is what bench/load.py
measures): what is left is the wrapper's type check per record (it hands the writer's own coroutine back). A
move's effect carries one `MoveRecord`; a game's last move a `ResultRecord` too (a human's ranked win adds a
background look, at most once per game). Printed: nanoseconds per move each way, best of the rounds, and the difference.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from freecell_arena.core.clock import SystemClock
from freecell_arena.core.ports.records import CommitObserver, MoveRecord, Record
from freecell_arena.net.moderation import WinScreen


class NoWriter:
    """A record writer that stores nothing: the part both sides share, taken out."""

    last_failure_at: float | None = None
    on_commit: CommitObserver | None = None

    async def submit_many(self, records: Sequence[Record]) -> None:
        return None

    async def flush(self) -> None:
        return None

    async def close(self) -> None:
        return None


async def per_move_ns(writer: NoWriter | WinScreen, moves: int) -> float:
    records = [MoveRecord("g_0000000000000000", 0, "5a", datetime.now(UTC))]
    started = time.perf_counter_ns()
    for _ in range(moves):
        await writer.submit_many(records)
    return (time.perf_counter_ns() - started) / moves


async def main(moves: int, rounds: int) -> None:
    direct = NoWriter()
    screened = WinScreen(NoWriter(), store=None, clock=SystemClock())  # type: ignore[arg-type]  # never reads
    best_direct = best_screened = float("inf")
    for _ in range(rounds):  # alternating, so both sides see the same machine
        best_direct = min(best_direct, await per_move_ns(direct, moves))
        best_screened = min(best_screened, await per_move_ns(screened, moves))
    print(f"writer directly      {best_direct:8.0f} ns/move")
    print(f"through WinScreen    {best_screened:8.0f} ns/move")
    print(f"added per move       {best_screened - best_direct:8.0f} ns")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=5)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.moves, arguments.rounds))

"""What moderation and the race counts add to a move's path: the effect runner's `after_stored` (net/effects.py),
which hands a stored result to the win screen (the second look at humans' wins, net/moderation.py) and a stored room
status to the metrics, beside the same runner with nothing to run after a record, in the same run.

    python3 bench/win_screen.py [--moves 200000] [--rounds 5]

The writer stores nothing and the publisher sends nothing (the store's and the fan-out's own costs are the same
either way and are what bench/load.py measures): what is left is the lookup of each record's kind. A move's effect
carries one `MoveRecord`, which nothing waits for; a game's last move a `ResultRecord` too (a human's ranked win adds
a background look, at most once per game). Printed: nanoseconds per move each way, best of the rounds, and the
difference.
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
from freecell_arena.core.effects import Effect
from freecell_arena.core.ports.records import CommitObserver, MoveRecord, Record, ResultRecord, RoomStatusRecord
from freecell_arena.net.effects import AfterStored, EffectRunner
from freecell_arena.net.metrics import ServerMetrics
from freecell_arena.net.moderation import WinScreen
from freecell_arena.protocol.trusted import Reply


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


class NoPublisher:
    def publish(self, topic: str, message: Reply, skip: str | None = None, version: object = None) -> None:
        return None


async def per_move_ns(runner: EffectRunner, moves: int) -> float:
    records: list[Record] = [MoveRecord("g_0000000000000000", 0, "5a", datetime.now(UTC))]
    started = time.perf_counter_ns()
    for _ in range(moves):
        await runner.execute(Effect(records), None)
    return (time.perf_counter_ns() - started) / moves


async def main(moves: int, rounds: int) -> None:
    screen = WinScreen(store=None, clock=SystemClock())  # type: ignore[arg-type]  # never reads: no result here
    metrics = ServerMetrics(dict, int)
    hooks: AfterStored = {RoomStatusRecord: metrics.room_status_stored, ResultRecord: screen.result_stored}
    bare = EffectRunner(NoWriter(), NoPublisher(), {})
    watched = EffectRunner(NoWriter(), NoPublisher(), hooks)
    best_bare = best_watched = float("inf")
    for _ in range(rounds):  # alternating, so both sides see the same machine
        best_bare = min(best_bare, await per_move_ns(bare, moves))
        best_watched = min(best_watched, await per_move_ns(watched, moves))
    print(f"nothing after a record   {best_bare:8.0f} ns/move")
    print(f"after_stored as served   {best_watched:8.0f} ns/move")
    print(f"added per move           {best_watched - best_bare:8.0f} ns")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=5)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.moves, arguments.rounds))

"""Several processes: what crossing processes costs, and how long a room event takes to cross.

    PYTHONPATH=$PWD python3 bench/cluster.py --rooms 100 --rate 1000 --duration 10

Two runs on one throwaway PostgreSQL and one throwaway redis-server, both on 127.0.0.1:

- baseline: one server process (with Redis, as a cluster of one), every room's two players on it;
- apart: two server processes, each room's two players on the same one (half the rooms on each): what splitting
  the load costs when no room event has to cross;
- spread: two server processes, each room's two players on different processes.

In each run every room has a mover and a watcher; the movers play legal moves at `--rate` moves/s in total
(paced, spread evenly), the watchers only read. Printed per run: moves acknowledged, the servers' CPU per move
while the races are played (all server processes, measured with psutil; redis-server's CPU beside it; opening the
rooms and starting their races is left out), and the latency of a room event
across processes: from the mover sending move N to the watcher receiving progress with N moves, p50 and p99.
Run it with `--window-ms 0` too: the default coalescing window (100 ms) delays a room's progress while the room
is busy, which is what it is for; with 0 the figure is the crossing alone. Bounded by `--duration`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import os
import random
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path[:0] = [str(REPO), str(REPO / "tests"), str(BENCH)]

from ws_player import WsPlayer, pick_move  # noqa: E402

LISTENING = re.compile(r"listening on (ws://127\.0\.0\.1:\d+/)")


def fixtures() -> Any:
    """tests/conftest.py's throwaway PostgreSQL and redis-server (loaded by path: tests/ is not a package)."""
    spec = importlib.util.spec_from_file_location("freecell_arena_test_fixtures", REPO / "tests" / "conftest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def environment(redis_url: str, window_ms: float) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("FREECELL_ARENA_")}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
    env.update(
        FREECELL_ARENA_REDIS_URL=redis_url, FREECELL_ARENA_PROGRESS_WINDOW_MS=str(window_ms),
        FREECELL_ARENA_RATE_LIMIT_PER_S="1000000", FREECELL_ARENA_RATE_LIMIT_BURST="1000000",
        FREECELL_ARENA_LOG_LEVEL="WARNING", FREECELL_ARENA_DAILY_PREPARE_INTERVAL_S="0",
        FREECELL_ARENA_MAX_CONNECTIONS_PER_ADDRESS="1000000", FREECELL_ARENA_NEW_PLAYERS_PER_MINUTE="1000000000",
    )  # fmt: skip
    return env


@contextlib.contextmanager
def servers(count: int, database_url: str, env: dict[str, str]) -> Iterator[list[tuple[str, psutil.Process]]]:
    """`count` server processes on free loopback ports: (websocket URL, process) each; always stopped."""
    processes: list[subprocess.Popen[str]] = []
    started: list[tuple[str, psutil.Process]] = []
    try:
        for _ in range(count):
            command = [sys.executable, "-m", "freecell_arena", "serve", "--port", "0", "--database-url", database_url]
            process = subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.PIPE, text=True)
            processes.append(process)
            assert process.stdout is not None
            match = LISTENING.search(process.stdout.readline())
            if match is None:
                raise RuntimeError("a server did not start")
            started.append((match.group(1), psutil.Process(process.pid)))
        yield started
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()


class Room:
    def __init__(self, mover: WsPlayer, watcher: WsPlayer, index: int) -> None:
        self.mover, self.watcher = mover, watcher
        self.rng = random.Random(index)
        self.game: Any = None
        self.sent: dict[int, float] = {}
        self.moves = 0

    async def open(self) -> None:
        from freecell_arena.engine import Game, variant_by_id

        options = {"countdown_s": 0, "autoplay": True, "max_players": 2}
        created = await self.mover.request({"type": "create_room", "variant": "freecell", "options": options})
        await self.watcher.request({"type": "join_room", "code": created["room"]["code"], "spectator": True})
        await self.mover.request({"type": "start_race"})
        started = await self.mover.expect("race_started")
        self.game = Game(variant_by_id("freecell"), int(started["game"]["seed"]), autoplay=True)

    async def move(self) -> bool:
        from freecell_arena.engine import format_move

        move = pick_move(self.game, self.rng)
        if move is None or self.game.board.is_won():
            return False
        sent = time.perf_counter()
        reply = await self.mover.request({"type": "move", "move": format_move(self.game.variant, move)})
        if reply.get("type") != "move_accepted":
            return False
        self.sent.setdefault(reply["player_moves"], sent)
        self.moves += 1
        self.game.play(move)
        return True

    def latencies_ms(self) -> list[float]:
        seen = self.watcher.progress_seen
        return [(seen[count] - sent) * 1000 for count, sent in self.sent.items() if count in seen]


async def one_run(
    urls: list[str], rooms: int, rate: float, duration_s: float, spread: bool, meters: list[list[psutil.Process]]
) -> tuple[int, list[float], list[float]]:
    """The rooms are opened and their races started, then played for `duration_s`: moves, event latencies, and the
    CPU seconds of each group of `meters` over the play alone (opening a room and starting its race is not what a
    move costs)."""
    clients = []
    built = []
    for index in range(rooms):
        mover = WsPlayer(urls[index % len(urls)], f"mover-{index}")
        watcher = WsPlayer(urls[(index + spread) % len(urls)], f"watcher-{index}")  # spread: the other process
        await mover.open()
        await watcher.open()
        clients += [mover, watcher]
        room = Room(mover, watcher, index)
        await room.open()
        built.append(room)
    interval = rooms / rate
    cpu_before = [cpu_seconds(group) for group in meters]
    until = time.perf_counter() + duration_s

    async def drive(room: Room, offset: float) -> None:
        next_at = time.perf_counter() + offset
        while next_at < until:
            await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
            if not await room.move():
                await asyncio.sleep(interval)
            next_at += interval

    await asyncio.gather(*(drive(room, interval * index / rooms) for index, room in enumerate(built)))
    await asyncio.sleep(0.5)
    cpu = [cpu_seconds(group) - before for group, before in zip(meters, cpu_before, strict=True)]
    latencies = [value for room in built for value in room.latencies_ms()]
    for client in clients:
        await client.close()
    return sum(room.moves for room in built), latencies, cpu


def profile(pid: int, output: str, duration_s: float) -> subprocess.Popen[bytes]:
    """py-spy on one server process (collapsed stacks, sampled while it holds the GIL), from room setup on."""
    command = ["py-spy", "record", "--pid", str(pid), "--duration", str(int(duration_s) + 2), "--rate", "250",
               "--gil", "--nonblocking", "--format", "raw", "--output", output]  # fmt: skip
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def slug(label: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")


def cpu_seconds(processes: list[psutil.Process]) -> float:
    return sum(sum(process.cpu_times()[:2]) for process in processes)


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rooms", type=int, default=100)
    parser.add_argument("--rate", type=float, default=1000.0, help="moves/s of all rooms together")
    parser.add_argument("--duration", type=float, default=10.0)
    parser.add_argument("--window-ms", type=float, default=100.0, help="FREECELL_ARENA_PROGRESS_WINDOW_MS")
    parser.add_argument("--py-spy", metavar="FILE", help="profile each server process: FILE.<run>.<process>")
    args = parser.parse_args()
    module = fixtures()
    rows = []
    with module.throwaway_postgres() as postgres, module.throwaway_redis() as redis_server:
        redis_process = psutil.Process(redis_server.process.pid)
        runs = (("1 process (baseline)", 1, False), ("2 processes, rooms apart", 2, False),
                ("2 processes, rooms spread", 2, True))  # fmt: skip
        for label, count, spread in runs:
            url = postgres.url(postgres.create_database())
            env = environment(redis_server.url, args.window_ms)
            subprocess.run([sys.executable, "-m", "freecell_arena", "migrate", "--database-url", url], cwd=REPO,
                           env=env, check=True, capture_output=True, timeout=120)  # fmt: skip
            with servers(count, url, env) as started:
                processes = [process for _, process in started]
                profilers = [profile(process.pid, f"{args.py_spy}.{slug(label)}.{index}", args.duration)
                             for index, process in enumerate(processes)] if args.py_spy else []  # fmt: skip
                meters = [processes, [redis_process]]
                moves, latencies, (cpu, redis_cpu) = asyncio.run(
                    one_run([u for u, _ in started], args.rooms, args.rate, args.duration, spread, meters)
                )
                for profiler in profilers:
                    profiler.wait(30)
            rows.append((label, moves, cpu, redis_cpu, latencies))
    print(f"{args.rooms} rooms of a mover and a watcher, {args.rate:g} moves/s paced for {args.duration:g} s; "
          f"progress window {args.window_ms:g} ms; PostgreSQL + Redis on loopback")  # fmt: skip
    print(f"{'run':<28} {'moves':>7} {'server CPU/move':>16} {'redis CPU/move':>15} {'event p50':>10} {'p99':>9}")
    for label, moves, cpu, redis_cpu, latencies in rows:
        per_move, redis_per_move = cpu / max(moves, 1) * 1e6, redis_cpu / max(moves, 1) * 1e6
        print(f"{label:<28} {moves:>7} {per_move:>13.0f} us {redis_per_move:>12.0f} us "
              f"{percentile(latencies, 0.5):>7.1f} ms {percentile(latencies, 0.99):>6.1f} ms")  # fmt: skip
    base, apart, spread = (row[2] / max(row[1], 1) for row in rows)
    print(f"server CPU per move, 2 processes rooms spread / 1 process: {spread / base:.2f} x; rooms apart / 1 process "
          f"(the split alone, nothing crossing): {apart / base:.2f} x; spread / apart (what crossing costs): "
          f"{spread / apart:.2f} x; median event latency over all moves, spread: "
          f"{statistics.median(rows[2][4]) if rows[2][4] else float('nan'):.1f} ms")  # fmt: skip


if __name__ == "__main__":
    main()

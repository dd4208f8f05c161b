"""The day's opening: what a crowd of players arriving at once costs the server (docs/capacity.md's dailies).

    python bench/daily_open.py --players 500            # SQLite; --database postgres for a throwaway PostgreSQL

Every player opens a websocket and says hello as a new player (a new identity is stored), then asks for today's
daily deal (`play_daily`: the game is dealt and stored; unranked here, since an identity made after the deal opened
plays it unranked, which costs the server the same); the server's CPU is read around each
phase. The baseline, in the same run: the durable echo (bench/echo_durable.py) taking the same number of
connections and one durable round trip each, so the figures are ratios to the floor of "open a websocket, make one
thing durable, answer". Today's daily is prepared first (`freecell-arena daily prepare --days 1 --variant
freecell`), as a production server does ahead of the day. Traffic goes to 127.0.0.1 only; the number of players
is bounded (at most 2,000) and every wait has a timeout.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import psutil

BENCH = Path(__file__).resolve().parent
sys.path[:0] = [str(BENCH.parent), str(BENCH)]

from load import Target, _environment, database_url, echo_server, serving  # noqa: E402

TIMEOUT_S = 120.0
CONCURRENCY = 200
"""Players arriving at the same moment (the rest queue behind them): a crowd, not a thundering herd of sockets."""


@dataclass
class Phase:
    name: str
    count: int
    cpu_s: float
    wall_s: float

    def line(self, baseline: Phase | None = None) -> str:
        per = self.cpu_s / self.count * 1e6
        text = f"{self.name:<34} {self.count:5d} x  {per:8.0f} us CPU each  {self.count / self.wall_s:8.0f} /s"
        if baseline is not None:
            text += f"   {per / (baseline.cpu_s / baseline.count * 1e6):5.1f} x {baseline.name}"
        return text


def cpu_seconds(target: Target) -> float:
    times = psutil.Process(target.process.pid).cpu_times()
    return float(times.user + times.system)


async def measured(name: str, target: Target, count: int, each: Callable[[int], Awaitable[None]]) -> Phase:
    """Run `each(i)` for i < count, at most CONCURRENCY at a time, and read the server's CPU around it."""
    gate = asyncio.Semaphore(CONCURRENCY)

    async def one(index: int) -> None:
        async with gate:
            await each(index)

    cpu, began = cpu_seconds(target), time.perf_counter()
    async with asyncio.timeout(TIMEOUT_S):
        await asyncio.gather(*(one(index) for index in range(count)))
    return Phase(name, count, cpu_seconds(target) - cpu, time.perf_counter() - began)


async def arrive(target: Target, players: int) -> tuple[Phase, Phase]:
    """Each player: connect + hello as a new player; then play_daily. Returns both phases."""
    from websockets.asyncio.client import ClientConnection, connect

    sockets: list[ClientConnection] = []

    async def hello(index: int) -> None:
        websocket = await connect(target.url, proxy=None, max_queue=None)
        sockets.append(websocket)
        await websocket.send(json.dumps({"type": "hello", "id": 1, "name": f"p{index}", "bot": False}))
        reply = json.loads(await websocket.recv())
        if reply.get("type") != "welcome":
            raise RuntimeError(f"hello refused: {reply}")

    async def daily(index: int) -> None:
        websocket = sockets[index]
        await websocket.send(json.dumps({"type": "play_daily", "id": 2, "variant": "freecell"}))
        while (reply := json.loads(await websocket.recv())).get("id") != 2:
            pass
        if reply.get("type") != "daily_started":
            raise RuntimeError(f"play_daily refused: {reply}")

    try:
        greeted = await measured("connect + hello (new player)", target, players, hello)
        started = await measured("play_daily (the day's game dealt)", target, players, daily)
    finally:
        await asyncio.gather(*(websocket.close() for websocket in sockets), return_exceptions=True)
    return greeted, started


async def echo_round_trips(target: Target, players: int) -> Phase:
    from websockets.asyncio.client import connect

    sockets = []

    async def one(index: int) -> None:
        websocket = await connect(target.url, proxy=None, max_queue=None)
        sockets.append(websocket)
        await websocket.send(json.dumps({"type": "move", "id": index, "move": "1a"}))
        await websocket.recv()

    try:
        return await measured("echo: connect + durable round trip", target, players, one)
    finally:
        await asyncio.gather(*(websocket.close() for websocket in sockets), return_exceptions=True)


def prepare(url: str) -> None:
    freecell_arena = [sys.executable, "-m", "freecell_arena"]
    for command in (["migrate"], ["daily", "prepare", "--days", "1", "--variant", "freecell"]):
        subprocess.run([*freecell_arena, *command, "--database-url", url], env=_environment(), check=True,
                       capture_output=True, timeout=300)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=500, help="1 to 2000 (default 500)")
    parser.add_argument("--database", choices=["sqlite", "postgres"], default="sqlite")
    args = parser.parse_args()
    if not 1 <= args.players <= 2000:
        parser.error("--players must be 1 to 2000")
    with database_url(args.database) as url:
        prepare(url)
        with serving(url, f"server ({args.database})") as server:
            greeted, started = asyncio.run(arrive(server, args.players))
    with echo_server(200, kind="durable") as echo:
        baseline = asyncio.run(echo_round_trips(echo, args.players))
    print(baseline.line())
    print(greeted.line(baseline))
    print(started.line(baseline))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""A rolling restart under load, as an operator ships a new version: server processes on one PostgreSQL and Redis
behind the repository's HAProxy (deploy/haproxy/haproxy.cfg), SDK bots racing through it in rooms of three, race
after race, while every process is replaced in turn, drained (SIGTERM, as `freecell-arena drain` and a service
manager send it) or killed with -9, each replacement started on the same port and the next process replaced only
once the balancer has taken the new one back.

What a run gives: every bot's results (each race it played), the moves each bot was told were accepted, and the
longest pause a bot saw inside a game (from one accepted move to the next), for checking against the store.
tests/server/test_rolling_restart.py runs it small in the suite (3 processes, 30 bots, one round) and checks
everything; bench/rolling_restart.py runs it large (150 bots, twice round) with a drain and with kill -9 side by
side and prints the pauses. Traffic stays on 127.0.0.1; every wait is bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
import signal
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from balancer import balancer_env, running_haproxy
from serverprocess import ServerProcess, http_get_json, running_server, server_env
from services import free_port

from freecell_arena.protocol.rooms import RoomOptions
from freecell_arena_client import BotRunner, NewRoom, RunConfig
from freecell_arena_client.bots.greedy import GreedyBot
from freecell_arena_client.runner import RaceResult

Stop = Literal["drain", "kill -9"]
WAIT_S = 60.0


@dataclass
class Shape:
    """How big a run is: processes, bots (in rooms of three), rounds of restarts, and the bots' pace."""

    processes: int = 3
    bots: int = 30
    rounds: int = 1
    moves_per_s: float = 8.0
    max_moves: int = 80
    check_interval_ms: int = 500
    """HAProxy's health-check interval; a replica is out after 2 failed checks, which the drain grace covers."""
    settle_s: float = 3.0
    """Racing before the first restart, so every room is mid-race when the first process goes."""
    time_limit_s: int = 120
    """Each race's: a race whose bot failed still ends."""

    @property
    def drain_grace_s(self) -> float:
        return 2 * self.check_interval_ms / 1000 + 0.5


@dataclass
class WatchedBot:
    """One bot's identity across races, what it was told was accepted, and when."""

    name: str
    token: str | None = None
    results: list[RaceResult] = field(default_factory=list)
    accepted: dict[str, dict[int, str]] = field(default_factory=dict)
    """game id -> action index -> the action, as `move_accepted` said it."""
    accepted_at: dict[str, list[float]] = field(default_factory=dict)
    reconnects: int = 0
    failures: list[str] = field(default_factory=list)
    """How each race this bot could not finish failed (none, in a good run)."""

    def longest_pause_s(self) -> float:
        """The longest time between two accepted moves of one game (what a racer waits through a restart)."""
        return self.longest_pause()[0]

    def longest_pause(self) -> tuple[float, str, float]:
        """That pause, the game it was in and when it began (`time.monotonic`)."""
        gaps = [(later - earlier, game_id, earlier) for game_id, times in self.accepted_at.items()
                for earlier, later in itertools.pairwise(times)]  # fmt: skip
        return max(gaps, default=(0.0, "", 0.0))


class WatchedRunner(BotRunner):
    """The SDK's runner as a bot author runs it, its every accepted move written down for the check."""

    def __init__(self, watched: WatchedBot, config: RunConfig, **options: Any) -> None:
        super().__init__(GreedyBot(), config, **options)
        self.watched = watched

    async def _connect(self) -> Any:
        client = await super()._connect()
        move = client.move

        async def recorded(choice: Any, **options: Any) -> Any:
            accepted = await move(choice, **options)
            self.watched.accepted.setdefault(accepted.game_id, {})[accepted.index] = accepted.action
            self.watched.accepted_at.setdefault(accepted.game_id, []).append(time.monotonic())
            return accepted

        client.move = recorded
        return client


@dataclass
class Run:
    bots: list[WatchedBot]
    races: list[list[RaceResult]]
    """Each race: its three bots' results."""
    replacements_s: list[float]
    """Each process's replacement: from the stop to the balancer sending players to the new one."""
    stop: Stop
    stopped_at: list[float] = field(default_factory=list)
    """When each replacement began (`time.monotonic`)."""

    def longest_pause_s(self) -> float:
        return max((bot.longest_pause_s() for bot in self.bots), default=0.0)

    def failures(self) -> list[str]:
        return [failure for bot in self.bots for failure in bot.failures]


class Cluster:
    """`processes` servers on fixed loopback ports behind HAProxy; each can be replaced on its port."""

    def __init__(self, tmp_path: Path, database_url: str, redis_url: str, shape: Shape) -> None:
        self.tmp_path = tmp_path
        self.database_url = database_url
        self.shape = shape
        self.env = server_env(
            FREECELL_ARENA_REDIS_URL=redis_url,
            FREECELL_ARENA_TRUSTED_PROXIES="127.0.0.1",
            FREECELL_ARENA_DRAIN_GRACE_S=f"{shape.drain_grace_s:g}",
            FREECELL_ARENA_SHUTDOWN_TIMEOUT_S=f"{shape.drain_grace_s + 8:g}",
            FREECELL_ARENA_RATE_LIMIT_PER_S="10000",
            FREECELL_ARENA_RATE_LIMIT_BURST="10000",
        )
        self.ports = [free_port() for _ in range(shape.processes)]
        self.listen = free_port()
        self.log = tmp_path / "haproxy.log"
        self.servers: list[ServerProcess | None] = [None] * shape.processes
        self._stacks = [contextlib.AsyncExitStack() for _ in range(shape.processes)]

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.listen}/"

    async def start(self, index: int) -> None:
        serving = running_server(self.tmp_path, database_url=self.database_url, env=self.env,
                                 port=self.ports[index], log=self.server_log(index))  # fmt: skip
        self.servers[index] = await self._stacks[index].enter_async_context(serving)

    def server_log(self, index: int) -> Path:
        """Process `index`'s standard error, its successors' appended (a file: under load the servers say more
        than a pipe holds, and a full pipe nobody reads would stop them)."""
        return self.tmp_path / f"server-{index + 1}.log"

    async def replace(self, index: int, stop: Stop) -> float:
        """Stop process `index` (drained, or killed with -9), start its successor on the same port, and return
        once HAProxy has marked the successor up: the seconds it took."""
        began = time.monotonic()
        server = self.servers[index]
        assert server is not None
        ups = self._times_up(index)
        if stop == "drain":
            server.process.send_signal(signal.SIGTERM)
            async with asyncio.timeout(self.shape.drain_grace_s + 15):
                assert await server.process.wait() == 0, "a drained process exits 0"
        else:
            server.process.kill()
            await server.wait()
        await self._stacks[index].aclose()
        self._stacks[index] = contextlib.AsyncExitStack()
        await self.start(index)
        async with asyncio.timeout(WAIT_S):
            while self._times_up(index) <= ups:
                await asyncio.sleep(0.05)
        return time.monotonic() - began

    def _times_up(self, index: int) -> int:
        """How often HAProxy has logged replica `index` coming up (it logs each change of state)."""
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return text.count(f"Server replicas/replica-{index + 1} is UP")

    async def every_replica_up(self) -> None:
        """Until the balancer has sent a /readyz to each process and each answered 200 (leastconn with no
        connections open turns from one to the next)."""
        pids = {server.process.pid for server in self.servers if server is not None}
        seen: set[int] = set()
        async with asyncio.timeout(WAIT_S):
            while seen != pids:
                with contextlib.suppress(OSError, ValueError, IndexError, KeyError):
                    status, body = await http_get_json(self.listen, "/readyz")
                    if status == 200:
                        seen.add(body["pid"])
                await asyncio.sleep(0.02)

    async def close(self) -> None:
        for stack in self._stacks:
            await stack.aclose()


@contextlib.asynccontextmanager
async def cluster_behind_haproxy(
    tmp_path: Path, database_url: str, redis_url: str, shape: Shape
) -> AsyncIterator[Cluster]:
    cluster = Cluster(tmp_path, database_url, redis_url, shape)
    try:
        await asyncio.gather(*(cluster.start(index) for index in range(shape.processes)))
        env = balancer_env(cluster.listen, cluster.ports, check_interval=f"{shape.check_interval_ms}ms")
        with running_haproxy(env, cluster.log):
            yield cluster
    finally:
        await cluster.close()


async def race_rooms(url: str, bots: list[WatchedBot], shape: Shape, until: asyncio.Event, seed: int) -> (
    list[list[RaceResult]]
):
    """The bots in rooms of three, each room racing again and again until `until` is set (the race under way
    then is played to its end): each race's three results."""
    races: list[list[RaceResult]] = []
    deals = random.Random(seed)

    async def one_room(trio: list[WatchedBot]) -> None:
        while True:
            try:
                races.append(await one_race(url, trio, deals.randint(1, 32000), shape))
            except RaceFailed:
                return  # written down in the bots' failures
            if until.is_set():
                return

    trios = [bots[start:start + 3] for start in range(0, len(bots) - len(bots) % 3, 3)]
    await asyncio.gather(*(one_room(trio) for trio in trios))
    return races


async def one_race(url: str, trio: list[WatchedBot], deal: int, shape: Shape) -> list[RaceResult]:
    """The first bot hosts a room of three on `deal`, the two others join by its code; all three play it out."""
    code: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    def config(bot: WatchedBot, **where: Any) -> RunConfig:
        return RunConfig(server=url, name=bot.name, token=bot.token, max_rate_per_s=shape.moves_per_s,
                         max_moves=shape.max_moves, start_timeout_s=WAIT_S, **where)  # fmt: skip

    host, *guests = trio
    room = NewRoom("freecell", deal=deal, options=RoomOptions(time_limit_s=shape.time_limit_s))
    host_runner = WatchedRunner(host, config(host, create=room, players=3),
                                on_room=lambda room: code.done() or code.set_result(room.code))  # fmt: skip
    hosting = asyncio.ensure_future(host_runner.run())
    async with asyncio.timeout(WAIT_S):
        room_code = await asyncio.shield(code)
    runners = [host_runner] + [WatchedRunner(guest, config(guest, room=room_code)) for guest in guests]
    # a bot that fails is written down, not raised at once: its room's race still ends (its time limit) and the
    # others play it out, so one failure does not hide what the rest saw
    racing = asyncio.gather(hosting, *(runner.run() for runner in runners[1:]), return_exceptions=True)
    try:
        async with asyncio.timeout(shape.time_limit_s + WAIT_S):  # a race ends by its time limit, whatever happens
            results = await asyncio.shield(racing)
    except TimeoutError:
        racing.cancel()
        states = "; ".join(f"{bot.name}: outcome {runner.outcome}, game {runner.game and runner.game.status}, "
                           f"{runner.player_moves} moves, race over {runner.race_over is not None}"
                           for bot, runner in zip(trio, runners, strict=True))  # fmt: skip
        failure = f"room {room_code} did not end within its time limit + {WAIT_S:g} s ({states})"
        for bot in trio:
            bot.failures.append(failure)
        raise RaceFailed(failure) from None
    for bot, runner, result in zip(trio, runners, results, strict=True):
        bot.token = runner.token
        bot.reconnects += runner.reconnects
        if isinstance(result, BaseException):
            bot.failures.append(f"{bot.name}: {type(result).__name__}: {result}")
        else:
            bot.results.append(result)
    if any(isinstance(result, BaseException) for result in results):
        raise RaceFailed(f"room {room_code}: " + "; ".join(str(result) for result in results
                                                          if isinstance(result, BaseException)))  # fmt: skip
    return [result for result in results if not isinstance(result, BaseException)]


class RaceFailed(Exception):
    """A bot of the race failed (its room races no more)."""


async def rolling_restart_under_load(cluster: Cluster, stop: Stop, seed: int = 1) -> Run:
    """Bots race while every process is replaced in turn, `shape.rounds` times round; once the last replacement
    is up the races under way are played to their ends."""
    shape = cluster.shape
    await cluster.every_replica_up()
    bots = [WatchedBot(f"bot {number}") for number in range(shape.bots)]
    rolled = asyncio.Event()
    racing = asyncio.ensure_future(race_rooms(cluster.url, bots, shape, rolled, seed))
    replacements: list[float] = []
    stopped_at: list[float] = []
    try:
        await asyncio.sleep(shape.settle_s)
        for _ in range(shape.rounds):
            for index in range(shape.processes):
                stopped_at.append(time.monotonic())
                replacements.append(await cluster.replace(index, stop))
                print(f"rolling restart ({stop}): process {index + 1} replaced in {replacements[-1]:.1f} s",
                      file=sys.stderr, flush=True)  # fmt: skip
    finally:
        rolled.set()
    races = await racing
    return Run(bots, races, replacements, stop, stopped_at)

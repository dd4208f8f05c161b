"""The load client of bench/load.py: one process driving many websocket connections through real games.

Every connection says hello, creates a one-player room (autoplay on, no countdown), starts it, and then plays
moves chosen by the engine on its own copy of the game (a random legal move, foundation moves first), one
request at a time: the next move leaves when the previous reply is in (flat out), or at its slot of a fixed
schedule (paced). A game that ends, or reaches `game_moves`, is left and a new room is created. Before the counted
window each connection plays a head start it does not count: a number of moves drawn evenly from 0 to `head_start`
(bench/load.py: twice `game_moves`), so the window finds games at every stage, as a server in its stride has them.
All begun at once, every game would be young together: a window shorter than the games holds more of their
setups per move the slower the server is (a game every 87 moves at 80 moves a connection, every 125 at 130, in
games of 105 moves on average), which a comparison of two servers would charge to the slower one.

With `room_size` N > 1 the connections of a client process race in rooms of N instead: the first of each N
creates the room, the others join it by its code, the first starts the race, and everyone plays the deal; the
others' progress arrives between a player's replies (read and parsed, as a browser would). A player whose game
ends, or reaches `game_moves`, stops: the race goes on without it.

Against the echo server the client does exactly the same work (same frames, same engine calls, same JSON
parsing); the echo's reply simply stands in for `move_accepted`. Only move round trips are counted.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import time
from dataclasses import dataclass, field
from multiprocessing.synchronize import Event as ProcessEvent
from typing import Any

import psutil
from websockets.asyncio.client import ClientConnection, connect

from freecell_arena.engine import FOUNDATION, Game, Move, format_move, variant_by_id
from freecell_arena_client.compression import Compression, connect_options

CONNECT_CONCURRENCY = 50
SETUP_TIMEOUT_S = 120.0
REPLY_TIMEOUT_S = 30.0
LATE_MS = 5.0
STOP_CHECK_S = 0.25  # a paced connection waiting for its slot notices the end of the run this soon
HEAD_START_LIMIT_S = 60.0  # a head start stops here, however few moves a slow server has played by then
REPLY_SAMPLES = 64


@dataclass
class Plan:
    """One client process's share of the load."""

    url: str
    mode: str  # "server" (the game server) or "echo" (the baseline)
    connections: int
    first_index: int
    total_connections: int
    duration_s: float
    rate_per_s: float | None = None  # all connections of all processes together; None = flat out
    max_moves: int | None = None  # this process's share
    variant: str = "freecell"
    game_moves: int = 200
    idle: bool = False  # greet, then hold the connections open until told to stop (memory figure)
    seed: int = 1
    event_loop: str = "auto"
    room_size: int = 1
    client_compression: Compression = "large"  # the SDK's policy: deflate offered, small frames sent as they are
    head_start: int = 0  # uncounted moves before the window, each connection's drawn evenly from 0 to this


@dataclass
class Report:
    connected: int = 0
    failed_connections: int = 0
    moves: int = 0
    games: int = 0
    """Games begun during the run (each a leave, a create, a start: work for the server beside the moves)."""
    errors: dict[str, int] = field(default_factory=dict)
    latencies_ms: list[float] = field(default_factory=list)
    late_sends: int = 0
    room_frames: int = 0
    """Frames read while waiting for a move's reply (the room's progress, in room mode)."""
    reply_bytes: int = 0
    reply_samples: list[str] = field(default_factory=list)
    """The first `REPLY_SAMPLES` move replies as sent: the echo server replays them (bench/echo_server.py)."""
    window_s: float = 0.0
    cpu_s: float = 0.0
    head_start_moves: int = 0
    """Moves played before the window (`Plan.head_start`), not counted in `moves`."""

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


class Player:
    """One connection and its game."""

    def __init__(self, plan: Plan, index: int, report: Report, rng: random.Random) -> None:
        self.plan = plan
        self.index = index
        self.report = report
        self.rng = rng
        self.variant = variant_by_id(plan.variant)
        self.ids = itertools.count(1)
        self.websocket: ClientConnection | None = None
        self.game: Game | None = None
        self.in_room = False

    async def request(self, message: dict[str, Any]) -> tuple[dict[str, Any], str]:
        """Send with a fresh id; return the reply with that id (other frames are read and dropped) and its frame."""
        assert self.websocket is not None
        request_id = next(self.ids)
        await self.websocket.send(json.dumps({**message, "id": request_id}))
        async with asyncio.timeout(REPLY_TIMEOUT_S):
            while True:
                frame = await self.websocket.recv()
                data = json.loads(frame)
                if data.get("id") == request_id:
                    return data, str(frame)
                self.report.room_frames += 1

    async def open(self) -> None:
        self.websocket = await connect(self.plan.url, open_timeout=SETUP_TIMEOUT_S, proxy=None, max_queue=None,
                                       **connect_options(self.plan.client_compression))
        welcome, _ = await self.request({"type": "hello", "name": f"load-{self.index}", "bot": True})
        if welcome.get("type") not in ("welcome", "echo", "hello"):
            raise RuntimeError(f"hello refused: {welcome}")
        if not self.plan.idle and self.plan.room_size == 1:
            await self.new_game()

    async def new_game(self) -> None:
        deal = self.rng.randint(1, 1_000_000)
        if self.in_room:
            await self.request({"type": "leave_room"})
        options = {"countdown_s": 0, "autoplay": True}
        created, _ = await self.request({"type": "create_room", "variant": self.plan.variant, "deal": deal,
                                         "options": options})
        await self.request({"type": "start_race"})
        seed = deal
        if self.plan.mode == "server":
            if created.get("type") != "room":
                raise RuntimeError(f"create_room refused: {created}")
            seed = await self.race_started()
        self.in_room = True
        self.game = Game(self.variant, seed, autoplay=True)
        self.report.games += 1

    async def race_started(self) -> int:
        assert self.websocket is not None
        async with asyncio.timeout(REPLY_TIMEOUT_S):
            while True:
                data = json.loads(await self.websocket.recv())
                if data.get("type") == "race_started":
                    return int(data["game"]["seed"])

    async def join_race(self, code: asyncio.Future[str], host: bool, deal: int) -> None:
        """Room mode: the host creates the room (its code to the others) and, once `code`'s room is full,
        starts the race; everyone then plays the deal."""
        if host:
            options = {"countdown_s": 0, "autoplay": True, "max_players": self.plan.room_size}
            created, _ = await self.request({"type": "create_room", "variant": self.plan.variant, "deal": deal,
                                             "options": options})
            if created.get("type") != "room":
                raise RuntimeError(f"create_room refused: {created}")
            code.set_result(created["room"]["code"])
        else:
            joined, _ = await self.request({"type": "join_room", "code": await code})
            if joined.get("type") != "room":
                raise RuntimeError(f"join_room refused: {joined}")
        self.in_room = True

    async def race_dealt(self, deal: int) -> None:
        seed = await self.race_started() if self.plan.mode == "server" else deal
        self.game = Game(self.variant, seed, autoplay=True)
        self.report.games += 1

    def choose(self) -> Move | None:
        assert self.game is not None
        moves = list(self.game.board.legal_moves)
        if not moves:
            return None
        home = [move for move in moves if move.to_zone == FOUNDATION]
        return self.rng.choice(home or moves)

    async def play(self, stop: asyncio.Event, schedule: Schedule | None, budget: MoveBudget) -> None:
        report = self.report
        while not stop.is_set() and budget.take():
            assert self.game is not None
            move = self.choose()
            if move is None or self.game.player_moves >= self.plan.game_moves or self.game.board.is_won():
                if self.plan.room_size > 1:
                    return  # the race goes on without this player
                await self.new_game()
                continue
            if schedule is not None:
                late = await schedule.wait_turn(stop)
                if late is None:
                    return
                report.late_sends += late
            sent = time.perf_counter()
            reply, frame = await self.request({"type": "move", "move": format_move(self.variant, move)})
            report.latencies_ms.append((time.perf_counter() - sent) * 1000)
            kind = reply.get("type")
            if kind == "error":
                report.error(str(reply.get("code")))
                if self.plan.room_size > 1:
                    return
                await self.new_game()
                continue
            report.moves += 1
            report.reply_bytes += len(frame)
            if len(report.reply_samples) < REPLY_SAMPLES:
                report.reply_samples.append(frame)
            self.game.play(move)

    async def close(self) -> None:
        if self.websocket is not None:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(5):
                    await self.websocket.close()


class Schedule:
    """Paced mode: this connection's sends are `interval` apart, offset so all connections interleave evenly."""

    def __init__(self, start: float, interval: float, offset: float) -> None:
        self.next = start + offset
        self.interval = interval

    async def wait_turn(self, stop: asyncio.Event) -> int | None:
        """Sleep until the next slot; 1 if it was already more than LATE_MS past (the client fell behind)."""
        now = time.perf_counter()
        delay = self.next - now
        late = 1 if -delay * 1000 > LATE_MS else 0
        while delay > 0:  # plain timers: waiting on `stop` as well cost a task per move of client CPU
            await asyncio.sleep(min(delay, STOP_CHECK_S))
            if stop.is_set():
                return None
            delay = self.next - time.perf_counter()
        self.next += self.interval
        return late


class MoveBudget:
    def __init__(self, limit: int | None) -> None:
        self.left = limit

    def take(self) -> bool:
        if self.left is None:
            return True
        if self.left <= 0:
            return False
        self.left -= 1
        return True


async def drive(plan: Plan, ready: Any, go: ProcessEvent, stop_all: ProcessEvent) -> Report:
    report = Report()
    rng = random.Random(plan.seed)
    players = [Player(plan, plan.first_index + i, report, random.Random(rng.random())) for i in range(plan.connections)]
    gate = asyncio.Semaphore(CONNECT_CONCURRENCY)

    async def open_one(player: Player) -> Player | None:
        async with gate:
            try:
                await player.open()
                return player
            except Exception as error:
                report.failed_connections += 1
                report.error(f"connect: {type(error).__name__}")
                return None

    opened = [player for player in await asyncio.gather(*(open_one(p) for p in players)) if player is not None]
    if plan.room_size > 1 and not plan.idle:
        await seat_rooms(opened, plan.room_size, rng)
    elif plan.head_start and not plan.idle:
        await head_start(opened, plan.head_start, report)
    report.connected = len(opened)
    ready.put(("ready", report.connected, report.failed_connections))
    if not await asyncio.to_thread(go.wait, SETUP_TIMEOUT_S * 2):
        raise RuntimeError("never told to go")
    process = psutil.Process()
    report.games = 0  # those begun during the run: the ones set up before it are not the load's
    cpu_before = sum(process.cpu_times()[:2])
    began = time.perf_counter()
    try:
        if plan.idle:
            await asyncio.to_thread(stop_all.wait, plan.duration_s)
        else:
            await run_moves(plan, opened, began)
    finally:
        report.window_s = time.perf_counter() - began
        report.cpu_s = sum(process.cpu_times()[:2]) - cpu_before
        await asyncio.gather(*(player.close() for player in opened))
    return report


async def head_start(players: list[Player], most: int, report: Report) -> None:
    """Each connection plays between 0 and `most` moves (its own even draw) before the window, counted apart
    (`Report.head_start_moves`; an error there counts as one of the run's). Flat out, whatever the run's pace."""
    stop = asyncio.Event()
    limit = asyncio.get_running_loop().call_later(HEAD_START_LIMIT_S, stop.set)

    async def one(player: Player) -> None:
        counted, player.report = player.report, Report()
        try:
            await player.play(stop, None, MoveBudget(player.rng.randint(0, most)))
        finally:
            ahead, player.report = player.report, counted
        report.head_start_moves += ahead.moves
        for code, count in ahead.errors.items():
            report.errors[code] = report.errors.get(code, 0) + count

    try:
        await asyncio.gather(*(one(player) for player in players))
    finally:
        limit.cancel()


async def seat_rooms(players: list[Player], size: int, rng: random.Random) -> None:
    """Room mode: rooms of `size` (the last one may be smaller), each raced on a deal of its own."""
    loop = asyncio.get_running_loop()

    async def one_room(members: list[Player]) -> None:
        code: asyncio.Future[str] = loop.create_future()
        deal = rng.randint(1, 1_000_000)
        await asyncio.gather(*(member.join_race(code, number == 0, deal) for number, member in enumerate(members)))
        host, *_ = members
        dealt = [asyncio.ensure_future(member.race_dealt(deal)) for member in members[1:]]
        await host.request({"type": "start_race"})
        await asyncio.gather(host.race_dealt(deal), *dealt)

    async with asyncio.timeout(SETUP_TIMEOUT_S):
        await asyncio.gather(*(one_room(players[start:start + size]) for start in range(0, len(players), size)))


async def run_moves(plan: Plan, players: list[Player], began: float) -> None:
    stop = asyncio.Event()
    budget = MoveBudget(plan.max_moves)
    schedules: list[Schedule | None] = [None] * len(players)
    if plan.rate_per_s:
        interval = plan.total_connections / plan.rate_per_s
        for slot, player in enumerate(players):
            offset = interval * (player.index / plan.total_connections)
            schedules[slot] = Schedule(began, interval, offset)
    tasks = [asyncio.ensure_future(player.play(stop, schedules[i], budget)) for i, player in enumerate(players)]
    try:
        await asyncio.wait(tasks, timeout=plan.duration_s)
        stop.set()
        await asyncio.wait(tasks, timeout=REPLY_TIMEOUT_S)
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            if task.done() and not task.cancelled() and task.exception() is not None:
                players[0].report.error(f"player: {type(task.exception()).__name__}")


def worker(plan: Plan, ready: Any, go: ProcessEvent, stop_all: ProcessEvent, results: Any) -> None:
    """Process entry point (multiprocessing)."""
    from freecell_arena.commands.serve import loop_factory

    try:
        with asyncio.Runner(loop_factory=loop_factory(plan.event_loop)) as runner:
            report = runner.run(drive(plan, ready, go, stop_all))
        results.put(("report", report))
    except BaseException as error:  # the parent must hear about it, not wait forever
        ready.put(("failed", repr(error), 0))
        results.put(("failed", repr(error)))

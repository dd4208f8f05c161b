"""Load benchmark of the game server, beside a raw websockets echo server measured in the same run.

    python bench/load.py --connections 100 --duration 10                   # server (SQLite) and echo, flat out
    python bench/load.py --connections 1000 --rate 5000 --target server    # paced: p99 at 5,000 moves/s
    python bench/load.py --connections 1000 --idle                         # memory per greeted connection
    python bench/load.py --figures                                         # every figure of docs/performance.md
    python bench/load.py --workers 2 --connections 200                     # 1 process, 1 + Redis, 2 + Redis (PG)

The server under test is `python -m freecell_arena serve` on a free loopback port, on a fresh SQLite file or a throwaway
PostgreSQL (tests/conftest.py's), with the rate limit lifted (the bench is the only client). The load comes from
`--client-processes` processes (bench/load_client.py), each driving its share of the connections through real
games: real deals, legal moves chosen by the engine. Printed: moves/s, latency p50/p90/p99, errors, the server's
CPU and peak RSS, and the client's CPU (on 2 cores a saturated client caps what can be measured: watch it).
Traffic goes to 127.0.0.1 only; every run is bounded by `--duration` (and `--max-moves`).
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import importlib.util
import json
import multiprocessing
import os
import re
import shlex
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import psutil

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path[:0] = [str(REPO), str(BENCH)]

from load_client import Plan, Report, worker  # noqa: E402

START_TIMEOUT_S = 60.0
READY_TIMEOUT_S = 300.0
LISTENING = re.compile(r"listening on (ws://127\.0\.0\.1:\d+/)")
DEFAULT_REPLY_BYTES = 1500
ECHO_SCRIPTS = {"asyncio": "echo_server.py", "sansio": "echo_sansio.py", "durable": "echo_durable.py"}
SETTLE_S = 1.0


# ---------------------------------------------------------------------------- the processes under test


@dataclass
class Target:
    name: str
    url: str
    process: subprocess.Popen[str]
    whole_tree: bool = False  # a supervisor: its workers are the server (CPU and memory summed over the tree)


SERVER_OPTIONS: dict[str, str] = {}  # FREECELL_ARENA_* settings chosen on the command line, for server and echo


def _environment() -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("FREECELL_ARENA_")}
    if "FREECELL_ARENA_PURE_PYTHON" in os.environ:  # the build under test, not a setting (bench/builds.py)
        env["FREECELL_ARENA_PURE_PYTHON"] = os.environ["FREECELL_ARENA_PURE_PYTHON"]
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
    # the bench is the only client: no per-connection rate limit, no idle timeout during a run; and no daily
    # deals prepared at start: on a fresh database that is a solver process certifying ten deals for minutes,
    # which took most of a core from every run before 2026-11-24 (the load is about the path of a move)
    env.update(FREECELL_ARENA_RATE_LIMIT_PER_S="1000000", FREECELL_ARENA_RATE_LIMIT_BURST="1000000",
               FREECELL_ARENA_IDLE_TIMEOUT_S="3600", FREECELL_ARENA_LOG_LEVEL="WARNING",
               FREECELL_ARENA_DAILY_PREPARE_INTERVAL_S="0",
               # every connection comes from 127.0.0.1: the per-address caps would stop the bench at 64
               FREECELL_ARENA_MAX_CONNECTIONS_PER_ADDRESS="1000000", FREECELL_ARENA_NEW_PLAYERS_PER_MINUTE="1000000000",
               FREECELL_ARENA_API_RATE_LIMIT_PER_S="1000000", FREECELL_ARENA_API_RATE_LIMIT_BURST="1000000")
    env.update(SERVER_OPTIONS)
    return env


@contextlib.contextmanager
def started(name: str, command: list[str], listeners: int = 1) -> Iterator[Target]:
    """Start `command` and wait for `listeners` `listening on` lines (a supervisor's workers print one each)."""
    process = subprocess.Popen(command, cwd=REPO, env=_environment(), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    log: collections.deque[str] = collections.deque(maxlen=100)
    threading.Thread(target=_drain, args=(process.stderr, log), daemon=True).start()  # a full pipe would stall it
    try:
        urls: list[str] = []
        said: list[str] = []
        deadline = time.monotonic() + START_TIMEOUT_S
        while len(urls) < listeners:  # other lines (the supervisor's, `play at`) are passed over
            line = _read_line(process, max(0.0, deadline - time.monotonic()))
            if not line:  # no line in time, or the end of its output
                state = "still running" if process.poll() is None else f"exited with {process.returncode}"
                time.sleep(0.2)  # the last lines it logged
                raise RuntimeError(f"{name} did not start within {START_TIMEOUT_S:g} s ({state}); its output: "
                                   f"{said}; its log: {''.join(log)[-4000:] or '(nothing)'}")
            said.append(line.strip())
            if match := LISTENING.search(line):
                urls.append(match.group(1))
        yield Target(name, urls[0], process, whole_tree=listeners > 1)
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(15)


def _drain(stream: IO[str] | None, into: collections.deque[str]) -> None:
    """Read a server's log as it comes, keeping the last lines (shown if it fails to start)."""
    if stream is not None:
        for line in stream:
            into.append(line)


def _read_line(process: subprocess.Popen[str], timeout: float) -> str:
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.append(process.stdout.readline() if process.stdout else ""))
    reader.start()
    reader.join(timeout)
    return lines[0] if lines else ""


@contextlib.contextmanager
def game_server(database: str) -> Iterator[Target]:
    with database_url(database) as url, serving(url, f"server ({database})") as target:
        yield target


@contextlib.contextmanager
def serving(url: str, name: str, workers: int = 1, redis_url: str | None = None) -> Iterator[Target]:
    command = [sys.executable, "-m", "freecell_arena", "serve", "--port", "0", "--database-url", url]
    if redis_url is not None:
        command += ["--redis-url", redis_url]
    if workers > 1:
        command += ["--workers", str(workers)]
    with started(name, command, listeners=workers) as target:
        yield target


@contextlib.contextmanager
def independent_servers(url: str, name: str, count: int) -> Iterator[Target]:
    """`count` plain servers (no Redis, no supervisor) sharing one port (SO_REUSEPORT) and the database, under one
    shell: what splitting the same load over processes costs this machine when nothing crosses between them (the
    bench's rooms have one player each, so each process serves its own players alone)."""
    serve = [sys.executable, "-m", "freecell_arena", "serve", "--port", str(_free_port()), "--database-url", url]
    script = (f'for i in $(seq {count}); do FREECELL_ARENA_REUSE_PORT=true {shlex.join(serve)} & pids="$pids $!"; '
              'done; trap \'kill $pids; wait; exit 0\' TERM; wait')
    with started(name, ["sh", "-c", script], listeners=count) as target:
        yield target


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def echo_server(
    reply_bytes: int, replies: list[str] | None = None, kind: str = "asyncio", room_size: int = 1
) -> Iterator[Target]:
    """The baseline: answers with `replies` (the game server's own move replies, recorded in the same run) when
    there are some, else with the request padded to `reply_bytes`. `kind`: on websockets' asyncio server, like the
    game server (echo_server.py), or on its sans-I/O core with no task per connection (echo_sansio.py)."""
    script = ECHO_SCRIPTS[kind]
    command = [sys.executable, str(BENCH / script), "--port", "0", "--reply-bytes", str(reply_bytes)]
    if room_size > 1:
        command += ["--room-size", str(room_size)]
    with tempfile.TemporaryDirectory(prefix="freecell-arena-echo-") as directory:
        if replies:
            path = Path(directory) / "replies.json"
            path.write_text(json.dumps(replies), encoding="utf-8")
            command += ["--replies", str(path)]
        with started("echo" if kind == "asyncio" else f"echo ({kind})", command) as target:
            yield target


@contextlib.contextmanager
def database_url(database: str) -> Iterator[str]:
    if database == "sqlite":
        with tempfile.TemporaryDirectory(prefix="freecell-arena-load-") as directory:
            yield f"sqlite+aiosqlite:///{directory}/load.db"
        return
    fixtures = _test_fixtures()
    with fixtures.throwaway_postgres() as postgres:
        name = postgres.create_database()
        url = postgres.url(name)
        subprocess.run([sys.executable, "-m", "freecell_arena", "migrate", "--database-url", url], cwd=REPO,
                       env=_environment(), check=True, capture_output=True, timeout=120)
        yield url


def _test_fixtures():  # type: ignore[no-untyped-def]
    """tests/conftest.py's throwaway PostgreSQL (loaded by path: tests/ is not a package)."""
    if str(REPO / "tests") not in sys.path:  # conftest imports its helper modules (services, redis_support)
        sys.path.append(str(REPO / "tests"))
    spec = importlib.util.spec_from_file_location("freecell_arena_test_fixtures", REPO / "tests" / "conftest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


class Sampler:
    """Samples a process's RSS every 50 ms in a thread; CPU seconds are read at the window's edges. With
    `whole_tree` (a `--workers` supervisor) the figures are the sums over the process and its workers."""

    def __init__(self, pid: int, *, whole_tree: bool = False) -> None:
        self.process = psutil.Process(pid)
        self.whole_tree = whole_tree
        self.peak_rss = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _server(self) -> list[psutil.Process]:
        return [self.process, *self.process.children()] if self.whole_tree else [self.process]

    def _sum(self, measure: Callable[[psutil.Process], float]) -> float:
        total = 0.0
        for process in self._server():
            with contextlib.suppress(psutil.Error, OSError):
                total += measure(process)
        return total

    def rss(self) -> int:
        return int(self._sum(lambda process: process.memory_info().rss))

    def cpu(self) -> float:
        return self._sum(lambda process: sum(process.cpu_times()[:2]))

    def loop_thread_cpu(self) -> float:
        """CPU seconds of the server's main threads alone (the event loops): the rest of `cpu` is its other
        threads, the SQLite writer's first (its commits, the WAL's writes and fsyncs, checkpoints)."""

        def main_thread(process: psutil.Process) -> float:
            return next((thread.user_time + thread.system_time for thread in process.threads()
                         if thread.id == process.pid), 0.0)

        return self._sum(main_thread)

    def children_cpu(self) -> dict[int, float]:
        """CPU seconds of each process the server started (a worker busy during the window takes CPU from the
        run without showing in the server's own figure: printed beside it)."""
        spent = {}
        server = {process.pid for process in self._server()}
        for child in self.process.children(recursive=True):
            if child.pid in server:
                continue
            with contextlib.suppress(psutil.Error):
                times = child.cpu_times()
                spent[child.pid] = float(times.user + times.system)
        return spent

    def run_queue_wait(self) -> float:
        """Seconds the server's main threads (event loops) spent runnable but waiting for a CPU (Linux)."""
        try:
            return self._sum(lambda process: int(Path(f"/proc/{process.pid}/schedstat").read_text().split()[1]) / 1e9)
        except (OSError, IndexError):
            return float("nan")

    def _run(self) -> None:
        while not self._stop.wait(0.05):
            with contextlib.suppress(psutil.Error):
                self.peak_rss = max(self.peak_rss, self.rss())

    def __enter__(self) -> Sampler:
        self.peak_rss = self.rss()
        self._thread.start()
        return self

    def __exit__(self, *_exc_info: object) -> None:
        self._stop.set()
        self._thread.join()


# ---------------------------------------------------------------------------- one run


@dataclass
class Result:
    target: str
    connections: int
    connected: int
    moves: int
    window_s: float
    latencies_ms: list[float]
    errors: dict[str, int]
    late_sends: int
    reply_bytes: float
    reply_samples: list[str]
    room_frames: int
    games: int
    head_start_moves: int
    server_cpu: float  # share of one core over the window
    server_cpu_s: float  # CPU seconds the server spent in the window
    server_loop_cpu_s: float  # of which its main threads (event loops); the rest: the SQLite writer and others
    server_waited: float  # share of the window its event loop was runnable but had no CPU (a busy machine)
    server_peak_rss: int
    server_children_cpu: float  # share of one core: processes the server started (none expected)
    client_cpu: float  # share of one core, all client processes together
    rss_before: int = 0
    rss_after: int = 0

    @property
    def moves_per_s(self) -> float:
        return self.moves / self.window_s if self.window_s else 0.0

    def percentile(self, q: float) -> float:
        if not self.latencies_ms:
            return float("nan")
        ordered = sorted(self.latencies_ms)
        return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]

    @property
    def server_us_per_move(self) -> float:
        """Server CPU per move: less sensitive than moves/s to other load on a shared machine."""
        return self.server_cpu_s / self.moves * 1e6 if self.moves else float("nan")

    @property
    def loop_us_per_move(self) -> float:
        """Of `server_us_per_move`, the event loops' threads: the rest is what the other threads do per move."""
        return self.server_loop_cpu_s / self.moves * 1e6 if self.moves else float("nan")

    @property
    def other_us_per_move(self) -> float:
        return self.server_us_per_move - self.loop_us_per_move

    @property
    def per_connection_bytes(self) -> float:
        return (self.rss_after - self.rss_before) / max(1, self.connected)

    def line(self) -> str:
        errors = sum(self.errors.values())
        detail = f" {self.errors}" if errors else ""
        children = f" + its workers {self.server_children_cpu:4.0%}" if self.server_children_cpu >= 0.01 else ""
        return (
            f"{self.target:<18} conns {self.connected:>5}  moves/s {self.moves_per_s:>8.0f}  "
            f"p50 {self.percentile(50):6.2f} ms  p90 {self.percentile(90):6.2f} ms  p99 {self.percentile(99):6.2f} ms  "
            f"errors {errors}{detail}  late {self.late_sends}  server cpu {self.server_cpu:4.0%} "
            f"({self.server_us_per_move:.0f} us/move, {self.loop_us_per_move:.0f} in the loop's thread, "
            f"waited for a cpu {self.server_waited:4.0%}){children}  "
            f"peak rss {self.server_peak_rss / 2**20:6.1f} MiB  client cpu {self.client_cpu:4.0%}"
            + (f"  moves/game {self.moves / self.games:.0f}" if self.games and self.moves else "")
            + (f" (after a head start of {self.head_start_moves / self.connected:.0f} a connection)"
               if self.head_start_moves and self.connected else "")
            + (f"  room frames/move {self.room_frames / self.moves:.2f}" if self.room_frames and self.moves else "")
        )


def run_load(target: Target, args: argparse.Namespace, *, idle: bool = False) -> Result:
    processes = max(1, min(args.client_processes, args.connections))
    context = multiprocessing.get_context("spawn")
    ready, results = context.Queue(), context.Queue()
    go, stop_all = context.Event(), context.Event()
    share, extra = divmod(args.connections, processes)
    plans, first = [], 0
    for number in range(processes):
        count = share + (1 if number < extra else 0)
        moves = None if args.max_moves is None else args.max_moves * count // args.connections
        mode = "echo" if target.name.startswith("echo") else "server"
        plans.append(Plan(url=target.url, mode=mode, connections=count,
                          first_index=first, total_connections=args.connections, duration_s=args.duration,
                          rate_per_s=args.rate, max_moves=moves, variant=args.variant, idle=idle, seed=number + 1,
                          event_loop=args.client_loop, room_size=args.room_size, game_moves=args.game_moves,
                          client_compression=args.client_compression,
                          head_start=2 * args.game_moves if args.head_start is None else args.head_start))
        first += count
    workers = [context.Process(target=worker, args=(plan, ready, go, stop_all, results), daemon=True)
               for plan in plans]
    if idle:
        _warm_up(target.url)
    with Sampler(target.process.pid, whole_tree=target.whole_tree) as server:
        rss_before = server.rss()
        for process in workers:
            process.start()
        try:
            for _ in workers:
                status, *detail = ready.get(timeout=READY_TIMEOUT_S)
                if status != "ready":
                    raise RuntimeError(f"a client process failed: {detail[0]}")
            if idle:
                time.sleep(SETTLE_S)
            rss_after = server.rss()
            profiler = _profile(target, args) if getattr(args, "py_spy", None) else None
            children_before = server.children_cpu()
            cpu_before, waited_before, began = server.cpu(), server.run_queue_wait(), time.perf_counter()
            loop_before = server.loop_thread_cpu()
            go.set()
            if idle:
                stop_all.set()
            reports: list[Report] = []
            for _ in workers:
                status, payload = results.get(timeout=args.duration + READY_TIMEOUT_S)
                if status != "report":
                    raise RuntimeError(f"a client process failed: {payload}")
                reports.append(payload)
            window = max(report.window_s for report in reports)
            server_cpu_s = server.cpu() - cpu_before
            loop_cpu_s = server.loop_thread_cpu() - loop_before
            server_waited = (server.run_queue_wait() - waited_before) / max(window, 1e-9)
            children_cpu_s = sum(spent - children_before.get(pid, 0.0) for pid, spent in server.children_cpu().items())
            spent = sum(report.cpu_s for report in reports)
            elapsed = time.perf_counter() - began
            if profiler is not None:
                profiler.wait(60)
        finally:
            for process in workers:
                process.join(30)
                if process.is_alive():
                    process.kill()
    moves = sum(report.moves for report in reports)
    errors: dict[str, int] = {}
    for report in reports:
        for code, count in report.errors.items():
            errors[code] = errors.get(code, 0) + count
    return Result(
        target=target.name,
        connections=args.connections,
        connected=sum(report.connected for report in reports),
        moves=moves,
        window_s=window,
        latencies_ms=[value for report in reports for value in report.latencies_ms],
        errors=errors,
        late_sends=sum(report.late_sends for report in reports),
        reply_bytes=sum(report.reply_bytes for report in reports) / max(1, moves),
        reply_samples=[sample for report in reports for sample in report.reply_samples],
        room_frames=sum(report.room_frames for report in reports),
        games=sum(report.games for report in reports),
        head_start_moves=sum(report.head_start_moves for report in reports),
        server_cpu=server_cpu_s / max(window, 1e-9),
        server_cpu_s=server_cpu_s,
        server_loop_cpu_s=loop_cpu_s,
        server_waited=server_waited,
        server_peak_rss=server.peak_rss,
        server_children_cpu=children_cpu_s / max(window, 1e-9),
        client_cpu=spent / max(elapsed, 1e-9),
        rss_before=rss_before,
        rss_after=rss_after,
    )


WARM_UP_CONNECTIONS = 50


def _warm_up(url: str) -> None:
    """The first hellos import modules and fill caches and pools once per process (about 7 MiB for the game
    server): `WARM_UP_CONNECTIONS` connections are greeted and closed before the memory is read, so the idle
    figure is what each further connection costs, the slope an operator sizes a machine by."""
    import asyncio

    from websockets.asyncio.client import connect

    async def greet() -> None:
        for number in range(WARM_UP_CONNECTIONS):
            async with connect(url, proxy=None) as websocket:
                await websocket.send(json.dumps({"type": "hello", "id": 1, "name": f"warm-{number}", "bot": True}))
                await asyncio.wait_for(websocket.recv(), READY_TIMEOUT_S)

    asyncio.run(greet())
    time.sleep(SETTLE_S)


def _profile(target: Target, args: argparse.Namespace) -> subprocess.Popen[bytes] | None:
    """py-spy on the server under test for the load window (the echo's profile goes to FILE.echo, each run of
    `--workers` to FILE.<run>): collapsed stacks
    for flame graphs, sampled only while the GIL is held, so time spent waiting for a CPU is not blamed on code."""
    output = args.py_spy + (".echo" if target.name.startswith("echo") else "")
    if args.workers > 1 and not target.name.startswith("echo"):  # three runs: one profile each
        output += "." + re.sub(r"[^a-z0-9]+", "-", target.name).strip("-")
    command = ["py-spy", "record", "--pid", str(target.process.pid), "--duration", str(int(args.duration)),
               "--rate", "250", "--gil", "--format", "raw", "--output", output]
    if target.whole_tree:  # a supervisor: its workers are the server
        command.append("--subprocesses")
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


# ---------------------------------------------------------------------------- what to run


def compare(args: argparse.Namespace, database: str) -> tuple[Result | None, Result | None]:
    """The game server, then the echo server with the same connections and reply size."""
    server_result = echo_result = None
    reply_bytes = DEFAULT_REPLY_BYTES
    replies: list[str] = []
    if args.target in ("server", "both"):
        with game_server(database) as target:
            server_result = run_load(target, args)
        print(server_result.line(), flush=True)
        reply_bytes = round(server_result.reply_bytes) or DEFAULT_REPLY_BYTES
        replies = server_result.reply_samples
    if args.target in ("echo", "both"):
        with echo_server(reply_bytes, replies, args.echo, args.room_size) as target:
            echo_result = run_load(target, args)
        how = f"the server's {len(replies)} recorded move replies" if replies else "padded with x"
        print(echo_result.line() + f"  (replies {reply_bytes} B, {how})", flush=True)
    if server_result and echo_result and echo_result.moves_per_s:
        ratio = server_result.moves_per_s / echo_result.moves_per_s
        print(f"ratio server/echo at {args.connections} connections ({database}): {ratio:.2f}", flush=True)
        cost = server_result.server_us_per_move / echo_result.server_us_per_move
        split = ", ".join(f"{name} {result.loop_us_per_move:.0f} + {result.other_us_per_move:.0f}"
                          for name, result in (("game server", server_result), ("echo", echo_result)))
        print(f"server CPU per round trip: game server {server_result.server_us_per_move:.0f} us, echo "
              f"{echo_result.server_us_per_move:.0f} us ({cost:.1f} x; loop's thread + other threads: {split}; "
              "less sensitive to a busy machine than the "
              "ratio, which also depends on how the cores are shared with the load client)", flush=True)
    return server_result, echo_result


def compare_workers(args: argparse.Namespace) -> None:
    """On one PostgreSQL database, under the same load, in the same run: one process without Redis (the single
    process of today), `--workers 1` with Redis (what the cluster's machinery costs one process), then
    `--workers N` with Redis (what the split costs), then N independent plain processes without Redis on one port
    (what the split alone costs the machine, nothing crossing). The server's CPU per move is summed over its
    processes.
    A client's games stay on the worker that took its connection."""
    fixtures = _test_fixtures()
    with database_url("postgres") as url, fixtures.throwaway_redis() as redis:
        runs = [("server x1 (pg)", 1, None), ("server x1 +redis", 1, redis.url),
                (f"server x{args.workers} +redis", args.workers, redis.url)]
        results = []
        for name, workers, redis_url in runs:
            with serving(url, name, workers, redis_url) as target:
                results.append(run_load(target, args))
            print(results[-1].line(), flush=True)
        with independent_servers(url, f"{args.workers} x plain", args.workers) as target:
            apart = run_load(target, args)
        print(apart.line(), flush=True)
    alone, one, several = results
    print(f"at {args.connections} connections: with Redis / without: server CPU per move "
          f"{one.server_us_per_move / alone.server_us_per_move:.2f} x, moves/s "
          f"{one.moves_per_s / max(alone.moves_per_s, 1e-9):.2f} x", flush=True)
    print(f"--workers {args.workers} / --workers 1 (both with Redis): server CPU per move "
          f"{several.server_us_per_move / one.server_us_per_move:.2f} x, moves/s "
          f"{several.moves_per_s / max(one.moves_per_s, 1e-9):.2f} x", flush=True)
    print(f"{args.workers} independent plain processes / 1 plain process (no Redis, nothing crosses; what the split "
          f"alone costs this machine): server CPU per move {apart.server_us_per_move / alone.server_us_per_move:.2f} x"
          f"; --workers {args.workers} +redis / {args.workers} independent: "
          f"{several.server_us_per_move / apart.server_us_per_move:.2f} x", flush=True)


def idle_memory(args: argparse.Namespace, database: str) -> None:
    results = []
    with game_server(database) as target:
        results.append(run_load(target, args, idle=True))
    with echo_server(DEFAULT_REPLY_BYTES) as target:
        results.append(run_load(target, args, idle=True))
    for result in results:
        print(f"{result.target:<18} idle greeted connections {result.connected:>5}: "
              f"{result.per_connection_bytes / 1024:6.1f} KiB each (RSS {result.rss_before / 2**20:.1f} -> "
              f"{result.rss_after / 2**20:.1f} MiB)", flush=True)
    ratio = results[0].per_connection_bytes / max(1.0, results[1].per_connection_bytes)
    print(f"memory per idle connection, server/echo: {ratio:.2f}", flush=True)


def figures(args: argparse.Namespace) -> None:
    """Every figure of docs/performance.md `## Server load`."""
    print(f"# machine: {os.cpu_count()} cores; client processes: {args.client_processes} ({args.client_loop} loop); "
          f"duration {args.duration:g} s per run; server settings {SERVER_OPTIONS or 'default'}", flush=True)
    databases = ["sqlite", "postgres"]
    for connections in (100, 1000):
        echo_rate = 0.0
        for database in databases:  # the echo baseline runs once per connection count, with SQLite's
            run = argparse.Namespace(**{**vars(args), "connections": connections, "rate": None,
                                        "target": "both" if database == "sqlite" else "server"})
            server_result, echo_result = compare(run, database)
            if echo_result is not None:
                echo_rate = echo_result.moves_per_s
            elif server_result and echo_rate:
                print(f"ratio server/echo at {connections} connections ({database}): "
                      f"{server_result.moves_per_s / echo_rate:.2f}", flush=True)
    for database in databases:
        paced = argparse.Namespace(**{**vars(args), "connections": 1000, "rate": 5000.0, "target": "server"})
        print(f"# paced 5000 moves/s over 1000 connections ({database})", flush=True)
        compare(paced, database)
    print("# rooms of 64 players, flat out, beside the durable echo that sends each move's progress to the room",
          flush=True)
    compare(argparse.Namespace(**{**vars(args), "connections": 1024, "rate": None, "target": "both",
                                  "echo": "durable", "room_size": 64}), "sqlite")
    print("# idle memory (1000 greeted connections)", flush=True)
    idle_memory(argparse.Namespace(**{**vars(args), "connections": 1000}), "sqlite")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--connections", type=int, default=100, help="1 to 2000 (default %(default)s)")
    parser.add_argument("--duration", type=float, default=10.0, help="seconds of load per run (default %(default)s)")
    parser.add_argument("--rate", type=float, help="paced: moves per second over all connections (default: flat out)")
    parser.add_argument("--max-moves", type=int, help="stop after this many moves in all")
    parser.add_argument("--game-moves", type=int, default=200,
                        help="a game that reaches this many moves is left for a new one (default 200; fewer: what "
                             "a game's setup costs the server shows in its CPU per move)")
    parser.add_argument("--head-start", type=int, metavar="MOVES",
                        help="before the counted window each connection plays 0 to MOVES moves (its own even draw), "
                             "so the window finds games at every stage, not all begun together (default: twice "
                             "--game-moves; 0: none; one-player rooms only)")
    parser.add_argument("--room-size", type=int, default=1,
                        help="race in rooms of this many players (2-64; default: one-player rooms); the echo "
                             "baseline must be durable, which then sends each move's progress to the room")
    parser.add_argument("--target", choices=("server", "echo", "both"), default="both")
    parser.add_argument("--echo", choices=tuple(ECHO_SCRIPTS), default="asyncio",
                        help="the echo baseline: websockets' asyncio server like the game server (default), its "
                        "sans-I/O core with no task per connection, or the asyncio echo that first makes each move "
                        "durable in SQLite with the server's group commit (durable: the floor of a durable move)")
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--client-processes", type=int, default=2, help="load client processes (default %(default)s)")
    parser.add_argument("--variant", default="freecell")
    parser.add_argument("--workers", type=int, default=1,
                        help="N > 1: one process, then --workers 1 and N with Redis, on one PostgreSQL (server only)")
    parser.add_argument("--idle", action="store_true", help="memory per greeted idle connection, server and echo")
    parser.add_argument("--figures", action="store_true", help="run every figure of docs/performance.md")
    parser.add_argument("--py-spy", metavar="FILE",
                        help="profile with py-spy: collapsed stacks of the server to FILE, of the echo to FILE.echo")
    parser.add_argument("--commit-delay-ms", type=float, help="server: FREECELL_ARENA_COMMIT_DELAY_MS")
    parser.add_argument("--compression", choices=("large", "deflate", "none"),
                        help="server and echo: FREECELL_ARENA_COMPRESSION")
    parser.add_argument("--client-compression", choices=("large", "deflate", "none"), default="large",
                        help="what the load clients offer and send (default %(default)s, the Python SDK's: deflate "
                             "offered, their small frames sent as they are; deflate: every frame compressed, as a "
                             "browser does once the extension is negotiated)")
    parser.add_argument("--event-loop", choices=("auto", "asyncio", "uvloop"),
                        help="server and echo: FREECELL_ARENA_EVENT_LOOP (default: the server's default, auto)")
    parser.add_argument("--client-loop", choices=("auto", "asyncio", "uvloop"), default="auto",
                        help="the load client's event loop (default %(default)s: uvloop where installed)")
    parser.add_argument("--setting", action="append", default=[], metavar="NAME=VALUE",
                        help="any other server setting, e.g. gc_thresholds=50000,20,20 (repeatable)")
    args = parser.parse_args(argv)
    for setting in args.setting:
        name, equals, value = setting.partition("=")
        if not equals or not name:
            parser.error(f"--setting wants NAME=VALUE, not {setting!r}")
        SERVER_OPTIONS["FREECELL_ARENA_" + name.upper()] = value
    if args.compression:
        SERVER_OPTIONS["FREECELL_ARENA_COMPRESSION"] = args.compression
    if args.commit_delay_ms is not None:
        SERVER_OPTIONS["FREECELL_ARENA_COMMIT_DELAY_MS"] = str(args.commit_delay_ms)
    if args.event_loop:
        SERVER_OPTIONS["FREECELL_ARENA_EVENT_LOOP"] = args.event_loop
    if not 1 <= args.connections <= 2000:
        parser.error("--connections must be 1 to 2000")
    if not 1 <= args.room_size <= 64:
        parser.error("--room-size must be 1 to 64 (a room's most players)")
    if args.room_size > 1 and args.target != "server" and args.echo != "durable":
        parser.error("--room-size needs --echo durable (the echo that sends progress to the room) or --target server")
    if args.duration <= 0 or args.duration > 600:
        parser.error("--duration must be more than 0 and at most 600 seconds")
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    if args.head_start is not None and not 0 <= args.head_start <= 2000:
        parser.error("--head-start must be 0 to 2000 moves")
    if args.figures:
        figures(args)
    elif args.workers > 1:
        compare_workers(args)
    elif args.idle:
        idle_memory(args, args.database)
    else:
        compare(args, args.database)
    return 0


if __name__ == "__main__":
    sys.exit(main())

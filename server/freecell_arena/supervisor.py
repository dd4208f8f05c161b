"""`serve --workers N`: N server processes on one port, kept running by this parent.

Each worker is the ordinary single server, `python -m freecell_arena serve`, started with the parent's resolved
settings in its environment plus `FREECELL_ARENA_REUSE_PORT=true` and `FREECELL_ARENA_WORKER_INDEX`: every worker
listens on the same host:port with SO_REUSEPORT and the kernel spreads new connections over them. Several
processes share rooms through PostgreSQL and Redis, which is why `serve` refuses workers without them.

Why subprocesses of the CLI rather than `multiprocessing`: a worker is then exactly what one `serve` runs (the
same start-up, the same signals, the same exit codes), nothing is pickled across, no resource tracker or
inherited state from the parent's loop is involved, a worker can be killed and replaced on its own, and the
settings (database password included) travel in the child's environment, which other users cannot read, rather
than on its command line.

The parent:
- checks the database once before any worker starts (PostgreSQL must already be migrated, as for one server),
  in a child (`serve --check`), so the parent itself never loads the database stack (some 35 MiB it would hold
  for nothing) and prints exactly the line one server would;
- holds the port with a bound, non-listening SO_REUSEPORT socket, so port 0 means one free port for every worker
  and no other program takes the port while a worker restarts (a non-listening socket gets no connections);
- restarts a worker that exits for any reason (kill -9 included) after a backoff that doubles from
  FIRST_BACKOFF_S up to MAX_BACKOFF_S while the worker keeps dying young, logging one line per restart;
- on SIGTERM or SIGINT forwards SIGTERM to every worker and waits for them, at most the shutdown timeout plus
  STOP_GRACE_S, then kills what is left; exits 0 when every worker stopped by itself (also when the whole process
  group got the signal at once: the workers stop by themselves and none is restarted);
- under a service manager (systemd's `Type=notify`), gives its workers a notify socket of its own and says
  READY=1 to the manager once every worker said it there, i.e. listens (freecell_arena/readiness.py);
- on SIGHUP (`systemctl reload`) restarts its workers one at a time, a rolling restart: a new worker is started
  beside the old one and, once it listens, the old one is drained (SIGTERM: it stops listening at once, its
  players play on for the drain grace, then reconnect to the port on 1012) and waited for before the next.
  The new workers run the code installed now, so this is how a new version is deployed without a gap. A
  replacement that does not come up stops the roll and leaves the old worker serving.
Workers ask the kernel for SIGTERM when the parent dies (Linux PR_SET_PDEATHSIG), so a parent killed with -9
leaves no orphan serving on the port.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
import socket
import sys
import tempfile
import time

from freecell_arena import readiness
from freecell_arena.settings import ENV_PREFIX, Settings

WORKER_INDEX_ENV = "FREECELL_ARENA_WORKER_INDEX"
SUPERVISOR_PID_ENV = "FREECELL_ARENA_SUPERVISOR_PID"
FIRST_BACKOFF_S = 0.5
MAX_BACKOFF_S = 30.0
STABLE_AFTER_S = 30.0  # a worker that ran this long was healthy: its next restart starts the backoff again
STOP_GRACE_S = 5.0
READY_TIMEOUT_S = 60.0  # a rolling restart's new worker that does not listen by then is given up
CHECK_TIMEOUT_S = 120.0
PR_SET_PDEATHSIG = 1

log = logging.getLogger("freecell_arena.supervisor")


def become_worker() -> str:
    """In a process the supervisor started: ask to be sent SIGTERM when the supervisor dies, and return the label
    its log lines carry (`worker 1 (pid 123): `). Elsewhere: do nothing and return ''."""
    index = os.environ.get(WORKER_INDEX_ENV)
    if index is None:
        return ""
    supervisor_pid = int(os.environ.get(SUPERVISOR_PID_ENV, "0"))
    # SIGHUP is the supervisor's (a rolling restart); a terminal's hangup sent to the whole group ends no worker
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    if sys.platform == "linux":
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if supervisor_pid and os.getppid() != supervisor_pid:  # the supervisor died before the request took effect
        os.kill(os.getpid(), signal.SIGTERM)
    return f"worker {index} (pid {os.getpid()}): "


def reserve_port(host: str, port: int) -> socket.socket:
    """A socket bound to host:port with SO_REUSEPORT and never listening: it fixes the port (a free one for 0)
    and keeps it ours between worker restarts, while the kernel gives connections only to listening sockets.

    SO_REUSEADDR too, as every listening server sets it (asyncio's `create_server` does for the workers): the
    closed connections of a server that just stopped or crashed on this port linger in TIME_WAIT for up to a
    minute, and without it their entries block the bind, so a restart by a service manager would fail."""
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                         flags=socket.AI_PASSIVE)[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind(address)
    except OSError:
        sock.close()
        raise
    return sock


def settings_environment(settings: Settings) -> dict[str, str]:
    """The parent's environment with every resolved setting (flags included) written back as FREECELL_ARENA_*
    variables, so a child `serve` runs with exactly the parent's settings."""
    env = dict(os.environ)
    for name, value in settings.named_values():
        variable = f"{ENV_PREFIX}{name.upper()}"
        if value is None:
            env.pop(variable, None)
        else:  # a number or a flag as JSON writes it (`true`, `2.0`), which the settings read back exactly
            env[variable] = value if isinstance(value, str) else json.dumps(value)
    return env


def worker_environment(settings: Settings, index: int, port: int, notify_socket: str = "") -> dict[str, str]:
    """The settings, as one process of the shared port, marked as worker `index` of this supervisor, telling its
    readiness to `notify_socket` (the supervisor's, not the service manager's)."""
    env = settings_environment(settings)
    env.pop(readiness.NOTIFY_SOCKET_ENV, None)
    if notify_socket:
        env[readiness.NOTIFY_SOCKET_ENV] = notify_socket
    env.update({
        "FREECELL_ARENA_PORT": str(port),
        "FREECELL_ARENA_WORKERS": "1",
        "FREECELL_ARENA_REUSE_PORT": "true",
        WORKER_INDEX_ENV: str(index),
        SUPERVISOR_PID_ENV: str(os.getpid()),
    })
    return env


def describe_exit(code: int) -> str:
    if code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with code {code}"


class WorkerReadiness:
    """A datagram socket of the supervisor's (in a private temporary folder), given to the workers as their
    `NOTIFY_SOCKET`: each says `READY=1` and its `MAINPID` there once it listens, as it would to systemd."""

    def __init__(self) -> None:
        self._folder = tempfile.TemporaryDirectory(prefix="freecell-arena-")
        self.address = os.path.join(self._folder.name, "notify")
        self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self._socket.bind(self.address)
        self._socket.setblocking(False)

    def __enter__(self) -> WorkerReadiness:
        return self

    def __exit__(self, *_: object) -> None:
        self._socket.close()
        self._folder.cleanup()

    async def next_ready(self) -> int:
        """The pid of the next worker that says READY=1."""
        loop = asyncio.get_running_loop()
        while True:
            fields = readiness.parse(await loop.sock_recv(self._socket, 4096))
            if fields.get("READY") == "1" and fields.get("MAINPID", "").isdigit():
                return int(fields["MAINPID"])


class Supervisor:
    """Keeps `settings.cluster.workers` workers running on one port until SIGTERM or SIGINT."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.processes: dict[int, asyncio.subprocess.Process] = {}
        self.stopping = asyncio.Event()
        self.notify_socket = ""
        self.port = 0
        self._started_at: dict[int, float] = {}  # by pid
        self._ready: set[int] = set()  # pids that said READY=1
        self._readiness = asyncio.Condition()
        self._roll: asyncio.Task[None] | None = None

    async def run(self) -> int:
        settings = self.settings
        if not await self._database_is_ready():
            return 2
        try:
            reservation = reserve_port(settings.process.host, settings.process.port)
        except OSError as error:
            print(f"freecell-arena: cannot listen on {settings.process.host}:{settings.process.port}: {error.strerror}",
                  file=sys.stderr)
            return 2
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, self.stopping.set)
        loop.add_signal_handler(signal.SIGHUP, self.roll)
        with reservation, WorkerReadiness() as readiness_of_workers:
            self.notify_socket = readiness_of_workers.address
            self.port = port = int(reservation.getsockname()[1])
            print(f"freecell-arena: supervisor (pid {os.getpid()}) starting {settings.cluster.workers} workers on "
                  f"ws://{settings.process.host}:{port}/", flush=True)
            hearing = asyncio.create_task(self._hear_readiness(readiness_of_workers))
            workers = range(1, settings.cluster.workers + 1)
            keepers = [asyncio.create_task(self._keep_running(index)) for index in workers]
            listening = asyncio.create_task(self._tell_when_listening())
            await self.stopping.wait()
            readiness.stopping()
            listening.cancel()
            if self._roll is not None:  # a replacement not yet in place is stopped by the roll itself
                await cancel_and_wait(self._roll)
            clean = await self._stop_workers(keepers)
            hearing.cancel()
        print("freecell-arena: stopped", flush=True)
        return 0 if clean else 1

    async def _hear_readiness(self, workers: WorkerReadiness) -> None:
        while True:
            pid = await workers.next_ready()
            async with self._readiness:
                self._ready.add(pid)
                self._readiness.notify_all()

    async def _tell_when_listening(self) -> None:
        """READY=1 to our own service manager once each of the workers said READY=1 to us: all listen."""
        count = self.settings.cluster.workers
        async with self._readiness:
            await self._readiness.wait_for(
                lambda: len(self.processes) == count and {p.pid for p in self.processes.values()} <= self._ready
            )
        log.info("all %d workers listen on port %d", count, self.port)
        readiness.ready(self._listening_status())

    def _listening_status(self) -> str:
        return f"{self.settings.cluster.workers} workers listening on ws://{self.settings.process.host}:{self.port}/"

    def roll(self) -> None:
        """SIGHUP: restart the workers one at a time (at most one rolling restart at a time)."""
        if self.stopping.is_set():
            return
        if self._roll is not None and not self._roll.done():
            log.warning("SIGHUP: a rolling restart is under way already; ignored")
            return
        log.info("SIGHUP: rolling restart of %d workers, one at a time", len(self.processes))
        self._roll = asyncio.create_task(self._roll_workers())

    async def _roll_workers(self) -> None:
        for index in sorted(self.processes):
            readiness.notify(f"STATUS=rolling restart: replacing worker {index} of {self.settings.cluster.workers}")
            if not await self._replace(index):
                readiness.notify(f"STATUS={self._listening_status()} (the last rolling restart stopped)")
                return
        log.info("rolling restart done: %d workers replaced", len(self.processes))
        readiness.notify(f"STATUS={self._listening_status()}")

    async def _replace(self, index: int) -> bool:
        """Worker `index` replaced by a new one that listens (the old one drained and gone); False when the new
        one did not come up, and the old one serves on."""
        successor = await self._spawn(index)
        if successor is None:
            log.error("rolling restart stopped: worker %d's replacement could not start", index)
            return False
        limit = self.settings.process.shutdown_timeout_s + STOP_GRACE_S
        try:
            came_up = await self._comes_up(successor)
        except asyncio.CancelledError:  # the supervisor is stopping: the replacement goes too
            await stop_within(successor, limit)
            raise
        if not came_up:
            log.error("rolling restart stopped: worker %d's replacement (pid %d) did not listen; the old one serves on",
                      index, successor.pid)
            await stop_within(successor, limit)
            return False
        predecessor = self.processes[index]
        self.processes[index] = successor  # its keeper adopts it once the predecessor exits
        log.info("rolling restart: worker %d is pid %d; draining pid %d", index, successor.pid, predecessor.pid)
        await asyncio.shield(stop_within(predecessor, limit))  # a stop meanwhile does not leave it half-stopped
        return True

    async def _comes_up(self, process: asyncio.subprocess.Process) -> bool:
        """True once `process` said READY=1 (it listens); False when it exited or READY_TIMEOUT_S passed first."""
        said_ready = asyncio.ensure_future(self._said_ready(process.pid))
        exited = asyncio.ensure_future(process.wait())
        try:
            await asyncio.wait([said_ready, exited], timeout=READY_TIMEOUT_S, return_when=asyncio.FIRST_COMPLETED)
        finally:
            said_ready.cancel()
            exited.cancel()
        return self._is_ready(process)

    async def _said_ready(self, pid: int) -> None:
        async with self._readiness:
            await self._readiness.wait_for(lambda: pid in self._ready)

    def _is_ready(self, process: asyncio.subprocess.Process) -> bool:
        return process.returncode is None and process.pid in self._ready

    async def _database_is_ready(self) -> bool:
        """`serve --check` in a child with these settings: it prints why not itself (one line on stderr)."""
        check = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "freecell_arena", "serve", "--check",
            env=settings_environment(self.settings), stdout=asyncio.subprocess.DEVNULL,
        )  # fmt: skip
        try:
            async with asyncio.timeout(CHECK_TIMEOUT_S):
                return await check.wait() == 0
        except TimeoutError:
            check.kill()
            await check.wait()
            print(f"freecell-arena: the database check did not finish in {CHECK_TIMEOUT_S:g} s", file=sys.stderr)
            return False

    async def _spawn(self, index: int) -> asyncio.subprocess.Process | None:
        """A new worker `index` (not yet registered as the one serving), or None when it could not start."""
        try:
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "freecell_arena", "serve",
                env=worker_environment(self.settings, index, self.port, self.notify_socket),
            )  # fmt: skip
        except OSError as error:
            log.error("worker %d could not start (%s)", index, error)
            return None
        self._started_at[process.pid] = time.monotonic()
        return process

    async def _keep_running(self, index: int) -> None:
        """Start worker `index`, and start it again whenever it exits, after a backoff that grows while it keeps
        dying young; a worker a rolling restart put in its place is adopted, not restarted. Return once the
        supervisor is stopping and the worker has exited. Never cancelled midway, so a worker being started when
        the stop comes is registered, told to stop and waited for like the rest."""
        backoff = FIRST_BACKOFF_S
        while not self.stopping.is_set():
            process = self.processes.get(index)
            if process is None or process.returncode is not None:
                process = await self._spawn(index)
                if process is not None:
                    self.processes[index] = process
                    if self.stopping.is_set():  # the stop came while it was starting: `_stop_workers` missed it
                        terminate(process)
            if process is not None:
                code = await process.wait()
                if self.stopping.is_set():
                    return
                if self.processes.get(index) is not process:  # a rolling restart replaced it
                    continue
                if time.monotonic() - self._started_at.pop(process.pid, 0.0) >= STABLE_AFTER_S:
                    backoff = FIRST_BACKOFF_S
                log.warning("worker %d (pid %d) %s; restarting it in %.1f s", index, process.pid,
                            describe_exit(code), backoff)
            else:
                log.error("worker %d: trying again in %.1f s", index, backoff)
            with contextlib.suppress(TimeoutError):  # the backoff, cut short by a stop
                await asyncio.wait_for(self.stopping.wait(), backoff)
            backoff = min(backoff * 2, MAX_BACKOFF_S)

    async def _stop_workers(self, keepers: list[asyncio.Task[None]]) -> bool:
        """SIGTERM to every running worker, then wait for their keepers; kill whoever is still there at the
        deadline. True when all stopped by themselves."""
        log.info("stopping: SIGTERM to %d workers", len(self.processes))
        for process in self.processes.values():
            terminate(process)
        _, late = await asyncio.wait(keepers, timeout=self.settings.process.shutdown_timeout_s + STOP_GRACE_S)
        if not late:
            return True
        for process in self.processes.values():
            if process.returncode is None:
                log.error("worker pid %d did not stop in time; killing it", process.pid)
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
        _, still = await asyncio.wait(late, timeout=STOP_GRACE_S)
        for keeper in still:
            keeper.cancel()
        return False


def terminate(process: asyncio.subprocess.Process) -> None:
    if process.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGTERM)


async def stop_within(process: asyncio.subprocess.Process, timeout_s: float) -> None:
    """SIGTERM, and SIGKILL if it has not exited after `timeout_s`; returns once it has exited."""
    terminate(process)
    try:
        async with asyncio.timeout(timeout_s):
            await process.wait()
    except TimeoutError:
        log.error("worker pid %d did not stop in time; killing it", process.pid)
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        await process.wait()


async def cancel_and_wait(task: asyncio.Task[None]) -> None:
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task

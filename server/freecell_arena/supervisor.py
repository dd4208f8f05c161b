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
  READY=1 to the manager once every worker said it there, i.e. listens (freecell_arena/readiness.py).
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
        with reservation, WorkerReadiness() as readiness_of_workers:
            self.notify_socket = readiness_of_workers.address
            port = int(reservation.getsockname()[1])
            print(f"freecell-arena: supervisor (pid {os.getpid()}) starting {settings.cluster.workers} workers on "
                  f"ws://{settings.process.host}:{port}/", flush=True)
            workers = range(1, settings.cluster.workers + 1)
            keepers = [asyncio.create_task(self._keep_running(index, port)) for index in workers]
            listening = asyncio.create_task(self._tell_when_listening(readiness_of_workers, port))
            await self.stopping.wait()
            readiness.stopping()
            listening.cancel()
            clean = await self._stop_workers(keepers)
        print("freecell-arena: stopped", flush=True)
        return 0 if clean else 1

    async def _tell_when_listening(self, workers: WorkerReadiness, port: int) -> None:
        """READY=1 to our own service manager once each of the workers said READY=1 to us: all listen."""
        ready: set[int] = set()
        count = self.settings.cluster.workers
        while len(self.processes) < count or not {p.pid for p in self.processes.values()} <= ready:
            ready.add(await workers.next_ready())
        log.info("all %d workers listen on port %d", count, port)
        readiness.ready(f"{count} workers listening on ws://{self.settings.process.host}:{port}/")

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

    async def _keep_running(self, index: int, port: int) -> None:
        """Start worker `index`, and start it again whenever it exits, after a backoff that grows while it keeps
        dying young; return once the supervisor is stopping and the worker has exited. Never cancelled midway,
        so a worker being started when the stop comes is registered, told to stop and waited for like the rest."""
        backoff = FIRST_BACKOFF_S
        while not self.stopping.is_set():
            started = time.monotonic()
            try:
                process = await asyncio.create_subprocess_exec(
                    sys.executable, "-m", "freecell_arena", "serve",
                    env=worker_environment(self.settings, index, port, self.notify_socket),
                )  # fmt: skip
            except OSError as error:
                log.error("worker %d could not start (%s); trying again in %.1f s", index, error, backoff)
            else:
                self.processes[index] = process
                if self.stopping.is_set():  # the stop came while it was starting: `_stop_workers` missed it
                    terminate(process)
                code = await process.wait()
                if self.stopping.is_set():
                    return
                if time.monotonic() - started >= STABLE_AFTER_S:
                    backoff = FIRST_BACKOFF_S
                log.warning("worker %d (pid %d) %s; restarting it in %.1f s", index, process.pid,
                            describe_exit(code), backoff)
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

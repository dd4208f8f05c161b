"""One worker process for the solver, so the event loop never runs it (it is pure Python: seconds of CPU).

The worker is a plain child process (`python -c ...` running `serve_requests` below) that reads a request from a
pipe, runs it and writes the answer back: pickled `(function, args, kwargs)` in, pickled `(ok, value)` out, each
after its length. It is started on first use and stopped only by its server, never by a signal meant for the
server:

- A stop sends SIGTERM (or SIGINT) to the server's whole process group (`kill -- -PGID`, a shell's Ctrl-C) or to
  every process of its cgroup (systemd's default `KillMode=control-group`), the worker included. The worker
  ignores both, from its first instruction: it is started with them blocked (a blocked signal mask survives
  fork and exec), then sets them to SIG_IGN and unblocks them. Its server decides its end: SIGKILL, at once.
- Nothing is shared between the two but the pipes, so a worker that dies at any moment (killed, out of memory)
  holds no lock of its server: the server reads the end of its pipe and says so (`SolverWorkerLost`), at once
  rather than after the task's longest time. (`multiprocessing.Pool` shares a queue and its lock: a worker
  killed by the group's SIGTERM while waiting for work held that lock, `Pool.terminate` waited for it forever
  in a thread, and `asyncio.run` waited for that thread at exit: the server never stopped.)
- No thread: the answer is read on the event loop, the worker is killed with SIGKILL and reaped by polling
  `waitpid` for at most `STOP_TIMEOUT_S`, so a shutdown never waits on anything it cannot bound.
- Linux: the worker is killed when its server dies (`PR_SET_PDEATHSIG`, SIGKILL since it ignores SIGTERM): a
  kill -9 of the server must not leave a solver running.

A task that does not answer within its longest time, or that is cancelled, replaces the worker (killed; the next
task starts a new one) before the error is raised.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import os
import pickle
import signal
import struct
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar, cast

PR_SET_PDEATHSIG = 1
STOP_TIMEOUT_S = 2.0
"""How long a killed worker may take to be reaped before it is left to the kernel (logged)."""
REAP_POLL_S = 0.02
STOP_SIGNALS = frozenset({signal.SIGTERM, signal.SIGINT})
HEADER = struct.Struct(">Q")  # the length of the pickle that follows
PARENT_PID_ENV = "FREECELL_ARENA_SOLVER_PARENT_PID"
T = TypeVar("T")
log = logging.getLogger(__name__)


class SolverWorkerLost(Exception):
    """The worker ended before it answered (killed, out of memory): the task has no answer."""


class SolverPool:
    """One worker, one task at a time (callers queue for it)."""

    def __init__(self) -> None:
        self._worker: _Worker | None = None
        self._turn = asyncio.Lock()
        self._stopping: set[asyncio.Task[None]] = set()
        self._closed = False

    async def run(self, function: Callable[..., T], args: Sequence[Any], kwargs: Mapping[str, Any],
                  longest_s: float) -> T:  # fmt: skip
        """`function(*args, **kwargs)` in the worker; `TimeoutError` after `longest_s`, `SolverWorkerLost` if the
        worker ended first (either way the worker is replaced); the function's own exception as raised there."""
        async with self._turn:
            if self._closed:
                raise SolverWorkerLost("the solver is closed (its server is stopping)")
            if self._worker is None:
                self._worker = await _Worker.start()
            worker = self._worker
            if self._closed:  # closed while the worker was being started: it must not take the task
                self._discard(worker)
                raise SolverWorkerLost("the solver was closed while its worker started (its server is stopping)")
            try:
                async with asyncio.timeout(longest_s):
                    ok, value = await worker.call(function, tuple(args), dict(kwargs))
            except BaseException:  # overran, lost, or cancelled mid-task: its pipe holds a late answer, or nothing
                self._discard(worker)
                raise
        if not ok:
            raise cast(BaseException, value)
        return cast(T, value)

    def _discard(self, worker: _Worker) -> None:
        """Kill the worker now (the next task starts another); it is reaped in the background (`close` waits)."""
        if self._worker is worker:
            self._worker = None
        if worker.killed:
            return
        worker.kill()
        task = asyncio.ensure_future(worker.reap())
        self._stopping.add(task)
        task.add_done_callback(self._stopping.discard)

    async def close(self) -> None:
        """Stop the worker and wait (a bounded time) until it is reaped. The task in progress, and every one waiting
        for its turn or asked later, raises `SolverWorkerLost` at once."""
        self._closed = True
        if self._worker is not None:
            self._discard(self._worker)
        if self._stopping:
            await asyncio.wait(set(self._stopping))


class _Worker:
    def __init__(self, process: subprocess.Popen[bytes], answers: asyncio.StreamReader,
                 transport: asyncio.BaseTransport) -> None:  # fmt: skip
        self.process = process
        self.answers = answers
        self.transport = transport
        self.killed = False

    @classmethod
    async def start(cls) -> _Worker:
        """A new worker process, immune to SIGTERM and SIGINT from its first instruction."""
        package_root = str(Path(__file__).resolve().parents[2])  # where `freecell_arena` is, installed or not
        boot = (f"import sys; sys.path.insert(0, {package_root!r}); "
                "from freecell_arena.net.solver_pool import serve_requests; serve_requests()")  # fmt: skip
        env = {**os.environ, PARENT_PID_ENV: str(os.getpid())}
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)  # inherited by the child; ours stay pending
        try:
            process = subprocess.Popen([sys.executable, "-c", boot], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       env=env, close_fds=True)  # fmt: skip
        except OSError as error:  # out of processes or memory: this task has no answer, the next one tries again
            raise SolverWorkerLost(f"the solver worker could not start: {error}") from error
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        assert process.stdout is not None
        answers = asyncio.StreamReader()
        loop = asyncio.get_running_loop()
        try:
            transport, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(answers), process.stdout)
        except BaseException:
            process.kill()
            process.wait()  # SIGKILL to a process we just started: reaped at once
            raise
        return cls(process, answers, transport)

    async def call(self, function: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> (
        tuple[bool, Any]
    ):
        request = pickle.dumps((function, args, kwargs))
        stdin = self.process.stdin
        assert stdin is not None
        try:  # a request is small and the worker reads it whole before anything else: the pipe takes it at once
            stdin.write(HEADER.pack(len(request)) + request)
            stdin.flush()
            header = await self.answers.readexactly(HEADER.size)
            answer = await self.answers.readexactly(HEADER.unpack(header)[0])
        except (OSError, asyncio.IncompleteReadError) as error:
            raise SolverWorkerLost(f"the solver worker (pid {self.process.pid}) ended before it answered") from error
        return cast(tuple[bool, Any], pickle.loads(answer))

    def kill(self) -> None:
        self.killed = True
        self.transport.close()
        with contextlib.suppress(OSError):
            if self.process.stdin is not None:
                self.process.stdin.close()
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()

    async def reap(self) -> None:
        """Wait (polling, no thread) until the killed worker is gone, at most STOP_TIMEOUT_S."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + STOP_TIMEOUT_S
        while self.process.poll() is None:
            if loop.time() >= deadline:
                log.warning("the solver worker (pid %d) was not gone %s s after SIGKILL: left to the kernel",
                            self.process.pid, STOP_TIMEOUT_S)  # fmt: skip
                return
            await asyncio.sleep(REAP_POLL_S)


# ---------------------------------------------------------------------------------------------- in the worker


def serve_requests() -> None:
    """The worker's loop: answer requests from standard input until it closes. Runs in the child process."""
    for signum in STOP_SIGNALS:  # born with them blocked: ignored before they can be delivered
        signal.signal(signum, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    _die_with_parent(int(os.environ.get(PARENT_PID_ENV, "0")))
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # a stray print of the task goes to the log, not into the answers
    requests = sys.stdin.buffer
    while (header := requests.read(HEADER.size)) and len(header) == HEADER.size:
        function, args, kwargs = pickle.loads(requests.read(HEADER.unpack(header)[0]))
        answer = _answer(function, args, kwargs)
        answers.write(HEADER.pack(len(answer)) + answer)
        answers.flush()


def _answer(function: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> bytes:
    try:
        return pickle.dumps((True, function(*args, **kwargs)))
    except Exception as error:
        try:
            return pickle.dumps((False, error))
        except Exception:  # an exception that does not pickle still says what it was
            return pickle.dumps((False, RuntimeError(f"{type(error).__name__}: {error}")))


def _die_with_parent(parent_pid: int) -> None:
    """Linux: the worker is killed when its server dies (SIGKILL: it ignores SIGTERM). A server that died before
    the request took effect is noticed at once."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if parent_pid and os.getppid() != parent_pid:
        os._exit(1)

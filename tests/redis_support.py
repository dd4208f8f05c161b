"""A throwaway `redis-server` (Debian package redis-server) for the tests: loopback only, nothing saved to disk.

`throwaway_redis()` starts one on a free 127.0.0.1 port with its own temporary directory and always stops it.
`RedisServer.stopped()` takes it down in the middle of a test and brings it back on the same port afterwards
(for "Redis restarted" tests). Readiness and health are checked with a raw RESP `PING` over a socket, so this
module needs nothing but the binary. Every wait is bounded.
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from services import free_port, start_on_a_free_port

START_TIMEOUT_S = 20.0
STOP_TIMEOUT_S = 10.0
NOT_INSTALLED = "redis-server is not installed (Debian package redis-server)"


def redis_binary() -> str | None:
    return shutil.which("redis-server") or next(
        (path for path in ("/usr/bin/redis-server", "/usr/sbin/redis-server") if Path(path).exists()), None
    )


def answers_ping(port: int, timeout: float = 1.0) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(64).startswith(b"+PONG")
    except OSError:
        return False


@dataclass
class RedisServer:
    binary: str
    base: Path
    port: int
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self) -> None:
        """Start on `self.port` and wait until it answers PING; RuntimeError (with its log) when it does not."""
        if self.running:
            return
        log = self.base / "redis.log"
        self.process = subprocess.Popen(
            [self.binary, "--save", "", "--appendonly", "no", "--bind", "127.0.0.1", "--port", str(self.port),
             "--dir", str(self.base), "--logfile", str(log), "--daemonize", "no"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + START_TIMEOUT_S
        while not answers_ping(self.port):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
                raise RuntimeError(f"redis-server did not start on port {self.port}: {tail}")
            time.sleep(0.05)

    def stop(self) -> None:
        """SIGTERM (it saves nothing, so it exits at once); SIGKILL if it has not exited in time."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=STOP_TIMEOUT_S)

    @contextlib.contextmanager
    def stopped(self) -> Iterator[None]:
        """Redis down for the body of the `with`, up again (same port, empty) afterwards, even on failure."""
        self.stop()
        try:
            yield
        finally:
            self.start()

    def flush(self) -> None:
        """Forget every key (pub/sub has no state to forget), so tests sharing the session's server start clean."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=5) as sock:
            sock.sendall(b"FLUSHALL\r\n")
            if not sock.recv(64).startswith(b"+OK"):
                raise RuntimeError("redis FLUSHALL failed")


@contextlib.contextmanager
def throwaway_redis() -> Iterator[RedisServer]:
    """A redis-server on a free loopback port with a temporary directory; always stopped and removed on exit.
    Raises RuntimeError when redis-server is not installed or does not start."""
    binary = redis_binary()
    if binary is None:
        raise RuntimeError(NOT_INSTALLED)
    base = Path(tempfile.mkdtemp(prefix="freecell-arena-redis-"))
    server = RedisServer(binary, base, free_port())
    try:
        start_on_a_free_port(server)
        yield server
    finally:
        server.stop()
        shutil.rmtree(base, ignore_errors=True)

"""Run `python -m freecell_arena serve` as a real process on a free loopback port; always killed in `finally`."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
LISTENING = re.compile(rb"listening on ws://127\.0\.0\.1:(\d+)/")
START_TIMEOUT_S = 30.0
LOG_TAIL_BYTES = 20_000


class ServerProcess:
    def __init__(self, process: asyncio.subprocess.Process, port: int) -> None:
        self.process = process
        self.port = port

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    async def wait(self, timeout: float = 30.0) -> int:
        async with asyncio.timeout(timeout):
            return await self.process.wait()

    async def stderr(self) -> str:
        assert self.process.stderr is not None
        async with asyncio.timeout(10):
            return (await self.process.stderr.read()).decode()


def server_env(**extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("FREECELL_ARENA_")}
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    env["FREECELL_ARENA_DAILY_PREPARE_INTERVAL_S"] = "0"  # no solver process behind the tests' back
    env["FREECELL_ARENA_MAX_CONNECTIONS_PER_ADDRESS"] = "100000"  # every test client is 127.0.0.1
    env["FREECELL_ARENA_NEW_PLAYERS_PER_MINUTE"] = "1000000000"
    env["FREECELL_ARENA_API_RATE_LIMIT_PER_S"] = "1000000"
    env["FREECELL_ARENA_API_RATE_LIMIT_BURST"] = "1000000"
    env["FREECELL_ARENA_PAR_AT_RACE_END"] = "false"  # no solver worker per finished race unless a test asks
    env.update(extra)
    return env


async def spawn(args: list[str], cwd: Path, env: dict[str, str], *, new_session: bool = False,
                log: Path | None = None) -> asyncio.subprocess.Process:  # fmt: skip
    """`new_session`: the server leads a process group of its own (`setsid`), which a test may signal whole.
    `log`: standard error goes to this file (appended), not to a pipe, for a server that may say more than a
    pipe holds while nobody reads it (a pipe left full blocks the server's next log line, and the server)."""
    if log is None:
        stderr: Any = asyncio.subprocess.PIPE
    else:
        with log.open("ab") as appended:
            stderr = os.dup(appended.fileno())
    try:
        return await asyncio.create_subprocess_exec(
            sys.executable, "-m", "freecell_arena", *args,
            cwd=cwd, env=env, stdout=asyncio.subprocess.PIPE, stderr=stderr, start_new_session=new_session,
        )  # fmt: skip
    finally:
        if log is not None:
            os.close(stderr)


async def run_command(*args: str, timeout: float = 120.0) -> tuple[int, str, str]:
    """`python -m freecell_arena ARGS` to its end (killed past `timeout`): exit code, standard output and error."""
    process = await spawn(list(args), REPO, server_env())
    try:
        async with asyncio.timeout(timeout):
            out, err = await process.communicate()
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


@contextlib.asynccontextmanager
async def running_server(
    cwd: Path, *, database_url: str | None = None, env: dict[str, str] | None = None, port: int = 0,
    new_session: bool = False, log: Path | None = None,
) -> AsyncIterator[ServerProcess]:
    """`port` 0 picks a free one; a fixed port lets a restarted server come back where its clients look.
    `new_session`: in a process group of its own (killed whole at the end). `log`: standard error to this file
    (`spawn`)."""
    # FREECELL_ARENA_TEST_SERVER_LOG=DEBUG shows what the servers did in a failing test's output
    args = ["serve", "--port", str(port), "--log-level", os.environ.get("FREECELL_ARENA_TEST_SERVER_LOG", "WARNING")]
    if database_url is not None:
        args += ["--database-url", database_url]
    process = await spawn(args, cwd, env or server_env(), new_session=new_session, log=log)
    try:
        assert process.stdout is not None
        async with asyncio.timeout(START_TIMEOUT_S):
            line = await process.stdout.readline()
        match = LISTENING.search(line)
        if match is None:
            said = log.read_bytes() if log is not None else await process.stderr.read()  # type: ignore[union-attr]
            raise AssertionError(f"server did not start: {line!r} {said[-2000:]!r}")
        yield ServerProcess(process, int(match.group(1)))
    except BaseException:
        await _stop(process, new_session)
        await _show_log(process, log)  # a failing test shows what the server said
        raise
    finally:
        await _stop(process, new_session)


async def _stop(process: asyncio.subprocess.Process, whole_group: bool = False) -> None:
    if whole_group:  # whatever of the group is left (the server leads it: its pid is the group's id)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    if process.returncode is None:
        process.kill()
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(10):
            await process.wait()


async def _show_log(process: asyncio.subprocess.Process, log: Path | None = None) -> None:
    with contextlib.suppress(Exception):
        if log is not None:
            tail = log.read_bytes()[-LOG_TAIL_BYTES:]
        else:
            assert process.stderr is not None
            async with asyncio.timeout(5):
                tail = (await process.stderr.read())[-LOG_TAIL_BYTES:]
        text = tail.decode(errors="replace")
        print(f"--- server pid {process.pid} stderr (last {LOG_TAIL_BYTES} bytes):\n{text}", file=sys.stderr)


async def http_get_json(port: int, path: str, timeout: float = 5.0) -> tuple[int, dict[str, Any]]:
    """GET `path` on a fresh TCP connection (so behind SO_REUSEPORT or a balancer each call may reach another
    process); the status and the JSON body."""
    status, _, body = await http_get(port, path, timeout=timeout)
    return status, json.loads(body)


async def http_get(port: int, path: str, *, timeout: float = 5.0, **headers: str) -> tuple[int, dict[str, str], bytes]:
    """GET `path` on a fresh TCP connection with `headers`: the status, the headers (lower-case names), the body."""
    lines = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
    async with asyncio.timeout(timeout):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{lines}Connection: close\r\n\r\n".encode())
            await writer.drain()
            raw = await reader.read()
        finally:
            writer.close()
    head, _, body = raw.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode(errors="replace").split("\r\n")
    found = dict(line.split(": ", 1) for line in header_lines if ": " in line)
    return int(status_line.split(" ", 2)[1]), {name.lower(): value for name, value in found.items()}, body


async def metric_value(port: int, name: str, timeout: float = 5.0) -> float:
    """One unlabelled sample of `GET /metrics` (e.g. `freecell_arena_room_resyncs_total`), parsed by
    prometheus_client's own text parser."""
    from prometheus_client.parser import text_string_to_metric_families

    async with asyncio.timeout(timeout):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            writer.write(f"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
            await writer.drain()
            raw = await reader.read()
        finally:
            writer.close()
    text = raw.partition(b"\r\n\r\n")[2].decode()
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and not sample.labels:
                return float(sample.value)
    raise AssertionError(f"no sample {name} in /metrics of port {port}")

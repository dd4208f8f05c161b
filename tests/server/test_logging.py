"""What a start logs, read from real processes' standard error: at INFO a line each for the version, the
database, Redis (passwords hidden) and the workers, and none of the libraries' chatter (Alembic's
`setup plugin ...` lines, websockets' `HTTP response sent`) nor the listener's `server listening`, which show at
DEBUG."""

from __future__ import annotations

import asyncio
import contextlib
import platform
import re
import signal
from pathlib import Path

import pytest
from serverprocess import http_get_json, server_env, spawn
from services import free_port

from freecell_arena import __version__
from freecell_arena.logs import hide_password

WAIT_S = 60.0
ADDRESS = re.compile(rb"ws://127\.0\.0\.1:(\d+)/")
LINE = re.compile(r"^\S+ \S+ (?P<level>[A-Z]+) (?P<label>(?:supervisor|worker \d) \(pid \d+\): )?(?P<name>[\w.]+): ")


async def run_until_listening(tmp_path: Path, args: list[str], listeners: int = 1, **env: str) -> tuple[str, str]:
    """`serve` with `args` until `listeners` processes printed their `listening on` line and answer, then
    SIGTERM: its standard output and standard error."""
    process = await spawn(["serve", "--port", "0", *args], tmp_path, server_env(**env))
    assert process.stdout is not None and process.stderr is not None
    stdout: list[bytes] = []
    errors = asyncio.create_task(process.stderr.read())  # read as it comes: at DEBUG the libraries log enough
    # to fill the pipe, and a server blocked writing its log never says it listens
    try:
        async with asyncio.timeout(WAIT_S):
            while sum(b"listening on" in line for line in stdout) < listeners:
                line = await process.stdout.readline()
                assert line, f"no start: {b''.join(stdout)!r} {await errors!r}"
                stdout.append(line)
            port = int(ADDRESS.findall(b"".join(stdout))[0])
            answered: set[int] = set()
            while len(answered) < listeners:  # every process started up to answering, as an operator would see it
                with contextlib.suppress(OSError, ValueError):
                    answered.add((await http_get_json(port, "/healthz"))[1]["pid"])
            process.send_signal(signal.SIGTERM)
            rest = await process.stdout.read()
            await process.wait()
            stderr = await errors
        assert process.returncode == 0, stderr.decode()
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
        errors.cancel()
    return (b"".join(stdout) + rest).decode(), stderr.decode()


def records(stderr: str) -> list[re.Match[str]]:
    """Every log record's first line (a traceback's lines are not records)."""
    return [match for line in stderr.splitlines() if (match := LINE.match(line))]


def start_lines(stderr: str) -> list[str]:
    return [line.split("freecell_arena.start: ", 1)[1] for line in stderr.splitlines()
            if " INFO " in line and "freecell_arena.start: " in line]


async def test_a_start_at_info_says_what_runs_where_and_nothing_of_the_libraries(tmp_path: Path) -> None:
    redis_port = free_port()  # nothing listens there: the start goes on, Redis is retried in the background
    database = f"sqlite+aiosqlite:///{tmp_path / 'fresh.db'}"
    _, stderr = await run_until_listening(
        tmp_path, ["--log-level", "INFO", "--database-url", database],
        FREECELL_ARENA_REDIS_URL=f"redis://:s3cret@127.0.0.1:{redis_port}/0",
    )  # fmt: skip
    assert start_lines(stderr) == [
        f"freecell-arena {__version__} on Python {platform.python_version()}",
        f"database {database}",
        f"redis redis://:***@127.0.0.1:{redis_port}/0",
        "workers: 1 (this process)",
    ], stderr
    assert "s3cret" not in stderr
    found = records(stderr)
    assert found, stderr
    libraries = [match.group(0) for match in found if not match.group("name").startswith("freecell_arena")]
    assert all(" WARNING " in line or " ERROR " in line for line in libraries), libraries
    assert "alembic" not in stderr and "server listening" not in stderr, stderr


async def test_the_libraries_chatter_shows_at_debug(tmp_path: Path) -> None:
    database = f"sqlite+aiosqlite:///{tmp_path / 'fresh.db'}"
    _, stderr = await run_until_listening(tmp_path, ["--log-level", "DEBUG", "--database-url", database])
    assert re.search(r" DEBUG alembic\.runtime\.plugins: setup plugin alembic\.autogenerate", stderr)
    assert re.search(r" DEBUG websockets\.server: HTTP response sent \(200 OK\)", stderr)  # the health check's
    assert re.search(r" DEBUG freecell_arena\.net\.game_socket: server listening on 127\.0\.0\.1:\d+", stderr)
    assert not re.search(r" INFO (alembic|websockets)", stderr)


@pytest.mark.postgres
@pytest.mark.redis
async def test_a_supervisor_describes_the_start_once_and_its_workers_stay_quiet(
    tmp_path: Path, postgres_database_url: str, redis_url: str
) -> None:
    args = ["--log-level", "INFO", "--workers", "2", "--database-url", postgres_database_url, "--redis-url", redis_url]
    stdout, stderr = await run_until_listening(tmp_path, args, listeners=2)
    assert stdout.startswith("freecell-arena: supervisor (pid ")
    lines = start_lines(stderr)
    assert lines[0].startswith(f"freecell-arena {__version__} on Python ")
    assert lines[1:] == [f"database {postgres_database_url}", f"redis {redis_url}", "workers: 2 on one port, "
                         "each restarted when it dies"], stderr
    assert all(match.group("label").startswith("supervisor") for match in records(stderr)
               if match.group("name") == "freecell_arena.start"), "the start is described by the supervisor"
    assert "alembic" not in stderr and "websockets" not in stderr, stderr


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("sqlite+aiosqlite:///freecell-arena.db", "sqlite+aiosqlite:///freecell-arena.db"),
        ("postgresql+asyncpg://arena:pw@db:5432/arena", "postgresql+asyncpg://arena:***@db:5432/arena"),
        ("redis://:pw@127.0.0.1:6379/0", "redis://:***@127.0.0.1:6379/0"),
        ("rediss://user:p%40w@host/0?password=pw&db=1", "rediss://user:***@host/0?password=***&db=1"),
        ("unix://:pw@/run/redis.sock?db=0", "unix://:***@/run/redis.sock?db=0"),
        ("redis://user@host:6379/0", "redis://user@host:6379/0"),
    ],
)
def test_passwords_are_hidden_and_the_rest_of_the_url_kept(url: str, shown: str) -> None:
    assert hide_password(url) == shown

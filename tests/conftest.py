"""Shared fixtures: a throwaway PostgreSQL 15 for the session, and a fresh migrated database per test.

`postgres_url` starts PostgreSQL on 127.0.0.1 on a free port (initdb + pg_ctl, as the `postgres` OS user when
the tests run as root), creates a database, and always stops the server at the end. Without PostgreSQL
installed the postgres tests are skipped, except under CI=true, where that is a failure.

`database_url` is parametrized over sqlite and postgres: every test that takes it runs on both backends,
each time on a fresh database at the head migration (copied from a template migrated once per session).

`redis_server` is a throwaway redis-server for the session (tests/redis_support.py), under the same rule;
`redis_url` hands it to one test, running and empty.
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import hypothesis
import pytest
from redis_support import NOT_INSTALLED as REDIS_NOT_INSTALLED
from redis_support import RedisServer, redis_binary, throwaway_redis
from services import free_port, service_missing, start_on_a_free_port

from freecell_arena.store import migrate

# Imported here, at collection, on purpose: pytest rewrites hypothesis (a plugin) with `ast.parse` when it is first
# imported, and a lazy first import in the middle of a test that runs threads (bots, aiosqlite) can hit CPython
# 3.11.7's gh-106905 ("SystemError: AST constructor recursion depth mismatch", fixed in 3.11.8).
# No per-example deadline: it is a timed assertion (speed is measured by bench/, never asserted in a test), and an
# example slowed by a busy machine or a first lazy import failed as "DeadlineExceeded"/"Flaky".
hypothesis.settings.register_profile("freecell_arena", deadline=None)
hypothesis.settings.load_profile("freecell_arena")

HEAVY_FIRST = ("web", "server", "moderation", "sdk", "store", "accounts")
"""The folders in the order of their files' run time (a clean run of 2026-12-07, seconds of worker time: browsers
1,164, server 932, moderation 548, SDK 285, store 92, accounts 49; every other file together under 90), run first.
pytest-xdist hands the workers whole files (--dist loadfile) in collection order, and pytest collects tests/web
last: a browser file of minutes then ran alone at the end while the other worker idled (a clean clone's suite went
from 1,635 s to past its 30-minute guard with nothing failed). Longest first, the last files handed out are the
engine's, core's and the solver's quick ones, and the workers end together."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    tests = Path(__file__).parent

    def heaviness(item: pytest.Item) -> int:
        top = item.path.relative_to(tests).parts[0]
        return HEAVY_FIRST.index(top) if top in HEAVY_FIRST else len(HEAVY_FIRST)

    items.sort(key=heaviness)  # stable: each file's tests, and the files of one folder, keep their order


POSTGRES_OS_USER = "postgres"
START_TIMEOUT_S = 60
COMMAND_TIMEOUT_S = 90
TEMPLATE_DATABASE = "freecell_arena_template"

T = TypeVar("T")


def run_coroutine(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run `coroutine` to the end from sync code, even when called while an event loop runs (e.g. a fixture
    requested with `request.getfixturevalue` inside an async test): then it runs on a fresh loop in a thread."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    with ThreadPoolExecutor(max_workers=1) as executor:
        return executor.submit(asyncio.run, coroutine).result()


def postgres_bindir() -> Path | None:
    """Where initdb and pg_ctl are: `pg_config --bindir`, else the newest /usr/lib/postgresql/*/bin."""
    candidates: list[str] = []
    if shutil.which("pg_config"):
        try:
            out = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True, timeout=10, check=True)
            candidates.append(out.stdout.strip())
        except (OSError, subprocess.SubprocessError):
            pass
    versions = glob.glob("/usr/lib/postgresql/*/bin")
    candidates += sorted(versions, key=lambda path: int(Path(path).parent.name), reverse=True)
    for candidate in candidates:
        if (Path(candidate) / "initdb").exists() and (Path(candidate) / "pg_ctl").exists():
            return Path(candidate)
    return None


@dataclass
class PostgresServer:
    """A running throwaway PostgreSQL: create and drop databases, build their URLs."""

    bindir: Path
    base: Path
    port: int
    as_postgres: list[str]
    counter: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    @property
    def data(self) -> Path:
        return self.base / "data"

    def url(self, database: str) -> str:
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/{database}"

    def run(self, *command: str, timeout: float = COMMAND_TIMEOUT_S) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*self.as_postgres, str(self.bindir / command[0]), *command[1:]],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=self.base,
        )

    def sql(self, statement: str) -> None:
        """Run one statement on the `postgres` database (CREATE/DROP DATABASE cannot run in a transaction)."""
        run_coroutine(_execute(self.port, statement))

    def create_database(self, template: str | None = None) -> str:
        """A new empty (or template-copied) database; returns its name."""
        name = f"test_{next(self.counter)}"
        self.sql(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
        return name

    def drop_database(self, name: str) -> None:
        self.sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def start(self) -> None:
        options = f"-p {self.port} -k {self.base} -c listen_addresses=127.0.0.1 -c fsync=on"
        result = self.run(
            "pg_ctl", "start", "-w", "-t", str(START_TIMEOUT_S), "-D", str(self.data),
            "-l", str(self.base / "server.log"), "-o", options,
        )  # fmt: skip
        if result.returncode != 0:
            raise RuntimeError(f"pg_ctl start failed: {result.stdout}{result.stderr}{self.log_tail()}")

    def stop(self) -> None:
        """Fast shutdown; if that does not finish in time, an immediate one."""
        try:
            result = self.run("pg_ctl", "stop", "-D", str(self.data), "-m", "fast", "-w", "-t", "30", timeout=45)
            if result.returncode == 0:
                return
        except subprocess.TimeoutExpired:
            pass
        self.run("pg_ctl", "stop", "-D", str(self.data), "-m", "immediate", "-w", "-t", "30", timeout=45)

    def log_tail(self) -> str:
        log = self.base / "server.log"
        return "\n" + "\n".join(log.read_text(errors="replace").splitlines()[-20:]) if log.exists() else ""


async def _execute(port: int, statement: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(host="127.0.0.1", port=port, user="postgres", database="postgres", timeout=30)
    try:
        await connection.execute(statement, timeout=60)
    finally:
        await connection.close(timeout=10)


NOT_INSTALLED = "PostgreSQL is not installed (no initdb in pg_config --bindir or /usr/lib/postgresql/*/bin)"


@contextlib.contextmanager
def throwaway_postgres() -> Iterator[PostgresServer]:
    """A PostgreSQL started on 127.0.0.1 on a free port with a data directory under /tmp; always stopped and
    removed on exit. Raises RuntimeError when PostgreSQL is not installed or does not start.
    (Also used by bench/load.py and bench/leaderboard.py.)"""
    bindir = postgres_bindir()
    if bindir is None:
        raise RuntimeError(NOT_INSTALLED)
    # Under /tmp, not pytest's tmp_path: the postgres user must be able to reach it (pytest's base is 0700).
    base = Path(tempfile.mkdtemp(prefix="freecell-arena-pg-"))
    as_postgres: list[str] = []
    if os.geteuid() == 0:  # initdb refuses to run as root
        account = pwd.getpwnam(POSTGRES_OS_USER)
        os.chown(base, account.pw_uid, account.pw_gid)
        as_postgres = ["runuser", "-u", POSTGRES_OS_USER, "--"]
    server = PostgresServer(bindir, base, free_port(), as_postgres)
    try:
        result = server.run("initdb", "-D", str(server.data), "-A", "trust", "-U", "postgres", "--no-sync")
        if result.returncode != 0:
            raise RuntimeError(f"initdb failed: {result.stdout}{result.stderr}")
        start_on_a_free_port(server)
        try:
            yield server
        finally:
            server.stop()
    finally:
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    if postgres_bindir() is None:
        service_missing(NOT_INSTALLED)
    with throwaway_postgres() as server:
        yield server


@pytest.fixture(scope="session")
def postgres_url(postgres_server: PostgresServer) -> str:
    """The URL of an empty database on the session's PostgreSQL (`postgresql+asyncpg://...`)."""
    return postgres_server.url(postgres_server.create_database())


@pytest.fixture(scope="session")
def _postgres_template(postgres_server: PostgresServer) -> str:
    """A database migrated once to head; fresh per-test databases are copies of it."""
    postgres_server.sql(f'CREATE DATABASE "{TEMPLATE_DATABASE}"')
    run_coroutine(migrate(postgres_server.url(TEMPLATE_DATABASE)))
    return TEMPLATE_DATABASE


@pytest.fixture(scope="session")
def _sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("sqlite-template") / "template.db"
    run_coroutine(migrate(f"sqlite+aiosqlite:///{path}"))
    # closing the last connection checkpointed the WAL into the file, so the file alone is the database
    assert not Path(f"{path}-wal").exists() or Path(f"{path}-wal").stat().st_size == 0
    return path


@contextlib.contextmanager
def migrated_database(request: pytest.FixtureRequest, backend: str, sqlite_path: Path) -> Iterator[str]:
    """A fresh database at the head migration: a copy of the session's template on `backend`."""
    if backend == "sqlite":
        shutil.copyfile(request.getfixturevalue("_sqlite_template"), sqlite_path)
        yield f"sqlite+aiosqlite:///{sqlite_path}"
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    name = server.create_database(template=request.getfixturevalue("_postgres_template"))
    try:
        yield server.url(name)
    finally:
        server.drop_database(name)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database at the head migration, on each backend in turn."""
    with migrated_database(request, request.param, tmp_path / "arena.db") as url:
        yield url


@pytest.fixture
def sqlite_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh SQLite database at the head migration, for tests whose subject does not depend on the backend."""
    with migrated_database(request, "sqlite", tmp_path / "arena.db") as url:
        yield url


@pytest.fixture
def twin_database_url(request: pytest.FixtureRequest, tmp_path: Path, database_url: str) -> Iterator[str]:
    """A second fresh database at the head migration, on the same backend as `database_url`."""
    backend = "sqlite" if database_url.startswith("sqlite") else "postgres"
    with migrated_database(request, backend, tmp_path / "twin.db") as url:
        yield url


@pytest.fixture
def empty_database_url(request: pytest.FixtureRequest, tmp_path: Path, database_url: str) -> Iterator[str]:
    """A database with no schema on the same backend as `database_url` (for migration tests)."""
    if database_url.startswith("sqlite"):
        yield f"sqlite+aiosqlite:///{tmp_path / 'empty.db'}"
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    name = server.create_database()
    try:
        yield server.url(name)
    finally:
        server.drop_database(name)


@pytest.fixture
def postgres_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database at the head migration on the session's PostgreSQL only (several processes need it)."""
    with migrated_database(request, "postgres", tmp_path / "unused.db") as url:
        yield url


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """The session's redis-server on a free 127.0.0.1 port; `redis_server.stopped()` takes it down mid-test."""
    if redis_binary() is None:
        service_missing(REDIS_NOT_INSTALLED)
    with throwaway_redis() as server:
        yield server


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    """The session's Redis, running (a test that stopped it got it back) and with no keys left from others."""
    redis_server.start()
    redis_server.flush()
    return redis_server.url

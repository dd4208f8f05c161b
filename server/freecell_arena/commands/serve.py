"""`freecell-arena serve`: the game server on one port (websocket protocol, `GET /healthz`, the browser app).

On the embedded default (a SQLite file) it creates and migrates the database on first run. On PostgreSQL
it refuses an unmigrated database and names the command that migrates it. SIGTERM (and Ctrl-C) stop it
cleanly: stop accepting, flush pending writes, close connections with a reason, exit 0.

With `--workers N` (N > 1) it supervises N such servers on the same port instead (`freecell_arena/supervisor.py`);
that needs PostgreSQL and Redis, and asking for it without them is refused with one line naming what to set.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import inspect
import logging
import os
import signal
import sys
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from freecell_arena import readiness
from freecell_arena.build import running_build
from freecell_arena.commands.common import one_line
from freecell_arena.settings import Settings

MIGRATE_HINT = "freecell-arena migrate --database-url {url}"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", help="interface to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, help="TCP port (default 8765; 0 = any free port)")
    parser.add_argument("--database-url", help="database URL (default sqlite+aiosqlite:///freecell-arena.db)")
    parser.add_argument("--log-level", help="logging level (default INFO)")
    parser.add_argument("--workers", type=int, help="server processes on the port (default 1; more: PostgreSQL, Redis)")
    parser.add_argument("--redis-url", help="Redis for room events between processes, e.g. redis://127.0.0.1:6379/0")
    parser.add_argument("--check", action="store_true",
                        help="check the settings and the database (a SQLite file is migrated), then exit: 0 when ready")
    parser.set_defaults(run=run)


def settings_from(args: argparse.Namespace) -> Settings:
    """Environment (FREECELL_ARENA_*) first, then the flags that were given."""
    overrides = {
        name: value
        for name in ("host", "port", "database_url", "log_level", "workers", "redis_url")
        if (value := getattr(args, name, None)) is not None
    }
    return Settings.from_names(overrides)


def is_sqlite(url: str) -> bool:
    return url.startswith("sqlite")


async def _maybe_await(value: Any) -> Any:
    return await value if inspect.isawaitable(value) else value


class NotMigrated(Exception):
    pass


async def prepare_database(url: str) -> None:
    from freecell_arena.store import DatabaseNotMigratedError, check_migrated, migrate

    if is_sqlite(url):
        _require_sqlite_folder(url)
        await _maybe_await(migrate(url))
        return
    try:
        ready = await _maybe_await(check_migrated(url))
    except DatabaseNotMigratedError:
        raise NotMigrated(url) from None
    if ready is False:
        raise NotMigrated(url)


def _require_sqlite_folder(url: str) -> None:
    """A SQLite file goes into a folder that must exist: said here, before a driver thread is started for it
    (its failure could outlive the event loop and print a traceback on the way out)."""
    from pathlib import Path

    from freecell_arena.store.urls import parse_database_url

    database = parse_database_url(url).database
    if database and database != ":memory:" and not database.startswith("file:"):
        folder = Path(database).expanduser().absolute().parent
        if not folder.is_dir():
            raise OSError(f"the folder {folder} does not exist")


def cluster_problem(settings: Settings) -> str | None:
    """Why these settings cannot run several processes (one line naming what to set), or None. Several
    processes share rooms through PostgreSQL (room state, conditional transitions) and Redis (room events);
    a SQLite file belongs to one process."""
    if settings.cluster.workers <= 1:
        return None
    if is_sqlite(settings.store.database_url):
        return (f"--workers {settings.cluster.workers} needs PostgreSQL: set FREECELL_ARENA_DATABASE_URL "
                "(or --database-url) to postgresql+asyncpg://USER:PASSWORD@HOST/DB, or run one worker on SQLite")
    if settings.cluster.redis_url is None:
        return (f"--workers {settings.cluster.workers} needs Redis: set FREECELL_ARENA_REDIS_URL (or --redis-url), "
                "e.g. redis://127.0.0.1:6379/0")
    return None


async def database_is_ready(settings: Settings) -> bool:
    """Migrate a SQLite file, or check that PostgreSQL is migrated; on failure print one line and say False."""
    from sqlalchemy.exc import SQLAlchemyError

    from freecell_arena.store import DatabaseUrlError, StoreError
    from freecell_arena.store.urls import display_url

    try:
        await prepare_database(settings.store.database_url)
    except NotMigrated:
        hint = MIGRATE_HINT.format(url=display_url(settings.store.database_url))
        print(f"freecell-arena: the database is not migrated; run `{hint}` first", file=sys.stderr)
        return False
    except DatabaseUrlError as error:
        print(f"freecell-arena: {error}", file=sys.stderr)
        return False
    except (StoreError, SQLAlchemyError, OSError) as error:
        print(f"freecell-arena: cannot use the database {display_url(settings.store.database_url)}: {one_line(error)}",
              file=sys.stderr)
        return False
    return True


async def serve_until_stopped(settings: Settings, worker_label: str = "") -> int:
    from freecell_arena.net.app import ArenaServer
    from freecell_arena.store import GroupCommitWriter, SqlStore
    from freecell_arena.store.urls import display_url

    if not await database_is_ready(settings):
        return 2
    store = SqlStore(settings.store.database_url)
    writer = GroupCommitWriter(store, max_delay_ms=settings.store.commit_delay_ms)
    server = ArenaServer(settings, store, writer)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    try:
        await server.start()
    except OSError as error:
        await store.close()
        where = f"{settings.process.host}:{settings.process.port}"
        print(f"freecell-arena: cannot listen on {where}: {error.strerror}", file=sys.stderr)
        return 2
    tune_garbage_collector(settings.process.gc_threshold_values)
    print(f"freecell-arena: {worker_label}listening on ws://{settings.process.host}:{server.port}/ "
          f"(database {display_url(settings.store.database_url)}, engine {running_build()})")
    print(f"freecell-arena: {worker_label}play at {browser_url(settings.process.host, server.port)}", flush=True)
    readiness.ready(f"listening on ws://{settings.process.host}:{server.port}/")
    await stop.wait()
    readiness.stopping()
    logging.getLogger(__name__).info("stopping: flushing writes and closing connections")
    await server.shutdown()
    print("freecell-arena: stopped", flush=True)
    return 0


def browser_url(host: str, port: int) -> str:
    """The address to open in a browser: a wildcard interface is reached on this machine as localhost."""
    if host in ("", "0.0.0.0", "::"):
        host = "localhost"
    elif ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def tune_garbage_collector(thresholds: tuple[int, int, int]) -> None:
    """Once started: everything alive now (modules, schemas, metadata) lives as long as the process, so it is
    frozen out of every future collection (`gc.freeze`), and collections run less often (`gc_thresholds`; see
    docs/performance.md for what they cost). Reference counting still frees almost everything at once; only
    cycles wait for a collection."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*thresholds)


def loop_factory(choice: str) -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's loop (less CPU per frame for the same asyncio code), or None for the standard loop."""
    if choice == "asyncio":
        return None
    try:
        import uvloop
    except ImportError:
        if choice == "uvloop":
            raise
        return None
    return uvloop.new_event_loop


def run(args: argparse.Namespace) -> int:
    try:
        settings = settings_from(args)
    except ValidationError as error:
        first = error.errors(include_url=False)[0]
        print(f"freecell-arena: bad setting {Settings.name_at(first['loc'])}: {first['msg']}", file=sys.stderr)
        return 2
    problem = cluster_problem(settings)
    if problem is not None:
        print(f"freecell-arena: {problem}", file=sys.stderr)
        return 2
    from freecell_arena import logs, supervisor

    worker_label = supervisor.become_worker()
    process_label = worker_label or (f"supervisor (pid {os.getpid()}): " if settings.cluster.workers > 1 else "")
    logs.configure(settings.process.log_level, process_label)
    checking = getattr(args, "check", False)
    if not worker_label and not checking:
        logs.describe_start(settings)
    try:
        factory = loop_factory(settings.process.event_loop)
    except ImportError:
        print("freecell-arena: FREECELL_ARENA_EVENT_LOOP=uvloop but uvloop is not installed", file=sys.stderr)
        return 2
    with asyncio.Runner(loop_factory=factory) as runner:
        if checking:
            if not runner.run(database_is_ready(settings)):
                return 2
            print("freecell-arena: the settings and the database are ready", flush=True)
            return 0
        if settings.cluster.workers > 1:
            return runner.run(supervisor.Supervisor(settings).run())
        return runner.run(serve_until_stopped(settings, worker_label))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="freecell-arena serve")
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())

"""`freecell-arena backup PATH [--database-url URL]`: a consistent copy of the database, taken while it serves.

- SQLite: SQLite's online backup API (`sqlite3.Connection.backup`) in one step, so the copy is the database as one
  read transaction sees it: every transaction committed before the step began, none half. In WAL mode the
  server's writes go on meanwhile, never blocked (a backup in several steps would start over at each of them).
  Never a file copy: a file copied while the server writes may hold half a transaction, and misses what is
  committed in the `-wal` file. The copy is written to a temporary file beside PATH, checked (`PRAGMA
  quick_check`), synced and renamed: PATH is a whole backup or nothing.
- PostgreSQL: `pg_dump --format=custom` (one snapshot, while the server writes), restored with `pg_restore`; the
  password goes to pg_dump in its environment (`PGPASSWORD`), never on a command line. Point-in-time recovery (a
  base backup and WAL archiving) is PostgreSQL's own: docs/server.md, "Backups", says how.

Every move acknowledged before the backup began is in it: a move is acknowledged only once committed. The restore
steps, and the audit to run on a restored copy, are in docs/server.md.
Exit 0 with one line saying what was written; 2 (one line) when PATH exists, the database cannot be read, or
pg_dump is missing.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from freecell_arena.commands.common import database_url_argument, fail, one_line

if TYPE_CHECKING:
    from sqlalchemy.engine import URL

PG_DUMP_TIMEOUT_S = 6 * 3600.0
SQLITE_BUSY_TIMEOUT_MS = 30_000  # a reader waits only while a checkpoint resets the WAL: moments


class BackupError(Exception):
    """Why the backup was not taken: printed as one line, exit 2."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Write a consistent copy of the database to PATH while the server runs: SQLite's online backup of a SQLite "
        "file, pg_dump's custom format for PostgreSQL (restore it with pg_restore). PATH must not exist."
    )
    parser.add_argument("path", type=Path, metavar="PATH", help="the backup file to write (it must not exist)")
    database_url_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from freecell_arena.store import DatabaseUrlError, database_url_from_env
    from freecell_arena.store.urls import display_url, parse_database_url

    url = args.database_url or database_url_from_env()
    target: Path = args.path
    try:
        parsed = parse_database_url(url)
        if target.exists():
            raise BackupError(f"{target} exists: give a new path (a backup never overwrites)")
        if not target.absolute().parent.is_dir():
            raise BackupError(f"the folder {target.absolute().parent} does not exist")
        started = time.monotonic()
        if parsed.get_backend_name() == "sqlite":
            backup_sqlite(Path(parsed.database or ""), target)
        else:
            dump_postgres(parsed.set(drivername="postgresql"), target)
    except (BackupError, DatabaseUrlError) as error:
        return fail(f"no backup of {display_url(url)}: {error}")
    except (sqlite3.Error, OSError) as error:
        return fail(f"no backup of {display_url(url)}: {one_line(error)}")
    print(f"freecell-arena: backed up {display_url(url)} to {target} ({target.stat().st_size:,} bytes in "
          f"{time.monotonic() - started:.1f} s)")  # fmt: skip
    return 0


def backup_sqlite(database: Path, target: Path) -> None:
    """The online backup in one step, checked (`PRAGMA quick_check`)."""
    if not database.is_file():
        raise BackupError(f"there is no SQLite file {database}")
    with written_whole(target) as partial:
        # an ordinary connection (a read-only one leaves behind the -wal and -shm files it had to create, owned by
        # whoever ran the backup); it only reads, and as the last connection to close it removes them as a server does
        source = sqlite3.connect(database)
        try:
            source.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
            copy = sqlite3.connect(partial)
            try:
                source.backup(copy, pages=-1)  # one step: one read transaction, one consistent state
                verdict = copy.execute("PRAGMA quick_check").fetchone()[0]
                if verdict != "ok":
                    raise BackupError(f"the copy does not pass SQLite's quick_check: {verdict}")
            finally:
                copy.close()
        finally:
            source.close()


def dump_postgres(url: URL, target: Path) -> None:
    """`pg_dump --format=custom` of the database at `url` (a SQLAlchemy URL of the postgresql backend)."""
    pg_dump = shutil.which("pg_dump")
    if pg_dump is None:
        raise BackupError("pg_dump is not installed (Debian: apt-get install postgresql-client)")
    query = dict(url.query)
    if "ssl" in query:  # asyncpg's name for what libpq calls sslmode
        query["sslmode"] = query.pop("ssl")
    libpq = url.set(password=None, query=query).render_as_string(hide_password=False)
    env = dict(os.environ)
    if url.password is not None:
        env["PGPASSWORD"] = str(url.password)
    with written_whole(target) as partial:
        result = subprocess.run(
            [pg_dump, "--format=custom", "--no-owner", "--no-privileges", f"--file={partial}", f"--dbname={libpq}"],
            env=env, capture_output=True, text=True, timeout=PG_DUMP_TIMEOUT_S,
        )  # fmt: skip
        if result.returncode != 0:
            raise BackupError(f"pg_dump failed: {one_line(RuntimeError(result.stderr))}")


@contextlib.contextmanager
def written_whole(target: Path) -> Iterator[Path]:
    """A temporary path beside `target` to write the backup to; once written: synced, renamed to `target` (the
    folder synced too), so `target` is a whole backup or nothing. Removed if anything fails."""
    partial = target.with_name(f".{target.name}.partial")
    try:
        yield partial
        _sync(partial)
        os.replace(partial, target)
        _sync(target.absolute().parent)
    finally:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()


def _sync(path: Path) -> None:
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)

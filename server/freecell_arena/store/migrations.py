"""Alembic, driven from Python: `migrate(url)` upgrades to head, `check_migrated(url)` refuses an old schema.

The URL always comes from the application (argument, `--database-url`, or `FREECELL_ARENA_DATABASE_URL`),
never from alembic.ini. Both functions are coroutines so the server can call them on its own event loop: the
migration runs on an async connection that is handed to Alembic's env.py (`config.attributes["connection"]`),
as in Alembic's "programmatic API use with asyncio" recipe.
"""

from __future__ import annotations

import importlib.resources
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import pool
from sqlalchemy.engine import Connection

from freecell_arena.store.engine import WRITE_OPTION, create_engine
from freecell_arena.store.errors import DatabaseNotMigratedError
from freecell_arena.store.urls import display_url, normalize_database_url, parse_database_url


def script_location() -> str:
    """Where the Alembic scripts are: the package `freecell_arena.migrations` (the top-level migrations/ folder
    of a checkout, mapped into the package by pyproject), so it is the same in a checkout and in any install."""
    return str(importlib.resources.files("freecell_arena.migrations"))

MIGRATE_COMMAND = "freecell-arena migrate --database-url"


def alembic_config(url: str | None = None) -> Config:
    """An Alembic config for our migrations directory; `url` is passed as an attribute, not an ini option
    (an ini option would interpolate `%` in passwords)."""
    config = Config()
    config.set_main_option("script_location", script_location())
    if url is not None:
        config.attributes["database_url"] = normalize_database_url(url)
    return config


def head_revision() -> str:
    """The newest revision of this server's migrations."""
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    if head is None:
        raise RuntimeError(f"no migrations found in {script_location()}")
    return head


async def migrate(url: str) -> None:
    """Upgrade the database at `url` to head (creates a new SQLite file). Safe to run again: no-op at head."""
    config = alembic_config(url)
    engine = create_engine(normalize_database_url(url), foreign_keys=False, poolclass=pool.NullPool)
    try:
        async with engine.connect() as connection:
            connection = await connection.execution_options(**{WRITE_OPTION: True})
            async with connection.begin():

                def upgrade(sync_connection: Connection) -> None:
                    config.attributes["connection"] = sync_connection
                    command.upgrade(config, "head")

                await connection.run_sync(upgrade)
    finally:
        await engine.dispose()


async def current_revision(url: str) -> str | None:
    """The revision the database at `url` is at, or None when it has never been migrated."""
    parsed = parse_database_url(url)
    if parsed.get_backend_name() == "sqlite" and not Path(parsed.database or "").exists():
        return None  # do not create the file just to look at it
    engine = create_engine(normalize_database_url(url), poolclass=pool.NullPool)
    try:
        async with engine.connect() as connection:
            return await connection.run_sync(lambda sync: MigrationContext.configure(sync).get_current_revision())
    finally:
        await engine.dispose()


async def check_migrated(url: str) -> None:
    """Raise `DatabaseNotMigratedError`, naming the command to run, unless the database is at head."""
    current = await current_revision(url)
    head = head_revision()
    if current == head:
        return
    where = display_url(url)
    if current is None:
        state = "has no schema yet"
    elif current in _known_revisions():
        state = f"is at revision {current}, older than this server's {head}"
    else:
        raise DatabaseNotMigratedError(
            f"database {where} is at revision {current}, which this server does not know "
            f"(a newer server migrated it?); its migrations end at {head}"
        )
    raise DatabaseNotMigratedError(f"database {where} {state}: run `{MIGRATE_COMMAND} {where}`")


def _known_revisions() -> set[str]:
    return {script.revision for script in ScriptDirectory.from_config(alembic_config()).walk_revisions()}

"""`freecell-arena migrate [--database-url URL]`: upgrade a database to this server's schema (Alembic head)."""

from __future__ import annotations

import argparse
import asyncio

from sqlalchemy.exc import SQLAlchemyError

from freecell_arena.commands.common import database_url_argument, fail, one_line
from freecell_arena.store import StoreError, database_url_from_env, migrate
from freecell_arena.store.migrations import current_revision, head_revision
from freecell_arena.store.urls import display_url


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Upgrade the database to this server's schema. Safe to repeat: a database at head is left as is."
    )
    database_url_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    url = args.database_url or database_url_from_env()
    try:
        before, after = asyncio.run(_migrate(url))
    except (StoreError, SQLAlchemyError, OSError) as error:
        return fail(f"cannot migrate {display_url(url)}: {one_line(error)}")
    if before == after:
        print(f"{display_url(url)} is already at revision {after}")
    else:
        print(f"{display_url(url)} migrated from {before or 'an empty database'} to revision {after}")
    return 0


async def _migrate(url: str) -> tuple[str | None, str]:
    before = await current_revision(url)
    await migrate(url)
    return before, head_revision()

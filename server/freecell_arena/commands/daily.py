"""`freecell-arena daily prepare [--days N] [--variant V] [--database-url URL]`: prepare daily deals ahead.

The server prepares today's and tomorrow's deals by itself (in a worker process); this prepares further
ahead, or for a server started with `FREECELL_ARENA_DAILY_PREPARE_INTERVAL_S=0`. Deals already stored are
left alone (the first one stored is the deal), so running it next to live servers is safe. It prints one
line per day: the variant, the day, the par and the public commitment (never the seed).
"""

from __future__ import annotations

import argparse
import asyncio
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from pydantic import ValidationError
from sqlalchemy.exc import SQLAlchemyError

from freecell_arena.commands.common import database_url_argument, fail, one_line, variant_argument
from freecell_arena.store import StoreError, check_migrated, database_url_from_env
from freecell_arena.store.urls import display_url

if TYPE_CHECKING:
    from freecell_arena.settings import Settings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    prepare = actions.add_parser(
        "prepare",
        help="certify and store the daily deals of the next days",
        description="Certify (with the solver) and store the daily deals from today (UTC) for --days days.",
    )
    prepare.add_argument("--days", type=int, default=2, help="how many days from today (default 2)")
    prepare.add_argument(
        "--variant", type=variant_argument, action="append", help="only this variant (repeatable; default: all "
        "of FREECELL_ARENA_DAILY_VARIANTS)"
    )  # fmt: skip
    database_url_argument(prepare)
    prepare.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from freecell_arena.settings import Settings

    if not 1 <= args.days <= 366:
        return fail("--days must be between 1 and 366")
    url = args.database_url or database_url_from_env()
    try:
        settings = Settings.from_names({"database_url": url})
    except ValidationError as error:
        first = error.errors(include_url=False)[0]
        return fail(f"bad setting {Settings.name_at(first['loc'])}: {first['msg']}")
    variants = [variant.id for variant in args.variant] if args.variant else settings.daily.variant_ids
    try:
        asyncio.run(prepare(settings, variants, args.days))
    except (StoreError, SQLAlchemyError, OSError) as error:
        return fail(f"cannot prepare dailies in {display_url(url)}: {one_line(error)}")
    return 0


async def prepare(settings: Settings, variants: list[str], days: int) -> None:
    from freecell_arena.core.records import daily
    from freecell_arena.store import SqlStore

    url = settings.store.database_url
    await check_migrated(url)
    store = SqlStore(url)
    try:
        now = datetime.now(UTC)
        secret = (settings.daily.secret or await store.dailies.shared_secret(now)).encode()
        first = daily.today(now)
        for offset in range(days):
            day = first + timedelta(days=offset)
            for variant in variants:
                stored = await store.dailies.deal(variant, day)
                if stored is None:
                    record = await asyncio.to_thread(
                        daily.prepare_daily,
                        secret,
                        variant,
                        day,
                        now,
                        max_nodes=settings.daily.solver_nodes,
                        budget_s=settings.daily.solver_budget_s,
                        max_candidates=settings.daily.candidates,
                    )
                    stored = await store.dailies.save(record)
                print(f"{variant} {day}: par {stored.par}, commitment {stored.commitment}", flush=True)
    finally:
        await store.close()

"""`freecell-arena prune [--dry-run] [--unsaved-idle-days N] [--revoked-days N] [--database-url URL]`: delete what may
go for good (store/retention.py says exactly what): passkey challenges past their expiry, tokens revoked more than
`--revoked-days` ago, and unsaved players idle `--unsaved-idle-days` with no ranked game ever, with their unranked
games, moves and the rooms that were theirs alone. Never a ranked game, its result or its moves.

Safe while servers run (each batch is one transaction that checks its conditions again). `--dry-run` counts what
would go and deletes nothing. Prints one line per kind; exit 0, or 2 (one line) when the database cannot be used.
Run `freecell-arena audit` after it, as after anything done to a database by hand: it stays clean.
"""

from __future__ import annotations

import argparse
import asyncio
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from freecell_arena.commands.common import database_url_argument, fail, one_line

if TYPE_CHECKING:
    from freecell_arena.store.retention import Pruned

UNSAVED_IDLE_DAYS = 30
REVOKED_DAYS = 90


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Delete what may go for good: expired passkey challenges, long-revoked tokens, and unsaved players idle for "
        "days with no ranked game (with their unranked games and rooms of their own). Never a ranked game or a move "
        "of one."
    )
    parser.add_argument("--dry-run", action="store_true", help="count what would go; delete nothing")
    parser.add_argument("--unsaved-idle-days", type=int, default=UNSAVED_IDLE_DAYS, metavar="N",
                        help=f"an unsaved player with no ranked game goes after N days without a game "
                             f"(default {UNSAVED_IDLE_DAYS})")  # fmt: skip
    parser.add_argument("--revoked-days", type=int, default=REVOKED_DAYS, metavar="N",
                        help=f"a revoked token goes N days after its revocation (default {REVOKED_DAYS})")
    database_url_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import SQLAlchemyError

    from freecell_arena.store import StoreError, database_url_from_env
    from freecell_arena.store.urls import display_url

    url = args.database_url or database_url_from_env()
    if args.unsaved_idle_days < 1 or args.revoked_days < 0:
        return fail("--unsaved-idle-days must be at least 1 and --revoked-days at least 0")
    try:
        pruned = asyncio.run(prune(url, args.unsaved_idle_days, args.revoked_days, dry_run=args.dry_run))
    except (StoreError, SQLAlchemyError, OSError) as error:
        return fail(f"cannot prune {display_url(url)}: {one_line(error)}")
    verb = "would go" if args.dry_run else "went"
    print(f"expired passkey challenges: {pruned.challenges} {verb}")
    print(f"tokens revoked over {args.revoked_days} days ago: {pruned.tokens} {verb}")
    print(f"unsaved players idle {args.unsaved_idle_days} days with no ranked game: {pruned.players} {verb} (with "
          f"their unranked games: {pruned.games}, moves: {pruned.moves}, rooms of their own: {pruned.rooms}, room "
          f"memberships: {pruned.memberships})")  # fmt: skip
    for batch in pruned.skipped_batches:
        print(f"players {batch}: left for the next run (a server wrote for one of them meanwhile)")
    return 0


async def prune(url: str, unsaved_idle_days: int, revoked_days: int, *, dry_run: bool) -> Pruned:
    from freecell_arena.store import SqlStore, check_migrated
    from freecell_arena.store.retention import Retention, RetentionStore

    await check_migrated(url)
    store = SqlStore(url)
    try:
        retention = Retention(datetime.now(UTC), timedelta(days=unsaved_idle_days), timedelta(days=revoked_days))
        return await RetentionStore(store.engine).prune(retention, dry_run=dry_run)
    finally:
        await store.close()

"""`freecell-arena audit [--database-url URL]`: replay every stored ranked game and check what is stored about it.

Each mismatch is one line on standard output (`game ...`, `entry ...`, `counts ...`, `rating ...`); a summary
goes to standard error. Ratings are recomputed from the rated rooms' stored results, race by race in the order
they were rated, and every stored before/after is compared with the recomputation (`core.ratings`).
Exit 0 when nothing is wrong, 1 when anything is, 2 when the database cannot be used.
The games, entries and count rows are read in keyset batches, so memory stays flat on any database.
See `freecell_arena.core.audit` for what is checked.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import TYPE_CHECKING

from sqlalchemy.exc import SQLAlchemyError

from freecell_arena.commands.common import fail
from freecell_arena.store import (
    DATABASE_URL_ENV,
    DEFAULT_DATABASE_URL,
    StoreError,
    check_migrated,
    database_url_from_env,
)
from freecell_arena.store.urls import display_url

if TYPE_CHECKING:
    from freecell_arena.store.ratings import RatingStore

DEFAULT_BATCH = 500


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Replay every stored ranked game from its seed and moves with this engine and check the outcome, the move "
        "counts, the times and the leaderboard entries. One line per mismatch; exit 1 if any."
    )
    parser.add_argument(
        "--database-url",
        metavar="URL",
        default=None,
        help=f"sqlite:///FILE or postgresql://USER@HOST/DB (default: ${DATABASE_URL_ENV}, else {DEFAULT_DATABASE_URL})",
    )
    parser.add_argument("--batch", type=int, default=DEFAULT_BATCH, help=f"rows per read (default {DEFAULT_BATCH})")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    url = args.database_url or database_url_from_env()
    if args.batch < 1:
        return fail("--batch must be at least 1")
    try:
        games, entries, mismatches, flagged, races = asyncio.run(audit(url, args.batch))
    except (StoreError, SQLAlchemyError, OSError) as error:
        cause = getattr(error, "orig", None) or error
        return fail(f"cannot audit {display_url(url)}: {' '.join(str(cause).split()) or type(cause).__name__}")
    verdict = "no mismatch" if not mismatches else f"{mismatches} mismatch{'es' if mismatches != 1 else ''}"
    for line in flagged:
        print(line, file=sys.stderr)
    print(f"audited {games} ranked games and {entries} leaderboard entries: {verdict}; "
          f"{len(flagged)} win{'s' if len(flagged) != 1 else ''} flagged as implausible", file=sys.stderr)
    print(f"recomputed the ratings of {races} rated race{'s' if races != 1 else ''} in order", file=sys.stderr)
    return 1 if mismatches else 0


async def audit(url: str, batch: int) -> tuple[int, int, int, list[str], int]:
    """Print every mismatch; return (games, entries, mismatches, the flagged wins' report lines, rated races)."""
    from freecell_arena.core.audit import check_entry, check_game, flagged
    from freecell_arena.store import SqlStore
    from freecell_arena.store.audit_reads import AuditReads
    from freecell_arena.store.ratings import RatingStore

    await check_migrated(url)
    store = SqlStore(url)
    reads = AuditReads(store.engine, batch)
    games = entries = mismatches = 0
    flagged_wins: list[str] = []
    try:
        async for games_batch in reads.ranked_games():
            for stored, bot, entry in games_batch:
                games += 1
                mismatches += _report(check_game(stored, bot, entry))
                if (line := flagged(stored)) is not None:
                    flagged_wins.append(line)
        async for entries_batch in reads.entries():
            for entry_facts, game in entries_batch:
                entries += 1
                mismatches += _report(check_entry(entry_facts, game))
        async for line in reads.count_mismatches():
            mismatches += _report([line])
        races, lines = await _audit_ratings(RatingStore(store.engine))
        mismatches += _report(lines)
    finally:
        await store.close()
    return games, entries, mismatches, flagged_wins, races


async def _audit_ratings(ratings: RatingStore) -> tuple[int, list[str]]:
    """Every rated race replayed in order from its room's stored results; one line per stored rank or rating
    that differs from the recomputation."""
    from freecell_arena.core.ratings import RatedRace, placements_from_results, replay_ratings

    races: list[RatedRace] = []
    lines: list[str] = []
    async for stored in ratings.rated_races():
        placements = placements_from_results(stored.results, stored.ranking, stored.started_at)
        ranks = {placement.player_id: placement.rank for placement in placements}
        for change, rank in stored.changes:
            if ranks.get(change.player_id) != rank:
                lines.append(f"rating race {stored.room_id}: {change.player_id} stored at rank {rank}, the room's "
                             f"results rank them {ranks.get(change.player_id, 'nowhere')}")  # fmt: skip
        races.append(RatedRace(stored.room_id, stored.variant, placements,
                               tuple(change for change, _ in stored.changes)))  # fmt: skip
    _, mismatches = replay_ratings(races)
    lines += [f"rating {mismatch.describe()}" for mismatch in mismatches]
    lines += [f"rating race {code}: finished, rateable and never rated" async for code in ratings.unrated_races()]
    return len(races), lines


def _report(lines: list[str]) -> int:
    for line in lines:
        print(line, flush=True)
    return len(lines)

"""`freecell-arena export [--from DAY] [--to DAY] [--variant V] [--player ID] [--output F] [--database-url URL]`: every
public finished game as one JSON line (`protocol.export.ExportGame`, docs/schema/export-game.json), oldest first.

What anyone may replay, nothing more (never a running race, a daily before its day closes, a cup heat before the cup
is over), with the sanctions in force applied as the boards apply them. Read in keyset batches and written as it goes,
so memory stays flat on any database; it writes nothing to the database. `--output F.gz` gzips. A summary goes to
standard error; exit 0, or 2 (one line) for bad input or a database that cannot be used. `--output F` is written
under a temporary name beside F and renamed to F only once every game is in it: a refused or failed export leaves no
file, nor a half one, and whatever F held before stays as it was (a monthly dump's cron job never publishes a cut
file). docs/server.md ("Open data") shows the monthly dump.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import os
import sys
from datetime import UTC, date, datetime, time
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from freecell_arena.commands.common import UsageError, database_url_argument, fail, one_line, variant_argument

if TYPE_CHECKING:
    from freecell_arena.core.ports.reads import ExportFilter

DEFAULT_BATCH = 500


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Write every public finished game as one JSON line (docs/schema/export-game.json), oldest first: its variant, "
        "seed, moves, result, times, ratings, room or tournament, with the sanctions in force applied."
    )
    parser.add_argument("--from", dest="since", metavar="DAY", help="games finished on or after DAY (UTC, "
                        "YYYY-MM-DD, or an ISO 8601 instant with its offset)")  # fmt: skip
    parser.add_argument("--to", dest="until", metavar="DAY", help="games finished before DAY (exclusive)")
    parser.add_argument("--variant", type=variant_argument, metavar="V", help="only this variant's games")
    parser.add_argument("--player", metavar="ID", help="only this player's games (a player id)")
    parser.add_argument("--output", "-o", metavar="F", default="-", help="write to F (F.gz: gzipped; default: "
                        "standard output)")  # fmt: skip
    parser.add_argument("--batch", type=int, default=DEFAULT_BATCH, help=f"games per read (default {DEFAULT_BATCH})")
    database_url_argument(parser)
    parser.set_defaults(run=run)


def instant(text: str, name: str) -> datetime:
    """A day (its UTC midnight) or an instant with its offset; UsageError naming the option otherwise."""
    try:
        if len(text) == 10:
            return datetime.combine(date.fromisoformat(text), time(0), UTC)
        found = datetime.fromisoformat(text)
    except ValueError:
        raise UsageError(f"{name} takes a day (2026-11-01) or an instant with its offset, not {text!r}") from None
    if found.tzinfo is None:
        raise UsageError(f"{name} {text!r} needs its UTC offset (2026-11-01T00:00:00+00:00)")
    return found.astimezone(UTC)


def export_filter(args: argparse.Namespace) -> ExportFilter:
    from freecell_arena.core.ports.reads import ExportFilter

    since = instant(args.since, "--from") if args.since else None
    until = instant(args.until, "--to") if args.until else None
    if since is not None and until is not None and since >= until:
        raise UsageError(f"--from {args.since} is not before --to {args.until}: no game could be in the range")
    if args.batch < 1:
        raise UsageError("--batch must be at least 1")
    return ExportFilter(since, until, args.variant.id if args.variant else None, args.player)


def run(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import SQLAlchemyError

    from freecell_arena.store import StoreError, database_url_from_env
    from freecell_arena.store.urls import display_url

    url = args.database_url or database_url_from_env()
    try:
        wanted = export_filter(args)
    except UsageError as error:
        return fail(str(error))
    # (the file asked for, and the temporary one beside it that becomes it once the export is whole)
    files = None if args.output == "-" else (Path(args.output), partial_file(Path(args.output)))
    try:
        output: TextIO = sys.stdout
        if files is not None:
            opener = gzip.open if args.output.endswith(".gz") else open
            output = opener(files[1], "wt", encoding="utf-8")  # closed below, after the run
    except OSError as error:
        return fail(f"cannot write {args.output}: {error.strerror}")
    try:
        count = asyncio.run(export(url, wanted, args.batch, output))
        if files is not None:
            output.close()
            files[1].replace(files[0])
    except UsageError as error:
        return fail(str(error))
    except (StoreError, SQLAlchemyError, OSError) as error:
        return fail(f"cannot export {display_url(url)}: {one_line(error)}")
    finally:
        if files is not None:
            output.close()
            files[1].unlink(missing_ok=True)  # what a refused or failed export had begun (gone once renamed)
    print(f"exported {count} game{'s' if count != 1 else ''}", file=sys.stderr)
    return 0


def partial_file(target: Path) -> Path:
    """Where the export is written until it is whole: beside the target (so the rename is atomic), hidden, and
    named for this process (two exports to one file do not write into each other)."""
    return target.with_name(f".{target.name}.{os.getpid()}.partial")


async def export(url: str, wanted: ExportFilter, batch: int, output: TextIO) -> int:
    """Write the games' lines to `output` as they are read; the number written."""
    from freecell_arena.core.clock import SystemClock
    from freecell_arena.core.moderation.exported import disclosure, exported
    from freecell_arena.protocol.wire import encode
    from freecell_arena.store import SqlStore, check_migrated
    from freecell_arena.store.exports import ExportReads

    await check_migrated(url)
    store = SqlStore(url)
    count = 0
    try:
        if wanted.player_id is not None and await store.player(wanted.player_id) is None:
            raise UsageError(f"there is no player {wanted.player_id!r}")
        reads = ExportReads(store.engine, batch)
        sanctions = await reads.sanctions()
        async for rows in reads.games(disclosure(SystemClock().now()), wanted):
            output.write("".join(encode(exported(row, sanctions)) + "\n" for row in rows))
            count += len(rows)
    finally:
        await store.close()
    return count

"""`freecell-arena audit [--database-url URL]`: replay every stored ranked game and check what is stored about it.

Each mismatch is one line on standard output (`game ...`, `entry ...`, `counts ...`, `rating ...`, `daily ...`,
`season ...`, `series room ...`, `par ...`, `tournament ...`); a summary goes to standard error. Ratings are
recomputed from the rated rooms' stored results, race by race in the order they were rated, and every stored
before/after is compared with the recomputation (`core.records.ratings`); then every stored figure a player sees
that the server derives (current ratings, closed days' final ranks, season tables, series tallies, pars and daily
deals) is compared with its recomputation (`core.records.audit_figures`), and every finished tournament's stored
table with the one its stored results give (`core.competition.tournaments.audit`).
Exit 0 when nothing is wrong, 1 when anything is, 2 when the database cannot be used.
The games, entries and count rows are read in keyset batches, so memory stays flat on any database.
See `freecell_arena.core.records.audit` for what is checked.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import TYPE_CHECKING

from sqlalchemy.exc import SQLAlchemyError

from freecell_arena.commands.common import database_url_argument, fail, one_line
from freecell_arena.store import StoreError, check_migrated, database_url_from_env
from freecell_arena.store.urls import display_url

if TYPE_CHECKING:
    from freecell_arena.core.moderation.audit import SanctionedBoards
    from freecell_arena.core.records.ratings import Ladder, Ratings
    from freecell_arena.core.records.sanctioned import Sanctions
    from freecell_arena.store import SqlStore
    from freecell_arena.store.audit_reads import FigureReads
    from freecell_arena.store.ratings import RatingStore

DEFAULT_BATCH = 500


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Replay every stored ranked game from its seed and moves with this engine and check the outcome, the move "
        "counts, the times and the leaderboard entries; then check every stored figure players see (ratings, "
        "daily ranks, season tables, series tallies, pars, tournament tables) against its recomputation. One line per "
        "mismatch; exit 1 if any."
    )
    database_url_argument(parser)
    parser.add_argument("--batch", type=int, default=DEFAULT_BATCH, help=f"rows per read (default {DEFAULT_BATCH})")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    url = args.database_url or database_url_from_env()
    if args.batch < 1:
        return fail("--batch must be at least 1")
    try:
        games, entries, mismatches, flagged, races, tournaments = asyncio.run(audit(url, args.batch))
    except (StoreError, SQLAlchemyError, OSError) as error:
        return fail(f"cannot audit {display_url(url)}: {one_line(error)}")
    verdict = "no mismatch" if not mismatches else f"{mismatches} mismatch{'es' if mismatches != 1 else ''}"
    for line in flagged:
        print(line, file=sys.stderr)
    print(f"audited {games} ranked games and {entries} leaderboard entries: {verdict}; "
          f"{len(flagged)} win{'s' if len(flagged) != 1 else ''} flagged as implausible", file=sys.stderr)
    print(f"recomputed the ratings of {races} rated race{'s' if races != 1 else ''} in order, and every stored figure "
          "players see (ratings, daily ranks, season tables, series tallies, pars)", file=sys.stderr)
    print(f"recomputed the standings of {tournaments} finished tournament{'s' if tournaments != 1 else ''} from "
          "their stored results", file=sys.stderr)  # fmt: skip
    return 1 if mismatches else 0


async def audit(url: str, batch: int) -> tuple[int, int, int, list[str], int, int]:
    """Print every mismatch; return (games, entries, mismatches, the flagged wins' report lines, rated races,
    finished tournaments)."""
    from freecell_arena.core.competition.tournaments.audit import check_tournament
    from freecell_arena.core.records.audit import check_entry, check_game, flagged
    from freecell_arena.store import SqlStore
    from freecell_arena.store.audit_reads import AuditReads, FigureReads
    from freecell_arena.store.ratings import RatingStore

    await check_migrated(url)
    store = SqlStore(url)
    reads = AuditReads(store.engine, batch)
    games = entries = mismatches = 0
    flagged_wins: list[str] = []
    try:
        boards, voided, lines = await _audit_moderation(store)
        mismatches += _report(lines)
        async for games_batch in reads.ranked_games():
            for stored, bot, entry in games_batch:
                games += 1
                rule = boards if boards.touches(stored.game) else None
                mismatches += _report(check_game(stored, bot, entry, rule))
                if (line := flagged(stored)) is not None:
                    flagged_wins.append(line)
        async for entries_batch in reads.entries():
            for entry_facts, game in entries_batch:
                entries += 1
                mismatches += _report(check_entry(entry_facts, game))
        async for line in reads.count_mismatches():
            mismatches += _report([line])
        races, lines, current = await _audit_ratings(RatingStore(store.engine), boards.sanctions, voided)
        mismatches += _report(lines)
        mismatches += await _audit_figures(FigureReads(store.engine, batch), current)
        tournaments, after = 0, ""
        while ids := await store.tournaments.with_standings(after, batch):
            for tournament_id in ids:
                snapshot = await store.tournaments.snapshot(tournament_id)
                if snapshot is not None and snapshot.stored.final:
                    tournaments += 1
                    mismatches += _report(check_tournament(snapshot))
            after = ids[-1]
    finally:
        await store.close()
    return games, entries, mismatches, flagged_wins, races, tournaments


async def _audit_moderation(store: SqlStore) -> tuple[SanctionedBoards, dict[str, set[str]], list[str]]:
    """The mod log replayed against the sanctions table; where sanctioned games belong; the players whose result in
    each room is void (their races are rated without them)."""
    from freecell_arena.core.moderation.audit import SanctionedBoards, check_in_force
    from freecell_arena.store.moderation import ModerationStore
    from freecell_arena.store.sanction_reads import voided_races

    moderation = ModerationStore(store.engine)
    lines = check_in_force(await moderation.whole_log(), await moderation.in_force())
    async with store.engine.connect() as connection:
        voided = await voided_races(connection)
    return SanctionedBoards(await moderation.sanctions()), voided, lines


async def _audit_ratings(ratings: RatingStore, sanctions: Sanctions,
                         voided: dict[str, set[str]]) -> tuple[int, list[str], Ratings]:  # fmt: skip
    """Every rated race replayed in order from its room's stored results, counted with the sanctions in force; one
    line per stored rank or rating change that differs from the recomputation; the ratings the races leave everyone
    at."""
    from freecell_arena.core.moderation.sanctions import counted_results
    from freecell_arena.core.records.ratings import RatedRace, placements_from_results, replay_ratings

    races: list[RatedRace] = []
    lines: list[str] = []
    async for stored in ratings.rated_races():
        counted = counted_results(stored.results, voided.get(stored.room_id, ()), sanctions)
        placements = placements_from_results(counted, stored.ranking, stored.started_at)
        ranks = {placement.player_id: placement.rank for placement in placements}
        for change, rank in stored.changes:
            if ranks.get(change.player_id) != rank:
                lines.append(f"rating race {stored.room_id}: {change.player_id} stored at rank {rank}, the room's "
                             f"results rank them {ranks.get(change.player_id, 'nowhere')}")  # fmt: skip
        races.append(RatedRace(stored.room_id, stored.variant, placements,
                               tuple(change for change, _ in stored.changes)))  # fmt: skip
    current, mismatches = replay_ratings(races)
    lines += [f"rating {mismatch.describe()}" for mismatch in mismatches]
    lines += [f"rating race {code}: finished, rateable and never rated" async for code in ratings.unrated_races()]
    return len(races), lines, current


async def _audit_figures(reads: FigureReads, current: Ratings) -> int:
    """The stored figures players see against their recomputation (`core.records.audit_figures`): current ratings,
    closed
    days' final ranks, season tables, series tallies, pars and daily deals. Returns the mismatches printed."""
    from freecell_arena.core.records import audit_figures as figures

    mismatches = 0
    rated: set[tuple[str, str, Ladder]] = set()
    async for batch in reads.current_ratings():
        for row in batch:
            rated.add((row.variant, row.player_id, row.ladder))
            mismatches += _report(figures.check_rating(row, current.get((row.variant, row.player_id, row.ladder))))
    mismatches += _report(figures.missing_ratings(current, rated))
    async for day in reads.closed_days():
        for bots, (board, ranks) in day.boards.items():
            mismatches += _report(figures.check_daily_ranks(day.variant, day.day, bots, day.par, board, ranks))
    mismatches += _report(await reads.ranks_of_open_days())
    async for table in reads.season_tables():
        mismatches += _report(figures.check_season_table(table.variant, table.bots, table.days, table.through,
                                                         table.ranks, table.stored))  # fmt: skip
    async for series in reads.series_rooms():
        for room in series:
            mismatches += _report(figures.check_series_tally(room.code, room.tally, room.previous_id,
                                                             room.previous_tally, room.results, room.ranking,
                                                             room.previous_started_at, room.sanctioned))
    mismatches += _report(await reads.orphan_series_rooms())
    async for pars in reads.solved_pars():
        for variant, seed, line in pars:
            mismatches += _report(figures.check_par_line(variant, seed, line))
    async for deals in reads.daily_deals():
        for deal in deals:
            mismatches += _report(figures.check_daily_deal(deal))
    return mismatches


def _report(lines: list[str]) -> int:
    for line in lines:
        print(line, flush=True)
    return len(lines)

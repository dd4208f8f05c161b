"""What a sanction changes, derived again in the sanction's own transaction: boards, ratings, closed days.

Nothing here patches a number. Each function reads the stored results, applies the sanctions in force
(`freecell_arena.core.moderation.sanctions`) and writes what follows from them, so setting a sanction and lifting it
run the same code and a lift gives back exactly what was there:

- `place_games`: a player's ranked games on the boards they belong on now (`game_board`), and their entry on every
  board touched made their best game there again (with the board's count rows);
- `rate_again`: a variant's rated races rated again from the first one the sanction touches, in finish order,
  every rating row of those races written anew in that order (`rating_changes` ids keep the audit's order), and
  the current ratings of their players set to the result;
- the closed dailies whose boards changed have their final ranks and season tables materialised again.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Sequence
from datetime import date, datetime
from typing import Any

from sqlalchemy import and_, delete, func, insert, literal_column, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from freecell_arena.core.moderation.sanctions import RaceToRate, counted_results, game_board, rerate
from freecell_arena.core.records.leaderboard import count_buckets, count_deltas, score
from freecell_arena.core.records.race_ratings import Deal, counts_for_ratings
from freecell_arena.core.records.ratings import Ladder, Rating, placements_from_results
from freecell_arena.core.records.sanctioned import Sanctions
from freecell_arena.store.dailies import materialise_again
from freecell_arena.store.leaderboards import CountDeltas, apply_counts
from freecell_arena.store.models import Game, LeaderboardEntry, Player, PlayerRating, Room, table_of
from freecell_arena.store.models import RatingChange as RatingChangeRow
from freecell_arena.store.ratings import _change_row, _race_start, race_result, race_results_of

games = table_of(Game)
entries = table_of(LeaderboardEntry)
players = table_of(Player)
rooms = table_of(Room)
ratings = table_of(PlayerRating)
changes = table_of(RatingChangeRow)
IN_BATCH = 500
"""Ids per IN list."""


def _chunks(items: Sequence[Any]) -> list[Sequence[Any]]:
    return [items[start:start + IN_BATCH] for start in range(0, len(items), IN_BATCH)]


# ---------------------------------------------------------------- boards


async def place_games(connection: AsyncConnection, player_id: str, sanctions: Sanctions,
                      game_ids: Collection[str] | None = None) -> set[tuple[str, date]]:  # fmt: skip
    """Move the player's finished ranked games (or only `game_ids`) to the boards they belong on now and make
    their entries on every board touched their best game there. Returns the daily days touched."""
    bot = bool((await connection.execute(select(players.c.bot).where(players.c.id == player_id))).scalar_one())
    query = select(games.c.id, games.c.variant, games.c.seed, games.c.daily_day, games.c.board, games.c.outcome,
                   games.c.flagged).where(games.c.player_id == player_id, games.c.ranked == True,  # noqa: E712
                                          games.c.outcome.is_not(None))  # fmt: skip
    if game_ids is not None:
        query = query.where(games.c.id.in_(sorted(game_ids)))
    touched: set[str] = set()
    days: set[tuple[str, date]] = set()
    for row in (await connection.execute(query)).all():
        board = game_board(row.variant, row.seed, row.daily_day, bot=bot, flagged=row.flagged is not None,
                           won=row.outcome == "won", player_id=player_id, game_id=row.id,
                           sanctions=sanctions)  # fmt: skip
        if board == row.board:
            continue
        await connection.execute(update(games).where(games.c.id == row.id).values(board=board))
        touched.update(name for name in (row.board, board) if name is not None)
        if row.daily_day is not None:
            days.add((row.variant, row.daily_day))
    deltas: CountDeltas = {}
    for board in sorted(touched):
        await _best_entry(connection, board, player_id, deltas)
    await apply_counts(connection, deltas)
    return days


async def _best_entry(connection: AsyncConnection, board: str, player_id: str, deltas: CountDeltas) -> None:
    """The player's entry on `board` made their best won game on it (or removed when none is left)."""
    best = (await connection.execute(
        select(games.c.id, games.c.player_moves, games.c.time_ms, games.c.finished_at)
        .where(games.c.player_id == player_id, games.c.board == board, games.c.outcome == "won")
        .order_by(games.c.player_moves, games.c.time_ms, games.c.finished_at)
        .limit(1))).first()  # fmt: skip
    where = and_(entries.c.board == board, entries.c.player_id == player_id)
    current = (await connection.execute(select(entries.c.game_id, entries.c.score).where(where))).first()
    if current is not None and best is not None and current.game_id == best.id:
        return
    if current is not None:
        await connection.execute(delete(entries).where(where))
        for key in count_buckets(current.score):
            deltas[(board, *key)] = deltas.get((board, *key), 0) - 1
    if best is None:
        return
    new_score = score(best.player_moves, best.time_ms)
    await connection.execute(insert(entries).values(board=board, player_id=player_id, game_id=best.id,
                                                    player_moves=best.player_moves, time_ms=best.time_ms,
                                                    finished_at=best.finished_at, score=new_score))  # fmt: skip
    for key, delta in count_deltas(None, new_score).items():
        deltas[(board, *key)] = deltas.get((board, *key), 0) + delta


async def close_days(connection: AsyncConnection, days: Collection[tuple[str, date]]) -> None:
    for variant, day in sorted(days):
        await materialise_again(connection, variant, day)


# ---------------------------------------------------------------- ratings


async def rated_variants(connection: AsyncConnection, player_id: str,
                         game_ids: Collection[str] | None) -> dict[str, set[str]]:  # fmt: skip
    """The rooms of the player's finished games (or of `game_ids`) by variant: the races a sanction touches."""
    query = select(games.c.variant, games.c.room_id).where(games.c.player_id == player_id,
                                                          games.c.room_id.is_not(None),
                                                          games.c.outcome.is_not(None))  # fmt: skip
    if game_ids is not None:
        query = query.where(games.c.id.in_(sorted(game_ids)))
    found: dict[str, set[str]] = defaultdict(set)
    for variant, room_id in await connection.execute(query):
        found[variant].add(room_id)
    return found


async def played_variants(connection: AsyncConnection, player_id: str) -> set[str]:
    """Every variant the player has a game in, running ones included: the ratings a sanction on them must hold
    still (a race of theirs that ends meanwhile waits, then counts them as the sanction says)."""
    query = select(games.c.variant).where(games.c.player_id == player_id).distinct()
    return set((await connection.execute(query)).scalars())


RACE_COLUMNS = (rooms.c.id, rooms.c.variant, rooms.c.seed, rooms.c.options, rooms.c.started_at, rooms.c.finished_at)
"""What rating a race again reads of its room: its deal (whether anyone made progress on it), its options and its
start (which ranking rule placed it; `core.records.ranking`)."""

async def rate_again(connection: AsyncConnection, variant: str, touched: Collection[str], sanctions: Sanctions,
                     now: datetime) -> int:  # fmt: skip
    """Rate the variant's races again from the first race in `touched` on (by finish); returns how many races were
    rated again. The caller holds the variant's rating lock (`sanction_reads.lock_ratings`)."""
    first = (await connection.execute(select(func.min(rooms.c.finished_at)).where(
        rooms.c.id.in_(sorted(touched)), rooms.c.status == "finished"))).scalar_one_or_none()  # fmt: skip
    if first is None:
        return 0
    since = (await connection.execute(
        select(func.min(changes.c.id)).join(rooms, rooms.c.id == changes.c.room_id)
        .where(changes.c.variant == variant, rooms.c.finished_at >= first))).scalar_one_or_none()  # fmt: skip
    rated_after = set() if since is None else set((await connection.execute(
        select(changes.c.room_id).where(changes.c.variant == variant, changes.c.id >= since)
        .distinct())).scalars())  # fmt: skip
    finished_after = (await connection.execute(
        select(*RACE_COLUMNS)
        .where(rooms.c.status == literal_column("'finished'"), rooms.c.seed_chosen == False,  # noqa: E712
               rooms.c.finished_at >= first, rooms.c.variant == variant))).all()  # fmt: skip
    candidates = {row.id: row for row in finished_after if (row.options or {}).get("ranked")}
    missing = sorted(rated_after - set(candidates))
    for chunk in _chunks(missing):
        for row in await connection.execute(select(*RACE_COLUMNS).where(rooms.c.id.in_(chunk))):
            candidates[row.id] = row
    order = sorted(candidates.values(), key=lambda row: (row.finished_at, row.id))
    room_ids = [row.id for row in order]
    results: dict[str, list[Any]] = defaultdict(list)
    voided: dict[str, set[str]] = defaultdict(set)
    stamps: dict[str, datetime] = {}
    for chunk in _chunks(room_ids):
        for played in await connection.execute(race_results_of(chunk)):
            results[played.room_id].append(race_result(played))
        for game in await connection.execute(select(games.c.room_id, games.c.player_id, games.c.id)
                                             .where(games.c.room_id.in_(chunk))):  # fmt: skip
            if game.id in sanctions.voided:
                voided[game.room_id].add(game.player_id)
        first_rated = select(changes.c.room_id, func.min(changes.c.at)).where(changes.c.room_id.in_(chunk))
        for room_id, at in await connection.execute(first_rated.group_by(changes.c.room_id)):
            stamps[room_id] = at
    races: list[RaceToRate] = []
    for row in order:
        options = row.options or {}
        counted = counted_results(results[row.id], voided[row.id], sanctions)
        finished = [(result.bot, result.cards_on_foundations) for result in counted if result.outcome is not None]
        deal = Deal(row.variant, row.seed, bool(options.get("autoplay", True)))
        placements = placements_from_results(counted, options.get("ranking", "moves"), _race_start(row))
        if counts_for_ratings(True, deal, finished) or row.id in rated_after:
            races.append(RaceToRate(row.id, placements))
    involved = sorted({result.player_id for played in results.values() for result in played})  # void ones too
    start = await _ratings_before(connection, variant, involved, since)
    rated, final = rerate(races, start)
    for chunk in _chunks(room_ids):
        await connection.execute(delete(changes).where(changes.c.room_id.in_(chunk)))
    rows = []
    for race, race_changes in rated:
        ranks = {placement.player_id: placement.rank for placement in race.placements}
        at = stamps.get(race.room_id) or candidates[race.room_id].finished_at
        rows += [_change_row(race.room_id, variant, change, ranks[change.player_id], at) for change in race_changes]
    for start_at in range(0, len(rows), IN_BATCH):
        await connection.execute(insert(changes), rows[start_at:start_at + IN_BATCH])
    await _set_ratings(connection, variant, involved, final, now)
    return len(races)


async def _ratings_before(connection: AsyncConnection, variant: str, player_ids: Sequence[str],
                          since: int | None) -> dict[tuple[str, Ladder], Rating]:  # fmt: skip
    """Each player's rating on each ladder after their last race before `since` (the ledger's rows before it)."""
    start: dict[tuple[str, Ladder], Rating] = {}
    if since is None:  # nothing rated from the first touched race on: the players' ratings now are the start
        for chunk in _chunks(player_ids):
            query = select(ratings).where(ratings.c.variant == variant, ratings.c.player_id.in_(chunk))
            for row in await connection.execute(query):
                start[(row.player_id, Ladder(row.ladder))] = Rating(row.mu, row.sigma, row.races)
        return start
    for chunk in _chunks(player_ids):
        last = (select(func.max(changes.c.id)).where(changes.c.variant == variant, changes.c.id < since,
                                                     changes.c.player_id.in_(chunk))
                .group_by(changes.c.player_id, changes.c.ladder))  # fmt: skip
        for row in await connection.execute(select(changes).where(changes.c.id.in_(last))):
            start[(row.player_id, Ladder(row.ladder))] = Rating(row.mu_after, row.sigma_after, row.races)
    return start


async def _set_ratings(connection: AsyncConnection, variant: str, player_ids: Sequence[str],
                       final: dict[tuple[str, Ladder], Rating], now: datetime) -> None:  # fmt: skip
    """The current ratings of these players made the recomputation's (a ladder they no longer have a race on
    loses their row)."""
    for chunk in _chunks(player_ids):
        await connection.execute(delete(ratings).where(ratings.c.variant == variant, ratings.c.player_id.in_(chunk)))
    chosen = set(player_ids)
    rows = [{"variant": variant, "ladder": str(ladder), "player_id": player_id, "mu": rating.mu,
             "sigma": rating.sigma, "ordinal": rating.ordinal, "races": rating.races, "updated_at": now}
            for (player_id, ladder), rating in sorted(final.items())
            if player_id in chosen and rating.races]  # fmt: skip
    if rows:
        await connection.execute(insert(ratings), rows)

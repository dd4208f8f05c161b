"""Ratings SQL: `core.records.ratings.RatingLedger` on SQLAlchemy Core, and the reads of the rating boards.

Several processes may share one PostgreSQL; a race is rated by whichever process settles it, and this module
keeps that exactly-once and in order without any process talking to another:

- a race's changes are written in one transaction that first looks for the room's changes (rated already:
  nothing to do) and then moves each player's rating only where `races` is still what the change was computed
  from (compare-and-set; SQLite serialises writers with BEGIN IMMEDIATE, PostgreSQL's row lock makes the
  second updater see the first one's row and match nothing);
- the unique (room, player, ladder) on `rating_changes` is the last line: two processes that both found the
  room unrated cannot both insert its changes;
- `rating_changes.id` numbers the changes in the order they were applied, per player the order of their
  ratings, which is the order the audit replays them in.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import and_, func, insert, literal_column, or_, select, tuple_, update
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from freecell_arena.core.moderation.sanctions import counted_placements, counted_results
from freecell_arena.core.ports.reads import RaceResult
from freecell_arena.core.records.race_ratings import (
    Deal,
    HistoryPoint,
    LeftUnrated,
    Position,
    RatingRow,
    UnratedBatch,
    counts_for_ratings,
)
from freecell_arena.core.records.ratings import Ladder, Placement, Rating, RatingChange, Recorded
from freecell_arena.core.records.sanctioned import Sanctions
from freecell_arena.store.engine import WRITE_OPTION
from freecell_arena.store.models import Game, Player, PlayerRating, Room, table_of
from freecell_arena.store.models import RatingChange as RatingChangeRow
from freecell_arena.store.sanction_reads import lock_ratings, log_head, marked_among, voided_in_rooms

ratings = table_of(PlayerRating)
games = table_of(Game)
rooms = table_of(Room)
changes = table_of(RatingChangeRow)
players = table_of(Player)
AUDIT_BATCH = 1000
RETRYABLE_SQLSTATES = frozenset({"40001", "40P01"})
"""PostgreSQL's serialization failure and deadlock: the transaction did nothing, and trying again is safe."""


class _Moved(Exception):
    """A rating moved since it was read: the transaction is rolled back and the caller computes again."""


@dataclass(frozen=True, slots=True)
class StoredRatedRace:
    """A rated race as the audit reads it: the room's stored results and the changes stored for it."""

    room_id: str
    variant: str
    ranking: str
    started_at: datetime
    """The race's start: the ranking rule it was played under (`core.records.ranking.ties_non_finishers`)."""
    results: tuple[RaceResult, ...]
    changes: tuple[tuple[RatingChange, int], ...]
    """Each stored change with the rank stored beside it, in the order applied."""


class RatingStore:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    # --- the ledger ------------------------------------------------------------------------------------

    async def current(self, variant: str, keys: Sequence[tuple[str, Ladder]]) -> dict[tuple[str, Ladder], Rating]:
        if not keys:
            return {}
        query = select(ratings.c.player_id, ratings.c.ladder, ratings.c.mu, ratings.c.sigma, ratings.c.races).where(
            ratings.c.variant == variant,
            tuple_(ratings.c.player_id, ratings.c.ladder).in_([(player, str(ladder)) for player, ladder in keys]),
        )
        async with self.engine.connect() as connection:
            found = (await connection.execute(query)).all()
        return {(row.player_id, Ladder(row.ladder)): Rating(row.mu, row.sigma, row.races) for row in found}

    async def counted(self, room_id: str, placements: Sequence[Placement]) -> tuple[int, tuple[Placement, ...]]:
        async with self.engine.connect() as connection:
            head = await log_head(connection)
            marked = await marked_among(connection, [placement.player_id for placement in placements])
            voided = (await voided_in_rooms(connection, [room_id])).get(room_id, set())
        return head, counted_placements(placements, voided, Sanctions(marked))

    async def record(self, room_id: str, variant: str, placements: Sequence[Placement],
                     applied: Sequence[RatingChange], at: datetime, counted_at: int = 0) -> Recorded:  # fmt: skip
        ranks = {placement.player_id: placement.rank for placement in placements}
        try:
            async with self.engine.connect() as connection:
                connection = await connection.execution_options(**{WRITE_OPTION: True})
                async with connection.begin():
                    await lock_ratings(connection, [variant])
                    if await _rated(connection, room_id):
                        return Recorded.ALREADY_RATED
                    if await log_head(connection) != counted_at:
                        return Recorded.CONFLICT  # a sanction since: count the race's players again
                    for change in sorted(applied, key=lambda change: (change.ladder, change.player_id)):
                        await _move_rating(connection, variant, change, at)  # one order: no deadlock between races
                    rows = [_change_row(room_id, variant, change, ranks[change.player_id], at) for change in applied]
                    if rows:
                        await connection.execute(insert(changes), rows)
        except (_Moved, IntegrityError):
            return Recorded.CONFLICT
        except DBAPIError as error:
            if getattr(error.orig, "sqlstate", None) in RETRYABLE_SQLSTATES:
                return Recorded.CONFLICT
            raise
        return Recorded.APPLIED

    # --- reads -----------------------------------------------------------------------------------------

    async def changes_of(self, room_id: str) -> list[RatingChange]:
        """The changes stored for a race (what `race_over` shows, whichever process rated it)."""
        async with self.engine.connect() as connection:
            found = (await connection.execute(select(changes).where(changes.c.room_id == room_id)
                                              .order_by(changes.c.id))).all()  # fmt: skip
        return [change_of(row) for row in found]

    async def top(self, variant: str, ladder: Ladder, limit: int) -> list[RatingRow]:
        query = _board(variant, ladder).limit(limit)
        async with self.engine.connect() as connection:
            return [_rating_row(position, row) for position, row in
                    enumerate((await connection.execute(query)).all(), start=1)]  # fmt: skip

    async def around(self, variant: str, ladder: Ladder, player_id: str, span: int) -> list[RatingRow]:
        """The player's row with up to `span` rows above and below it (nothing if the player has no rating)."""
        async with self.engine.connect() as connection:
            mine = (await connection.execute(select(ratings.c.ordinal).where(
                ratings.c.variant == variant, ratings.c.ladder == str(ladder), ratings.c.player_id == player_id,
            ))).scalar_one_or_none()  # fmt: skip
            if mine is None:
                return []
            ahead = or_(ratings.c.ordinal > mine, and_(ratings.c.ordinal == mine, ratings.c.player_id < player_id))
            better = (await connection.execute(select(func.count()).select_from(ratings).where(
                ratings.c.variant == variant, ratings.c.ladder == str(ladder), ahead))).scalar_one()  # fmt: skip
            first = max(0, int(better) - span)
            found = (await connection.execute(_board(variant, ladder).offset(first).limit(2 * span + 1))).all()
        return [_rating_row(first + number, row) for number, row in enumerate(found, start=1)]

    async def history(self, player_id: str, variant: str, ladder: Ladder, limit: int) -> list[HistoryPoint]:
        """The player's last `limit` changes on this ladder, oldest first (for the rating chart)."""
        query = (
            select(changes, rooms.c.code)
            .join(rooms, rooms.c.id == changes.c.room_id)
            .where(changes.c.player_id == player_id, changes.c.variant == variant, changes.c.ladder == str(ladder))
            .order_by(changes.c.id.desc())
            .limit(limit)
        )
        async with self.engine.connect() as connection:
            found = (await connection.execute(query)).all()
        return [HistoryPoint(row.room_id, row.rank, change_of(row).before, change_of(row).after, row.at, row.code)
                for row in reversed(found)]  # fmt: skip

    async def ratings_of(self, player_id: str, ladder: Ladder, variants: Sequence[str]) -> dict[str, Rating]:
        """Primary-key lookups (variant, ladder, player), one per variant asked for."""
        query = select(ratings.c.variant, ratings.c.mu, ratings.c.sigma, ratings.c.races).where(
            ratings.c.variant.in_(list(variants)), ratings.c.ladder == str(ladder), ratings.c.player_id == player_id)
        async with self.engine.connect() as connection:
            found = (await connection.execute(query)).all()
        return {row.variant: Rating(row.mu, row.sigma, row.races) for row in found}

    async def rated_races(self) -> AsyncIterator[StoredRatedRace]:
        """Every rated race in the order it was rated (by its first change's number: two races rated at the
        same time share no player, or one of them would have been refused), with its room's stored results."""
        after = 0
        while True:
            first = func.min(changes.c.id)
            batch = select(changes.c.room_id, first).group_by(changes.c.room_id).having(first > after)
            async with self.engine.connect() as connection:
                order = (await connection.execute(batch.order_by(first).limit(AUDIT_BATCH))).all()
                if not order:
                    return
                room_ids = [room_id for room_id, _ in order]
                stored = (await connection.execute(select(changes).where(changes.c.room_id.in_(room_ids))
                                                   .order_by(changes.c.id))).all()  # fmt: skip
                played = (await connection.execute(race_results_of(room_ids))).all()
                rooms_found = (await connection.execute(select(rooms.c.id, rooms.c.options, rooms.c.started_at,
                                                               rooms.c.finished_at)
                                                        .where(rooms.c.id.in_(room_ids)))).all()  # fmt: skip
            ranking = {row.id: (row.options or {}).get("ranking", "moves") for row in rooms_found}
            started = {row.id: _race_start(row) for row in rooms_found}
            for room_id in room_ids:
                mine = [row for row in stored if row.room_id == room_id]
                yield StoredRatedRace(
                    room_id, mine[0].variant, ranking.get(room_id, "moves"), started.get(room_id) or mine[0].at,
                    tuple(race_result(row) for row in played if row.room_id == room_id),
                    tuple((change_of(row), row.rank) for row in mine),
                )  # fmt: skip
            after = order[-1][1]


    async def unrated_races(self) -> AsyncIterator[str]:
        """The codes of finished races that should have been rated and were not (`left_unrated`), in batches: the
        audit's check that no race was left out (a process that died between storing a finish and rating it,
        and no sweep has rated it since). Only races finished since the first rated one: those before it were
        played before ratings went live."""
        live_since = await self.ratings_live_since()
        if live_since is None:
            return
        after: Position | None = None
        while True:
            batch = await self.left_unrated(live_since, None, after, AUDIT_BATCH)
            for race in batch.races:
                yield race.code
            if batch.last is None:
                return
            after = batch.last

    # --- races left unrated (core.competition.rating_recovery, and the audit) ---------------------------------------

    async def ratings_live_since(self) -> datetime | None:
        async with self.engine.connect() as connection:
            found: datetime | None = (await connection.execute(select(func.min(changes.c.at)))).scalar_one_or_none()
        return found

    async def left_unrated(self, since: datetime, before: datetime | None, after: Position | None,
                           limit: int) -> UnratedBatch:  # fmt: skip
        """A range of `ix_rooms_finished` (the literal status is its predicate), each room's changes looked for
        by the unique (room, player, ladder); the results of the rooms found, by `games.room_id`."""
        lowest = since if after is None else max(since, after[0])  # one lower bound: the index range starts there
        where = [rooms.c.status == literal_column("'finished'"), rooms.c.seed_chosen == False,  # noqa: E712
                 rooms.c.finished_at >= lowest, ~select(changes.c.id).where(changes.c.room_id == rooms.c.id).exists()]
        if before is not None:
            where.append(rooms.c.finished_at < before)
        if after is not None:
            where.append(or_(rooms.c.finished_at > after[0], rooms.c.id > after[1]))  # with `lowest`: the keyset
        query = (select(rooms.c.id, rooms.c.code, rooms.c.variant, rooms.c.seed, rooms.c.options, rooms.c.started_at,
                        rooms.c.finished_at).where(*where).order_by(rooms.c.finished_at, rooms.c.id).limit(limit))
        async with self.engine.connect() as connection:
            found = (await connection.execute(query)).all()
            played = (await connection.execute(race_results_of([row.id for row in found]))).all() if found else []
            voided = await voided_in_rooms(connection, [row.id for row in found])
            marked = await marked_among(connection, {result.player_id for result in played})
        results_in: dict[str, list[RaceResult]] = defaultdict(list)
        for result in played:
            results_in[result.room_id].append(race_result(result))
        races = []
        for row in found:
            options = row.options or {}
            results = counted_results(results_in[row.id], voided.get(row.id, ()), Sanctions(marked))
            finished = [(result.bot, result.cards_on_foundations) for result in results if result.outcome is not None]
            deal = Deal(row.variant, row.seed, bool(options.get("autoplay", True)))
            if counts_for_ratings(bool(options.get("ranked")), deal, finished):
                races.append(LeftUnrated(row.id, row.code, row.variant, row.seed, options.get("ranking", "moves"),
                                         deal.autoplay, results, _race_start(row), row.finished_at))  # fmt: skip
        last = (found[-1].finished_at, found[-1].id) if len(found) == limit else None
        return UnratedBatch(races, last)


def race_results() -> Any:
    """The games of races as their results (read with `race_result`), for a caller to narrow: the ratings', the
    audit's, a history's and a tournament's."""
    return (
        select(games.c.room_id, games.c.player_id, players.c.bot, games.c.outcome, games.c.player_moves,
               games.c.single_card_moves, games.c.cards_on_foundations, games.c.time_ms, games.c.flagged,
               games.c.id)
        .join(players, players.c.id == games.c.player_id)
    )  # fmt: skip


def race_results_of(room_ids: Sequence[str]) -> Any:
    """The games of these rooms as their race's results."""
    return race_results().where(games.c.room_id.in_(list(room_ids))).order_by(games.c.room_id, games.c.player_id)


def _race_start(row: Any) -> datetime:
    """When a finished room's race started, which dates its ranking rule (`core.records.ranking.ties_non_finishers`);
    its finish for a room stored without a start (written by hand: a race always starts before it ends)."""
    started: datetime = row.started_at or row.finished_at
    return started


def race_result(row: Any) -> RaceResult:
    return RaceResult(row.player_id, row.bot, row.outcome, row.player_moves or 0, row.single_card_moves or 0,
                      row.cards_on_foundations or 0, row.time_ms or 0, bool(row.flagged), row.id)  # fmt: skip


async def _rated(connection: AsyncConnection, room_id: str) -> bool:
    query = select(changes.c.id).where(changes.c.room_id == room_id).limit(1)
    return (await connection.execute(query)).first() is not None


async def _move_rating(connection: AsyncConnection, variant: str, change: RatingChange, at: datetime) -> None:
    values = {"mu": change.after.mu, "sigma": change.after.sigma, "ordinal": change.after.ordinal,
              "races": change.after.races, "updated_at": at}  # fmt: skip
    if change.before.races == 0:  # a first rating: the insert fails if another race gave one meanwhile
        await connection.execute(insert(ratings), [{"variant": variant, "ladder": str(change.ladder),
                                                    "player_id": change.player_id, **values}])  # fmt: skip
        return
    moved = await connection.execute(update(ratings).where(
        ratings.c.variant == variant, ratings.c.ladder == str(change.ladder), ratings.c.player_id == change.player_id,
        ratings.c.races == change.before.races, ratings.c.mu == change.before.mu,
        ratings.c.sigma == change.before.sigma,  # a sanction's recomputation may move mu and sigma, not races
    ).values(**values))  # fmt: skip
    if moved.rowcount != 1:
        raise _Moved


def _change_row(room_id: str, variant: str, change: RatingChange, rank: int, at: datetime) -> dict[str, Any]:
    return {"room_id": room_id, "variant": variant, "ladder": str(change.ladder), "player_id": change.player_id,
            "rank": rank, "mu_before": change.before.mu, "sigma_before": change.before.sigma,
            "mu_after": change.after.mu, "sigma_after": change.after.sigma, "races": change.after.races,
            "at": at}  # fmt: skip


def change_of(row: Any) -> RatingChange:
    before = Rating(row.mu_before, row.sigma_before, row.races - 1)
    return RatingChange(row.player_id, Ladder(row.ladder), before, Rating(row.mu_after, row.sigma_after, row.races))


def _board(variant: str, ladder: Ladder) -> Any:
    return (
        select(ratings.c.player_id, players.c.display_name, ratings.c.mu, ratings.c.sigma, ratings.c.races)
        .join(players, players.c.id == ratings.c.player_id)
        .where(ratings.c.variant == variant, ratings.c.ladder == str(ladder))
        .order_by(ratings.c.ordinal.desc(), ratings.c.player_id)
    )


def _rating_row(position: int, row: Any) -> RatingRow:
    return RatingRow(position, row.player_id, row.display_name, Rating(row.mu, row.sigma, row.races))

"""What the audit reads, in keyset batches so that a database of any size streams through in bounded memory."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import (
    Column,
    ColumnElement,
    Select,
    Text,
    and_,
    cast,
    exists,
    func,
    literal,
    literal_column,
    select,
    tuple_,
)
from sqlalchemy.ext.asyncio import AsyncEngine

from freecell_arena.core.moderation.sanctions import Act
from freecell_arena.core.ports.reads import RaceResult
from freecell_arena.core.ports.records import DailyRecord, StoredGame
from freecell_arena.core.records.audit import EntryFacts, GameFacts
from freecell_arena.core.records.audit_figures import DayRank, StoredRating, StoredSeasonLine
from freecell_arena.core.records.leaderboard import LEVEL_SHIFTS, daily_board
from freecell_arena.core.records.ratings import Ladder
from freecell_arena.core.records.review import ParStatus
from freecell_arena.core.records.season import SEASON_WINDOWS, BoardRow, FinalRank, SeasonLine, window_start
from freecell_arena.core.records.series_tally import Tally
from freecell_arena.engine import RULES_VERSION
from freecell_arena.store.dailies import daily_record
from freecell_arena.store.models import (
    Daily,
    DailyRank,
    DealPar,
    Game,
    LeaderboardCount,
    LeaderboardEntry,
    ModAction,
    Player,
    PlayerRating,
    Room,
    SeasonStanding,
    table_of,
)
from freecell_arena.store.ratings import race_result, race_results_of
from freecell_arena.store.stored_games import with_moves

games = table_of(Game)
players = table_of(Player)
entries = table_of(LeaderboardEntry)
counts = table_of(LeaderboardCount)
ratings = table_of(PlayerRating)
dailies = table_of(Daily)
daily_ranks = table_of(DailyRank)
seasons = table_of(SeasonStanding)
rooms = table_of(Room)
pars = table_of(DealPar)
mod_log = table_of(ModAction)
BOARD_ROW = (entries.c.player_id, entries.c.game_id, entries.c.player_moves, entries.c.time_ms, entries.c.finished_at,
             entries.c.score)  # fmt: skip
"""A daily board's entry as `core.records.season.BoardRow` (what its final ranks are computed from)."""
FINAL_RANK = (daily_ranks.c.player_id, daily_ranks.c.game_id, daily_ranks.c.rank, daily_ranks.c.player_moves,
              daily_ranks.c.time_ms, daily_ranks.c.moves_over_par)  # fmt: skip
"""A stored final rank as `core.records.season.FinalRank`."""
IN_A_SERIES = (rooms.c.series.is_not(None), cast(rooms.c.series, Text) != "null")
"""A room with a race-again tally (a room with none holds JSON null, or SQL NULL from before migration 0008)."""


def _entry(row: Any) -> EntryFacts:
    return EntryFacts(row.board, row.player_id, row.game_id, row.player_moves, row.time_ms, row.finished_at, row.score)


class AuditReads:
    def __init__(self, engine: AsyncEngine, batch: int = 500) -> None:
        self.engine = engine
        self.batch = batch

    async def ranked_games(self) -> AsyncIterator[list[tuple[StoredGame, bool, EntryFacts | None]]]:
        """Every finished ranked game with its moves, its player's bot flag and their entry on its board."""
        last = ""
        while True:
            async with self.engine.connect() as connection:
                query = (
                    select(games, players.c.bot.label("player_bot"))
                    .join(players, players.c.id == games.c.player_id)
                    .where(games.c.ranked.is_(True), games.c.outcome.is_not(None), games.c.id > last)
                    .order_by(games.c.id)
                    .limit(self.batch)
                )
                rows = (await connection.execute(query)).all()
                if not rows:
                    return
                stored = await with_moves(connection, rows)
                claims = {(row.board, row.player_id) for row in rows if row.board is not None}
                found: dict[tuple[str, str], EntryFacts] = {}
                if claims:
                    lookup = select(entries).where(tuple_(entries.c.board, entries.c.player_id).in_(sorted(claims)))
                    found = {(row.board, row.player_id): _entry(row) for row in await connection.execute(lookup)}
            yield [
                (game, bool(row.player_bot), found.get((row.board, row.player_id)))
                for game, row in zip(stored, rows, strict=True)
            ]
            last = rows[-1].id

    async def entries(self) -> AsyncIterator[list[tuple[EntryFacts, GameFacts | None]]]:
        last: tuple[str, str] = ("", "")
        while True:
            async with self.engine.connect() as connection:
                query = (
                    select(
                        entries,
                        games.c.id.label("g_id"),
                        games.c.player_id.label("g_player_id"),
                        games.c.board.label("g_board"),
                        games.c.ranked.label("g_ranked"),
                        games.c.outcome.label("g_outcome"),
                        games.c.player_moves.label("g_player_moves"),
                        games.c.time_ms.label("g_time_ms"),
                        games.c.finished_at.label("g_finished_at"),
                    )
                    .outerjoin(games, games.c.id == entries.c.game_id)
                    .where(tuple_(entries.c.board, entries.c.player_id) > tuple_(*last))
                    .order_by(entries.c.board, entries.c.player_id)
                    .limit(self.batch)
                )
                rows = (await connection.execute(query)).all()
            if not rows:
                return
            yield [(_entry(row), _game(row)) for row in rows]
            last = (rows[-1].board, rows[-1].player_id)

    async def count_mismatches(self) -> AsyncIterator[str]:
        """Count rows that disagree with the entries, both ways, level by level (each lookup an index range)."""
        for level, shift in enumerate(LEVEL_SHIFTS):
            async for line in self._stored_counts_wrong(level, shift):
                yield line
            async for line in self._counts_missing(level, shift):
                yield line

    async def _stored_counts_wrong(self, level: int, shift: int) -> AsyncIterator[str]:
        # an int constant: PostgreSQL shifts a bigint by an int only
        bits: ColumnElement[int] = literal_column(str(int(shift)))
        in_bucket = select(func.count()).where(
            entries.c.board == counts.c.board,
            entries.c.score >= counts.c.bucket.op("<<")(bits),
            entries.c.score < (counts.c.bucket + 1).op("<<")(bits),
        )
        actual = in_bucket.scalar_subquery()
        last: tuple[str, int] = ("", -1)
        while True:
            async with self.engine.connect() as connection:
                query = (
                    select(counts.c.board, counts.c.bucket, counts.c.entries, actual.label("actual"))
                    .where(counts.c.level == level, tuple_(counts.c.board, counts.c.bucket) > tuple_(*last))
                    .order_by(counts.c.board, counts.c.bucket)
                    .limit(self.batch)
                )
                rows = (await connection.execute(query)).all()
            if not rows:
                return
            for row in rows:
                if row.entries != row.actual:
                    yield (f"counts {row.board} level {level} bucket {row.bucket}: stored {row.entries}, "
                           f"the entries say {row.actual}")  # fmt: skip
            last = (rows[-1].board, rows[-1].bucket)

    async def _counts_missing(self, level: int, shift: int) -> AsyncIterator[str]:
        bucket = entries.c.score.op(">>")(literal_column(str(int(shift))))
        has_row = exists().where(and_(counts.c.board == entries.c.board, counts.c.level == level,
                                      counts.c.bucket == bucket))  # fmt: skip
        last: tuple[str, str] = ("", "")
        while True:
            async with self.engine.connect() as connection:
                query = (
                    select(entries.c.board, entries.c.player_id, bucket.label("bucket"), has_row.label("counted"))
                    .where(tuple_(entries.c.board, entries.c.player_id) > tuple_(*last))
                    .order_by(entries.c.board, entries.c.player_id)
                    .limit(self.batch)
                )
                rows = (await connection.execute(query)).all()
            if not rows:
                return
            for row in rows:
                if not row.counted:
                    yield f"counts {row.board} level {level} bucket {row.bucket}: missing (entry of {row.player_id})"
            last = (rows[-1].board, rows[-1].player_id)


def _game(row: Any) -> GameFacts | None:
    if row.g_id is None:
        return None
    return GameFacts(row.g_id, row.g_player_id, row.g_board, bool(row.g_ranked), row.g_outcome,
                     row.g_player_moves, row.g_time_ms, row.g_finished_at)  # fmt: skip


# --- the figures players see (core.records.audit_figures) -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ClosedDay:
    """A finalized daily: its par, and per population (bots False, True) its board's entries and stored ranks."""

    variant: str
    day: date
    par: int
    boards: dict[bool, tuple[list[BoardRow], list[FinalRank]]]


@dataclass(frozen=True, slots=True)
class SeasonFacts:
    """One season table as stored (any `through_day`), beside the final ranks of its window's days."""

    variant: str
    bots: bool
    days: int
    through: date | None
    ranks: list[DayRank]
    stored: list[StoredSeasonLine]


@dataclass(frozen=True, slots=True)
class SeriesFacts:
    """A race-again room's stored tally, and the previous room's id, tally, ranking, results and start."""

    code: str
    tally: Tally
    previous_id: str
    previous_tally: Tally | None
    ranking: str
    results: list[RaceResult]
    previous_started_at: datetime | None
    sanctioned: frozenset[str] = frozenset()
    """The previous race's players the mod log ever marked, or whose game in it it ever voided: those the tally
    may have left out (`Tally.uncounted`)."""


class FigureReads:
    """The stored figures players see, read beside what the audit recomputes them from, in keyset batches."""

    def __init__(self, engine: AsyncEngine, batch: int = 500) -> None:
        self.engine = engine
        self.batch = batch

    async def _batches(self, query: Select[Any], keys: Sequence[Column[Any]]) -> AsyncIterator[list[Any]]:
        """`query`'s rows in batches, ordered by `keys` and resumed after the last one read (keyset paging)."""
        last: tuple[Any, ...] | None = None
        while True:
            page = query.order_by(*keys).limit(self.batch)
            if last is not None:
                page = page.where(tuple_(*keys) > tuple_(*(literal(value) for value in last)))
            async with self.engine.connect() as connection:
                rows = (await connection.execute(page)).all()
            if not rows:
                return
            yield rows
            last = tuple(getattr(rows[-1], key.name) for key in keys)

    async def current_ratings(self) -> AsyncIterator[list[StoredRating]]:
        query = select(ratings)
        async for rows in self._batches(query, [ratings.c.variant, ratings.c.ladder, ratings.c.player_id]):
            yield [StoredRating(row.variant, Ladder(row.ladder), row.player_id, row.mu, row.sigma, row.ordinal,
                                row.races) for row in rows]  # fmt: skip

    async def closed_days(self) -> AsyncIterator[ClosedDay]:
        finalized = select(dailies.c.variant, dailies.c.day, dailies.c.par).where(dailies.c.finalized_at.is_not(None))
        async for rows in self._batches(finalized, [dailies.c.variant, dailies.c.day]):
            for row in rows:
                boards = {}
                async with self.engine.connect() as connection:
                    for bots in (False, True):
                        board = entries.c.board == daily_board(row.variant, row.day, bots)
                        found = await connection.execute(select(*BOARD_ROW).where(board))
                        mine = (daily_ranks.c.variant == row.variant, daily_ranks.c.day == row.day,
                                daily_ranks.c.bots == bots)  # fmt: skip
                        ranked = await connection.execute(select(*FINAL_RANK).where(*mine))
                        boards[bots] = ([BoardRow(*board_row) for board_row in found],
                                        [FinalRank(*rank) for rank in ranked])  # fmt: skip
                yield ClosedDay(row.variant, row.day, row.par, boards)

    async def ranks_of_open_days(self) -> list[str]:
        """Final ranks stored for a day that is not closed (no finalized daily of that variant and day)."""
        closed = select(dailies.c.variant).where(dailies.c.variant == daily_ranks.c.variant,
                                                 dailies.c.day == daily_ranks.c.day,
                                                 dailies.c.finalized_at.is_not(None))  # fmt: skip
        query = select(daily_ranks.c.variant, daily_ranks.c.day).where(~closed.exists()).distinct()
        async with self.engine.connect() as connection:
            found = (await connection.execute(query.order_by(daily_ranks.c.variant, daily_ranks.c.day))).all()
        return [f"daily {row.variant} {row.day}: final ranks are stored, but the day is not closed" for row in found]

    async def season_tables(self) -> AsyncIterator[SeasonFacts]:
        """Each variant's tables beside the final ranks through its last closed day (a variant with tables but no
        closed day: beside none)."""
        last_closed = dict(await self._all(select(dailies.c.variant, func.max(dailies.c.day))
                                           .where(dailies.c.finalized_at.is_not(None)).group_by(dailies.c.variant)))
        stored_variants = {row.variant for row in await self._all(select(seasons.c.variant).distinct())}
        for variant in sorted(last_closed.keys() | stored_variants):
            through = last_closed.get(variant)
            for bots in (False, True):
                ranks = await self._day_ranks(variant, bots, through) if through is not None else []
                for days in SEASON_WINDOWS:
                    table = select(seasons).where(seasons.c.variant == variant, seasons.c.bots == bots,
                                                  seasons.c.days == days)  # fmt: skip
                    stored = [StoredSeasonLine(row.through_day, SeasonLine(row.player_id, row.position, row.rank,
                                                                           row.wins, row.moves_over_par, row.rank_sum),
                                               row.average_rank) for row in await self._all(table)]  # fmt: skip
                    yield SeasonFacts(variant, bots, days, through, ranks, stored)

    async def _day_ranks(self, variant: str, bots: bool, through: date) -> list[DayRank]:
        """The final ranks of the longest season window through `through`."""
        window = daily_ranks.c.day.between(window_start(through, max(SEASON_WINDOWS)), through)
        query = select(daily_ranks.c.day, daily_ranks.c.player_id, daily_ranks.c.rank, daily_ranks.c.moves_over_par)
        where = (daily_ranks.c.variant == variant, daily_ranks.c.bots == bots, window)
        return [DayRank(*row) for row in await self._all(query.where(*where))]

    async def series_rooms(self) -> AsyncIterator[list[SeriesFacts]]:
        previous = rooms.alias("previous")
        query = (select(rooms.c.id, rooms.c.code, rooms.c.series, previous.c.id.label("previous_id"),
                        previous.c.series.label("previous_series"), previous.c.options.label("previous_options"),
                        previous.c.started_at.label("previous_started_at"))
                 .join(previous, previous.c.next_code == rooms.c.code)
                 .where(*IN_A_SERIES))  # fmt: skip
        async for rows in self._batches(query, [rooms.c.id]):
            played = await self._all(race_results_of([row.previous_id for row in rows]))
            results = [(result.room_id, race_result(result)) for result in played]
            sanctioned = await self._ever_sanctioned(results)
            yield [SeriesFacts(row.code, Tally.from_json(row.series), row.previous_id,
                               Tally.from_json(row.previous_series) if row.previous_series else None,
                               (row.previous_options or {}).get("ranking", "moves"),
                               [result for room_id, result in results if room_id == row.previous_id],
                               row.previous_started_at,
                               frozenset(result.player_id for room_id, result in results
                                         if room_id == row.previous_id and sanctioned(result)))
                   for row in rows]  # fmt: skip

    async def _ever_sanctioned(self, results: Sequence[tuple[str, RaceResult]]) -> Callable[[RaceResult], bool]:
        """Whether the mod log ever marked a result's player or voided its game (lifted since or not)."""
        player_ids = sorted({result.player_id for _, result in results})
        game_ids = sorted({result.game_id for _, result in results if result.game_id})
        marks = select(mod_log.c.target_id).where(mod_log.c.action == Act.MARK.value,
                                                  mod_log.c.target_id.in_(player_ids))  # fmt: skip
        voids = select(mod_log.c.game_id).where(mod_log.c.action == Act.VOID.value, mod_log.c.game_id.in_(game_ids))
        marked = {row.target_id for row in await self._all(marks)} if player_ids else set()
        voided = {row.game_id for row in await self._all(voids)} if game_ids else set()
        return lambda result: result.player_id in marked or result.game_id in voided

    async def orphan_series_rooms(self) -> list[str]:
        """Rooms that carry a series' tally but that no finished room points to: a tally from nowhere."""
        previous = rooms.alias("previous")
        pointed = select(previous.c.id).where(previous.c.next_code == rooms.c.code)
        found = await self._all(select(rooms.c.code).where(*IN_A_SERIES, ~pointed.exists())
                                .order_by(rooms.c.code))  # fmt: skip
        return [f"series room {row.code}: it carries a tally, but no room's race led to it" for row in found]

    async def solved_pars(self) -> AsyncIterator[list[tuple[str, int, list[str]]]]:
        query = select(pars.c.variant, pars.c.seed, pars.c.line).where(
            pars.c.status == str(ParStatus.SOLVED), pars.c.rules_version == RULES_VERSION)
        async for rows in self._batches(query, [pars.c.variant, pars.c.seed]):
            yield [(row.variant, row.seed, row.line.split()) for row in rows]

    async def daily_deals(self) -> AsyncIterator[list[DailyRecord]]:
        query = select(dailies).where(dailies.c.rules_version == RULES_VERSION)
        async for rows in self._batches(query, [dailies.c.variant, dailies.c.day]):
            yield [daily_record(row) for row in rows]

    async def _all(self, query: Any) -> list[Any]:
        async with self.engine.connect() as connection:
            return list((await connection.execute(query)).all())

"""`SqlStore`: the `Store` protocol on SQLAlchemy Core, for SQLite and PostgreSQL alike."""

from __future__ import annotations

from collections.abc import Awaitable, Sequence
from typing import Any, assert_never

from sqlalchemy import ColumnElement, Table, delete, insert, select, text, update
from sqlalchemy.exc import DBAPIError, IntegrityError, StatementError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from freecell_arena.core.ports.records import (
    PlayerRecord,
    Record,
    RoomRecord,
    StoredGame,
    StoredMember,
    StoredRoom,
)
from freecell_arena.store import leaderboards
from freecell_arena.store.accounts import AccountSqlStore
from freecell_arena.store.dailies import DailyStore
from freecell_arena.store.engine import WRITE_OPTION, create_engine
from freecell_arena.store.errors import RecordRefusedError
from freecell_arena.store.exports import ExportReads
from freecell_arena.store.history import HistoryReads
from freecell_arena.store.leaderboards import CountDeltas, LeaderboardReads
from freecell_arena.store.models import Game, Move, Player, QuickRoom, Room, RoomMember, table_of
from freecell_arena.store.moderation import ModerationStore
from freecell_arena.store.pars import ParStore
from freecell_arena.store.postgres_writer import PostgresWriter
from freecell_arena.store.profiles import ProfileStore
from freecell_arena.store.ratings import RatingStore
from freecell_arena.store.record_writes import RECORD_WRITES, Inserts, LeaderboardClaim, RowDelete, Write
from freecell_arena.store.row_updates import CountUp, RowUpdate
from freecell_arena.store.sanction_reads import marked_among, voided_in_rooms
from freecell_arena.store.seasons import SeasonReads
from freecell_arena.store.sqlite_writer import SqliteWriter
from freecell_arena.store.stored_games import with_moves
from freecell_arena.store.tournaments import TournamentStore

games = table_of(Game)
moves = table_of(Move)
players = table_of(Player)
rooms = table_of(Room)
room_members = table_of(RoomMember)
quick_rooms = table_of(QuickRoom)

LIVE_STATUSES = ("lobby", "countdown", "running")
"""Rooms some process must hold: a server picks them up when it starts."""


class SqlStore:
    """Durable storage on SQLite (`sqlite+aiosqlite:///file.db`) or PostgreSQL (`postgresql+asyncpg://...`).

    Plain `sqlite:///` and `postgresql://` URLs are accepted and mapped to the async drivers. The schema
    must exist: run `migrate(url)` first (or `check_migrated(url)` to refuse an old one).
    """

    def __init__(self, url: str, **engine_options: Any) -> None:
        self.engine: AsyncEngine = create_engine(url, **engine_options)
        self.leaderboards = LeaderboardReads(self.engine)
        self.dailies = DailyStore(self.engine)
        self.seasons = SeasonReads(self.engine)
        self.history = HistoryReads(self.engine)
        self.exports = ExportReads(self.engine)
        self.accounts = AccountSqlStore(self.engine)
        self.ratings = RatingStore(self.engine)
        self.pars = ParStore(self.engine)
        self.profiles = ProfileStore(self.engine)
        self.tournaments = TournamentStore(self.engine)
        self.moderation = ModerationStore(self.engine)
        self._direct_writer: SqliteWriter | PostgresWriter | None = None  # batches without a leaderboard claim
        if self.backend == "sqlite":
            path = self.engine.url.database
            assert path is not None  # parse_database_url refuses in-memory SQLite
            self._direct_writer = SqliteWriter(path, self.engine.dialect)
        elif self.backend == "postgresql":
            self._direct_writer = PostgresWriter(self.engine)
        self.commits = 0  # write transactions committed through SQLAlchemy (the direct writer counts its own)

    @property
    def backend(self) -> str:
        """`sqlite` or `postgresql`."""
        return self.engine.dialect.name

    # --- writing ---------------------------------------------------------------------------------------

    def write(self, records: Sequence[Record]) -> Awaitable[None]:
        """Make `records` durable in one transaction, in order; raise `RecordRefusedError` if any is refused
        (then none of them is kept). A direct writer's own awaitable when it takes them (no coroutine of this
        module on a move's awaiting chain)."""
        if records and self._direct_writer is not None and RECORD_WRITES.direct(records):
            return self._direct_writer.write(records)
        return self._write_batch(records)

    async def _write_batch(self, records: Sequence[Record]) -> None:
        if not records:
            return
        try:
            async with self.engine.connect() as connection:
                connection = await connection.execution_options(**{WRITE_OPTION: True})
                async with connection.begin():
                    deltas: CountDeltas = {}
                    for write in RECORD_WRITES.writes(records):
                        await _execute(connection, write, deltas)
                    await leaderboards.apply_counts(connection, deltas)
            self.commits += 1
        except IntegrityError as error:
            raise RecordRefusedError(f"record refused by the database: {error.orig}") from error
        except StatementError as error:
            if isinstance(error, DBAPIError) or not isinstance(error.orig, ValueError | TypeError):
                raise
            raise RecordRefusedError(f"record refused: {error.orig}") from error  # a value that cannot be stored

    # --- reading ---------------------------------------------------------------------------------------

    async def player_by_token_hash(self, token_hash: str) -> PlayerRecord | None:
        async with self.engine.connect() as connection:
            row = (await connection.execute(select(players).where(players.c.token_hash == token_hash))).first()
        return _player(row) if row else None

    async def player(self, player_id: str) -> PlayerRecord | None:
        async with self.engine.connect() as connection:
            row = (await connection.execute(select(players).where(players.c.id == player_id))).first()
        return _player(row) if row else None

    async def game(self, game_id: str) -> StoredGame | None:
        async with self.engine.connect() as connection:
            rows = (await connection.execute(select(games).where(games.c.id == game_id))).all()
            found = await with_moves(connection, rows)
        return found[0] if found else None

    async def unfinished_games(self, player_id: str) -> list[StoredGame]:
        async with self.engine.connect() as connection:
            query = (
                select(games)
                .where(games.c.player_id == player_id, games.c.outcome.is_(None))
                .order_by(games.c.started_at, games.c.id)
            )
            return await with_moves(connection, (await connection.execute(query)).all())

    async def room_by_code(self, code: str) -> StoredRoom | None:
        async with self.engine.connect() as connection:
            row = (await connection.execute(select(rooms).where(rooms.c.code == code))).first()
            return await _stored_room(connection, row) if row else None

    async def quick_room(self, variant: str) -> str | None:
        """The code of the variant's filling quick-race room, as the store has it (None: there never was one)."""
        async with self.engine.connect() as connection:
            query = select(quick_rooms.c.code).where(quick_rooms.c.variant == variant)
            code: str | None = (await connection.execute(query)).scalar()
        return code

    async def live_rooms(self) -> list[StoredRoom]:
        """Lobbies, countdowns and running races: a server picks them up when it starts (their timers fire,
        their members find them again)."""
        async with self.engine.connect() as connection:
            found = (await connection.execute(select(rooms).where(rooms.c.status.in_(LIVE_STATUSES)))).all()
            return [await _stored_room(connection, row) for row in found]

    async def room_versions(self, room_ids: Sequence[str]) -> dict[str, tuple[int, str]]:
        """The stored version (`seq`, tag) of each of these rooms, in one query (a cluster's check for lost
        events compares them with its copies)."""
        if not room_ids:
            return {}
        async with self.engine.connect() as connection:
            query = select(rooms.c.id, rooms.c.seq, rooms.c.version).where(rooms.c.id.in_(list(room_ids)))
            return {room_id: (seq, tag) for room_id, seq, tag in await connection.execute(query)}

    async def live_rooms_of(self, player_id: str) -> list[StoredRoom]:
        """The live rooms the player is a member of (a returning player finds their lobby on any process)."""
        async with self.engine.connect() as connection:
            query = (
                select(rooms)
                .join(room_members, room_members.c.room_id == rooms.c.id)
                .where(room_members.c.player_id == player_id, rooms.c.status.in_(LIVE_STATUSES))
            )
            return [await _stored_room(connection, row) for row in (await connection.execute(query)).all()]

    async def room(self, room_id: str) -> StoredRoom | None:
        async with self.engine.connect() as connection:
            row = (await connection.execute(select(rooms).where(rooms.c.id == room_id))).first()
            return await _stored_room(connection, row) if row else None

    async def uncounted_in_race(self, room_id: str) -> frozenset[str]:
        async with self.engine.connect() as connection:
            query = select(games.c.player_id).where(games.c.room_id == room_id)
            played = set((await connection.execute(query)).scalars())
            voided = (await voided_in_rooms(connection, [room_id])).get(room_id, set())
            return await marked_among(connection, played) | frozenset(voided)

    @property
    def transactions_committed(self) -> int:
        """Write transactions committed by this store, on either path."""
        return self.commits + (self._direct_writer.commits if self._direct_writer is not None else 0)

    async def ping(self) -> None:
        """Raise unless the database answers a query now (readiness: `GET /readyz`)."""
        async with self.engine.connect() as connection:
            await connection.execute(text("SELECT 1"))

    async def close(self) -> None:
        if self._direct_writer is not None:
            await self._direct_writer.close()
        await self.engine.dispose()


# --- writes -> statements -------------------------------------------------------------------------------


async def _execute(connection: AsyncConnection, write: Write, deltas: CountDeltas) -> None:
    """One of the batch's writes (`RECORD_WRITES`) as a Core statement (the direct writers' are built by
    `statements.StatementBuilder` from the same values)."""
    match write:
        case Inserts(table, rows):
            await connection.execute(insert(table), rows)
        case RowUpdate(table, values, where, refusal):
            result = await connection.execute(update(table).where(*_conditions(table, where)).values(**values))
            if result.rowcount != 1:
                raise RecordRefusedError(refusal)
        case CountUp(table, column, where, limit, refusal):
            counted = table.c[column]
            statement = update(table).where(*_conditions(table, where), counted < limit).values({column: counted + 1})
            if (await connection.execute(statement)).rowcount != 1:
                raise RecordRefusedError(refusal)
        case RowDelete(table, where):
            await connection.execute(delete(table).where(*_conditions(table, where)))
        case LeaderboardClaim(result):
            await leaderboards.claim(connection, result, deltas)
        case _:
            assert_never(write)


def _conditions(table: Table, where: dict[str, Any]) -> list[ColumnElement[bool]]:
    return [table.c[key].is_(None) if value is None else table.c[key] == value for key, value in where.items()]


# --- rows -> records -------------------------------------------------------------------------------------


def _player(row: Any) -> PlayerRecord:
    return PlayerRecord(row.id, row.display_name, row.token_hash, row.bot, row.created_at)


async def _stored_room(connection: AsyncConnection, row: Any) -> StoredRoom:
    query = select(games.c.id).where(games.c.room_id == row.id).order_by(games.c.started_at, games.c.id)
    game_ids = list((await connection.execute(query)).scalars())
    members_query = (
        select(room_members.c.player_id, room_members.c.role, room_members.c.joined_at)
        .where(room_members.c.room_id == row.id)
        .order_by(room_members.c.joined_at, room_members.c.player_id)
    )
    members = [StoredMember(*member) for member in await connection.execute(members_query)]
    room = RoomRecord(row.id, row.code, row.variant, row.seed, row.host_id, row.options, row.created_at,
                      row.seed_chosen, row.series, row.quick, row.seed_sealed_until)  # fmt: skip
    return StoredRoom(room, row.status, row.started_at, row.finished_at, game_ids, members, row.seq, row.version,
                      row.next_code)  # fmt: skip

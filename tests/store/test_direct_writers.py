"""The direct write paths (SQLite: one hop to a `sqlite3` connection in a thread; PostgreSQL: asyncpg on one kept
connection) store exactly what the SQLAlchemy path stores, refuse what it refuses, keep nothing of a refused
transaction, and carry on after the database failed, on each backend."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import timedelta
from typing import Any, get_args

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from store_builders import PARIS, T0, game, move, player, room

from freecell_arena.core.ports.records import (
    BoardClaim,
    DailyRecord,
    MemberLeftRecord,
    MemberRecord,
    NextRoomRecord,
    QuickRoomRecord,
    Record,
    ResultRecord,
    RoomStatusRecord,
    RoomVersion,
)
from freecell_arena.store import RecordRefusedError, SqlStore
from freecell_arena.store.record_writes import RECORD_WRITES

TABLES = ("players", "rooms", "room_members", "games", "moves")


def records() -> list[Record]:
    host = player(1)
    other = player(2, bot=True)
    lobby = room(1, host)
    first = game(1, host, lobby)
    daily = replace(game(2, other), daily_day=T0.date(), board="freecell:1:x", ranked=True)
    return [
        host,
        other,
        lobby,
        MemberRecord(lobby.room_id, host.player_id, "player", T0, RoomVersion(1, "joined-1", "")),
        MemberRecord(
            lobby.room_id, other.player_id, "spectator", T0.astimezone(PARIS), RoomVersion(2, "joined-2", "joined-1")
        ),
        MemberLeftRecord(lobby.room_id, host.player_id, other.player_id, RoomVersion(3, "left-3", "joined-2")),
        RoomStatusRecord(lobby.room_id, "running", T0.astimezone(PARIS)),
        first,
        daily,
        *[move(first, index) for index in range(3)],
        move(daily, 0, "t1-f"),
        replace(move(first, 3), at=(T0 + timedelta(microseconds=-123456)).astimezone(PARIS)),
        ResultRecord(first.game_id, "stuck", 4, 5, 6, 7_000, T0 + timedelta(minutes=1)),
        RoomStatusRecord(lobby.room_id, "finished", T0 + timedelta(minutes=2)),
    ]


async def dump(store: SqlStore) -> dict[str, list[tuple[object, ...]]]:
    async with store.engine.connect() as connection:
        return {
            table: [tuple(row) for row in await connection.execute(text(f"SELECT * FROM {table} ORDER BY 1, 2"))]
            for table in TABLES
        }


@pytest.fixture
async def both_paths(database_url: str, twin_database_url: str) -> AsyncIterator[tuple[SqlStore, SqlStore]]:
    """A store on its direct writer, and one on a twin database that writes every batch through SQLAlchemy (as it
    does a batch with a leaderboard claim)."""
    direct = SqlStore(database_url)
    plain = SqlStore(twin_database_url)
    plain._direct_writer = None
    yield direct, plain
    await direct.close()
    await plain.close()


async def test_both_paths_store_the_same_rows(both_paths: tuple[SqlStore, SqlStore]) -> None:
    direct, plain = both_paths
    for record in records():  # one transaction each
        await direct.write([record])
        await plain.write([record])
    assert direct.transactions_committed == len(records()) and direct.commits == 0
    assert plain.transactions_committed == plain.commits == len(records())
    stored = await direct.game(game(1).game_id)
    assert stored is not None and [m.at for m in stored.moves][:3] == [move(game(1), i).at for i in range(3)]
    rows = await dump(direct)
    assert rows == await dump(plain)
    assert rows["moves"] and rows["rooms"][0][6] == "finished"  # the status updates landed


def test_every_record_type_is_written_as_the_table_says() -> None:
    """One entry per record type (`RECORD_WRITES`): a record type without one would be refused by every path."""
    assert [record_type.__name__ for record_type in get_args(Record) if record_type not in RECORD_WRITES] == []


async def test_a_record_the_store_does_not_write_is_refused_on_both_paths(
    both_paths: tuple[SqlStore, SqlStore],
) -> None:
    """A daily's deal is stored by the daily store, not as a batch record: refused, and nothing of its batch kept."""
    owner = player()
    deal = DailyRecord("freecell", T0.date(), 7, 0, "n", "c", 50, (), "1", T0)
    for store in both_paths:
        unknown: Any = deal  # not a `Record`: what a caller outside the types might hand over
        with pytest.raises(RecordRefusedError, match=r"^not a storable record: DailyRecord$"):
            await store.write([owner, unknown])
        assert await store.player(owner.player_id) is None
    assert await dump(both_paths[0]) == await dump(both_paths[1])


async def test_claims_and_pointers_go_through_sqlalchemy_and_refusals_read_the_same_on_both_paths(
    both_paths: tuple[SqlStore, SqlStore],
) -> None:
    """A batch with a leaderboard claim or a pointer goes through SQLAlchemy on the store with a direct writer (its
    rows as the other store's); a refused compare-and-set of each kind says the same on both stores."""
    direct, plain = both_paths
    host = player(1)
    lobby, other = room(1, host), room(2, host)
    first = game(1, host, lobby)
    won = ResultRecord(first.game_id, "won", 4, 5, 52, 7_000, T0 + timedelta(minutes=1),
                       claim=BoardClaim("freecell:1:x", host.player_id))  # fmt: skip
    version = RoomVersion(1, "joined-1", "")
    setup = [host, lobby, other, MemberRecord(lobby.room_id, host.player_id, "player", T0, version), first]
    through_sqlalchemy: list[list[Record]] = [
        [move(first, 0), won],
        [NextRoomRecord(lobby.room_id, other.code)],
        [QuickRoomRecord("freecell", lobby.code, None)],
        [QuickRoomRecord("freecell", other.code, lobby.code)],
    ]
    refused: list[Record] = [
        MemberRecord(lobby.room_id, player(2).player_id, "player", T0, RoomVersion(2, "joined-2", "stale")),
        MemberLeftRecord(lobby.room_id, host.player_id, host.player_id, RoomVersion(2, "left-2", "stale")),
        RoomStatusRecord(lobby.room_id, "running", T0, RoomVersion(2, "run-2", "stale")),
        RoomStatusRecord("r_nope", "running", T0),
        ResultRecord(first.game_id, "stuck", 1, 1, 0, 1, T0),
        NextRoomRecord(lobby.room_id, "NEXT", None),
        QuickRoomRecord("freecell", lobby.code, "GONE"),
    ]
    for store in both_paths:
        await store.write(setup)
        commits = store.commits
        for batch in through_sqlalchemy:
            await store.write(batch)
        assert store.commits == commits + len(through_sqlalchemy)
    assert direct.transactions_committed - direct.commits == 1  # the setup alone went direct
    tables = ("quick_rooms", "leaderboard_entries", "leaderboard_counts")
    async with direct.engine.connect() as one, plain.engine.connect() as two:
        for table in tables:
            query = text(f"SELECT * FROM {table} ORDER BY 1, 2")
            assert [tuple(row) for row in await one.execute(query)] == [tuple(row) for row in await two.execute(query)]
    assert await dump(direct) == await dump(plain)
    for record in refused:
        messages = []
        for store in both_paths:
            with pytest.raises(RecordRefusedError) as refusal:
                await store.write([record])
            messages.append(str(refusal.value))
        assert messages[0] == messages[1], record
    assert await dump(direct) == await dump(plain)
    stored = await direct.room(lobby.room_id)
    assert stored is not None and stored.next_code == other.code and await direct.quick_room("freecell") == other.code


async def test_a_refused_record_keeps_nothing_of_its_transaction(store: SqlStore) -> None:
    owner = player()
    played = game(1, owner)
    await store.write([owner, played, move(played, 0)])
    with pytest.raises(RecordRefusedError):  # a stale writer's move index
        await store.write([move(played, 1), move(played, 0)])
    with pytest.raises(RecordRefusedError):  # a naive datetime is refused, not shifted
        await store.write([move(played, 1), replace(move(played, 2), at=T0.replace(tzinfo=None))])
    with pytest.raises(RecordRefusedError):  # a result for an unknown game
        await store.write([move(played, 1), ResultRecord("g_nope", "stuck", 1, 1, 0, 1, T0)])
    with pytest.raises(RecordRefusedError):  # a status for an unknown room
        await store.write([move(played, 1), RoomStatusRecord("r_nope", "running", T0)])
    with pytest.raises(RecordRefusedError):  # a move of an unknown game
        await store.write([move(played, 1), move(game(9, owner), 0)])
    await store.write([move(played, 1)])  # the writer carries on
    stored = await store.game(played.game_id)
    assert stored is not None and [m.index for m in stored.moves] == [0, 1]


async def test_a_broken_database_is_a_dbapi_error_and_the_writer_recovers(store: SqlStore) -> None:
    owner = player()
    await store.write([player(7)])  # the direct writer has its connection (and its statements) by now
    async with store.engine.begin() as connection:
        await connection.execute(text("ALTER TABLE players RENAME TO players_away"))
    with pytest.raises(DBAPIError):
        await store.write([owner])
    async with store.engine.begin() as connection:
        await connection.execute(text("ALTER TABLE players_away RENAME TO players"))
    await store.write([owner])
    assert await store.player(owner.player_id) == owner


async def test_a_large_batch_is_stored_whole_and_a_late_duplicate_keeps_none_of_it(
    both_paths: tuple[SqlStore, SqlStore],
) -> None:
    """A group commit of 301 moves: every row stored as the SQLAlchemy path stores it; a duplicate as the 301st
    row refuses the whole transaction, the 300 before it included, on both paths."""
    direct, plain = both_paths
    owner = player()
    played = game(1, owner)
    batch = [replace(move(played, index, f"{index % 8 + 1}a"), at=T0 + timedelta(milliseconds=index))
             for index in range(301)]
    for store in (direct, plain):
        await store.write([owner, played])
        with pytest.raises(RecordRefusedError):
            await store.write([*batch[:300], batch[7]])
        stored = await store.game(played.game_id)
        assert stored is not None and stored.moves == []
        await store.write(batch)
    stored = await direct.game(played.game_id)
    assert stored is not None and [m.index for m in stored.moves] == list(range(301))
    rows = await dump(direct)
    assert rows == await dump(plain) and len(rows["moves"]) == 301


@pytest.mark.parametrize("database_url", [pytest.param("postgres", marks=pytest.mark.postgres)], indirect=True)
async def test_a_write_connection_the_server_dropped_fails_one_batch_and_the_next_reconnects(store: SqlStore) -> None:
    owner = player()
    played = game(1, owner)
    await store.write([owner, played])
    await asyncio.gather(*(store.player(owner.player_id) for _ in range(3)))  # idle connections in the pool
    async with store.engine.connect() as connection:  # as a PostgreSQL restart or an admin would
        await connection.execute(text(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ))
    with pytest.raises(DBAPIError):
        await store.write([move(played, 0)])
    await store.write([move(played, 0), move(played, 1)])  # nothing of the failed batch was kept
    stored = await store.game(played.game_id)  # and the reads get live connections too
    assert stored is not None and [m.index for m in stored.moves] == [0, 1]


async def test_a_write_cancelled_midway_is_all_or_nothing_and_the_next_write_goes_through(store: SqlStore) -> None:
    """Cancelled at several moments of a 5,000-row write (on PostgreSQL one of them falls while asyncpg waits to
    send more rows, where it swallowed the cancellation and the write hung: 3 hangs in 3 runs before the fix):
    each write is all or nothing, and the writer goes on."""
    owner = player()
    await store.write([owner])
    async with asyncio.timeout(60):
        for number, delay in enumerate((0.001, 0.002, 0.005, 0.01, 0.02), start=1):
            played = game(number, owner)
            await store.write([played])
            batch = [move(played, index) for index in range(5_000)]
            task = asyncio.ensure_future(store.write(batch))
            await asyncio.sleep(delay)  # the transaction is under way
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            await store.write([player(100 + number)])  # after the cancelled one (SQLite's thread may finish it)
            stored = await store.game(played.game_id)
            assert stored is not None and len(stored.moves) in (0, 5_000)
            done = len(stored.moves)
            await store.write([move(played, done)])
            stored = await store.game(played.game_id)
            assert stored is not None and [m.index for m in stored.moves] == list(range(done + 1))

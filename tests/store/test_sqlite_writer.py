"""The SQLite writer (the group commit's transaction in one hop to its own `sqlite3` connection) stores exactly
what the SQLAlchemy path stores, refuses what it refuses, and keeps nothing of a refused transaction."""

from __future__ import annotations

import shutil
import sqlite3
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy.exc import DBAPIError
from store_builders import PARIS, T0, game, move, player, room

from server.core.ports import Record, ResultRecord, RoomStatusRecord
from server.store import RecordRefusedError, SqlStore

TABLES = ("players", "rooms", "games", "moves")


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
        RoomStatusRecord(lobby.room_id, "running", T0.astimezone(PARIS)),
        first,
        daily,
        *[move(first, index) for index in range(3)],
        move(daily, 0, "t1-f"),
        replace(move(first, 3), at=(T0 + timedelta(microseconds=-123456)).astimezone(PARIS)),
        ResultRecord(first.game_id, "stuck", 4, 5, 6, 7_000, T0 + timedelta(minutes=1)),
        RoomStatusRecord(lobby.room_id, "finished", T0 + timedelta(minutes=2)),
    ]


def dump(path: Path) -> dict[str, list[tuple[object, ...]]]:
    with sqlite3.connect(path) as connection:
        return {table: connection.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall() for table in TABLES}


def sqlite_path(url: str) -> Path:
    return Path(url.removeprefix("sqlite+aiosqlite:///"))


# The SQLite writer is SQLite's: the backend-parametrized database fixture runs on SQLite only here.
pytestmark = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)


@pytest.fixture
def sqlite_url(database_url: str) -> str:
    assert database_url.startswith("sqlite")
    return database_url


async def test_both_paths_store_the_same_rows(sqlite_url: str, tmp_path: Path) -> None:
    through_writer = sqlite_path(sqlite_url)
    through_sqlalchemy = tmp_path / "sqlalchemy.db"
    shutil.copyfile(through_writer, through_sqlalchemy)
    direct = SqlStore(sqlite_url)
    plain = SqlStore(f"sqlite+aiosqlite:///{through_sqlalchemy}")
    plain._sqlite_writer = None  # the SQLAlchemy path, as for a batch with a leaderboard claim
    try:
        for record in records():  # one transaction each, then all in one
            await direct.write([record])
            await plain.write([record])
        assert direct.transactions_committed == len(records())
        assert plain.transactions_committed == len(records())
        stored = await direct.game(game(1).game_id)
        assert stored is not None and [m.at for m in stored.moves][:3] == [move(game(1), i).at for i in range(3)]
    finally:
        await direct.close()
        await plain.close()
    assert dump(through_writer) == dump(through_sqlalchemy)
    assert dump(through_writer)["moves"]


async def test_a_refused_record_keeps_nothing_of_its_transaction(sqlite_url: str) -> None:
    store = SqlStore(sqlite_url)
    owner = player()
    played = game(1, owner)
    try:
        await store.write([owner, played, move(played, 0)])
        with pytest.raises(RecordRefusedError):  # a stale writer's move index
            await store.write([move(played, 1), move(played, 0)])
        with pytest.raises(RecordRefusedError):  # a naive datetime is refused, not shifted
            await store.write([move(played, 1), replace(move(played, 2), at=T0.replace(tzinfo=None))])
        with pytest.raises(RecordRefusedError):  # a result for an unknown game
            await store.write([move(played, 1), ResultRecord("g_nope", "stuck", 1, 1, 0, 1, T0)])
        with pytest.raises(RecordRefusedError):  # a status for an unknown room
            await store.write([move(played, 1), RoomStatusRecord("r_nope", "running", T0)])
        await store.write([move(played, 1)])  # the writer carries on
        stored = await store.game(played.game_id)
        assert stored is not None and [m.index for m in stored.moves] == [0, 1]
    finally:
        await store.close()


async def test_a_broken_database_is_a_dbapi_error_and_the_writer_recovers(sqlite_url: str) -> None:
    store = SqlStore(sqlite_url)
    owner = player()
    try:
        with sqlite3.connect(sqlite_path(sqlite_url)) as connection:
            connection.execute("ALTER TABLE players RENAME TO players_away")
        with pytest.raises(DBAPIError):
            await store.write([owner])
        with sqlite3.connect(sqlite_path(sqlite_url)) as connection:
            connection.execute("ALTER TABLE players_away RENAME TO players")
        await store.write([owner])
        assert await store.player(owner.player_id) == owner
    finally:
        await store.close()


async def test_a_large_batch_is_stored_whole_and_a_late_duplicate_keeps_none_of_it(
    sqlite_url: str, tmp_path: Path
) -> None:
    """A group commit of 301 moves: every row stored as the SQLAlchemy path stores it; a duplicate as the 301st
    row refuses the whole transaction, the 300 before it included, on both paths."""
    through_writer = sqlite_path(sqlite_url)
    through_sqlalchemy = tmp_path / "sqlalchemy.db"
    shutil.copyfile(through_writer, through_sqlalchemy)
    direct = SqlStore(sqlite_url)
    plain = SqlStore(f"sqlite+aiosqlite:///{through_sqlalchemy}")
    plain._sqlite_writer = None
    owner = player()
    played = game(1, owner)
    batch = [replace(move(played, index, f"{index % 8 + 1}a"), at=T0 + timedelta(milliseconds=index))
             for index in range(301)]
    try:
        for store in (direct, plain):
            await store.write([owner, played])
            with pytest.raises(RecordRefusedError):
                await store.write([*batch[:300], batch[7]])
            stored = await store.game(played.game_id)
            assert stored is not None and stored.moves == []
            await store.write(batch)
        stored = await direct.game(played.game_id)
        assert stored is not None and [m.index for m in stored.moves] == list(range(301))
    finally:
        await direct.close()
        await plain.close()
    assert dump(through_writer) == dump(through_sqlalchemy)
    assert len(dump(through_writer)["moves"]) == 301

"""The reads the server makes are index lookups, never table scans, on both backends.

The statements are the ones SqlStore really sends (captured with an engine event), explained by the database.
PostgreSQL prefers a sequential scan on tiny tables, so there sequential scans are disabled for the check:
what is tested is that an index that serves the query exists.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import event, pool
from store_builders import T0, game, move, player, room

from freecell_arena.core.ports.records import RoomStatusRecord
from freecell_arena.core.records.ratings import Ladder
from freecell_arena.store import SqlStore
from freecell_arena.store.engine import create_engine
from freecell_arena.store.retention import Retention, RetentionStore


async def test_every_read_is_an_index_lookup(database_url: str) -> None:
    host = player()
    created = room(1, host)
    played = game(1, host, created)
    store = SqlStore(database_url)
    await store.write([host, created, played, move(played, 0)])

    statements = capture_selects(store)
    await store.player_by_token_hash(host.token_hash)
    await store.player(host.player_id)
    await store.game(played.game_id)
    await store.unfinished_games(host.player_id)
    await store.room_by_code(created.code)
    await store.room(created.room_id)
    await store.ratings.top("freecell", Ladder.HUMANS, 10)
    await store.ratings.history(host.player_id, "freecell", Ladder.HUMANS, 10)
    await store.ratings.ratings_of(host.player_id, Ladder.HUMANS, ["freecell", "cell-eleven"])
    await store.ratings.changes_of(created.room_id)
    await store.profiles.variant_stats(host.player_id)
    await store.history.race_facts(host.player_id, [created.room_id])
    await store.profiles.daily_days(host.player_id, "freecell")
    await store.profiles.practice_days(host.player_id, "freecell", T0.date(), T0.date() + timedelta(days=29))
    await store.write([RoomStatusRecord(created.room_id, "finished", T0)])
    await store.ratings.left_unrated(T0, T0 + timedelta(hours=1), None, 10)  # the rating sweep's window
    await store.ratings.left_unrated(T0 - timedelta(hours=1), None, (T0 - timedelta(minutes=1), "r_"), 10)
    await store.close()
    assert len(statements) >= 8

    await assert_index_lookups(database_url, statements)


async def assert_index_lookups(database_url: str, statements: list[tuple[str, Any]],
                               may_scan: tuple[str, ...] = ()) -> None:  # fmt: skip
    """Each statement reads its tables through indexes (but those of `may_scan`)."""
    engine = create_engine(database_url, poolclass=pool.NullPool)
    async with engine.connect() as connection:
        postgres = engine.dialect.name == "postgresql"
        if postgres:
            await connection.exec_driver_sql("SET enable_seqscan = off")
        for statement, parameters in statements:
            explain = "EXPLAIN " if postgres else "EXPLAIN QUERY PLAN "
            rows = (await connection.exec_driver_sql(explain + statement, parameters)).all()
            plan = [str(row[-1]) for row in rows]
            scans = [line for line in plan if ("Seq Scan" if postgres else "SCAN ") in line.replace("SEARCH", "")
                     and not any(f" {table}" in line for table in may_scan)]  # fmt: skip
            assert not scans, f"{statement}\n" + "\n".join(plan)
    await engine.dispose()


def capture_selects(store: SqlStore) -> list[tuple[str, Any]]:
    """The SELECT statements the store sends from now on (with their parameters)."""
    statements: list[tuple[str, Any]] = []

    def capture(_conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any, _many: bool) -> None:
        if statement.lstrip().upper().startswith("SELECT"):
            statements.append((statement, parameters))

    event.listen(store.engine.sync_engine, "before_cursor_execute", capture)
    return statements


async def test_prune_looks_players_and_their_rooms_up_by_index(database_url: str) -> None:
    """`freecell-arena prune` walks the players once; everything it asks about each is an index lookup (without
    migration 0010's indexes on the foreign keys, each would scan games or rooms once per player)."""
    drifter = player(1)
    alone = room(1, drifter)
    played = game(1, drifter, alone)
    store = SqlStore(database_url)
    await store.write([drifter, alone, played, move(played, 0)])
    statements = capture_selects(store)
    later = T0 + timedelta(days=60)
    await RetentionStore(store.engine).prune(Retention(later, timedelta(days=30), timedelta(days=90)), dry_run=True)
    await store.close()
    assert any("FROM players" in statement for statement, _ in statements)
    # quick_rooms holds a row a variant; access_tokens is scanned once a run, for the long-revoked ones
    await assert_index_lookups(database_url, statements, may_scan=("quick_rooms", "access_tokens"))
